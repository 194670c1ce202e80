// Spark's non-ANSI arithmetic and numeric casts as the model evaluates them (model/sql/arithmetic.cpp,
// model/values/cast.cpp), on symbolic values: integral + - * % and unary minus wrap into the result type,
// x % 0 is NULL and the remainder takes the dividend's sign; decimals are exact, rounded half away
// from zero to the result scale and NULL past its precision; doubles and floats are IEEE binary64
// with round-to-nearest-even (a float result rounded once more to binary32, as the evaluator
// stores it), x / 0 NULL. Casts: integral <-> integral (wrapping), integral or decimal -> decimal
// (rounded, NULL past the precision), decimal -> integral (truncated, then wrapped), double <->
// float.
//
// Not encoded (nullopt; the caller uses an unconstrained value and says so): any conversion of an
// integral or decimal value to floating point — integral '/' (Spark divides in double), mixed
// integral/decimal and floating arithmetic, CAST to float/double from them — because Z3 4.8.12
// answers unknown on to_fp of a symbolic integer even at 32 bits (measured: no answer in 60 s
// for `CAST(i AS DOUBLE) / 3 > 1000.5`); floating '%' (C's fmod through Z3's fp.rem: measured,
// no answer in 60 s for `d % 3D = 1.5D`, and the wall-clock limit did not stop it); floating ->
// integral casts (the JVM's saturating truncation: Z3 answers "incomplete (theory arithmetic)"
// through fp.to_real); floating -> decimal, which goes through Java's shortest decimal text of the
// double; and every non-numeric cast.
#pragma once
#include <optional>
#include <vector>

#include <z3++.h>

#include "model/sql/expr.h"
#include "smt/sym_value.h"

namespace skipsound::smt {

struct TypedValue {
  SymValue value;
  DataType type;
};

// `op` applied to `operands` (one for Neg, else two) with the bound result type.
std::optional<SymValue> encode_arithmetic(ArithOp op, const std::vector<TypedValue>& operands, const DataType& result);

std::optional<SymValue> encode_numeric_cast(const TypedValue& operand, const DataType& to);

}  // namespace skipsound::smt
