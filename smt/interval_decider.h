// The oracle's question (docs/semantics.md §6.1: can a row consistent with a file's stats make the predicate
// TRUE?) decided without a solver on the fragment where that is a finite search.
//
// The stats allow each column a set of values (model/stats/stats_consistency.h) that is a union
// of intervals in Spark order, and every atom of the fragment reads one column through Spark
// comparisons with constants, so its truth value is constant between consecutive "end points"
// (the atoms' literals and the allowance's bounds). One value per end point and one just above
// each (the least value of the type's domain there) therefore meets every cell a column's values
// fall into; a search over those values, pruned by three-valued reasoning, is exact.
//
// The fragment: AND, OR, NOT, IS [NOT] NULL over atoms; an atom is a constant, a boolean column,
// or one column (boolean, integral, date, timestamp, float, double, decimal or string) compared
// with literals of its own type: = <> < <= > >= <=>, [NOT] IN, [NOT] BETWEEN, LIKE (with any
// pattern and ESCAPE), LIKE ANY, LIKE ALL, startswith, endswith, contains, and RLIKE of a regex of
// plain characters with or without a leading '^'. A pattern that is
// no literal or literal prefix is not constant between end points: for it, each cell between end
// points gets one value per set of patterns some string of the cell matches (smt/like_cells.h),
// which keeps the search exact.
//
// A column compared with itself (`c < c`) is in the fragment too: its truth depends only on
// whether c is NULL.
//
// Any other atom (column against column, arithmetic, casts, calls, other LIKE patterns, a literal
// whose type differs from its column's) is opaque: a free truth value. If no row makes the
// predicate TRUE whatever the opaque atoms give, the answer is Unsat, exactly. Otherwise the rows
// the search cannot rule out are completed (the columns only opaque atoms read try their
// candidates: the opaque atoms' literals, their sums and differences, the other columns' bounds;
// each non-deterministic call tries a few values in the range Z3 gives it, and the witness
// carries them) and one the model's evaluator finds TRUE and the consistency rules accept is a
// Sat witness. No confirmed row, or a search that grows too large, is outside: the caller asks Z3.
// An opaque atom that reads a single column admitting only values among its candidates (a
// partition value, no non-null value, a boolean) is exact: the evaluator gives its truth on each.
#pragma once
#include <optional>

#include "model/sql/expr.h"
#include "model/stats/stats_consistency.h"
#include "smt/oracle_result.h"

namespace skipsound::smt {

// Unsat, or Sat with a witness row and the values its non-deterministic calls returned, which the
// caller re-checks with the model like every Z3 witness; nullopt when undecided. `predicate` is
// bound against `schema`; `allowance` is row_allowance of the file and must not be impossible.
std::optional<OracleResult> decide_by_intervals(const ExprPtr& predicate, const Schema& schema,
                                                const RowAllowance& allowance);

}  // namespace skipsound::smt
