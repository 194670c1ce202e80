#include "model/string_truncation.h"

#include <algorithm>
#include <vector>

#include "model/input_error.h"
#include "model/utf8.h"

namespace skipsound {
namespace {

constexpr char32_t kAsciiMax = 0x7F;
constexpr char32_t kMaxCodePoint = 0x10FFFF;

// Delta measures the max's prefix in Java chars: supplementary code points take two.
size_t utf16_units(char32_t cp) { return cp >= 0x10000 ? 2 : 1; }

// A bound computed from garbage would not be a bound, so malformed input is refused.
std::vector<char32_t> code_points(std::string_view utf8) {
  if (!is_valid_utf8(utf8)) throw InputError("string stat value is not valid UTF-8");
  return decode_utf8(utf8);
}

std::string encode_prefix(const std::vector<char32_t>& cps, size_t count, char32_t tie_breaker) {
  std::vector<char32_t> out(cps.begin(), cps.begin() + count);
  out.push_back(tie_breaker);
  return encode_utf8(out);
}

}  // namespace

std::string truncate_string_min(std::string_view utf8, int prefix_length) {
  const std::vector<char32_t> cps = code_points(utf8);
  if (cps.size() <= static_cast<size_t>(std::max(prefix_length, 0))) return std::string(utf8);
  return encode_utf8(std::vector<char32_t>(cps.begin(), cps.begin() + std::max(prefix_length, 0)));
}

std::optional<std::string> truncate_string_max(std::string_view utf8, int prefix_length,
                                               Mutant mutant) {
  if (mutant == Mutant::StringMaxPlainPrefix) return truncate_string_min(utf8, prefix_length);
  const std::vector<char32_t> cps = code_points(utf8);
  size_t total_units = 0;
  for (char32_t cp : cps) total_units += utf16_units(cp);
  if (total_units <= static_cast<size_t>(std::max(prefix_length, 0))) return std::string(utf8);
  if (prefix_length <= 0) return std::nullopt;

  // N units, one more when the cut would split a surrogate pair.
  const size_t n = static_cast<size_t>(prefix_length);
  size_t units = 0, next = 0;
  while (units < n) units += utf16_units(cps[next++]);
  // Extend the prefix until a tie-breaker appended to it is provably above the rest of the
  // string: U+007F when the next char is below it, else U+10FFFF unless the next char is
  // U+10FFFF itself (nothing is above it, so it must be kept and the scan goes on).
  while (units <= 2 * n) {
    if (next == cps.size()) return std::string(utf8);
    if (cps[next] == kMaxCodePoint) {
      units += 2, ++next;
    } else {
      return encode_prefix(cps, next, cps[next] < kAsciiMax ? kAsciiMax : kMaxCodePoint);
    }
  }
  return std::nullopt;
}

}  // namespace skipsound
