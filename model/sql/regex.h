// RLIKE / REGEXP (docs/semantics.md §3.2): Java's Pattern.find as far as std::regex's ECMAScript
// grammar agrees with it. Java-only constructs, and the ones ECMAScript reads differently, are
// refused rather than matched differently; the rest of the differences are listed in §3.2.
#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace skipsound {

// Longest pattern accepted, in bytes: std::regex compiles by recursive descent.
inline constexpr size_t kMaxRegexBytes = 1024;

// Why `pattern` cannot be used (not a valid regex, or a construct not modelled), or nullopt.
std::optional<std::string> regex_problem(std::string_view pattern);

// Whether some substring of `text` matches `pattern` (Java's Matcher.find()); nullopt when
// regex_problem(pattern) has an answer.
std::optional<bool> regex_find(std::string_view text, std::string_view pattern);

}  // namespace skipsound
