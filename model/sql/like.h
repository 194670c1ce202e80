// SQL LIKE: '%' matches any run of characters, '_' exactly one code point, a backslash makes the
// next pattern character literal (docs/semantics.md §3).
#pragma once
#include <optional>
#include <string_view>

namespace skipsound {

enum class LikeMatch { Match, NoMatch };

// nullopt when the pattern ends in a lone escape (Spark rejects such a pattern).
std::optional<LikeMatch> like_match(std::string_view text, std::string_view pattern);

}  // namespace skipsound
