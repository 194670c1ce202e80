// Numbers as reports print them, one way for skipsound and its tools.
#pragma once
#include <string>

namespace skipsound {

// `v` with `digits` digits after the point: fixed(2.345, 1) is "2.3".
std::string fixed(double v, int digits);

}  // namespace skipsound
