// Three-valued evaluation of a bound predicate on one row (SPEC §2, §3).
#pragma once
#include "model/expr.h"
#include "model/row.h"

namespace skipsound {

// The value of any bound expression on a row. Functions the model cannot compute exactly
// (rand(), unknown semantics) throw NotEvaluable; callers treat such predicates as unknown.
Value evaluate_value(const Expr& e, const Row& row);
// TRUE / FALSE / NULL of a bound boolean expression.
Truth evaluate(const Expr& e, const Row& row);

struct NotEvaluable : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace skipsound
