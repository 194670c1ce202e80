#include "smt/expr_encoding.h"

#include <cfloat>
#include <climits>
#include <stdexcept>

#include "smt/numeric_encoding.h"
#include "model/values/utf8.h"

namespace skipsound::smt {

namespace {

bool is_null_constant(const SymValue& v) { return v.is_null.is_true(); }

// 'abc%': the codes of its prefix (a starts-with test is cheaper for Z3 than a regex).
std::optional<std::vector<unsigned>> literal_prefix(const std::vector<LikeElement>& elements) {
  if (elements.empty() || elements.back().kind != LikeElementKind::AnyRun) return std::nullopt;
  std::vector<unsigned> codes;
  for (size_t i = 0; i + 1 < elements.size(); ++i) {
    if (elements[i].kind != LikeElementKind::Char) return std::nullopt;
    codes.push_back(elements[i].code_point);
  }
  return codes;
}

bool same_type(const DataType& a, const DataType& b) {
  return a.kind == b.kind && a.precision == b.precision && a.scale == b.scale;
}

// `condition ? a : b` on values of one domain (an untyped NULL takes the other's payload); nullopt
// for code-sequence strings, whose encodings do not merge.
std::optional<SymValue> choose(const z3::expr& condition, const SymValue& a, const SymValue& b) {
  if (a.sequence || b.sequence) return std::nullopt;
  if (is_null_constant(a) && is_null_constant(b)) return a;
  if (is_null_constant(a)) return SymValue{z3::ite(condition, a.is_null, b.is_null), b.payload, b.domain};
  if (is_null_constant(b)) return SymValue{z3::ite(condition, a.is_null, b.is_null), a.payload, a.domain};
  if (a.domain != b.domain || !z3::eq(a.payload.get_sort(), b.payload.get_sort())) return std::nullopt;
  return SymValue{z3::ite(condition, a.is_null, b.is_null), z3::ite(condition, a.payload, b.payload), a.domain};
}

constexpr int64_t kMicrosPerDay = 86400LL * 1000 * 1000;

}  // namespace

z3::expr truth_is_true(const SymValue& v) { return !v.is_null && v.payload; }
z3::expr truth_is_false(const SymValue& v) { return !v.is_null && !v.payload; }

SymValue truth_and(const SymValue& a, const SymValue& b) {
  const z3::expr is_false = truth_is_false(a) || truth_is_false(b);
  const z3::expr is_true = truth_is_true(a) && truth_is_true(b);
  return {!is_true && !is_false, is_true, Domain::Bool};
}

SymValue truth_or(const SymValue& a, const SymValue& b) {
  const z3::expr is_true = truth_is_true(a) || truth_is_true(b);
  const z3::expr is_false = truth_is_false(a) && truth_is_false(b);
  return {!is_true && !is_false, is_true, Domain::Bool};
}

SymValue truth_not(const SymValue& a) { return {a.is_null, !a.payload, Domain::Bool}; }

std::optional<SymValue> sym_compare(CompareOp op, const SymValue& a, const SymValue& b) {
  z3::context& ctx = a.is_null.ctx();
  if (op != CompareOp::NullSafeEq && (is_null_constant(a) || is_null_constant(b)))
    return SymValue{ctx.bool_val(true), ctx.bool_val(false), Domain::Bool};
  try {
    if (op == CompareOp::NullSafeEq) {
      if (is_null_constant(a) || is_null_constant(b))
        return SymValue{ctx.bool_val(false), a.is_null && b.is_null, Domain::Bool};
      const z3::expr both_null = a.is_null && b.is_null;
      const z3::expr equal = !a.is_null && !b.is_null && sym_equal(a, b);
      return SymValue{ctx.bool_val(false), both_null || equal, Domain::Bool};
    }
    const z3::expr is_null = a.is_null || b.is_null;
    switch (op) {
      case CompareOp::Eq: return SymValue{is_null, sym_equal(a, b), Domain::Bool};
      case CompareOp::Ne: return SymValue{is_null, !sym_equal(a, b), Domain::Bool};
      case CompareOp::Lt: return SymValue{is_null, sym_less(a, b), Domain::Bool};
      case CompareOp::Le: return SymValue{is_null, sym_less(a, b) || sym_equal(a, b), Domain::Bool};
      case CompareOp::Gt: return SymValue{is_null, sym_less(b, a), Domain::Bool};
      case CompareOp::Ge: return SymValue{is_null, sym_less(b, a) || sym_equal(a, b), Domain::Bool};
      default: break;
    }
  } catch (const std::invalid_argument&) {
  }
  return std::nullopt;
}

void collect_code_points(const Expr& e, std::set<char32_t>& out) {
  if (e.kind == ExprKind::Literal && e.literal.type.kind == TypeKind::String && !e.literal.is_null())
    for (const char32_t c : decode_utf8(e.literal.as_string())) out.insert(c);
  for (const ExprPtr& child : e.children) collect_code_points(*child, out);
}

ExprEncoder::ExprEncoder(z3::context& ctx, RowSymbols& row, const CodePointMap& alphabet)
    : ctx_(ctx), row_(row), alphabet_(alphabet) {}

SymValue ExprEncoder::truth(const z3::expr& is_null, const z3::expr& value) const {
  return {is_null, value, Domain::Bool};
}

z3::expr ExprEncoder::is_true(const Expr& predicate) { return truth_is_true(encode_truth(predicate)); }

// An untyped NULL (`x > 1 AND NULL`) stands where a truth value is expected: it is the NULL truth
// value, whatever sort its payload was given.
SymValue ExprEncoder::encode_truth(const Expr& e) {
  SymValue v = encode(e);
  if (v.domain == Domain::Bool) return v;
  if (is_null_constant(v)) return truth(ctx_.bool_val(true), ctx_.bool_val(false));
  throw std::invalid_argument("smt: a " + type_name(e.type) + " value where a truth value is expected");
}

SymValue ExprEncoder::encode(const Expr& e) {
  if (override_)
    if (std::optional<SymValue> overridden = override_(e)) return std::move(*overridden);
  switch (e.kind) {
    case ExprKind::Literal: return encode_literal(ctx_, e.literal, alphabet_);
    case ExprKind::Column:
      if (e.leaf < 0) throw std::invalid_argument("smt: unbound column " + path_to_sql(e.path));
      return row_.column(e.leaf);
    case ExprKind::Compare: return compare(e);
    case ExprKind::And: return truth_and(encode_truth(*e.children[0]), encode_truth(*e.children[1]));
    case ExprKind::Or: return truth_or(encode_truth(*e.children[0]), encode_truth(*e.children[1]));
    case ExprKind::Not: return truth_not(encode_truth(*e.children[0]));
    case ExprKind::IsNull: return truth(ctx_.bool_val(false), encode(*e.children[0]).is_null);
    case ExprKind::IsNotNull: return truth(ctx_.bool_val(false), !encode(*e.children[0]).is_null);
    case ExprKind::In: return in_list(e);
    case ExprKind::Like: return like(e);
    case ExprKind::Between: {
      const SymValue value = encode(*e.children[0]);
      const auto low = sym_compare(CompareOp::Ge, value, encode(*e.children[1]));
      const auto high = sym_compare(CompareOp::Le, value, encode(*e.children[2]));
      if (!low || !high) return fresh(e.type, "BETWEEN over incomparable types");
      return truth_and(*low, *high);
    }
    case ExprKind::Arith: return arithmetic(e);
    case ExprKind::Cast: return cast(e);
    case ExprKind::Call: return call(e);
    case ExprKind::RLike: return fresh(e.type, "RLIKE (regular expressions are not encoded)");
    case ExprKind::LikeAny: return like_quantified(e, true);
    case ExprKind::LikeAll: return like_quantified(e, false);
    case ExprKind::Case: return case_value(e);
    case ExprKind::InSubquery: return fresh(e.type, "a subquery (its rows are another scan's)");
  }
  return fresh(e.type, "unknown expression");
}

SymValue ExprEncoder::compare(const Expr& e) {
  const auto result = sym_compare(e.cmp_op, encode(*e.children[0]), encode(*e.children[1]));
  return result ? *result : fresh(e.type, "comparison of incomparable types");
}

SymValue ExprEncoder::in_list(const Expr& e) {
  const SymValue value = encode(*e.children[0]);
  z3::expr any_equal = ctx_.bool_val(false);
  z3::expr any_null = ctx_.bool_val(false);
  for (size_t i = 1; i < e.children.size(); ++i) {
    const SymValue item = encode(*e.children[i]);
    any_null = any_null || item.is_null;
    if (is_null_constant(item)) continue;
    const auto equal = sym_compare(CompareOp::Eq, value, item);
    if (!equal) return fresh(e.type, "IN over incomparable types");
    any_equal = any_equal || truth_is_true(*equal);
  }
  return truth(value.is_null || (!any_equal && any_null), any_equal);
}

SymValue ExprEncoder::like(const Expr& e) {
  const SymValue value = encode(*e.children[0]);
  const Expr& pattern = *e.children[1];
  if (pattern.kind != ExprKind::Literal || value.domain != Domain::String)
    return fresh(e.type, "LIKE with a non-literal pattern");
  if (pattern.literal.is_null() || is_null_constant(value)) return truth(ctx_.bool_val(true), ctx_.bool_val(false));
  std::optional<std::vector<LikeElement>> elements = parse_like_pattern(pattern.literal.as_string(), like_escape(e));
  if (!elements) return fresh(e.type, "LIKE pattern with an invalid escape");
  for (LikeElement& element : *elements)
    if (element.kind == LikeElementKind::Char) element.code_point = alphabet_.encode(element.code_point);
  if (value.sequence) {
    const std::optional<z3::expr> match = sequence_like(*value.sequence, *elements);
    if (!match) return fresh(e.type, "LIKE with an inner '%' on a sequence-encoded string");
    return truth(value.is_null, *match);
  }
  if (const auto prefix = literal_prefix(*elements)) return truth(value.is_null, sym_has_prefix(value, *prefix));
  return truth(value.is_null, z3::in_re(value.payload, like_regex(*elements)));
}

// LIKE ANY is the OR of its LIKEs, LIKE ALL their AND: the same truth values as Spark's LikeAny /
// LikeAll, NULL patterns included (docs/semantics.md §3.2).
SymValue ExprEncoder::like_quantified(const Expr& e, bool any) {
  std::optional<SymValue> combined;
  for (size_t i = 1; i < e.children.size(); ++i) {
    const SymValue one = like(*make_like(e.children[0], e.children[i]));
    combined = !combined ? one : any ? truth_or(*combined, one) : truth_and(*combined, one);
  }
  return *combined;
}

// A branch's value where the node's result is expected; nullopt when it would need a cast.
std::optional<SymValue> ExprEncoder::branch(const Expr& node, const Expr& branch) {
  if (branch.type.kind != TypeKind::Null && !same_type(branch.type, node.type)) return std::nullopt;
  return encode(branch);
}

SymValue ExprEncoder::case_value(const Expr& e) {
  const size_t n = e.children.size();
  std::optional<SymValue> result = n % 2 == 1 ? branch(e, *e.children[n - 1])
                                              : std::optional<SymValue>(encode_literal(ctx_, Value::null(e.type), alphabet_));
  for (size_t i = n - n % 2; result && i >= 2; i -= 2) {
    const std::optional<SymValue> then = branch(e, *e.children[i - 1]);
    if (!then) return fresh(e.type, "CASE with branches of different types");
    result = choose(is_true(*e.children[i - 2]), *then, *result);
  }
  return result ? *result : fresh(e.type, "CASE with branches of different types");
}

// The pattern as a regular expression over alphabet codes ('abc%' as a prefix test).
z3::expr ExprEncoder::like_regex(const std::vector<LikeElement>& elements) const {
  const z3::expr any_char = z3::range(encode_code(ctx_, 0), encode_code(ctx_, alphabet_.top_code()));
  z3::expr_vector parts(ctx_);
  for (const LikeElement& element : elements) {
    switch (element.kind) {
      case LikeElementKind::Char: parts.push_back(z3::to_re(encode_code(ctx_, element.code_point))); break;
      case LikeElementKind::AnyOne: parts.push_back(any_char); break;
      case LikeElementKind::AnyRun: parts.push_back(z3::star(any_char)); break;
    }
  }
  if (parts.empty()) return z3::to_re(ctx_.string_val(""));
  return parts.size() == 1 ? parts[0] : z3::concat(parts);
}

SymValue ExprEncoder::arithmetic(const Expr& e) {
  std::vector<TypedValue> operands;
  for (const ExprPtr& child : e.children) operands.push_back({encode(*child), child->type});
  if (std::optional<SymValue> exact = encode_arithmetic(e.arith_op, operands, e.type)) return std::move(*exact);
  std::string types;
  for (const ExprPtr& child : e.children) types += (types.empty() ? "" : ", ") + type_name(child->type);
  return fresh(e.type, std::string("arithmetic ") + arith_op_sql(e.arith_op) + " on " + types);
}

SymValue ExprEncoder::cast(const Expr& e) {
  const Expr& operand = *e.children[0];
  if (same_type(operand.type, e.cast_type)) return encode(operand);
  if (std::optional<SymValue> exact = encode_numeric_cast({encode(operand), operand.type}, e.cast_type))
    return std::move(*exact);
  return fresh(e.type, "CAST(" + type_name(operand.type) + " AS " + type_name(e.cast_type) + ")");
}

// A non-deterministic call may return any value of its type (rand() and random() one in [0, 1))
// and never NULL; each occurrence on its own. Deterministic calls and values the witness cannot
// carry (strings, arrays) stay unconstrained.
SymValue ExprEncoder::call(const Expr& e) {
  const Domain domain = domain_of(e.type);
  const bool replayable = domain == Domain::Bool || domain == Domain::Int ||
                          (domain == Domain::Float && e.type.kind == TypeKind::Double);
  if (e.deterministic && is_deterministic_function(e.function)) {
    if (std::optional<SymValue> exact = exact_call(e)) return std::move(*exact);
    return fresh(e.type, "function " + e.function + "()");
  }
  if (is_query_time_function(e.function)) return query_time(e);
  if (!replayable) return fresh(e.type, "function " + e.function + "() of type " + type_name(e.type));
  const std::string name = "call_" + std::to_string(calls_.size()) + "_" + e.function;
  z3::expr value = ctx_.constant(name.c_str(), payload_sort(ctx_, domain));
  if (domain == Domain::Int) {
    const bool date = e.type.kind == TypeKind::Date;
    const int64_t low = is_integral(e.type.kind) ? integral_min(e.type.kind) : date ? INT32_MIN : INT64_MIN;
    const int64_t high = is_integral(e.type.kind) ? integral_max(e.type.kind) : date ? INT32_MAX : INT64_MAX;
    value = z3::ite(ctx_.int_val(low) <= value && value <= ctx_.int_val(high), value, ctx_.int_val(0));
  } else if (domain == Domain::Float) {
    const bool unit = e.function == "rand" || e.function == "random";
    const z3::expr low = z3::expr(ctx_, Z3_mk_fpa_leq(ctx_, ctx_.fpa_val(unit ? 0.0 : -DBL_MAX), value));
    const z3::expr high = unit ? z3::expr(ctx_, Z3_mk_fpa_lt(ctx_, value, ctx_.fpa_val(1.0)))
                               : z3::expr(ctx_, Z3_mk_fpa_leq(ctx_, value, ctx_.fpa_val(DBL_MAX)));
    value = z3::ite(low && high, value, ctx_.fpa_val(0.0));
  }
  calls_.push_back({&e, SymValue{ctx_.bool_val(false), value, domain}});
  return calls_.back().value;
}

// The deterministic calls encoded exactly; nullopt for the rest (and for branches that need a cast).
std::optional<SymValue> ExprEncoder::exact_call(const Expr& e) {
  const std::string& f = e.function;
  const auto& c = e.children;
  if (f == "startswith" && c[1]->kind == ExprKind::Literal && !c[1]->literal.is_null()) {
    // startswith(s, 'p') is s LIKE 'p%' with p's wildcards and escapes escaped.
    std::string pattern;
    for (const char ch : c[1]->literal.as_string()) {
      if (ch == '%' || ch == '_' || ch == '\\') pattern += '\\';
      pattern += ch;
    }
    return like(*make_like(c[0], make_literal(Value::string(pattern + "%"))));
  }
  if (f == "coalesce" || f == "nvl" || f == "ifnull") {
    std::optional<SymValue> result = branch(e, *c.back());
    for (size_t i = c.size() - 1; result && i-- > 0;) {
      const std::optional<SymValue> candidate = branch(e, *c[i]);
      if (!candidate) return std::nullopt;
      result = choose(!candidate->is_null, *candidate, *result);
    }
    return result;
  }
  if (f == "if" || f == "nvl2") {
    const std::optional<SymValue> a = branch(e, *c[1]), b = branch(e, *c[2]);
    if (!a || !b) return std::nullopt;
    const z3::expr takes_first = f == "if" ? is_true(*c[0]) : !encode(*c[0]).is_null;
    return choose(takes_first, *a, *b);
  }
  if (f == "nullif") {
    const std::optional<SymValue> a = branch(e, *c[0]);
    if (!a || a->sequence) return std::nullopt;
    const std::optional<SymValue> equal = sym_compare(CompareOp::Eq, *a, encode(*c[1]));
    if (!equal) return std::nullopt;
    return SymValue{a->is_null || truth_is_true(*equal), a->payload, a->domain};
  }
  if ((f == "date_add" || f == "date_sub") && c[0]->type.kind == TypeKind::Date) {
    // Days as Spark's Int, then 32-bit wrapping arithmetic on the day number.
    const DataType int_type = DataType::of(TypeKind::Int);
    const std::optional<SymValue> days = same_type(c[1]->type, int_type)
                                             ? std::optional<SymValue>(encode(*c[1]))
                                             : encode_numeric_cast({encode(*c[1]), c[1]->type}, int_type);
    if (!days) return std::nullopt;
    return encode_arithmetic(f == "date_add" ? ArithOp::Add : ArithOp::Sub,
                             {{encode(*c[0]), int_type}, {*days, int_type}}, int_type);
  }
  return std::nullopt;
}

// One timestamp per query (Spark's ComputeCurrentTime), recorded per occurrence for the replay.
SymValue ExprEncoder::query_time(const Expr& e) {
  if (!query_timestamp_) {
    const z3::expr t = ctx_.int_const("query_current_timestamp");
    query_timestamp_ = z3::ite(ctx_.int_val(INT64_MIN) <= t && t <= ctx_.int_val(INT64_MAX), t, ctx_.int_val(0));
  }
  const z3::expr& t = *query_timestamp_;
  const z3::expr value = e.type.kind == TypeKind::Date ? t / ctx_.int_val(kMicrosPerDay) : t;
  calls_.push_back({&e, SymValue{ctx_.bool_val(false), value, Domain::Int}});
  return calls_.back().value;
}

SymValue ExprEncoder::fresh(const DataType& type, const std::string& why) {
  approximations_.insert(why);
  const std::string name = "unconstrained_" + std::to_string(fresh_count_++);
  const Domain domain = domain_of(type);
  return {ctx_.bool_const((name + "_is_null").c_str()),
          ctx_.constant(name.c_str(), payload_sort(ctx_, domain)), domain};
}

}  // namespace skipsound::smt
