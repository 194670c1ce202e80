// LIKE patterns on the string line, for the interval procedure (smt/interval_decider.h).
//
// A string column's other atoms are constant between consecutive end points of the code-point
// order; a pattern with '_' or an inner '%' is not. But whether a string lies strictly between two
// end points, and whether it matches each pattern, is a finite automaton's verdict: the product of
// two bound trackers (how much of each end point the string has matched so far, or that it is
// already above / below it) and one set of pattern positions per pattern (the subset
// construction of the pattern's automaton). Every string of one product state behaves alike, so a
// breadth-first walk over the product states reached meets every combination of "which patterns
// match" that occurs in the cell, each with a shortest string.
//
// Code points the patterns and end points never mention behave alike too (no literal matches
// them, '_' and '%' match them all, and they compare with every mentioned one the same way), so
// the walk reads one code point per gap between mentioned ones: the least valid one.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "model/sql/like.h"

namespace skipsound::smt {

using LikePattern = std::vector<LikeToken>;

// One string for every non-empty (cell, set of matching patterns): the cells are the open
// intervals between consecutive `points` (UTF-8, any order, repeats allowed) and above the
// greatest; "" is always a point. The strings are UTF-8. nullopt when the walk passes its budget
// of product states (long patterns, many of them): the caller asks a solver instead.
std::optional<std::vector<std::string>> like_cell_witnesses(std::vector<std::string> points,
                                                            const std::vector<LikePattern>& patterns);

}  // namespace skipsound::smt
