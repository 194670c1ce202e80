#include "common/number_text.h"

#include <cstdio>

namespace skipsound {

std::string fixed(double v, int digits) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", digits, v);
  return buffer;
}

}  // namespace skipsound
