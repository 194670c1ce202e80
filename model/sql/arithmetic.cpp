#include "model/sql/arithmetic.h"

#include <algorithm>
#include <cmath>

#include <boost/multiprecision/cpp_int.hpp>

#include "model/values/cast.h"

namespace skipsound {

namespace {

using boost::multiprecision::cpp_int;

int kind_width(TypeKind k) {
  switch (k) {
    case TypeKind::Byte: return 1;
    case TypeKind::Short: return 2;
    case TypeKind::Int: return 3;
    default: return 4;
  }
}

int digits_of(const DataType& t) {
  if (t.kind == TypeKind::Decimal) return t.precision - t.scale;
  switch (t.kind) {  // Spark's DecimalType.forType: integral types as decimals
    case TypeKind::Byte: return 3;
    case TypeKind::Short: return 5;
    case TypeKind::Int: return 10;
    default: return 20;
  }
}

int scale_of(const DataType& t) { return t.kind == TypeKind::Decimal ? t.scale : 0; }

// Spark's DecimalPrecision rules, capped at 38 digits keeping at least 6 of scale.
DataType decimal_result(ArithOp op, const DataType& a, const DataType& b) {
  const int s1 = scale_of(a), s2 = scale_of(b);
  const int p1 = digits_of(a) + s1, p2 = digits_of(b) + s2;
  int precision = 0, scale = 0;
  switch (op) {
    case ArithOp::Add:
    case ArithOp::Sub:
      scale = std::max(s1, s2);
      precision = std::max(p1 - s1, p2 - s2) + scale + 1;
      break;
    case ArithOp::Mul:
      scale = s1 + s2;
      precision = p1 + p2 + 1;
      break;
    case ArithOp::Div:
      scale = std::max(6, s1 + p2 + 1);
      precision = p1 - s1 + s2 + scale;
      break;
    case ArithOp::Mod:
      scale = std::max(s1, s2);
      precision = std::min(p1 - s1, p2 - s2) + scale;
      break;
    case ArithOp::Neg:
      return a;
  }
  if (precision > kMaxDecimalPrecision) {
    const int whole = precision - scale;
    scale = std::max(kMaxDecimalPrecision - whole, std::min(scale, 6));
    precision = kMaxDecimalPrecision;
  }
  return DataType::decimal(precision, scale);
}

int64_t wrap(TypeKind k, uint64_t bits) {
  return wrap_to(k, static_cast<int64_t>(bits));  // modular since C++20
}

Value integral_arithmetic(ArithOp op, int64_t a, int64_t b, TypeKind k) {
  const auto ua = static_cast<uint64_t>(a), ub = static_cast<uint64_t>(b);
  switch (op) {
    case ArithOp::Add: return Value::integral(k, wrap(k, ua + ub));
    case ArithOp::Sub: return Value::integral(k, wrap(k, ua - ub));
    case ArithOp::Mul: return Value::integral(k, wrap(k, ua * ub));
    case ArithOp::Neg: return Value::integral(k, wrap(k, 0 - ua));
    case ArithOp::Div:
      if (b == 0) return Value::null(DataType::of(k));
      if (b == -1) return Value::integral(k, wrap(k, 0 - ua));  // MIN / -1 wraps
      return Value::integral(k, wrap(k, static_cast<uint64_t>(a / b)));
    case ArithOp::Mod:
      if (b == 0) return Value::null(DataType::of(k));
      if (b == -1) return Value::integral(k, 0);
      return Value::integral(k, wrap(k, static_cast<uint64_t>(a % b)));
  }
  return Value::null(DataType::of(k));
}

Value floating_arithmetic(ArithOp op, double a, double b, TypeKind k) {
  switch (op) {
    case ArithOp::Add: return Value::floating(k, a + b);
    case ArithOp::Sub: return Value::floating(k, a - b);
    case ArithOp::Mul: return Value::floating(k, a * b);
    case ArithOp::Neg: return Value::floating(k, -a);
    case ArithOp::Div:
      if (b == 0) return Value::null(DataType::of(k));
      return Value::floating(k, a / b);
    case ArithOp::Mod:
      if (b == 0) return Value::null(DataType::of(k));
      return Value::floating(k, std::fmod(a, b));
  }
  return Value::null(DataType::of(k));
}

cpp_int big(__int128 v) {
  const bool negative = v < 0;
  const unsigned __int128 m = negative ? -static_cast<unsigned __int128>(v)
                                       : static_cast<unsigned __int128>(v);
  cpp_int r = static_cast<uint64_t>(m >> 64);
  r <<= 64;
  r += static_cast<uint64_t>(m);
  return negative ? cpp_int(-r) : r;
}

cpp_int pow10_big(int n) { return boost::multiprecision::pow(cpp_int(10), n); }

// numerator / denominator rounded half away from zero.
cpp_int divide_half_up(const cpp_int& numerator, const cpp_int& denominator) {
  cpp_int q = numerator / denominator;  // truncates toward zero
  const cpp_int r = numerator % denominator;
  if (2 * abs(r) >= abs(denominator)) q += (numerator < 0) != (denominator < 0) ? -1 : 1;
  return q;
}

// An exact result `unscaled * 10^-scale` rounded into `result`, NULL when it does not fit.
Value decimal_from_big(const cpp_int& unscaled, int scale, const DataType& result) {
  cpp_int at_scale = unscaled;
  if (result.scale >= scale) at_scale *= pow10_big(result.scale - scale);
  else at_scale = divide_half_up(unscaled, pow10_big(scale - result.scale));
  if (abs(at_scale) >= pow10_big(result.precision)) return Value::null(result);
  return Value::decimal(Decimal{static_cast<__int128>(at_scale), result.scale}, result.precision);
}

Value decimal_arithmetic(ArithOp op, const Decimal& a, const Decimal& b, const DataType& result) {
  const int scale = std::max(a.scale, b.scale);
  const cpp_int ua = big(a.unscaled) * pow10_big(scale - a.scale);
  const cpp_int ub = big(b.unscaled) * pow10_big(scale - b.scale);
  switch (op) {
    case ArithOp::Add: return decimal_from_big(ua + ub, scale, result);
    case ArithOp::Sub: return decimal_from_big(ua - ub, scale, result);
    case ArithOp::Neg: return decimal_from_big(-big(a.unscaled), a.scale, result);
    case ArithOp::Mul: return decimal_from_big(big(a.unscaled) * big(b.unscaled), a.scale + b.scale, result);
    case ArithOp::Div: {
      if (ub == 0) return Value::null(result);
      // (ua / ub) at the result scale, rounded once: no double rounding.
      const cpp_int q = divide_half_up(ua * pow10_big(result.scale), ub);
      return decimal_from_big(q, result.scale, result);
    }
    case ArithOp::Mod:
      if (ub == 0) return Value::null(result);
      return decimal_from_big(ua % ub, scale, result);  // sign of the dividend, as Java's
  }
  return Value::null(result);
}

}  // namespace

DataType arithmetic_result_type(ArithOp op, const DataType& a, const DataType& b) {
  const DataType& other = op == ArithOp::Neg ? a : b;
  if (!is_numeric(a.kind) || !is_numeric(other.kind)) return DataType::of(TypeKind::Null);
  if (is_floating(a.kind) || is_floating(other.kind)) {
    // float op (float or integral) stays float, except '/', which Spark always does in double.
    const bool any_wider = a.kind == TypeKind::Double || other.kind == TypeKind::Double ||
                           a.kind == TypeKind::Decimal || other.kind == TypeKind::Decimal;
    return DataType::of(any_wider || op == ArithOp::Div ? TypeKind::Double : TypeKind::Float);
  }
  if (a.kind == TypeKind::Decimal || other.kind == TypeKind::Decimal) {
    return decimal_result(op, a, other);
  }
  if (op == ArithOp::Div) return DataType::of(TypeKind::Double);
  return kind_width(a.kind) >= kind_width(other.kind) ? DataType::of(a.kind)
                                                      : DataType::of(other.kind);
}

Value arithmetic(ArithOp op, const Value& a, const Value& b, const DataType& result) {
  const bool unary = op == ArithOp::Neg;
  if (a.is_null() || (!unary && b.is_null())) return Value::null(result);
  const Value& rhs = unary ? a : b;
  if (!is_numeric(a.type.kind) || !is_numeric(rhs.type.kind)) {
    throw std::invalid_argument("arithmetic on " + type_name(a.type));
  }
  const TypeKind k = result.kind;
  if (is_integral(k)) {
    // Operands of a wider kind (a binder's choice) are narrowed the way Spark's cast would.
    const auto as_int = [&](const Value& v) {
      return is_integral(v.type.kind) ? v.as_int() : cast_value(v, result)->as_int();
    };
    return integral_arithmetic(op, as_int(a), as_int(rhs), k);
  }
  if (is_floating(k)) return floating_arithmetic(op, to_double(a), to_double(rhs), k);
  if (k == TypeKind::Decimal) {
    if (is_floating(a.type.kind) || is_floating(rhs.type.kind)) {
      throw std::invalid_argument("decimal arithmetic on a floating operand");
    }
    return decimal_arithmetic(op, to_decimal(a), to_decimal(rhs), result);
  }
  throw std::invalid_argument("arithmetic result type " + type_name(result));
}

}  // namespace skipsound
