#include "smt/sym_value.h"

#include <cstdio>
#include <stdexcept>

#include "model/values/utf8.h"

namespace skipsound::smt {

namespace {

std::string int128_text(__int128 v) {
  if (v == 0) return "0";
  const bool negative = v < 0;
  unsigned __int128 magnitude = negative ? -static_cast<unsigned __int128>(v) : v;
  std::string digits;
  while (magnitude > 0) {
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(magnitude % 10)));
    magnitude /= 10;
  }
  return negative ? "-" + digits : digits;
}

z3::expr wrap(z3::context& ctx, Z3_ast a) {
  ctx.check_error();
  return z3::expr(ctx, a);
}

z3::expr fp_to_real(const z3::expr& f) { return wrap(f.ctx(), Z3_mk_fpa_to_real(f.ctx(), f)); }
z3::expr fp_is_infinite(const z3::expr& f) { return wrap(f.ctx(), Z3_mk_fpa_is_infinite(f.ctx(), f)); }
z3::expr fp_is_negative(const z3::expr& f) { return wrap(f.ctx(), Z3_mk_fpa_is_negative(f.ctx(), f)); }

z3::expr as_real(const SymValue& v) {
  return v.domain == Domain::Int ? z3::to_real(v.payload) : v.payload;
}

bool is_number(Domain d) { return d == Domain::Int || d == Domain::Real; }

// Spark order between a float f and an exact number n (as Real).
z3::expr float_equals_number(const z3::expr& f, const z3::expr& n) {
  return !fp_is_nan(f) && !fp_is_infinite(f) && fp_to_real(f) == n;
}
z3::expr float_below_number(const z3::expr& f, const z3::expr& n) {
  return (fp_is_infinite(f) && fp_is_negative(f)) ||
         (!fp_is_nan(f) && !fp_is_infinite(f) && fp_to_real(f) < n);
}
z3::expr number_below_float(const z3::expr& n, const z3::expr& f) {
  return fp_is_nan(f) || (fp_is_infinite(f) && !fp_is_negative(f)) ||
         (!fp_is_infinite(f) && fp_to_real(f) > n);
}

z3::expr code_in(const z3::expr& one_char, unsigned low, unsigned high) {
  return z3::in_re(one_char, z3::range(encode_code(one_char.ctx(), low), encode_code(one_char.ctx(), high)));
}

z3::expr string_prefix(z3::context& ctx, const std::vector<unsigned>& codes, size_t length) {
  std::string escaped;
  char buffer[16];
  for (size_t i = 0; i < length; ++i) {
    std::snprintf(buffer, sizeof buffer, "\\u{%x}", codes[i]);
    escaped += buffer;
  }
  return ctx.string_val(escaped);
}

// s < c (below = true) or c < s (below = false) for a constant c, lexicographically by code:
// s and c share the first i codes and differ at i, or one is a proper prefix of the other.
z3::expr compare_with_constant(const z3::expr& s, const std::vector<unsigned>& c, bool below) {
  z3::context& ctx = s.ctx();
  constexpr unsigned kTop = 0x2FFFF;
  const z3::expr whole = string_prefix(ctx, c, c.size());
  const z3::expr length = ctx.int_val(static_cast<int64_t>(c.size()));
  z3::expr result = below ? z3::prefixof(s, whole) && s.length() < length
                          : z3::prefixof(whole, s) && s.length() > length;
  for (size_t i = 0; i < c.size(); ++i) {
    if (below ? c[i] == 0 : c[i] >= kTop) continue;
    const z3::expr at = s.extract(ctx.int_val(static_cast<int64_t>(i)), ctx.int_val(1));
    const z3::expr differs = below ? code_in(at, 0, c[i] - 1) : code_in(at, c[i] + 1, kTop);
    result = result || (z3::prefixof(string_prefix(ctx, c, i), s) && differs);
  }
  return result;
}

[[noreturn]] void incomparable() { throw std::invalid_argument("smt: incomparable domains"); }

}  // namespace

z3::expr fp_is_nan(const z3::expr& f) { return wrap(f.ctx(), Z3_mk_fpa_is_nan(f.ctx(), f)); }

z3::expr str_less(const z3::expr& a, const z3::expr& b) {
  return wrap(a.ctx(), Z3_mk_str_lt(a.ctx(), a, b));
}

Domain domain_of(const DataType& t) {
  switch (t.kind) {
    case TypeKind::Boolean: return Domain::Bool;
    case TypeKind::Byte: case TypeKind::Short: case TypeKind::Int: case TypeKind::Long:
    case TypeKind::Date: case TypeKind::Timestamp: case TypeKind::TimestampNtz:
    case TypeKind::Null:
      return Domain::Int;
    case TypeKind::Decimal: return Domain::Real;
    case TypeKind::Float: case TypeKind::Double: return Domain::Float;
    case TypeKind::String: case TypeKind::Binary: return Domain::String;
    default: return Domain::Opaque;
  }
}

z3::sort payload_sort(z3::context& ctx, Domain d) {
  switch (d) {
    case Domain::Bool: return ctx.bool_sort();
    case Domain::Real: return ctx.real_sort();
    case Domain::Float: return ctx.fpa_sort<64>();
    case Domain::String: return ctx.string_sort();
    default: return ctx.int_sort();
  }
}

namespace {

// A sequence-encoded column against a constant or another sequence; anything else with a sequence
// is not encodable.
z3::expr sequence_equal(const SymValue& a, const SymValue& b) {
  if (a.sequence && b.sequence) return sequences_equal(*a.sequence, *b.sequence);
  if (a.sequence && b.constant_codes) return sequence_equals(*a.sequence, *b.constant_codes);
  if (b.sequence && a.constant_codes) return sequence_equals(*b.sequence, *a.constant_codes);
  incomparable();
}

z3::expr sequence_less(const SymValue& a, const SymValue& b) {
  if (a.sequence && b.sequence) return sequences_below(*a.sequence, *b.sequence);
  if (a.sequence && b.constant_codes) return sequence_below(*a.sequence, *b.constant_codes);
  if (b.sequence && a.constant_codes) return sequence_above(*b.sequence, *a.constant_codes);
  incomparable();
}

}  // namespace

z3::expr sym_equal(const SymValue& a, const SymValue& b) {
  if (a.sequence || b.sequence) return sequence_equal(a, b);
  if (a.domain == Domain::Float && b.domain == Domain::Float)
    return (fp_is_nan(a.payload) && fp_is_nan(b.payload)) ||
           wrap(a.payload.ctx(), Z3_mk_fpa_eq(a.payload.ctx(), a.payload, b.payload));
  if (a.domain == Domain::Float && is_number(b.domain)) return float_equals_number(a.payload, as_real(b));
  if (b.domain == Domain::Float && is_number(a.domain)) return float_equals_number(b.payload, as_real(a));
  if (is_number(a.domain) && is_number(b.domain)) return as_real(a) == as_real(b);
  if (a.domain != b.domain || a.domain == Domain::Opaque) incomparable();
  return a.payload == b.payload;
}

z3::expr sym_less(const SymValue& a, const SymValue& b) {
  if (a.sequence || b.sequence) return sequence_less(a, b);
  if (a.domain == Domain::Float && b.domain == Domain::Float)
    return (!fp_is_nan(a.payload) && fp_is_nan(b.payload)) ||
           wrap(a.payload.ctx(), Z3_mk_fpa_lt(a.payload.ctx(), a.payload, b.payload));
  if (a.domain == Domain::Float && is_number(b.domain)) return float_below_number(a.payload, as_real(b));
  if (b.domain == Domain::Float && is_number(a.domain)) return number_below_float(as_real(a), b.payload);
  if (a.domain == Domain::Int && b.domain == Domain::Int) return a.payload < b.payload;
  if (is_number(a.domain) && is_number(b.domain)) return as_real(a) < as_real(b);
  if (a.domain != b.domain) incomparable();
  switch (a.domain) {
    case Domain::Bool: return !a.payload && b.payload;
    case Domain::String:
      if (b.constant_codes) return compare_with_constant(a.payload, *b.constant_codes, true);
      if (a.constant_codes) return compare_with_constant(b.payload, *a.constant_codes, false);
      return str_less(a.payload, b.payload);
    default: incomparable();
  }
}

z3::expr sym_has_prefix(const SymValue& v, const std::vector<unsigned>& prefix) {
  if (v.sequence) return sequence_has_prefix(*v.sequence, prefix);
  return z3::prefixof(string_prefix(v.payload.ctx(), prefix, prefix.size()), v.payload);
}

z3::expr encode_code(z3::context& ctx, unsigned code) {
  char escaped[16];
  std::snprintf(escaped, sizeof escaped, "\\u{%x}", code);
  return ctx.string_val(escaped);
}

z3::expr encode_string(z3::context& ctx, const std::string& utf8, const CodePointMap& alphabet) {
  std::string escaped;
  char buffer[16];
  for (const char32_t c : decode_utf8(utf8)) {
    std::snprintf(buffer, sizeof buffer, "\\u{%x}", alphabet.encode(c));
    escaped += buffer;
  }
  return ctx.string_val(escaped);
}

namespace {

z3::expr encode_bytes(z3::context& ctx, const std::string& bytes) {
  std::string escaped;
  char buffer[16];
  for (const char b : bytes) {
    std::snprintf(buffer, sizeof buffer, "\\u{%x}", static_cast<unsigned char>(b));
    escaped += buffer;
  }
  return ctx.string_val(escaped);
}

z3::expr encode_payload(z3::context& ctx, const Value& v, const CodePointMap& alphabet) {
  switch (v.type.kind) {
    case TypeKind::Boolean: return ctx.bool_val(v.as_bool());
    case TypeKind::Decimal: {
      const Decimal& d = v.as_decimal();
      __int128 denominator = 1;
      for (int i = 0; i < d.scale; ++i) denominator *= 10;
      return ctx.real_val((int128_text(d.unscaled) + "/" + int128_text(denominator)).c_str());
    }
    case TypeKind::Float: case TypeKind::Double: return ctx.fpa_val(v.as_double());
    case TypeKind::String: return encode_string(ctx, v.as_string(), alphabet);
    case TypeKind::Binary: return encode_bytes(ctx, v.as_string());
    default:
      if (is_int64_backed(v.type.kind)) return ctx.int_val(static_cast<int64_t>(v.as_int()));
      throw std::invalid_argument("smt: cannot encode a value of type " + type_name(v.type));
  }
}

}  // namespace

SymValue encode_literal(z3::context& ctx, const Value& v, const CodePointMap& alphabet) {
  const Domain d = domain_of(v.type);
  if (v.is_null())
    return {ctx.bool_val(true), ctx.constant("null_payload", payload_sort(ctx, d)), d};
  SymValue value{ctx.bool_val(false), encode_payload(ctx, v, alphabet), d};
  if (v.type.kind == TypeKind::String) {
    value.constant_codes.emplace();
    for (const char32_t c : decode_utf8(v.as_string())) value.constant_codes->push_back(alphabet.encode(c));
  } else if (v.type.kind == TypeKind::Binary) {
    value.constant_codes.emplace();
    for (const char b : v.as_string()) value.constant_codes->push_back(static_cast<unsigned char>(b));
  }
  return value;
}

}  // namespace skipsound::smt
