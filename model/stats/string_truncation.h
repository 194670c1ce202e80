// Delta's string-prefix truncation of min/max stats (docs/semantics.md §4.4).
#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace skipsound {

inline constexpr int kDefaultStringPrefixLength = 32;

// How a writer cuts a string min to the prefix length N (docs/semantics.md §4.4).
enum class StringMinCut {
  CodePoints,  // the first N code points: Delta's stats collection
  Utf16Units,  // the first N UTF-16 units, one fewer when the cut would split a surrogate pair:
               // stats derived from Parquet footers
};
const char* string_min_cut_name(StringMinCut cut);  // "code points", "UTF-16 units"

// A prefix of a UTF-8 string, cut as `cut` says: never above the string.
std::string truncate_string_min(std::string_view utf8, int prefix_length,
                                StringMinCut cut = StringMinCut::CodePoints);

// An upper bound for every string whose maximum is `utf8` (code-point order), at most about
// 2 * prefix_length UTF-16 units long; nullopt when no bound fits (the max is then omitted).
// Under the string-max-plain-prefix mutant it returns the plain prefix instead (not an upper bound).
std::optional<std::string> truncate_string_max(std::string_view utf8, int prefix_length);

// What a stored string stat says about the true value it was written from: the inverse of the
// two writers above, for a writer with the same prefix length.
enum class StoredString {
  Exact,           // the true value itself
  MayBeTruncated,  // the true value itself, or a longer value this one was cut from
  Truncated,       // certainly cut from a longer value
  Impossible,      // no writer with this prefix length stores it
};
const char* stored_string_name(StoredString s);  // "exact", "may be truncated", ...

// A stored min, read for either min writer. It may be truncated when it has N code points (cut
// by code points) or N UTF-16 units (cut by units); then the true min is any string it starts.
// With N − 1 units it may be a units cut that stopped before a surrogate pair: the true min is the
// stored min itself, or the stored min followed by a supplementary character (next_low U+10000).
// Shorter, it is exact; with more than N code points no writer stores it.
struct StoredMin {
  StoredString kind = StoredString::Exact;
  char32_t next_low = 0;  // when it may be truncated: the least character that may come next
  bool operator==(const StoredMin&) const = default;
};
StoredMin read_stored_min(std::string_view utf8, int prefix_length);

// A stored max. When it may be truncated, the true max is `kept` (the stored max without its
// tie-breaker) followed by a character in [next_low, next_high] and possibly more: U+007F stands
// for a next character below it, U+10FFFF for one from U+007F up to U+10FFFE.
struct StoredMax {
  StoredString kind = StoredString::Exact;
  std::string kept;
  char32_t next_low = 0;
  char32_t next_high = 0;
};
StoredMax read_stored_max(std::string_view utf8, int prefix_length);

}  // namespace skipsound
