// Typed values with Spark's ordering and SQL three-valued logic (docs/semantics.md §2.2, §2.3).
#pragma once
#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>

#include "model/values/types.h"

namespace skipsound {

// An exact decimal: unscaled * 10^-scale. Precision up to 38 digits fits in __int128.
struct Decimal {
  __int128 unscaled = 0;
  int scale = 0;
  bool operator==(const Decimal& o) const = default;
};

// Parses "-1.50", "3.1661E-8", "12" exactly; throws std::invalid_argument.
Decimal parse_decimal(const std::string& text);
std::string decimal_to_string(const Decimal& d);
// Exact three-way comparison of two decimals of any scales.
std::strong_ordering compare_decimals(const Decimal& a, const Decimal& b);
// Number of decimal digits of the unscaled value (0 has one digit).
int decimal_digits(const Decimal& d);
// The same number at another scale, or nullopt when digits would be lost or it overflows 38 digits.
std::optional<Decimal> rescale_decimal(const Decimal& d, int scale);
// Fits decimal(precision, d.scale): at most `precision` digits.
bool fits_precision(const Decimal& d, int precision);
std::string int128_to_string(__int128 v);

// A value of one Spark type. The payload by kind:
//   Null -> monostate; Boolean -> bool; integral/date/timestamp* -> int64_t;
//   Float/Double -> double (float values are stored widened); Decimal -> Decimal;
//   String/Binary -> std::string (raw bytes, UTF-8 for strings);
//   Array/Map -> std::string holding the value's JSON text (opaque: rows carry them, nothing
//   compares or computes on them).
struct Value {
  DataType type;
  std::variant<std::monostate, bool, int64_t, double, Decimal, std::string> data;

  static Value null(DataType t = DataType::of(TypeKind::Null));
  static Value boolean(bool b);
  static Value integral(TypeKind k, int64_t v);  // byte/short/int/long/date/timestamp*
  static Value floating(TypeKind k, double v);   // float/double
  static Value decimal(Decimal d, int precision);
  static Value string(std::string utf8);
  static Value binary(std::string bytes);
  static Value opaque(DataType array_or_map, std::string json_text);

  bool is_null() const { return std::holds_alternative<std::monostate>(data); }
  bool as_bool() const { return std::get<bool>(data); }
  int64_t as_int() const { return std::get<int64_t>(data); }
  double as_double() const { return std::get<double>(data); }
  const Decimal& as_decimal() const { return std::get<Decimal>(data); }
  const std::string& as_string() const { return std::get<std::string>(data); }

  // Structural equality (same type, same payload bits); used for IR equality, not SQL '='.
  bool operator==(const Value& o) const;
};

// Spark's total order among non-null comparable values: numeric values compare exactly across
// kinds (int64 vs double vs decimal), NaN is greater than everything and equal to itself,
// -0.0 == 0.0; strings and binary in unsigned byte order (= code-point order for UTF-8).
// Returns nullopt when either side is NULL. Throws std::invalid_argument for incomparable kinds.
std::optional<std::strong_ordering> spark_compare(const Value& a, const Value& b);

// True when a and b can be ordered against each other (both numeric, same temporal kind, ...).
bool comparable(const DataType& a, const DataType& b);

// Bytes as uppercase hex digits, two per byte (binary literals and binary JSON).
std::string hex_upper(const std::string& bytes);

// SQL literal text for a value, such that parsing it gives back an equal Value (same type too).
// The rules, for the parser (Spark's literal syntax):
//   NULL                   untyped NULL; a typed NULL prints CAST(NULL AS <type_name>)
//   TRUE / FALSE           boolean
//   7Y  7S  7  7L          byte, short, int, long; negatives print a leading '-' that the parser
//                          must fold into the literal (so -128Y, -9223372036854775808L read back)
//   1.5D  1E300D           double: shortest round-trip digits, always with a '.' or 'E', suffix D
//   1.5F                   float, same digits rule, suffix F
//   CAST('NaN' AS DOUBLE)  also 'Infinity' / '-Infinity', and AS FLOAT for floats
//   1.50BD                 decimal whose type is decimal(max(digits, scale), scale): the digits
//                          as written, trailing zeros kept (they set the scale)
//   CAST(1.50BD AS DECIMAL(10,2))  any other decimal precision
//   'it''s'                string: '' for a quote; a backslash escape (backslash + n, r, t,
//                          backslash, or u + 4 hex digits) for a backslash and each control
//                          character (< 0x20, 0x7F); all other UTF-8 bytes raw
//   X'0AFF'                binary, upper-case hex
//   DATE '2020-01-01'      years outside 0000..9999 as '+10000-01-01' / '-0001-01-01'
//   TIMESTAMP '2020-01-01 00:00:00.000001'   UTC; fraction omitted on whole seconds, else 3 or 6
//                          digits; TIMESTAMP_NTZ '…' for timestamp_ntz
// Arrays and maps have no literal form (std::invalid_argument).
std::string to_sql_literal(const Value& v);
// Human/JSON-friendly text: 2020-01-01, 2020-01-01T00:00:00.000001Z, NaN, strings raw.
std::string to_display(const Value& v);

enum class Truth : uint8_t { False, True, Null };
Truth truth_of(bool b);
Truth truth_and(Truth a, Truth b);
Truth truth_or(Truth a, Truth b);
Truth truth_not(Truth a);
const char* truth_name(Truth t);  // "TRUE", "FALSE", "NULL"

}  // namespace skipsound
