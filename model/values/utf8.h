// UTF-8 validation and code-point access (strings are UTF-8 byte strings throughout).
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace skipsound {

// Well-formed UTF-8: shortest forms only, no surrogates, nothing above U+10FFFF.
bool is_valid_utf8(std::string_view bytes);
// Code points of valid UTF-8 (callers validate first; a bad byte decodes as U+FFFD).
std::vector<char32_t> decode_utf8(std::string_view utf8);
std::string encode_utf8(const std::vector<char32_t>& code_points);
void append_utf8(std::string& out, char32_t code_point);

}  // namespace skipsound
