// Spark's + - * / % and unary minus with default (non-ANSI) semantics (docs/semantics.md §3.2).
#pragma once
#include "model/sql/expr.h"
#include "model/values/value.h"

namespace skipsound {

// The result type Spark gives `a op b` when the binder has not set one.
DataType arithmetic_result_type(ArithOp op, const DataType& a, const DataType& b);

// `a op b` in `result` type: integral overflow wraps in the result type, decimals are exact
// (rounded half-up to the result scale, NULL when they overflow its precision), x / 0 and x % 0
// are NULL, NULL operands give NULL. For Neg, `b` is ignored.
Value arithmetic(ArithOp op, const Value& a, const Value& b, const DataType& result);

}  // namespace skipsound
