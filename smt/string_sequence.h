// Strings as bounded code sequences. Z3 4.8.12's sequence solver needs seconds (or times out) on
// str.< and prefixes against constants of 30+ characters, yet most predicates and every stats
// bound only compare a string column with constants. Such a column is encoded as integers: a
// length 0 <= len <= K and codes c_0..c_{K-1} in the renumbered alphabet of smt/code_points.h,
// c_i = -1 (below every code) exactly when i >= len. K is one more than the longest string
// constant of the query, so every comparison with a constant, LIKE pattern without an inner '%',
// and prefix is decided by the first K codes, and a longer string behaves exactly like its first
// K characters: nothing a real row can do is lost, and each model decodes to a real string.
// Columns used any other way (compared with another column, passed to a function, cast, LIKE
// '%x%') keep Z3's string sort.
#pragma once
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <z3++.h>

#include "model/sql/expr.h"
#include "model/stats/stats_consistency.h"

namespace skipsound::smt {

struct CodeSequence {
  std::vector<z3::expr> codes;  // K codes; -1 past the end
  z3::expr length;              // 0..K
};

inline constexpr int kPastTheEnd = -1;

// One LIKE pattern element (the escape, '\' unless ESCAPE names another, may only precede '_',
// '%' or itself).
enum class LikeElementKind { Char, AnyOne, AnyRun };
struct LikeElement {
  LikeElementKind kind = LikeElementKind::Char;
  char32_t code_point = 0;
};
// nullopt for an invalid escape (Spark raises an error there).
std::optional<std::vector<LikeElement>> parse_like_pattern(const std::string& pattern, char32_t escape = U'\\');

// String columns the predicate compares with constants only (=, <>, <, <=, >, >=, <=>, IN,
// BETWEEN against literals; LIKE with a literal pattern whose only '%' is the last element;
// IS [NOT] NULL).
std::set<int> sequence_leaves(const Expr& predicate, const Schema& schema);

// The capacity K: one more than the longest string constant (in code points) in the predicate and
// the allowance.
int sequence_capacity(const Expr& predicate, const RowAllowance& allowance);

// Z3 facts about a sequence and a constant given as alphabet codes. Each throws
// std::invalid_argument when the constant does not fit below the capacity.
z3::expr sequence_equals(const CodeSequence& s, const std::vector<unsigned>& constant);
z3::expr sequence_below(const CodeSequence& s, const std::vector<unsigned>& constant);
z3::expr sequence_above(const CodeSequence& s, const std::vector<unsigned>& constant);
z3::expr sequence_has_prefix(const CodeSequence& s, const std::vector<unsigned>& prefix);
// Two sequences of one capacity, both symbolic (the rule theorems encode every string so).
z3::expr sequences_equal(const CodeSequence& a, const CodeSequence& b);
z3::expr sequences_below(const CodeSequence& a, const CodeSequence& b);  // a < b

// `pattern` with its characters as alphabet codes (Char elements' code_point holds the code);
// nullopt when the pattern has a '%' before its last element.
std::optional<z3::expr> sequence_like(const CodeSequence& s, const std::vector<LikeElement>& pattern);

}  // namespace skipsound::smt
