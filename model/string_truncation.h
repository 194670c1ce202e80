// Delta's string-prefix truncation of min/max stats (SPEC §4).
#pragma once
#include <optional>
#include <string>
#include <string_view>

#include "model/mutant.h"

namespace skipsound {

inline constexpr int kDefaultStringPrefixLength = 32;

// The first `prefix_length` code points of a UTF-8 string: a prefix, so never above it.
std::string truncate_string_min(std::string_view utf8, int prefix_length);

// An upper bound for every string whose maximum is `utf8` (code-point order), at most about
// 2 * prefix_length UTF-16 units long; nullopt when no bound fits (the max is then omitted).
// Mutant::StringMaxPlainPrefix returns the plain prefix instead (not an upper bound).
std::optional<std::string> truncate_string_max(std::string_view utf8, int prefix_length,
                                               Mutant mutant = Mutant::None);

}  // namespace skipsound
