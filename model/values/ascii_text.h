// Case and whitespace handling for identifiers, keywords and settings. Spark and Delta compare
// column names and keywords ASCII-case-insensitively; data values are never folded here.
#pragma once
#include <string>
#include <string_view>

namespace skipsound {

std::string ascii_lower(std::string_view text);
std::string ascii_upper(std::string_view text);
bool ascii_iequals(std::string_view a, std::string_view b);
// Without leading and trailing whitespace (space, \t, \n, \v, \f, \r).
std::string trim_whitespace(std::string_view text);

}  // namespace skipsound
