// Spark's CAST between scalar types, with its default (non-ANSI) semantics: an invalid string
// gives NULL, integral narrowing wraps, a decimal that does not fit gives NULL (docs/semantics.md §3.2).
#pragma once
#include <optional>
#include <string>

#include "model/values/value.h"

namespace skipsound {

// The cast value (NULL in, NULL out), or nullopt when the model has no exact rule for this pair
// of types (callers treat that as not evaluable).
std::optional<Value> cast_value(const Value& v, const DataType& to);

// Spark's text of a value as CAST(v AS STRING) gives it: 1.0E10, 2020-01-01 00:00:00.5, true.
std::string spark_string_of(const Value& v);

// Two's-complement truncation to the type's width, as the JVM's (int)/(short)/(byte) casts do.
int64_t wrap_to(TypeKind k, int64_t v);

// The value as a double (integral, floating, decimal), correctly rounded.
double to_double(const Value& v);
// The value as an exact decimal (integral or decimal only).
Decimal to_decimal(const Value& v);
// Rounds half away from zero to `scale` (Spark's ROUND_HALF_UP); nullopt past `precision` digits.
std::optional<Decimal> round_decimal(const Decimal& d, int scale, int precision);

}  // namespace skipsound
