#include "model/values/ascii_text.h"

#include <algorithm>
#include <cctype>

namespace skipsound {

namespace {

char lower_char(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }
char upper_char(char c) { return static_cast<char>(std::toupper(static_cast<unsigned char>(c))); }
bool is_space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

}  // namespace

std::string ascii_lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(), lower_char);
  return out;
}

std::string ascii_upper(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(), upper_char);
  return out;
}

bool ascii_iequals(std::string_view a, std::string_view b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                    [](char x, char y) { return lower_char(x) == lower_char(y); });
}

std::string trim_whitespace(std::string_view text) {
  size_t begin = 0, end = text.size();
  while (begin < end && is_space(text[begin])) ++begin;
  while (end > begin && is_space(text[end - 1])) --end;
  return std::string(text.substr(begin, end - begin));
}

}  // namespace skipsound
