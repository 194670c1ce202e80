#include "model/values/value.h"

#include <charconv>
#include <cmath>
#include <cstring>
#include <stdexcept>

#include <boost/multiprecision/cpp_int.hpp>

#include "model/values/temporal.h"

namespace skipsound {

namespace {

using boost::multiprecision::cpp_int;

constexpr int kMaxDigits = kMaxDecimalPrecision;

const __int128* powers_of_ten() {
  static const auto table = [] {
    static __int128 p[kMaxDigits + 1];
    p[0] = 1;
    for (int i = 1; i <= kMaxDigits; ++i) p[i] = p[i - 1] * 10;
    return p;
  }();
  return table;
}

__int128 pow10(int n) { return powers_of_ten()[n]; }

std::strong_ordering reversed(std::strong_ordering o) { return 0 <=> o; }

std::strong_ordering compare_ints(__int128 a, __int128 b) { return a <=> b; }

// Spark's floating order: NaN above everything and equal to itself; -0.0 == 0.0.
std::strong_ordering compare_doubles(double a, double b) {
  const bool a_nan = std::isnan(a), b_nan = std::isnan(b);
  if (a_nan || b_nan) return a_nan == b_nan ? std::strong_ordering::equal
                                            : (a_nan ? std::strong_ordering::greater
                                                     : std::strong_ordering::less);
  if (a < b) return std::strong_ordering::less;
  if (a > b) return std::strong_ordering::greater;
  return std::strong_ordering::equal;
}

std::strong_ordering compare_int_double(int64_t i, double d) {
  constexpr double two_to_63 = 9223372036854775808.0;
  if (std::isnan(d) || d >= two_to_63) return std::strong_ordering::less;
  if (d < -two_to_63) return std::strong_ordering::greater;
  const double whole = std::trunc(d);  // exact, and within int64 range here
  const auto whole_int = static_cast<int64_t>(whole);
  if (i != whole_int) return i <=> whole_int;
  const double fraction = d - whole;
  if (fraction > 0) return std::strong_ordering::less;
  if (fraction < 0) return std::strong_ordering::greater;
  return std::strong_ordering::equal;
}

cpp_int to_cpp_int(unsigned __int128 v) {
  cpp_int r = static_cast<uint64_t>(v >> 64);
  r <<= 64;
  r += static_cast<uint64_t>(v);
  return r;
}

int sign_of(__int128 v) { return (v > 0) - (v < 0); }

// Exact: a double is m * 2^e, a decimal u * 10^-s; cross-multiply in arbitrary precision.
std::strong_ordering compare_decimal_double(const Decimal& dec, double d) {
  if (std::isnan(d) || d == INFINITY) return std::strong_ordering::less;
  if (d == -INFINITY) return std::strong_ordering::greater;
  const int dec_sign = sign_of(dec.unscaled);
  const int dbl_sign = (d > 0) - (d < 0);
  if (dec_sign != dbl_sign) return dec_sign <=> dbl_sign;
  if (dec_sign == 0) return std::strong_ordering::equal;
  int exponent = 0;
  const double fraction = std::frexp(std::fabs(d), &exponent);
  const auto mantissa = static_cast<uint64_t>(std::ldexp(fraction, 53));
  const int e = exponent - 53;
  const unsigned __int128 magnitude =
      dec.unscaled < 0 ? -static_cast<unsigned __int128>(dec.unscaled)
                       : static_cast<unsigned __int128>(dec.unscaled);
  cpp_int lhs = to_cpp_int(magnitude);
  cpp_int rhs = mantissa;
  rhs *= boost::multiprecision::pow(cpp_int(10), dec.scale);
  if (e < 0) lhs <<= -e;
  else rhs <<= e;
  const std::strong_ordering by_magnitude =
      lhs < rhs ? std::strong_ordering::less
                : (lhs > rhs ? std::strong_ordering::greater : std::strong_ordering::equal);
  return dec_sign > 0 ? by_magnitude : reversed(by_magnitude);
}

enum class NumberClass { Int64, Floating, Decimal };

NumberClass number_class(TypeKind k) {
  if (is_integral(k)) return NumberClass::Int64;
  if (is_floating(k)) return NumberClass::Floating;
  return NumberClass::Decimal;
}

std::strong_ordering compare_numbers(const Value& a, const Value& b) {
  const NumberClass ca = number_class(a.type.kind), cb = number_class(b.type.kind);
  if (ca > cb) return reversed(compare_numbers(b, a));
  switch (ca) {
    case NumberClass::Int64:
      if (cb == NumberClass::Int64) return a.as_int() <=> b.as_int();
      if (cb == NumberClass::Floating) return compare_int_double(a.as_int(), b.as_double());
      return compare_decimals(Decimal{a.as_int(), 0}, b.as_decimal());
    case NumberClass::Floating:
      if (cb == NumberClass::Floating) return compare_doubles(a.as_double(), b.as_double());
      return reversed(compare_decimal_double(b.as_decimal(), a.as_double()));
    case NumberClass::Decimal:
      return compare_decimals(a.as_decimal(), b.as_decimal());
  }
  return std::strong_ordering::equal;
}

// Dates compare with timestamps as midnight UTC, timestamps with timestamp_ntz as the same
// wall clock (the session zone is UTC).
__int128 temporal_micros(const Value& v) {
  constexpr __int128 micros_per_day = 86'400'000'000LL;
  return v.type.kind == TypeKind::Date ? v.as_int() * micros_per_day : v.as_int();
}

bool is_bytes(TypeKind k) { return k == TypeKind::String || k == TypeKind::Binary; }

std::string quote_string(const std::string& s) {
  std::string out = "'";
  for (unsigned char c : s) {
    switch (c) {
      case '\'': out += "''"; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20 || c == 0x7F) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04X", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "'";
}

// Shortest round-trip digits, always recognisable as a non-integer literal: "1.5", "1E300".
std::string floating_digits(double v, bool as_float) {
  char buf[64];
  auto result = as_float ? std::to_chars(buf, buf + sizeof buf, static_cast<float>(v))
                         : std::to_chars(buf, buf + sizeof buf, v);
  std::string raw(buf, result.ptr);
  std::string out;
  for (size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] == 'e') {
      out += 'E';
      if (i + 1 < raw.size() && raw[i + 1] == '+') ++i;
    } else {
      out += raw[i];
    }
  }
  if (out.find_first_of(".E") == std::string::npos) out += ".0";
  return out;
}

std::string special_floating_name(double v) {
  if (std::isnan(v)) return "NaN";
  return v > 0 ? "Infinity" : "-Infinity";
}

int natural_decimal_precision(const Decimal& d) { return std::max(decimal_digits(d), d.scale); }

std::string timestamp_literal(const Value& v) {
  const char* keyword = v.type.kind == TypeKind::Timestamp ? "TIMESTAMP '" : "TIMESTAMP_NTZ '";
  return keyword + format_timestamp(v.as_int(), TimestampFormat{' ', 0, false}) + "'";
}

}  // namespace

Decimal parse_decimal(const std::string& text) {
  size_t i = 0;
  bool negative = false;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) negative = text[i++] == '-';
  __int128 unscaled = 0;
  int significant = 0, fraction_digits = 0, digits = 0;
  bool in_fraction = false;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '.' && !in_fraction) {
      in_fraction = true;
      continue;
    }
    if (c < '0' || c > '9') break;
    ++digits;
    if (in_fraction) ++fraction_digits;
    if (significant > 0 || c != '0') {
      if (++significant > kMaxDigits) throw std::invalid_argument("decimal has over 38 digits: " + text);
      unscaled = unscaled * 10 + (c - '0');
    }
  }
  if (digits == 0) throw std::invalid_argument("not a decimal number: " + text);
  long long exponent = 0;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    bool negative_exponent = false;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) negative_exponent = text[i++] == '-';
    size_t start = i;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9' && i - start < 6) {
      exponent = exponent * 10 + (text[i++] - '0');
    }
    if (i == start) throw std::invalid_argument("not a decimal number: " + text);
    if (negative_exponent) exponent = -exponent;
  }
  if (i != text.size()) throw std::invalid_argument("not a decimal number: " + text);
  long long scale = fraction_digits - exponent;
  while (scale > kMaxDigits && unscaled % 10 == 0 && unscaled != 0) {
    unscaled /= 10;
    --scale;
  }
  if (unscaled == 0 && scale > kMaxDigits) scale = kMaxDigits;
  if (scale > kMaxDigits) throw std::invalid_argument("decimal scale over 38: " + text);
  if (negative) unscaled = -unscaled;
  if (scale < 0) {  // "12E3": shift the digits left, keeping a non-negative scale
    const long long grow = -scale;
    if (unscaled != 0 && significant + grow > kMaxDigits) {
      throw std::invalid_argument("decimal has over 38 digits: " + text);
    }
    return Decimal{unscaled == 0 ? 0 : unscaled * pow10(static_cast<int>(grow)), 0};
  }
  return Decimal{unscaled, static_cast<int>(scale)};
}

std::string int128_to_string(__int128 v) {
  if (v == 0) return "0";
  unsigned __int128 magnitude =
      v < 0 ? -static_cast<unsigned __int128>(v) : static_cast<unsigned __int128>(v);
  std::string digits;
  while (magnitude > 0) {
    digits += static_cast<char>('0' + static_cast<int>(magnitude % 10));
    magnitude /= 10;
  }
  if (v < 0) digits += '-';
  return std::string(digits.rbegin(), digits.rend());
}

std::string decimal_to_string(const Decimal& d) {
  std::string magnitude = int128_to_string(d.unscaled < 0 ? -d.unscaled : d.unscaled);
  if (d.scale > 0) {
    const size_t scale = static_cast<size_t>(d.scale);
    // Pad so there is at least one digit before the point: 5 at scale 2 is 0.05.
    if (magnitude.size() <= scale) magnitude = std::string(scale + 1 - magnitude.size(), '0') + magnitude;
    const size_t whole_digits = magnitude.size() - scale;
    magnitude = magnitude.substr(0, whole_digits) + "." + magnitude.substr(whole_digits);
  }
  return d.unscaled < 0 ? "-" + magnitude : magnitude;
}

std::strong_ordering compare_decimals(const Decimal& a, const Decimal& b) {
  // Integer parts first (truncated toward zero: different parts decide the order), then the
  // fractions aligned to the larger scale, which stay below 10^38.
  const __int128 a_whole = a.unscaled / pow10(a.scale), b_whole = b.unscaled / pow10(b.scale);
  if (a_whole != b_whole) return compare_ints(a_whole, b_whole);
  const int scale = std::max(a.scale, b.scale);
  const __int128 a_fraction = a.unscaled % pow10(a.scale) * pow10(scale - a.scale);
  const __int128 b_fraction = b.unscaled % pow10(b.scale) * pow10(scale - b.scale);
  return compare_ints(a_fraction, b_fraction);
}

int decimal_digits(const Decimal& d) {
  const __int128 magnitude = d.unscaled < 0 ? -d.unscaled : d.unscaled;
  int n = 1;
  while (n <= kMaxDigits && magnitude >= pow10(n)) ++n;
  return n;
}

std::optional<Decimal> rescale_decimal(const Decimal& d, int scale) {
  if (scale < 0 || scale > kMaxDigits) return std::nullopt;
  if (scale >= d.scale) {
    const int grow = scale - d.scale;
    if (decimal_digits(d) + grow > kMaxDigits && d.unscaled != 0) return std::nullopt;
    return Decimal{d.unscaled * pow10(grow), scale};
  }
  const __int128 divisor = pow10(d.scale - scale);
  if (d.unscaled % divisor != 0) return std::nullopt;
  return Decimal{d.unscaled / divisor, scale};
}

bool fits_precision(const Decimal& d, int precision) { return decimal_digits(d) <= precision; }

Value Value::null(DataType t) { return Value{std::move(t), std::monostate{}}; }
Value Value::boolean(bool b) { return Value{DataType::of(TypeKind::Boolean), b}; }
Value Value::integral(TypeKind k, int64_t v) { return Value{DataType::of(k), v}; }
Value Value::floating(TypeKind k, double v) {
  return Value{DataType::of(k), k == TypeKind::Float ? static_cast<double>(static_cast<float>(v)) : v};
}
Value Value::decimal(Decimal d, int precision) {
  return Value{DataType::decimal(precision, d.scale), d};
}
Value Value::string(std::string utf8) { return Value{DataType::of(TypeKind::String), std::move(utf8)}; }
Value Value::binary(std::string bytes) { return Value{DataType::of(TypeKind::Binary), std::move(bytes)}; }
Value Value::opaque(DataType array_or_map, std::string json_text) {
  return Value{std::move(array_or_map), std::move(json_text)};
}

bool Value::operator==(const Value& o) const {
  if (!(type == o.type) || data.index() != o.data.index()) return false;
  if (const double* d = std::get_if<double>(&data)) {
    const double e = o.as_double();
    if (std::isnan(*d) || std::isnan(e)) return std::isnan(*d) && std::isnan(e);
    return std::memcmp(d, &e, sizeof e) == 0;  // keeps -0.0 apart from 0.0
  }
  return data == o.data;
}

bool comparable(const DataType& a, const DataType& b) {
  if (a.kind == TypeKind::Null || b.kind == TypeKind::Null) return true;
  if (is_numeric(a.kind) && is_numeric(b.kind)) return true;
  if (is_temporal(a.kind) && is_temporal(b.kind)) return true;
  if (is_bytes(a.kind) && is_bytes(b.kind)) return true;
  return a.kind == TypeKind::Boolean && b.kind == TypeKind::Boolean;
}

std::optional<std::strong_ordering> spark_compare(const Value& a, const Value& b) {
  if (a.is_null() || b.is_null()) return std::nullopt;
  const TypeKind ka = a.type.kind, kb = b.type.kind;
  if (is_numeric(ka) && is_numeric(kb)) return compare_numbers(a, b);
  if (is_temporal(ka) && is_temporal(kb)) return temporal_micros(a) <=> temporal_micros(b);
  if (is_bytes(ka) && is_bytes(kb)) {
    const int c = a.as_string().compare(b.as_string());  // char_traits<char>: unsigned bytes
    return c <=> 0;
  }
  if (ka == TypeKind::Boolean && kb == TypeKind::Boolean) return a.as_bool() <=> b.as_bool();
  throw std::invalid_argument("cannot compare " + type_name(a.type) + " with " + type_name(b.type));
}

std::string hex_upper(const std::string& bytes) {
  static const char digits[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : bytes) {
    out += digits[c >> 4];
    out += digits[c & 15];
  }
  return out;
}

std::string to_sql_literal(const Value& v) {
  const TypeKind k = v.type.kind;
  if (v.is_null()) {
    return k == TypeKind::Null ? "NULL" : "CAST(NULL AS " + type_name(v.type) + ")";
  }
  switch (k) {
    case TypeKind::Boolean: return v.as_bool() ? "TRUE" : "FALSE";
    case TypeKind::Byte: return std::to_string(v.as_int()) + "Y";
    case TypeKind::Short: return std::to_string(v.as_int()) + "S";
    case TypeKind::Int: return std::to_string(v.as_int());
    case TypeKind::Long: return std::to_string(v.as_int()) + "L";
    case TypeKind::Float:
    case TypeKind::Double: {
      const bool is_float = k == TypeKind::Float;
      if (!std::isfinite(v.as_double())) {
        return "CAST('" + special_floating_name(v.as_double()) + "' AS " +
               (is_float ? "FLOAT" : "DOUBLE") + ")";
      }
      return floating_digits(v.as_double(), is_float) + (is_float ? "F" : "D");
    }
    case TypeKind::Decimal: {
      const std::string literal = decimal_to_string(v.as_decimal()) + "BD";
      if (natural_decimal_precision(v.as_decimal()) == v.type.precision) return literal;
      return "CAST(" + literal + " AS DECIMAL(" + std::to_string(v.type.precision) + "," +
             std::to_string(v.type.scale) + "))";
    }
    case TypeKind::Date: return "DATE '" + format_date(v.as_int()) + "'";
    case TypeKind::Timestamp:
    case TypeKind::TimestampNtz: return timestamp_literal(v);
    case TypeKind::String: return quote_string(v.as_string());
    case TypeKind::Binary: return "X'" + hex_upper(v.as_string()) + "'";
    default: break;
  }
  throw std::invalid_argument("no SQL literal for a value of type " + type_name(v.type));
}

std::string to_display(const Value& v) {
  if (v.is_null()) return "NULL";
  switch (v.type.kind) {
    case TypeKind::Boolean: return v.as_bool() ? "true" : "false";
    case TypeKind::Float:
    case TypeKind::Double:
      if (!std::isfinite(v.as_double())) return special_floating_name(v.as_double());
      return floating_digits(v.as_double(), v.type.kind == TypeKind::Float);
    case TypeKind::Decimal: return decimal_to_string(v.as_decimal());
    case TypeKind::Date: return format_date(v.as_int());
    case TypeKind::Timestamp:
      return format_timestamp(v.as_int(), TimestampFormat{'T', 0, true});
    case TypeKind::TimestampNtz:
      return format_timestamp(v.as_int(), TimestampFormat{'T', 0, false});
    case TypeKind::Binary: return "0x" + hex_upper(v.as_string());
    default:
      if (is_integral(v.type.kind)) return std::to_string(v.as_int());
      return v.as_string();
  }
}

Truth truth_of(bool b) { return b ? Truth::True : Truth::False; }

Truth truth_and(Truth a, Truth b) {
  if (a == Truth::False || b == Truth::False) return Truth::False;
  if (a == Truth::Null || b == Truth::Null) return Truth::Null;
  return Truth::True;
}

Truth truth_or(Truth a, Truth b) {
  if (a == Truth::True || b == Truth::True) return Truth::True;
  if (a == Truth::Null || b == Truth::Null) return Truth::Null;
  return Truth::False;
}

Truth truth_not(Truth a) {
  switch (a) {
    case Truth::True: return Truth::False;
    case Truth::False: return Truth::True;
    case Truth::Null: return Truth::Null;
  }
  return Truth::Null;
}

const char* truth_name(Truth t) {
  switch (t) {
    case Truth::True: return "TRUE";
    case Truth::False: return "FALSE";
    case Truth::Null: return "NULL";
  }
  return "NULL";
}

}  // namespace skipsound
