// SQL LIKE: '%' matches any run of characters, '_' exactly one code point; the escape character
// (a backslash unless ESCAPE names another) makes a following '%', '_' or escape literal
// (docs/semantics.md §3.2). Spark rejects the escape before anything else, and at the end.
#pragma once
#include <optional>
#include <string_view>
#include <vector>

namespace skipsound {

enum class LikeMatch { Match, NoMatch };

// A pattern read with its escape: a literal code point, '_' (AnyOne) or '%' (AnyRun).
struct LikeToken {
  enum class Kind { Literal, AnyOne, AnyRun } kind;
  char32_t literal = 0;
};

// nullopt when the pattern misuses the escape.
std::optional<std::vector<LikeToken>> like_tokens(std::string_view pattern, char32_t escape = U'\\');

// nullopt when the pattern misuses the escape (Spark rejects such a pattern).
std::optional<LikeMatch> like_match(std::string_view text, std::string_view pattern, char32_t escape = U'\\');

}  // namespace skipsound
