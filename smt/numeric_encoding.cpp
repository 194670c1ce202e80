#include "smt/numeric_encoding.h"

#include <algorithm>
#include <cstdint>

namespace skipsound::smt {

namespace {

z3::expr wrap(z3::context& ctx, Z3_ast a) {
  ctx.check_error();
  return z3::expr(ctx, a);
}

bool is_null_constant(const SymValue& v) { return v.is_null.is_true(); }

z3::expr zero_payload(z3::context& ctx, Domain d) {
  switch (d) {
    case Domain::Bool: return ctx.bool_val(false);
    case Domain::Real: return ctx.real_val(0);
    case Domain::Float: return ctx.fpa_val(0.0);
    case Domain::String: return ctx.string_val("");
    default: return ctx.int_val(0);
  }
}

SymValue null_of(z3::context& ctx, const DataType& type) {
  const Domain d = domain_of(type);
  return {ctx.bool_val(true), zero_payload(ctx, d), d};
}

z3::expr power_of_ten(z3::context& ctx, int exponent) {
  std::string digits(static_cast<size_t>(std::max(exponent, 0)) + 1, '0');
  digits[0] = '1';
  return ctx.int_val(digits.c_str());
}

z3::expr absolute(const z3::expr& x) { return z3::ite(x >= 0, x, -x); }

// Spark non-ANSI integer overflow: the exact result reduced into the type's two's-complement range.
z3::expr wrap_integral(const z3::expr& exact, TypeKind kind) {
  z3::context& ctx = exact.ctx();
  const __int128 span = static_cast<__int128>(integral_max(kind)) - integral_min(kind) + 1;
  const z3::expr modulus = ctx.int_val(static_cast<int64_t>(span / 2)) * 2;
  const z3::expr offset = ctx.int_val(static_cast<int64_t>(integral_min(kind)));
  return z3::mod(exact - offset, modulus) + offset;
}

z3::expr floor_of(const z3::expr& real) { return wrap(real.ctx(), Z3_mk_real2int(real.ctx(), real)); }

// Toward zero, as C++ and Java integer division and BigDecimal's whole part.
z3::expr truncate(const z3::expr& real) { return z3::ite(real >= 0, floor_of(real), -floor_of(-real)); }

// Half away from zero (model/sql/arithmetic.cpp divide_half_up, model/values/cast.cpp round_decimal).
z3::expr round_half_up(const z3::expr& real) {
  const z3::expr half = real.ctx().real_val(1, 2);
  return z3::ite(real >= 0, floor_of(real + half), -floor_of(-real + half));
}

z3::expr as_real(const SymValue& v) { return v.domain == Domain::Int ? z3::to_real(v.payload) : v.payload; }

// An exact number stored as decimal(p, s): rounded to s digits, NULL when it needs more than p.
SymValue to_decimal(const z3::expr& is_null, const z3::expr& exact, const DataType& to) {
  z3::context& ctx = exact.ctx();
  const z3::expr unscaled = round_half_up(exact * z3::to_real(power_of_ten(ctx, to.scale)));
  const z3::expr overflow = absolute(unscaled) >= power_of_ten(ctx, to.precision);
  return {is_null || overflow, z3::to_real(unscaled) / z3::to_real(power_of_ten(ctx, to.scale)), Domain::Real};
}

bool all_in(const std::vector<TypedValue>& operands, Domain d) {
  return std::all_of(operands.begin(), operands.end(), [d](const TypedValue& o) { return o.value.domain == d; });
}

z3::expr any_null(const std::vector<TypedValue>& operands) {
  z3::expr is_null = operands.front().value.is_null;
  for (const TypedValue& o : operands) is_null = is_null || o.value.is_null;
  return is_null;
}

std::optional<SymValue> integral_arithmetic(ArithOp op, const std::vector<TypedValue>& operands, TypeKind kind) {
  if (!all_in(operands, Domain::Int)) return std::nullopt;
  const z3::expr a = operands[0].value.payload;
  const z3::expr b = operands.size() > 1 ? operands[1].value.payload : a;
  z3::expr is_null = any_null(operands);
  switch (op) {
    case ArithOp::Neg: return SymValue{is_null, wrap_integral(-a, kind), Domain::Int};
    case ArithOp::Add: return SymValue{is_null, wrap_integral(a + b, kind), Domain::Int};
    case ArithOp::Sub: return SymValue{is_null, wrap_integral(a - b, kind), Domain::Int};
    case ArithOp::Mul: return SymValue{is_null, wrap_integral(a * b, kind), Domain::Int};
    case ArithOp::Mod: {
      // |a| mod |b| with the dividend's sign; within the type's range, so nothing wraps.
      const z3::expr magnitude = z3::mod(absolute(a), absolute(b));
      return SymValue{is_null || b == 0, z3::ite(a >= 0, magnitude, -magnitude), Domain::Int};
    }
    case ArithOp::Div: break;  // integral '/' is done in double (the binder's type)
  }
  return std::nullopt;
}

z3::expr rne(z3::context& ctx) { return wrap(ctx, Z3_mk_fpa_rne(ctx)); }

z3::expr fp_is_zero(const z3::expr& f) { return wrap(f.ctx(), Z3_mk_fpa_is_zero(f.ctx(), f)); }
z3::expr fp_neg(const z3::expr& f) { return wrap(f.ctx(), Z3_mk_fpa_neg(f.ctx(), f)); }
z3::expr fp_add(const z3::expr& a, const z3::expr& b) { return wrap(a.ctx(), Z3_mk_fpa_add(a.ctx(), rne(a.ctx()), a, b)); }

// A binary64 value stored as a float: rounded to binary32, then widened back exactly.
z3::expr through_float(const z3::expr& f) {
  z3::context& ctx = f.ctx();
  const z3::expr narrow = wrap(ctx, Z3_mk_fpa_to_fp_float(ctx, rne(ctx), f, ctx.fpa_sort<32>()));
  return wrap(ctx, Z3_mk_fpa_to_fp_float(ctx, rne(ctx), narrow, ctx.fpa_sort<64>()));
}

std::optional<SymValue> floating_arithmetic(ArithOp op, const std::vector<TypedValue>& operands, TypeKind kind) {
  if (!all_in(operands, Domain::Float)) return std::nullopt;
  z3::context& ctx = operands[0].value.payload.ctx();
  const z3::expr a = operands[0].value.payload;
  const z3::expr b = operands.size() > 1 ? operands[1].value.payload : a;
  z3::expr is_null = any_null(operands);
  z3::expr exact = a;
  switch (op) {
    case ArithOp::Neg: exact = fp_neg(a); break;
    case ArithOp::Add: exact = fp_add(a, b); break;
    case ArithOp::Sub: exact = wrap(ctx, Z3_mk_fpa_sub(ctx, rne(ctx), a, b)); break;
    case ArithOp::Mul: exact = wrap(ctx, Z3_mk_fpa_mul(ctx, rne(ctx), a, b)); break;
    case ArithOp::Div:
      exact = wrap(ctx, Z3_mk_fpa_div(ctx, rne(ctx), a, b));
      is_null = is_null || fp_is_zero(b);
      break;
    case ArithOp::Mod: return std::nullopt;  // see the header
  }
  return SymValue{is_null, kind == TypeKind::Float ? through_float(exact) : exact, Domain::Float};
}

std::optional<SymValue> decimal_arithmetic(ArithOp op, const std::vector<TypedValue>& operands, const DataType& result) {
  for (const TypedValue& o : operands)
    if (o.value.domain != Domain::Int && o.value.domain != Domain::Real) return std::nullopt;
  const z3::expr a = as_real(operands[0].value);
  const z3::expr b = operands.size() > 1 ? as_real(operands[1].value) : a;
  z3::expr is_null = any_null(operands);
  z3::expr exact = a;
  switch (op) {
    case ArithOp::Neg: exact = -a; break;
    case ArithOp::Add: exact = a + b; break;
    case ArithOp::Sub: exact = a - b; break;
    case ArithOp::Mul: exact = a * b; break;
    case ArithOp::Div:
      exact = a / b;
      is_null = is_null || b == 0;
      break;
    case ArithOp::Mod:
      exact = a - b * z3::to_real(truncate(a / b));
      is_null = is_null || b == 0;
      break;
  }
  return to_decimal(is_null, exact, result);
}

}  // namespace

std::optional<SymValue> encode_arithmetic(ArithOp op, const std::vector<TypedValue>& operands, const DataType& result) {
  z3::context& ctx = operands.front().value.is_null.ctx();
  for (const TypedValue& o : operands)
    if (is_null_constant(o.value)) return null_of(ctx, result);
  if (is_integral(result.kind)) return integral_arithmetic(op, operands, result.kind);
  if (is_floating(result.kind)) return floating_arithmetic(op, operands, result.kind);
  if (result.kind == TypeKind::Decimal) return decimal_arithmetic(op, operands, result);
  return std::nullopt;
}

std::optional<SymValue> encode_numeric_cast(const TypedValue& operand, const DataType& to) {
  const SymValue& v = operand.value;
  z3::context& ctx = v.is_null.ctx();
  if (is_null_constant(v)) return null_of(ctx, to);
  const TypeKind from = operand.type.kind;
  if (is_integral(from) && is_integral(to.kind)) return SymValue{v.is_null, wrap_integral(v.payload, to.kind), Domain::Int};
  if ((is_integral(from) || from == TypeKind::Decimal) && to.kind == TypeKind::Decimal)
    return to_decimal(v.is_null, as_real(v), to);
  if (from == TypeKind::Decimal && is_integral(to.kind))
    return SymValue{v.is_null, wrap_integral(truncate(v.payload), to.kind), Domain::Int};
  if (is_floating(from) && to.kind == TypeKind::Double) return SymValue{v.is_null, v.payload, Domain::Float};
  if (is_floating(from) && to.kind == TypeKind::Float) return SymValue{v.is_null, through_float(v.payload), Domain::Float};
  return std::nullopt;
}

}  // namespace skipsound::smt
