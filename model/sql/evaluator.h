// Three-valued evaluation of a bound predicate on one row (docs/semantics.md §2.3, §3.2).
#pragma once
#include <map>

#include "model/sql/expr.h"
#include "model/sql/row.h"

namespace skipsound {

// The value of any bound expression on a row. Functions the model cannot compute exactly
// (rand(), unknown semantics) throw NotEvaluable; callers treat such predicates as unknown.
Value evaluate_value(const Expr& e, const Row& row);
// TRUE / FALSE / NULL of a bound boolean expression.
Truth evaluate(const Expr& e, const Row& row);

// What each occurrence of a non-deterministic call (rand(), now(), …) returned, by call node:
// the replay of an oracle witness, which chose them. Other calls evaluate as usual.
using CallValues = std::map<const Expr*, Value>;
Value evaluate_value(const Expr& e, const Row& row, const CallValues& calls);
Truth evaluate(const Expr& e, const Row& row, const CallValues& calls);

struct NotEvaluable : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace skipsound
