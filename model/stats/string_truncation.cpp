#include "model/stats/string_truncation.h"

#include <algorithm>
#include <vector>

#include "model/mutants/fault_injection.h"
#include "model/values/input_error.h"
#include "model/values/utf8.h"

namespace skipsound {
namespace {

constexpr char32_t kAsciiMax = 0x7F;
constexpr char32_t kMaxCodePoint = 0x10FFFF;
constexpr char32_t kFirstSupplementary = 0x10000;

// Delta measures the max's prefix in Java chars: supplementary code points take two.
size_t utf16_units(char32_t cp) { return cp >= kFirstSupplementary ? 2 : 1; }

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

size_t utf16_length(const std::vector<char32_t>& cps, size_t count) {
  size_t units = 0;
  for (size_t i = 0; i < count; ++i) units += utf16_units(cps[i]);
  return units;
}

// The number of code points truncate_string_max keeps before it looks past the cut: the
// shortest prefix of at least N UTF-16 units (N + 1 when the N-th unit starts a surrogate pair).
size_t cut_point(const std::vector<char32_t>& cps, size_t n) {
  size_t units = 0, next = 0;
  while (units < n && next < cps.size()) units += utf16_units(cps[next++]);
  return next;
}

bool all_top_code_points(const std::vector<char32_t>& cps, size_t from, size_t to) {
  return std::all_of(cps.begin() + from, cps.begin() + to, [](char32_t c) { return c == kMaxCodePoint; });
}

}  // namespace

const char* string_min_cut_name(StringMinCut cut) {
  return cut == StringMinCut::CodePoints ? "code points" : "UTF-16 units";
}

std::string truncate_string_min(std::string_view utf8, int prefix_length, StringMinCut cut) {
  const std::vector<char32_t> cps = code_points(utf8);
  const auto n = static_cast<size_t>(std::max(prefix_length, 0));
  size_t kept = 0;
  if (cut == StringMinCut::CodePoints) {
    kept = std::min(cps.size(), n);
  } else {
    for (size_t units = 0; kept < cps.size() && units + utf16_units(cps[kept]) <= n; ++kept) {
      units += utf16_units(cps[kept]);
    }
  }
  if (kept == cps.size()) return std::string(utf8);
  return encode_utf8(std::vector<char32_t>(cps.begin(), cps.begin() + kept));
}

std::optional<std::string> truncate_string_max(std::string_view utf8, int prefix_length) {
  if (fault_active(Mutant::StringMaxPlainPrefix)) return truncate_string_min(utf8, prefix_length);
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

const char* stored_string_name(StoredString s) {
  switch (s) {
    case StoredString::Exact: return "exact";
    case StoredString::MayBeTruncated: return "may be truncated";
    case StoredString::Truncated: return "truncated";
    case StoredString::Impossible: return "impossible";
  }
  return "?";
}

StoredMin read_stored_min(std::string_view utf8, int prefix_length) {
  if (!is_valid_utf8(utf8)) return {StoredString::Impossible};
  const std::vector<char32_t> cps = decode_utf8(utf8);
  const auto n = static_cast<size_t>(std::max(prefix_length, 0));
  if (cps.size() > n) return {StoredString::Impossible};
  const size_t units = utf16_length(cps, cps.size());
  if (cps.size() == n || units == n) return {StoredString::MayBeTruncated, 0};
  if (units + 1 == n) return {StoredString::MayBeTruncated, kFirstSupplementary};
  return {StoredString::Exact};
}

// truncate_string_max returns the true max T unchanged when T has at most N units, or when
// T = P + U+10FFFF... (P the cut prefix) within 2N units; it returns K + tie-breaker when
// K = P + U+10FFFF... within 2N units and T continues K with a character that is not U+10FFFF.
StoredMax read_stored_max(std::string_view utf8, int prefix_length) {
  const auto only = [](StoredString kind) { return StoredMax{kind, {}, 0, 0}; };
  if (!is_valid_utf8(utf8)) return only(StoredString::Impossible);
  const std::vector<char32_t> cps = decode_utf8(utf8);
  const size_t total = utf16_length(cps, cps.size());
  if (prefix_length <= 0) return only(total == 0 ? StoredString::Exact : StoredString::Impossible);
  const auto n = static_cast<size_t>(prefix_length);
  if (total <= n) return only(StoredString::Exact);
  const size_t cut = cut_point(cps, n);
  const bool exact = total <= 2 * n && all_top_code_points(cps, cut, cps.size());
  const char32_t last = cps.back();
  const size_t kept = cps.size() - 1;
  const bool truncated = (last == kAsciiMax || last == kMaxCodePoint) && kept >= cut &&
                         all_top_code_points(cps, cut, kept) && utf16_length(cps, kept) <= 2 * n;
  if (!exact && !truncated) return only(StoredString::Impossible);
  if (!truncated) return only(StoredString::Exact);
  StoredMax max{exact ? StoredString::MayBeTruncated : StoredString::Truncated,
                encode_utf8(std::vector<char32_t>(cps.begin(), cps.begin() + kept)), 0, kAsciiMax - 1};
  if (last == kMaxCodePoint) max.next_low = kAsciiMax, max.next_high = kMaxCodePoint - 1;
  return max;
}

}  // namespace skipsound
