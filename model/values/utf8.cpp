#include "model/values/utf8.h"

namespace skipsound {

namespace {

// Length of the sequence starting at `i` and its code point, or 0 when malformed.
size_t read_code_point(std::string_view s, size_t i, char32_t& out) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char lead = byte(i);
  size_t length;
  char32_t cp;
  char32_t min;
  if (lead < 0x80) {
    out = lead;
    return 1;
  } else if ((lead & 0xE0) == 0xC0) {
    length = 2, cp = lead & 0x1F, min = 0x80;
  } else if ((lead & 0xF0) == 0xE0) {
    length = 3, cp = lead & 0x0F, min = 0x800;
  } else if ((lead & 0xF8) == 0xF0) {
    length = 4, cp = lead & 0x07, min = 0x10000;
  } else {
    return 0;
  }
  if (i + length > s.size()) return 0;
  for (size_t k = 1; k < length; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (byte(i + k) & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  out = cp;
  return length;
}

}  // namespace

bool is_valid_utf8(std::string_view bytes) {
  char32_t ignored;
  for (size_t i = 0; i < bytes.size();) {
    const size_t n = read_code_point(bytes, i, ignored);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

std::vector<char32_t> decode_utf8(std::string_view utf8) {
  std::vector<char32_t> out;
  for (size_t i = 0; i < utf8.size();) {
    char32_t cp;
    const size_t n = read_code_point(utf8, i, cp);
    out.push_back(n == 0 ? 0xFFFD : cp);
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
