#include "checker/skipping_expr.h"

#include <cmath>
#include <limits>
#include <stdexcept>

#include "model/coverage/coverage.h"
#include "model/mutants/fault_injection.h"
#include "model/stats/string_truncation.h"
#include "model/values/temporal.h"
#include "model/values/utf8.h"

namespace skipsound {

namespace {

SkipExprPtr make_node(SkipKind kind, std::vector<SkipExprPtr> children) {
  auto e = std::make_shared<SkipExpr>();
  e->kind = kind;
  e->children = std::move(children);
  return e;
}

int64_t saturating_add(int64_t a, int64_t b) {
  if (a > std::numeric_limits<int64_t>::max() - b) return std::numeric_limits<int64_t>::max();
  return a + b;
}

bool is_nan(const Value& v) {
  return std::holds_alternative<double>(v.data) && std::isnan(v.as_double());
}

Value boolean_or_null(Truth t) {
  return t == Truth::Null ? Value::null(DataType::of(TypeKind::Boolean)) : Value::boolean(t == Truth::True);
}

bool holds(std::strong_ordering order, CompareOp op) {
  switch (op) {
    case CompareOp::Eq:
    case CompareOp::NullSafeEq: return order == 0;
    case CompareOp::Ne: return order != 0;
    case CompareOp::Lt: return order < 0;
    case CompareOp::Le: return order <= 0;
    case CompareOp::Gt: return order > 0;
    case CompareOp::Ge: return order >= 0;
  }
  return false;
}

Truth compare_values(CompareOp op, const Value& lhs, const Value& rhs) {
  if (op == CompareOp::NullSafeEq && (lhs.is_null() || rhs.is_null())) {
    return truth_of(lhs.is_null() && rhs.is_null());
  }
  if (lhs.is_null() || rhs.is_null()) return Truth::Null;
  // The mutant's deviation: IEEE order, where every comparison with NaN is false.
  if (fault_active(Mutant::IeeeNanOrder) && (is_nan(lhs) || is_nan(rhs))) {
    return truth_of(op == CompareOp::Ne);
  }
  return truth_of(holds(*spark_compare(lhs, rhs), op));
}

Value substr_value(const Value& v, int length) {
  if (v.is_null()) return Value::null(DataType::of(TypeKind::String));
  if (v.type.kind != TypeKind::String) throw std::invalid_argument("substr of a non-string stat");
  return Value::string(truncate_string_min(v.as_string(), length));
}

bool needs_parentheses(const SkipExpr& child) {
  return child.kind == SkipKind::And || child.kind == SkipKind::Or;
}

// Appends the SQL text of `e`, stopping once `out` reaches `limit` bytes: a trace shows the text
// of every node, and printing each node's whole subtree would make a long chain quadratic.
void append_expression_text(const SkipExpr& e, const Schema& schema, std::string& out, size_t limit) {
  if (out.size() >= limit) return;
  auto operand = [&](const SkipExprPtr& c) {
    const bool parenthesised = needs_parentheses(*c);
    if (parenthesised) out += "(";
    append_expression_text(*c, schema, out, limit);
    if (parenthesised) out += ")";
  };
  switch (e.kind) {
    case SkipKind::Literal: out += to_sql_literal(e.literal); return;
    case SkipKind::Stat: out += to_string(e.stat, schema); return;
    case SkipKind::Compare:
      operand(e.children[0]);
      out += std::string(" ") + compare_op_sql(e.op) + " ";
      operand(e.children[1]);
      return;
    case SkipKind::Substr:
      out += "substr(";
      append_expression_text(*e.children[0], schema, out, limit);
      out += ", 1, " + std::to_string(e.length) + ")";
      return;
    case SkipKind::And:
    case SkipKind::Or:
      operand(e.children[0]);
      out += e.kind == SkipKind::And ? " AND " : " OR ";
      operand(e.children[1]);
      return;
    case SkipKind::Not:
      out += "NOT (";
      append_expression_text(*e.children[0], schema, out, limit);
      out += ")";
      return;
  }
  out += "?";
}

std::string expression_text(const SkipExpr& e, const Schema& schema,
                            size_t limit = std::numeric_limits<size_t>::max()) {
  std::string out;
  append_expression_text(e, schema, out, limit);
  if (out.size() <= limit) return out;
  while (limit > 0 && is_utf8_continuation(out[limit])) --limit;  // never split a character
  out.resize(limit);
  return out + "...";
}

// A trace node's text is for reading, so it is cut to a screenful.
constexpr size_t kTraceTextLimit = 400;

void collect_rules(const SkipExpr& e, uint64_t& rules) {
  rules |= e.rules;  // mutation: off (coverage bookkeeping: which rules a skip credits)
  for (const SkipExprPtr& child : e.children) collect_rules(*child, rules);  // mutation: off (coverage bookkeeping)
}

const Value& null_value() {
  static const Value null = Value::null();
  return null;
}

// A stat without copying it where possible: the stored min/max itself, or `scratch` filled with
// a computed value (counts, the bumped timestamp max). NULL when the file lacks the stat.
const Value& stat_value(const StatRef& s, const StatReadContext& ctx, Value& scratch) {
  if (s.kind == StatKind::NumRecords) {
    if (!ctx.stats.num_records) return null_value();
    int64_t n = *ctx.stats.num_records;
    // The trust-wide-nullcount mutant's deviation: wide stats' nullCount taken as a count of
    // live rows, so it is compared against the live row count instead of the physical one.
    if (fault_active(Mutant::TrustWideNullcount) && ctx.stats.wide()) n -= ctx.dv_cardinality;
    return scratch = Value::integral(TypeKind::Long, n);
  }
  const ColumnStats& column = ctx.stats.column(s.leaf);
  if (s.kind == StatKind::NullCount) {
    if (!column.null_count) return null_value();
    if (ctx.stats.wide()) coverage::hit(coverage::Probe::ReaderWideNullCount);
    return scratch = Value::integral(TypeKind::Long, *column.null_count);
  }
  const std::optional<Value>& bound = s.kind == StatKind::Min ? column.min : column.max;
  if (!bound || bound->is_null()) return null_value();
  if (s.kind == StatKind::Max && is_timestamp(bound->type.kind) &&
      !fault_active(Mutant::NoTimestampMaxBump)) {
    coverage::hit(coverage::Probe::ReaderTimestampMaxBump);
    return scratch = Value::integral(bound->type.kind, saturating_add(bound->as_int(), kMicrosPerMilli));
  }
  return *bound;
}

// One evaluator for both the hot path and the explained path; Trace=false builds no text and
// copies no values. Predicates evaluate to a Truth, operands to a Value.
template <bool Trace>
Truth evaluate_truth(const SkipExpr& e, const StatReadContext& ctx, SkipTrace* trace);

template <bool Trace>
const Value& evaluate_operand(const SkipExpr& e, const StatReadContext& ctx, Value& scratch,
                              SkipTrace* trace) {
  const Value* result = &scratch;
  switch (e.kind) {
    case SkipKind::Literal:
      result = &e.literal;
      if constexpr (Trace) trace->text = expression_text(e, ctx.schema, kTraceTextLimit);
      break;
    case SkipKind::Stat:
      result = &stat_value(e.stat, ctx, scratch);
      if constexpr (Trace) trace->text = expression_text(e, ctx.schema, kTraceTextLimit);
      break;
    case SkipKind::Substr: {
      if constexpr (Trace) {
        trace->text = expression_text(e, ctx.schema, kTraceTextLimit);
        trace->children.resize(1);
      }
      Value inner;
      scratch = substr_value(evaluate_operand<Trace>(*e.children[0], ctx, inner,
                                                     Trace ? &trace->children[0] : nullptr),
                             e.length);
      break;
    }
    default: scratch = boolean_or_null(evaluate_truth<Trace>(e, ctx, trace)); return scratch;
  }
  if constexpr (Trace) trace->value = *result;
  return *result;
}

template <bool Trace>
Truth evaluate_truth(const SkipExpr& e, const StatReadContext& ctx, SkipTrace* trace) {
  if constexpr (Trace) {
    trace->text = expression_text(e, ctx.schema, kTraceTextLimit);
    trace->children.resize(e.children.size());
  }
  auto child_trace = [&](size_t i) { return Trace ? &trace->children[i] : nullptr; };
  auto child = [&](size_t i) { return evaluate_truth<Trace>(*e.children[i], ctx, child_trace(i)); };
  Truth result = Truth::Null;
  switch (e.kind) {
    case SkipKind::Compare: {
      Value lhs_scratch;
      Value rhs_scratch;
      const Value& lhs = evaluate_operand<Trace>(*e.children[0], ctx, lhs_scratch, child_trace(0));
      const Value& rhs = evaluate_operand<Trace>(*e.children[1], ctx, rhs_scratch, child_trace(1));
      result = compare_values(e.op, lhs, rhs);
      break;
    }
    case SkipKind::And: result = truth_and(child(0), child(1)); break;
    case SkipKind::Or: result = truth_or(child(0), child(1)); break;
    case SkipKind::Not: result = truth_not(child(0)); break;
    case SkipKind::Literal: result = truth_of_value(e.literal); break;
    case SkipKind::Stat:
    case SkipKind::Substr:
      throw std::invalid_argument("a skipping expression used a non-boolean value as a predicate");
  }
  if constexpr (Trace) trace->value = boolean_or_null(result);
  return result;
}

}  // namespace

SkipExprPtr skip_literal(Value v) {
  auto e = std::make_shared<SkipExpr>();
  e->kind = SkipKind::Literal;
  e->literal = std::move(v);
  return e;
}

SkipExprPtr skip_stat(StatKind kind, int leaf) {
  auto e = std::make_shared<SkipExpr>();
  e->kind = SkipKind::Stat;
  e->stat = StatRef{kind, kind == StatKind::NumRecords ? -1 : leaf};
  return e;
}

SkipExprPtr skip_compare(CompareOp op, SkipExprPtr lhs, SkipExprPtr rhs) {
  auto e = std::make_shared<SkipExpr>();
  e->kind = SkipKind::Compare;
  e->op = op;
  e->children = {std::move(lhs), std::move(rhs)};
  return e;
}

SkipExprPtr skip_substr(SkipExprPtr operand, int length) {
  auto e = std::make_shared<SkipExpr>();
  e->kind = SkipKind::Substr;
  e->length = length;
  e->children = {std::move(operand)};
  return e;
}

SkipExprPtr skip_and(SkipExprPtr lhs, SkipExprPtr rhs) {
  return make_node(SkipKind::And, {std::move(lhs), std::move(rhs)});
}
SkipExprPtr skip_or(SkipExprPtr lhs, SkipExprPtr rhs) {
  return make_node(SkipKind::Or, {std::move(lhs), std::move(rhs)});
}
SkipExprPtr skip_not(SkipExprPtr operand) { return make_node(SkipKind::Not, {std::move(operand)}); }

uint64_t skip_rule_bit(coverage::Probe rule) {
  return uint64_t{1} << (static_cast<int>(rule) - static_cast<int>(coverage::Probe::RuleLiteralsOnly));
}

SkipExprPtr built_by(coverage::Probe rule, SkipExprPtr e) {
  coverage::hit(rule);
  if (!e) return e;
  auto tagged = std::make_shared<SkipExpr>(*e);
  tagged->rules |= skip_rule_bit(rule);  // mutation: off (coverage bookkeeping)
  return tagged;
}

void credit_skip(const SkipExpr& e) {
  uint64_t rules = 0;
  collect_rules(e, rules);  // mutation: off (coverage bookkeeping)
  for (int p = static_cast<int>(coverage::Probe::RuleLiteralsOnly); p <= static_cast<int>(coverage::Probe::RuleNoMinMax); ++p) {
    if (rules & skip_rule_bit(static_cast<coverage::Probe>(p))) coverage::decided_skip(static_cast<coverage::Probe>(p));
  }
}

std::set<StatRef> referenced_stats(const SkipExprPtr& e) {
  std::set<StatRef> refs;
  auto visit = [&refs](const auto& self, const SkipExpr& node) -> void {
    if (node.kind == SkipKind::Stat) {
      refs.insert(node.stat);
      if (node.stat.kind == StatKind::Min || node.stat.kind == StatKind::Max) {
        refs.insert(StatRef{StatKind::NullCount, node.stat.leaf});
        refs.insert(StatRef{StatKind::NumRecords, -1});
      }
    }
    for (const auto& c : node.children) self(self, *c);
  };
  if (e) visit(visit, *e);
  return refs;
}

Value read_stat(const StatRef& s, const StatReadContext& ctx) {
  Value scratch;
  const Value& v = stat_value(s, ctx, scratch);
  if (!v.is_null()) return v;
  const bool is_count = s.kind == StatKind::NumRecords || s.kind == StatKind::NullCount;
  return Value::null(is_count ? DataType::of(TypeKind::Long) : ctx.schema.leaves().at(s.leaf).type);
}

Truth truth_of_value(const Value& v) {
  if (v.is_null()) return Truth::Null;
  if (!std::holds_alternative<bool>(v.data)) {
    throw std::invalid_argument("a skipping expression used a non-boolean value as a predicate");
  }
  return truth_of(v.as_bool());
}

Value evaluate_skip(const SkipExpr& e, const StatReadContext& ctx) {
  Value scratch;
  return evaluate_operand<false>(e, ctx, scratch, nullptr);
}

Value evaluate_skip_traced(const SkipExpr& e, const StatReadContext& ctx, SkipTrace& trace) {
  Value scratch;
  return evaluate_operand<true>(e, ctx, scratch, &trace);
}

Truth evaluate_skip_truth(const SkipExpr& e, const StatReadContext& ctx) {
  return evaluate_truth<false>(e, ctx, nullptr);
}

std::string to_string(const StatRef& s, const Schema& schema) {
  if (s.kind == StatKind::NumRecords) return "numRecords";
  const char* name = s.kind == StatKind::Min ? "min" : s.kind == StatKind::Max ? "max" : "nullCount";
  const bool known = s.leaf >= 0 && s.leaf < static_cast<int>(schema.leaves().size());
  std::string text = name;
  text += '(';
  text += known ? path_to_sql(schema.leaves()[s.leaf].path) : "leaf " + std::to_string(s.leaf);
  text += ')';
  return text;
}

std::string to_string(const SkipExprPtr& e, const Schema& schema) {
  return e ? expression_text(*e, schema) : "none";
}

}  // namespace skipsound
