#include "model/string_truncation.h"

#include <algorithm>
#include <cstdint>

#include "model/input_error.h"

namespace skipsound {
namespace {

constexpr char16_t kAsciiMax = 0x7F;
// U+10FFFF, the largest code point, as a UTF-16 surrogate pair.
constexpr char16_t kMaxHigh = 0xDBFF;
constexpr char16_t kMaxLow = 0xDFFF;

bool is_continuation(unsigned char c) { return (c & 0xC0) == 0x80; }

// Decodes one code point at `pos`, advancing it. Throws on malformed UTF-8: a bound computed
// from garbage would not be a bound.
char32_t decode_utf8(std::string_view s, size_t& pos) {
  const auto lead = static_cast<unsigned char>(s[pos]);
  int extra = 0;
  char32_t cp = 0;
  if (lead < 0x80) {
    cp = lead;
  } else if ((lead & 0xE0) == 0xC0) {
    extra = 1, cp = lead & 0x1F;
  } else if ((lead & 0xF0) == 0xE0) {
    extra = 2, cp = lead & 0x0F;
  } else if ((lead & 0xF8) == 0xF0) {
    extra = 3, cp = lead & 0x07;
  } else {
    throw InputError("string value is not valid UTF-8 (bad lead byte)");
  }
  if (pos + extra >= s.size()) {
    throw InputError("string value is not valid UTF-8 (truncated sequence)");
  }
  for (int i = 1; i <= extra; ++i) {
    const auto c = static_cast<unsigned char>(s[pos + i]);
    if (!is_continuation(c)) throw InputError("string value is not valid UTF-8");
    cp = (cp << 6) | (c & 0x3F);
  }
  static constexpr char32_t kMinForLength[] = {0, 0x80, 0x800, 0x10000};
  if (cp < kMinForLength[extra] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
    throw InputError("string value is not valid UTF-8 (overlong or out of range)");
  }
  pos += extra + 1;
  return cp;
}

std::u16string utf8_to_utf16(std::string_view s) {
  std::u16string out;
  for (size_t pos = 0; pos < s.size();) {
    const char32_t cp = decode_utf8(s, pos);
    if (cp < 0x10000) {
      out.push_back(static_cast<char16_t>(cp));
    } else {
      out.push_back(static_cast<char16_t>(0xD800 + ((cp - 0x10000) >> 10)));
      out.push_back(static_cast<char16_t>(0xDC00 + ((cp - 0x10000) & 0x3FF)));
    }
  }
  return out;
}

void append_utf8(std::string& out, char32_t cp) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

bool is_high_surrogate(char16_t u) { return u >= 0xD800 && u <= 0xDBFF; }
bool is_low_surrogate(char16_t u) { return u >= 0xDC00 && u <= 0xDFFF; }

// Only well-formed UTF-16 reaches here (it came from validated UTF-8 plus whole code points).
std::string utf16_to_utf8(std::u16string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    char32_t cp = s[i];
    if (is_high_surrogate(s[i])) {
      cp = 0x10000 + ((char32_t{s[i]} - 0xD800) << 10) + (char32_t{s[i + 1]} - 0xDC00);
      ++i;
    }
    append_utf8(out, cp);
  }
  return out;
}

// N UTF-16 units, one more when the cut would split a surrogate pair.
size_t unsplit_prefix_length(std::u16string_view s, size_t n) {
  if (n > 0 && n < s.size() && is_high_surrogate(s[n - 1]) && is_low_surrogate(s[n])) return n + 1;
  return n;
}

}  // namespace

std::string truncate_string_min(std::string_view utf8, int prefix_length) {
  size_t pos = 0;
  for (int taken = 0; taken < prefix_length && pos < utf8.size(); ++taken) decode_utf8(utf8, pos);
  return std::string(utf8.substr(0, pos));
}

std::optional<std::string> truncate_string_max(std::string_view utf8, int prefix_length,
                                               Mutant mutant) {
  if (mutant == Mutant::StringMaxPlainPrefix) return truncate_string_min(utf8, prefix_length);
  const std::u16string max = utf8_to_utf16(utf8);
  if (max.size() <= static_cast<size_t>(std::max(prefix_length, 0))) return std::string(utf8);
  if (prefix_length <= 0) return std::nullopt;

  // Extend the prefix until a tie-breaker appended to it is provably above the rest of the
  // string: U+007F when the next unit is below it, else U+10FFFF unless the next code point is
  // U+10FFFF itself (nothing is above it, so it must be kept and the scan goes on).
  const size_t expansion_limit = 2 * static_cast<size_t>(prefix_length);
  size_t length = unsplit_prefix_length(max, prefix_length);
  while (length <= expansion_limit) {
    if (length >= max.size()) return std::string(utf8);
    const std::u16string_view prefix(max.data(), length);
    if (length + 1 < max.size() && max[length] == kMaxHigh && max[length + 1] == kMaxLow) {
      length += 2;
    } else if (max[length] < kAsciiMax) {
      return utf16_to_utf8(prefix) + static_cast<char>(kAsciiMax);
    } else {
      return utf16_to_utf8(prefix) + "\xF4\x8F\xBF\xBF";  // U+10FFFF
    }
  }
  return std::nullopt;
}

}  // namespace skipsound
