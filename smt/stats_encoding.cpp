#include "smt/stats_encoding.h"

#include "smt/expr_encoding.h"
#include "model/values/utf8.h"

namespace skipsound::smt {

namespace {

void collect_value(const std::optional<Value>& v, std::set<char32_t>& out) {
  if (v && !v->is_null() && v->type.kind == TypeKind::String)
    for (const char32_t c : decode_utf8(v->as_string())) out.insert(c);
}

// lower <= value (Spark order); value non-null.
z3::expr at_least(const SymValue& value, const Value& lower, const CodePointMap& alphabet) {
  return !sym_less(value, encode_literal(value.is_null.ctx(), lower, alphabet));
}
z3::expr at_most(const SymValue& value, const Value& upper, bool strict, const CodePointMap& alphabet) {
  const SymValue bound = encode_literal(value.is_null.ctx(), upper, alphabet);
  return strict ? sym_less(value, bound) : !sym_less(bound, value);
}

z3::expr in_range(const SymValue& value, const ValueRange& r, const CodePointMap& alphabet) {
  z3::context& ctx = value.is_null.ctx();
  z3::expr inside = ctx.bool_val(true);
  if (r.lower) inside = inside && at_least(value, *r.lower, alphabet);
  if (r.upper) inside = inside && at_most(value, *r.upper, r.upper_strict, alphabet);
  if (r.prefix)
    inside = inside && sym_has_prefix(value, *encode_literal(ctx, Value::string(*r.prefix), alphabet).constant_codes);
  return inside;
}

}  // namespace

void collect_code_points(const RowAllowance& allowance, std::set<char32_t>& out) {
  for (const ColumnAllowance& a : allowance.columns) {
    collect_value(a.lower, out);
    collect_value(a.upper, out);
    for (const ValueRange& r : a.realise_one_of) {
      collect_value(r.lower, out);
      collect_value(r.upper, out);
      if (r.prefix) collect_value(Value::string(*r.prefix), out);
    }
  }
}

std::vector<LabelledAssertion> encode_allowance(const RowAllowance& allowance, RowSymbols& row,
                                                const CodePointMap& alphabet) {
  std::vector<LabelledAssertion> out;
  for (const std::optional<std::string>& nothing : {allowance.impossible, allowance.no_row}) {
    if (!nothing) continue;
    out.push_back({row.context().bool_val(false), *nothing});
    return out;
  }
  for (const ColumnAllowance& a : allowance.columns) {
    const SymValue& v = row.column(a.leaf);
    if (!a.null_allowed) out.push_back({!v.is_null, a.null_label});
    if (!a.value_allowed) out.push_back({v.is_null, a.value_label});
    if (!a.value_allowed) continue;
    if (a.lower) out.push_back({z3::implies(!v.is_null, at_least(v, *a.lower, alphabet)), a.lower_label});
    if (a.upper)
      out.push_back({z3::implies(!v.is_null, at_most(v, *a.upper, a.upper_strict, alphabet)), a.upper_label});
    if (a.realise_one_of.empty()) continue;
    z3::expr any = v.is_null.ctx().bool_val(false);
    for (const ValueRange& r : a.realise_one_of) any = any || in_range(v, r, alphabet);
    out.push_back({z3::implies(!v.is_null, any), a.realise_label});
  }
  return out;
}

}  // namespace skipsound::smt
