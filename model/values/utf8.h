// UTF-8 validation and code-point access (strings are UTF-8 byte strings throughout).
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace skipsound {

// Well-formed UTF-8: shortest forms only, no surrogates, nothing above U+10FFFF.
bool is_valid_utf8(std::string_view bytes);
// Offset of the first byte that breaks well-formed UTF-8 (the lead byte of a truncated sequence).
std::optional<size_t> first_invalid_utf8_byte(std::string_view bytes);
// Bytes 10xxxxxx continue a multi-byte sequence; every other byte starts a code point.
inline bool is_utf8_continuation(char byte) { return (static_cast<unsigned char>(byte) & 0xC0) == 0x80; }
// Code points in valid UTF-8 (counts lead bytes, so it needs no decoding).
size_t code_point_count(std::string_view utf8);
// Code points of valid UTF-8 (callers validate first; a bad byte decodes as U+FFFD).
std::vector<char32_t> decode_utf8(std::string_view utf8);
std::string encode_utf8(const std::vector<char32_t>& code_points);
void append_utf8(std::string& out, char32_t code_point);

// The smallest string above every string that starts with `prefix` (code-point order), or
// nullopt when there is none (the prefix is all U+10FFFF). Strings starting with p are then
// exactly [p, prefix_successor(p)).
std::optional<std::string> prefix_successor(std::string_view prefix);

}  // namespace skipsound
