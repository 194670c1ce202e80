#include "model/values/cast.h"

#include <charconv>
#include <cmath>
#include <cstdlib>

#include "model/values/temporal.h"
#include "model/values/utf8.h"
#include "model/values/ascii_text.h"

namespace skipsound {

int64_t wrap_to(TypeKind k, int64_t v) {
  switch (k) {
    case TypeKind::Byte: return static_cast<int8_t>(v);
    case TypeKind::Short: return static_cast<int16_t>(v);
    case TypeKind::Int: return static_cast<int32_t>(v);
    default: return v;
  }
}

namespace {

constexpr int64_t kMicrosPerDay = 86'400'000'000LL;

int64_t floor_div(int64_t a, int64_t b) {
  const int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

// The JVM's saturating double -> long / int conversion (NaN -> 0).
int64_t saturating_double_to(TypeKind k, double d) {
  if (std::isnan(d)) return 0;
  const bool to_long = k == TypeKind::Long;
  const double lo = to_long ? -9223372036854775808.0 : -2147483648.0;
  const double hi = to_long ? 9223372036854775807.0 : 2147483647.0;
  if (d <= lo) return to_long ? INT64_MIN : INT32_MIN;
  if (d >= hi) return to_long ? INT64_MAX : INT32_MAX;
  return wrap_to(k, static_cast<int64_t>(d));  // byte/short: Spark narrows the int result
}

std::optional<double> parse_double_text(const std::string& text) {
  const std::string t = trim_whitespace(text);
  const std::string l = ascii_lower(t);
  if (l == "nan") return std::nan("");
  if (l == "infinity" || l == "+infinity" || l == "inf" || l == "+inf") return INFINITY;
  if (l == "-infinity" || l == "-inf") return -INFINITY;
  if (t.empty()) return std::nullopt;
  std::string body = t;
  if (body.back() == 'd' || body.back() == 'D' || body.back() == 'f' || body.back() == 'F') {
    body.pop_back();  // Java's parseDouble accepts a type suffix
  }
  if (body.empty() || body.find_first_of("xXnN") != std::string::npos) return std::nullopt;
  char* end = nullptr;
  const double d = std::strtod(body.c_str(), &end);
  if (end != body.c_str() + body.size()) return std::nullopt;
  return d;
}

std::optional<Decimal> parse_decimal_text(const std::string& text) {
  try {
    return parse_decimal(trim_whitespace(text));
  } catch (const std::invalid_argument&) {
    return std::nullopt;
  }
}

Decimal decimal_of_double(double d) {
  // Spark goes through Double.toString: the shortest text that reads back as d.
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, d);
  return parse_decimal(std::string(buf, r.ptr));
}

std::string java_floating_string(double d, bool is_float) {
  if (std::isnan(d)) return "NaN";
  if (std::isinf(d)) return d > 0 ? "Infinity" : "-Infinity";
  if (d == 0) return std::signbit(d) ? "-0.0" : "0.0";
  char buf[64];
  auto r = is_float ? std::to_chars(buf, buf + sizeof buf, static_cast<float>(d),
                                    std::chars_format::scientific)
                    : std::to_chars(buf, buf + sizeof buf, d, std::chars_format::scientific);
  const std::string sci(buf, r.ptr);  // "-1.2345e+07"
  const size_t e = sci.find('e');
  const int exponent = std::stoi(sci.substr(e + 1));
  std::string digits;
  for (size_t i = 0; i < e; ++i) {
    if (std::isdigit(static_cast<unsigned char>(sci[i]))) digits += sci[i];
  }
  const std::string sign = d < 0 ? "-" : "";
  if (std::fabs(d) >= 1e-3 && std::fabs(d) < 1e7) {
    std::string plain;
    if (exponent < 0) {
      plain = "0." + std::string(-exponent - 1, '0') + digits;
    } else {
      const size_t whole = static_cast<size_t>(exponent) + 1;
      if (digits.size() <= whole) digits += std::string(whole - digits.size(), '0');
      plain = digits.substr(0, whole) + "." + (digits.size() > whole ? digits.substr(whole) : "0");
    }
    return sign + plain;
  }
  return sign + digits.substr(0, 1) + "." + (digits.size() > 1 ? digits.substr(1) : "0") + "E" +
         std::to_string(exponent);
}

std::string spark_timestamp_string(int64_t micros) {
  std::string s = format_timestamp(micros, TimestampFormat{' ', 0, false});
  if (s.find('.') != std::string::npos) {
    while (s.back() == '0') s.pop_back();  // Spark trims trailing fraction zeros
  }
  return s;
}

std::optional<bool> boolean_of_text(const std::string& text) {
  const std::string l = ascii_lower(trim_whitespace(text));
  if (l == "t" || l == "true" || l == "y" || l == "yes" || l == "1") return true;
  if (l == "f" || l == "false" || l == "n" || l == "no" || l == "0") return false;
  return std::nullopt;
}

std::optional<Value> to_integral(const Value& v, TypeKind k) {
  const TypeKind from = v.type.kind;
  if (is_integral(from)) return Value::integral(k, wrap_to(k, v.as_int()));
  if (from == TypeKind::Boolean) return Value::integral(k, v.as_bool() ? 1 : 0);
  if (is_floating(from)) return Value::integral(k, saturating_double_to(k, v.as_double()));
  if (from == TypeKind::Decimal) {
    const Decimal& d = v.as_decimal();
    __int128 whole = d.unscaled;
    for (int i = 0; i < d.scale; ++i) whole /= 10;
    return Value::integral(k, wrap_to(k, static_cast<int64_t>(whole)));
  }
  if (from == TypeKind::String) {
    // Spark reads integral text, and truncates a decimal one ("12.7" -> 12); out of range: NULL.
    auto d = parse_decimal_text(v.as_string());
    if (!d || v.as_string().find_first_of("eE") != std::string::npos) return Value::null(DataType::of(k));
    __int128 whole = d->unscaled;
    for (int i = 0; i < d->scale; ++i) whole /= 10;
    if (whole < integral_min(k) || whole > integral_max(k)) return Value::null(DataType::of(k));
    return Value::integral(k, static_cast<int64_t>(whole));
  }
  if (from == TypeKind::Date || from == TypeKind::Timestamp) {
    // Spark: timestamps cast to integral as whole seconds; dates to numbers are NULL.
    if (from == TypeKind::Date) return Value::null(DataType::of(k));
    return Value::integral(k, wrap_to(k, floor_div(v.as_int(), 1'000'000)));
  }
  return std::nullopt;
}

std::optional<Value> to_floating(const Value& v, TypeKind k) {
  const TypeKind from = v.type.kind;
  if (is_numeric(from)) return Value::floating(k, to_double(v));
  if (from == TypeKind::Boolean) return Value::floating(k, v.as_bool() ? 1 : 0);
  if (from == TypeKind::String) {
    auto d = parse_double_text(v.as_string());
    return d ? Value::floating(k, *d) : Value::null(DataType::of(k));
  }
  if (from == TypeKind::Timestamp) return Value::floating(k, static_cast<double>(v.as_int()) / 1e6);
  return std::nullopt;
}

std::optional<Value> to_decimal_type(const Value& v, const DataType& to) {
  const TypeKind from = v.type.kind;
  std::optional<Decimal> exact;
  if (is_integral(from) || from == TypeKind::Decimal) exact = to_decimal(v);
  else if (from == TypeKind::Boolean) exact = Decimal{v.as_bool() ? 1 : 0, 0};
  else if (is_floating(from)) {
    if (std::isfinite(v.as_double())) exact = decimal_of_double(v.as_double());
  } else if (from == TypeKind::String) {
    exact = parse_decimal_text(v.as_string());
  } else {
    return std::nullopt;
  }
  if (!exact) return Value::null(to);
  auto rounded = round_decimal(*exact, to.scale, to.precision);
  return rounded ? Value::decimal(*rounded, to.precision) : Value::null(to);
}

std::optional<Value> to_temporal(const Value& v, const DataType& to) {
  const TypeKind from = v.type.kind;
  const TypeKind k = to.kind;
  if (is_temporal(from)) {
    const int64_t micros = from == TypeKind::Date ? v.as_int() * kMicrosPerDay : v.as_int();
    return Value::integral(k, k == TypeKind::Date ? floor_div(micros, kMicrosPerDay) : micros);
  }
  if (from == TypeKind::String) {
    const std::string text = trim_whitespace(v.as_string());
    std::optional<int64_t> parsed;
    if (k == TypeKind::Date) {
      // Spark reads the date part and ignores what follows a ' ' or 'T'.
      parsed = parse_date(text.substr(0, text.find_first_of(" T")));
    } else {
      parsed = parse_timestamp(text, k == TypeKind::Timestamp ? ZonePolicy::ConvertToUtc
                                                             : ZonePolicy::Reject);
    }
    return parsed ? Value::integral(k, *parsed) : Value::null(to);
  }
  return std::nullopt;
}

}  // namespace

double to_double(const Value& v) {
  if (is_integral(v.type.kind)) return static_cast<double>(v.as_int());
  if (is_floating(v.type.kind)) return v.as_double();
  return std::strtod(decimal_to_string(v.as_decimal()).c_str(), nullptr);
}

Decimal to_decimal(const Value& v) {
  if (is_integral(v.type.kind)) return Decimal{v.as_int(), 0};
  return v.as_decimal();
}

std::optional<Decimal> round_decimal(const Decimal& d, int scale, int precision) {
  Decimal out = d;
  if (scale >= d.scale) {
    auto widened = rescale_decimal(d, scale);
    if (!widened) return std::nullopt;
    out = *widened;
  } else {
    __int128 divisor = 1;
    for (int i = scale; i < d.scale; ++i) divisor *= 10;
    __int128 q = d.unscaled / divisor;
    const __int128 r = d.unscaled % divisor;
    if (2 * (r < 0 ? -r : r) >= divisor) q += d.unscaled < 0 ? -1 : 1;
    out = Decimal{q, scale};
  }
  if (!fits_precision(out, precision)) return std::nullopt;
  return out;
}

std::string spark_string_of(const Value& v) {
  switch (v.type.kind) {
    case TypeKind::Boolean: return v.as_bool() ? "true" : "false";
    case TypeKind::Float:
    case TypeKind::Double:
      return java_floating_string(v.as_double(), v.type.kind == TypeKind::Float);
    case TypeKind::Decimal: return decimal_to_string(v.as_decimal());
    case TypeKind::Date: return format_date(v.as_int());
    case TypeKind::Timestamp:
    case TypeKind::TimestampNtz: return spark_timestamp_string(v.as_int());
    case TypeKind::String:
    case TypeKind::Binary: return v.as_string();
    default: return std::to_string(v.as_int());
  }
}

std::optional<Value> cast_value(const Value& v, const DataType& to) {
  if (v.is_null()) return Value::null(to);
  if (v.type == to) return v;
  const TypeKind k = to.kind;
  const TypeKind from = v.type.kind;
  if (from == TypeKind::Array || from == TypeKind::Map || from == TypeKind::Struct) {
    return std::nullopt;
  }
  if (is_integral(k)) return to_integral(v, k);
  if (is_floating(k)) return to_floating(v, k);
  if (k == TypeKind::Decimal) return to_decimal_type(v, to);
  if (is_temporal(k)) return to_temporal(v, to);
  if (k == TypeKind::String) {
    if (from == TypeKind::Binary && !is_valid_utf8(v.as_string())) return std::nullopt;
    return Value::string(spark_string_of(v));
  }
  if (k == TypeKind::Binary && from == TypeKind::String) return Value::binary(v.as_string());
  if (k == TypeKind::Boolean) {
    if (is_integral(from)) return Value::boolean(v.as_int() != 0);
    if (is_floating(from)) return Value::boolean(v.as_double() != 0);
    if (from == TypeKind::Decimal) return Value::boolean(v.as_decimal().unscaled != 0);
    if (from == TypeKind::String) {
      auto b = boolean_of_text(v.as_string());
      return b ? Value::boolean(*b) : Value::null(to);
    }
  }
  return std::nullopt;
}

}  // namespace skipsound
