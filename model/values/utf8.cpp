#include "model/values/utf8.h"

#include <algorithm>

namespace skipsound {

namespace {

// Length of the well-formed sequence at `i` (Unicode's table of well-formed byte sequences: no
// overlong forms, no surrogates, nothing above U+10FFFF), or 0 with `bad_at` set to the first byte
// that breaks it (the lead byte when the text ends inside the sequence).
size_t well_formed_length(std::string_view s, size_t i, size_t& bad_at) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char lead = byte(i);
  size_t length = 0;
  unsigned char low = 0x80, high = 0xBF;  // allowed range of the second byte
  if (lead < 0x80) return 1;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) low = 0xA0;   // shorter forms would be overlong
    if (lead == 0xED) high = 0x9F;  // U+D800..U+DFFF are surrogates
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) low = 0x90;   // overlong
    if (lead == 0xF4) high = 0x8F;  // above U+10FFFF
  } else {
    bad_at = i;
    return 0;
  }
  for (size_t k = 1; k < length; ++k) {
    if (i + k >= s.size()) {
      bad_at = i;
      return 0;
    }
    const unsigned char lo = k == 1 ? low : 0x80, hi = k == 1 ? high : 0xBF;
    if (byte(i + k) < lo || byte(i + k) > hi) {
      bad_at = i + k;
      return 0;
    }
  }
  return length;
}

char32_t decode_sequence(std::string_view s, size_t i, size_t length) {
  const auto lead = static_cast<unsigned char>(s[i]);
  if (length == 1) return lead;
  char32_t cp = lead & (0x7F >> length);
  for (size_t k = 1; k < length; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
  return cp;
}

}  // namespace

std::optional<size_t> first_invalid_utf8_byte(std::string_view bytes) {
  size_t bad_at = 0;
  for (size_t i = 0; i < bytes.size();) {
    const size_t n = well_formed_length(bytes, i, bad_at);
    if (n == 0) return bad_at;
    i += n;
  }
  return std::nullopt;
}

bool is_valid_utf8(std::string_view bytes) { return !first_invalid_utf8_byte(bytes); }

size_t code_point_count(std::string_view utf8) {
  return static_cast<size_t>(std::count_if(utf8.begin(), utf8.end(), [](char c) { return !is_utf8_continuation(c); }));
}

std::vector<char32_t> decode_utf8(std::string_view utf8) {
  std::vector<char32_t> out;
  for (size_t i = 0; i < utf8.size();) {
    size_t bad_at = 0;
    const size_t n = well_formed_length(utf8, i, bad_at);
    out.push_back(n == 0 ? 0xFFFD : decode_sequence(utf8, i, n));
    i += n == 0 ? 1 : n;
  }
  return out;
}

void append_utf8(std::string& out, char32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

std::string encode_utf8(const std::vector<char32_t>& code_points) {
  std::string out;
  for (char32_t cp : code_points) append_utf8(out, cp);
  return out;
}

std::optional<std::string> prefix_successor(std::string_view prefix) {
  constexpr char32_t kTopCodePoint = 0x10FFFF;
  constexpr char32_t kLastBeforeSurrogates = 0xD7FF;
  constexpr char32_t kFirstAfterSurrogates = 0xE000;
  std::vector<char32_t> cps = decode_utf8(prefix);
  while (!cps.empty() && cps.back() == kTopCodePoint) cps.pop_back();
  if (cps.empty()) return std::nullopt;
  cps.back() = cps.back() == kLastBeforeSurrogates ? kFirstAfterSurrogates : cps.back() + 1;
  return encode_utf8(cps);
}

}  // namespace skipsound
