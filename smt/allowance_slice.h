// Only the columns a predicate reads go to Z3. The stats constrain each column on its own
// (docs/semantics.md §6.2: the allowance is per column), so a row for the other columns can be
// chosen without a solver: any value their allowance accepts. Unsat over the slice implies Unsat over the whole row (the
// slice drops conjuncts only), and a Sat witness is completed with the chosen values and then
// re-checked against the full allowance as before. Keeping string columns the predicate never
// mentions out of the query spares Z3's sequence solver, the oracle's slowest part.
#pragma once
#include <set>

#include "model/sql/expr.h"
#include "model/stats/stats_consistency.h"

namespace skipsound::smt {

struct AllowanceSlice {
  // no_row and the columns Z3 must decide: those the predicate reads, and any other column for
  // which no simple value (NULL, a bound, a prefix) is allowed.
  RowAllowance query;
  // Values for every other constrained column, each accepted by its own allowance; NULL elsewhere.
  Row filler;
};

std::set<int> referenced_leaves(const Expr& predicate);

AllowanceSlice slice_allowance(const RowAllowance& full, const std::set<int>& referenced, size_t leaf_count);

// `witness` (Z3's values for the sliced columns) completed with the slice's filler values.
Row complete_witness(const Row& witness, const AllowanceSlice& slice);

}  // namespace skipsound::smt
