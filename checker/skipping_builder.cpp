#include "checker/skipping_builder.h"

#include <algorithm>
#include <unordered_map>

#include "model/mutants/fault_injection.h"
#include "model/sql/evaluator.h"
#include "model/values/utf8.h"

namespace skipsound {

namespace {

using coverage::Probe;

bool is_bound_column(const Expr& e) { return e.kind == ExprKind::Column && e.leaf >= 0; }

// Leaves "none" sides out of an AND.
SkipExprPtr and_of_buildable(SkipExprPtr a, SkipExprPtr b) {
  if (a && b) return built_by(Probe::RuleAnd, skip_and(std::move(a), std::move(b)));
  if (!a && !b) return nullptr;
  return built_by(Probe::RuleAndOneSide, a ? a : b);
}

SkipExprPtr or_of_both(SkipExprPtr a, SkipExprPtr b) {
  if (a && b) return built_by(Probe::RuleOr, skip_or(std::move(a), std::move(b)));
  return built_by(Probe::RuleOr, nullptr);
}

SkipExprPtr long_literal(int64_t v) { return skip_literal(Value::integral(TypeKind::Long, v)); }

bool is_constant(const Expr& e) {
  if (e.kind == ExprKind::Column || (e.kind == ExprKind::Call && !e.deterministic)) return false;
  return std::all_of(e.children.begin(), e.children.end(), [](const ExprPtr& c) { return is_constant(*c); });
}

// A literal, or the value of a constant operand such as CAST('2019-09-09 01:02:03' AS TIMESTAMP),
// which Spark's ConstantFolding computes before Delta builds its filters (docs/semantics.md §5.3);
// nullopt for anything else, or a constant the model cannot evaluate.
std::optional<Value> constant_value(const Expr& e) {
  if (e.kind == ExprKind::Literal) return e.literal;
  if (!is_constant(e)) return std::nullopt;
  try {
    return evaluate_value(e, Row{});
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

// `column op literal`, with the literal moved to the right when written on the left.
struct ColumnComparison {
  int leaf;
  CompareOp op;
  Value literal;
};

std::optional<ColumnComparison> as_column_comparison(const Expr& compare) {
  const Expr& lhs = *compare.children[0];
  const Expr& rhs = *compare.children[1];
  if (is_bound_column(lhs)) {
    if (auto v = constant_value(rhs)) return ColumnComparison{lhs.leaf, compare.cmp_op, std::move(*v)};
  }
  if (is_bound_column(rhs)) {
    if (auto v = constant_value(lhs)) return ColumnComparison{rhs.leaf, flip(compare.cmp_op), std::move(*v)};
  }
  return std::nullopt;
}

bool is_string_literal(const Expr& e) {
  return e.kind == ExprKind::Literal && !e.literal.is_null() && e.literal.type.kind == TypeKind::String;
}

// 'abc%' with no other wildcard and no escape character: Spark's LikeSimplification turns it
// into StartsWith (it leaves a pattern holding the escape alone); anything else stays a LIKE,
// which gets no skipping.
std::optional<std::string> like_prefix(const Expr& like) {
  const Expr& pattern = *like.children[1];
  if (!is_string_literal(pattern)) return std::nullopt;
  const std::string& text = pattern.literal.as_string();
  if (text.size() < 2 || text.back() != '%') return std::nullopt;
  const std::string prefix = text.substr(0, text.size() - 1);
  std::string special = "%_";
  append_utf8(special, like_escape(like));
  if (prefix.find_first_of(special) != std::string::npos) return std::nullopt;
  return prefix;
}

// 'abc' with no wildcard and no escape character: Spark's LikeSimplification turns it into
// EqualTo, which Delta bounds like c = 'abc'.
std::optional<std::string> like_exact(const Expr& like) {
  const Expr& pattern = *like.children[1];
  if (!is_string_literal(pattern)) return std::nullopt;
  const std::string& text = pattern.literal.as_string();
  std::string special = "%_";
  append_utf8(special, like_escape(like));
  if (text.find_first_of(special) != std::string::npos) return std::nullopt;
  return text;
}

// startswith(c, 's'), s a non-NULL string literal: Delta's StartsWith rule as written.
std::optional<std::string> call_prefix(const Expr& call) {
  if (call.kind != ExprKind::Call || call.function != "startswith" || call.children.size() != 2 ||
      !is_string_literal(*call.children[1])) {
    return std::nullopt;
  }
  return call.children[1]->literal.as_string();
}

class Builder {
 public:
  explicit Builder(const StatsEligibility& eligibility) : eligibility_(eligibility) {}

  SkipExprPtr build(const Expr& e) const {
    if (!references_column(e)) return built_by(Probe::RuleLiteralsOnly, nullptr);
    // A predicate over literals only is not evaluated here (docs/semantics.md §5.3).
    switch (e.kind) {
      // a AND b TRUE on a row needs both TRUE there: either side alone still bounds the file.
      case ExprKind::And: return and_of_buildable(build(*e.children[0]), build(*e.children[1]));
      // a OR b TRUE needs one side TRUE: a side that cannot be bounded leaves nothing to bound.
      case ExprKind::Or: return or_of_both(build(*e.children[0]), build(*e.children[1]));
      case ExprKind::Not: return build_not(*e.children[0]);
      case ExprKind::IsNull: return build_is_null(*e.children[0], 0);
      case ExprKind::IsNotNull: return build_is_not_null(*e.children[0]);
      case ExprKind::Compare: return build_compare(e);
      case ExprKind::Like: {
        if (const auto exact = like_exact(e)) {
          return build(*make_compare(CompareOp::Eq, e.children[0], make_literal(Value::string(*exact))));
        }
        return build_starts_with(*e.children[0], like_prefix(e));
      }
      // startswith(c, 's') is Spark's StartsWith, which Delta bounds like LIKE 's%'.
      case ExprKind::Call: {
        const auto prefix = call_prefix(e);
        return prefix ? build_starts_with(*e.children[0], prefix) : nullptr;
      }
      case ExprKind::In: return build_in(e);
      // Spark defines c BETWEEN x AND y as c >= x AND c <= y.
      case ExprKind::Between:
        return built_by(Probe::RuleBetween, build(*make_and(make_compare(CompareOp::Ge, e.children[0], e.children[1]),
                                                            make_compare(CompareOp::Le, e.children[0], e.children[2]))));
      case ExprKind::Column:  // a boolean column has no min/max
        return built_by(e.type.kind == TypeKind::Boolean ? Probe::RuleBareBoolean : Probe::RuleNoneOther, nullptr);
      // RLIKE, LIKE ANY / ALL, CASE: Delta has no rule (constructDataFilters' `case _ => None`).
      default: return built_by(Probe::RuleNoneOther, nullptr);  // casts, other functions, arithmetic
    }
  }

 private:
  SkipExprPtr build_not(const Expr& operand) const {
    // NOT is pushed to the atoms with 3VL-valid equivalences (De Morgan, double negation).
    switch (operand.kind) {
      case ExprKind::And:
        return built_by(Probe::RuleNotJunction,
                        build(*make_or(make_not(operand.children[0]), make_not(operand.children[1]))));
      case ExprKind::Or:
        return built_by(Probe::RuleNotJunction,
                        build(*make_and(make_not(operand.children[0]), make_not(operand.children[1]))));
      case ExprKind::Not: return built_by(Probe::RuleNotNot, build(*operand.children[0]));
      case ExprKind::IsNull: return build_is_not_null(*operand.children[0]);
      case ExprKind::IsNotNull: return build_is_null(*operand.children[0], 0);
      case ExprKind::Compare: return build_negated_compare(operand);
      // Spark defines c BETWEEN x AND y as c >= x AND c <= y, so NOT BETWEEN gets De Morgan as Delta
      // sees it: NOT c >= x OR NOT c <= y.
      case ExprKind::Between:
        return built_by(Probe::RuleBetween,
                        build(*make_or(make_not(make_compare(CompareOp::Ge, operand.children[0], operand.children[1])),
                                       make_not(make_compare(CompareOp::Le, operand.children[0], operand.children[2])))));
      default: return built_by(Probe::RuleNoneOther, nullptr);  // NOT IN, NOT LIKE, NOT b, ...
    }
  }

  // The comparison with its literal on the right; a literal written on the left is swapped.
  static std::optional<ColumnComparison> column_comparison(const Expr& compare) {
    auto cmp = as_column_comparison(compare);
    if (!cmp) coverage::hit(Probe::RuleNoneOther);  // column vs column, casts, functions, arithmetic
    if (cmp && compare.children[0]->kind == ExprKind::Literal) coverage::hit(Probe::RuleLiteralLeft);
    return cmp;
  }

  SkipExprPtr build_compare(const Expr& compare) const {
    const auto cmp = column_comparison(compare);
    if (!cmp) return nullptr;
    if (cmp->op == CompareOp::NullSafeEq) {
      // c <=> NULL is c IS NULL; c <=> v (v non-null) is TRUE iff c IS NOT NULL AND c = v.
      if (cmp->literal.is_null()) return built_by(Probe::RuleNullSafeNull, null_count_positive(cmp->leaf));
      return built_by(Probe::RuleNullSafeEq, and_of_buildable(not_all_null(cmp->leaf),
                                                              column_vs_literal(CompareOp::Eq, cmp->leaf, cmp->literal)));
    }
    return column_vs_literal(cmp->op, cmp->leaf, cmp->literal);
  }

  SkipExprPtr build_negated_compare(const Expr& compare) const {
    const auto cmp = column_comparison(compare);
    if (!cmp) return nullptr;
    // NOT (c op v) is TRUE iff the complementary comparison is (both are NULL on a NULL c).
    if (cmp->op != CompareOp::NullSafeEq) {
      return built_by(Probe::RuleNotCompare, column_vs_literal(negate(cmp->op), cmp->leaf, cmp->literal));
    }
    // NOT (c <=> NULL) is c IS NOT NULL.
    if (cmp->literal.is_null()) return built_by(Probe::RuleNullSafeNull, not_all_null(cmp->leaf));
    // NOT (c <=> v): c is NULL or differs from v.
    const SkipExprPtr differs = column_vs_literal(CompareOp::Ne, cmp->leaf, cmp->literal);
    if (!differs) return built_by(Probe::RuleNotNullSafeEq, nullptr);
    return built_by(Probe::RuleNotNullSafeEq, skip_or(null_count_positive(cmp->leaf), differs));
  }

  // The min/max rules; none when the table records no min/max for the column.
  SkipExprPtr column_vs_literal(CompareOp op, int leaf, const Value& v) const {
    if (!eligibility_.collects_min_max(leaf)) return built_by(Probe::RuleNoMinMax, nullptr);
    const Probe rule = op == CompareOp::Eq ? Probe::RuleEq : op == CompareOp::Ne ? Probe::RuleNe : Probe::RuleRange;
    return built_by(rule, min_max_rule(op, leaf, v));
  }

  SkipExprPtr min_max_rule(CompareOp op, int leaf, const Value& v) const {
    auto min = [&] { return skip_stat(StatKind::Min, leaf); };
    auto max = [&] { return skip_stat(StatKind::Max, leaf); };
    auto lit = [&] { return skip_literal(v); };
    // The le-as-lt mutant's deviation: the non-strict bounds become strict.
    const bool strict_bounds = fault_active(Mutant::LeAsLt);
    switch (op) {
      // c = v can only hold if min(c) <= v <= max(c).
      case CompareOp::Eq:
        return skip_and(skip_compare(CompareOp::Le, min(), lit()),
                        skip_compare(CompareOp::Le, lit(), max()));
      // c <> v holds on c < v (then min(c) < v) or on c > v (then max(c) > v).
      case CompareOp::Ne:
        return skip_or(skip_compare(CompareOp::Lt, min(), lit()),
                       skip_compare(CompareOp::Lt, lit(), max()));
      // c < v (c <= v) can only hold if min(c) < v (min(c) <= v).
      case CompareOp::Lt: return skip_compare(CompareOp::Lt, min(), lit());
      case CompareOp::Le:
        return skip_compare(strict_bounds ? CompareOp::Lt : CompareOp::Le, min(), lit());
      // c > v (c >= v) can only hold if max(c) > v (max(c) >= v); a timestamp max is read + 1 ms.
      case CompareOp::Gt: return skip_compare(CompareOp::Gt, max(), lit());
      case CompareOp::Ge:
        return skip_compare(strict_bounds ? CompareOp::Gt : CompareOp::Ge, max(), lit());
      case CompareOp::NullSafeEq: return nullptr;  // rewritten by the callers
    }
    return nullptr;
  }

  // c IS NULL can only hold if some physical row is NULL: nullCount(c) > 0 (widening only grows it).
  SkipExprPtr null_count_positive(int leaf) const {
    if (!eligibility_.usable_for_null_tests(leaf)) return built_by(Probe::RuleNoMinMax, nullptr);
    return skip_compare(CompareOp::Gt, skip_stat(StatKind::NullCount, leaf), long_literal(0));
  }

  // c IS NOT NULL can only hold if not every row is NULL: nullCount(c) < numRecords.
  SkipExprPtr not_all_null(int leaf) const {
    if (!eligibility_.usable_for_null_tests(leaf)) return built_by(Probe::RuleNoMinMax, nullptr);
    return skip_compare(CompareOp::Lt, skip_stat(StatKind::NullCount, leaf),
                        skip_stat(StatKind::NumRecords));
  }

  // `e IS NOT NULL`: can e be non-NULL on some row of the file?
  SkipExprPtr build_is_not_null(const Expr& e) const {
    switch (e.kind) {
      case ExprKind::Column: return built_by(Probe::RuleIsNotNull, is_bound_column(e) ? not_all_null(e.leaf) : nullptr);
      // A NULL literal is NULL on every row; another literal gives no condition.
      case ExprKind::Literal: return e.literal.is_null() ? skip_literal(Value::boolean(false)) : nullptr;
      // NULL whenever an operand is NULL, so non-NULL only where every operand is (<=> is never NULL).
      case ExprKind::Compare:
        return e.cmp_op == CompareOp::NullSafeEq ? nullptr : all_children_not_null(e);
      case ExprKind::Not:
      case ExprKind::Like:
      case ExprKind::Arith:
      case ExprKind::Cast: return all_children_not_null(e);
      // NULL whenever the tested value is NULL (a NULL item or bound need not make them NULL).
      case ExprKind::In:
      case ExprKind::Between: return build_is_not_null(*e.children[0]);
      default: return nullptr;
    }
  }

  // Every operand non-NULL: each operand's condition, ANDed; an operand without one is left out.
  SkipExprPtr all_children_not_null(const Expr& e) const {
    SkipExprPtr result;
    for (const ExprPtr& child : e.children) result = and_of_buildable(result, build_is_not_null(*child));
    return result;
  }

  // `e IS NULL`: can e be NULL on some row of the file?
  SkipExprPtr build_is_null(const Expr& e, int depth) const {
    switch (e.kind) {
      case ExprKind::Column:
        return built_by(Probe::RuleIsNull, is_bound_column(e) ? null_count_positive(e.leaf) : nullptr);
      // A literal is NULL on every row or on none.
      case ExprKind::Literal: return skip_literal(Value::boolean(e.literal.is_null()));
      // Comparisons, NOT and starts-with are strict: NULL only when some operand is NULL.
      // (<=> is never NULL; it gets no rule rather than a constant.)
      case ExprKind::Compare:
        if (e.cmp_op == CompareOp::NullSafeEq) return built_by(Probe::RuleNoneOther, nullptr);
        return built_by(Probe::RuleExprIsNull, any_child_null(e, depth));
      case ExprKind::Not: return built_by(Probe::RuleExprIsNull, build_is_null(*e.children[0], depth));
      case ExprKind::Like: return built_by(Probe::RuleExprIsNull, like_prefix(e) ? any_child_null(e, depth) : nullptr);
      // StartsWith is strict too (Delta lists it among the null-intolerant expressions).
      case ExprKind::Call: return built_by(Probe::RuleExprIsNull, call_prefix(e) ? any_child_null(e, depth) : nullptr);
      case ExprKind::And:
      case ExprKind::Or: return built_by(Probe::RuleJunctionIsNull, build_junction_is_null(e, depth));
      default: return built_by(Probe::RuleNoneOther, nullptr);
    }
  }

  SkipExprPtr any_child_null(const Expr& e, int depth) const {
    SkipExprPtr result;
    for (const ExprPtr& child : e.children) {
      SkipExprPtr child_null = build_is_null(*child, depth);
      if (!child_null) return nullptr;
      result = result ? skip_or(result, child_null) : child_null;
    }
    return result;
  }

  // (a AND b) IS NULL = (a IS NULL OR b IS NULL) AND NOT (a <=> FALSE OR b <=> FALSE);
  // for OR the same with TRUE.
  SkipExprPtr build_junction_is_null(const Expr& e, int depth) const {
    if (depth > kMaxIsNullExpansionDepth) return nullptr;
    const ExprPtr& a = e.children[0];
    const ExprPtr& b = e.children[1];
    const SkipExprPtr some_side_null =
        or_of_both(build_is_null(*a, depth + 1), build_is_null(*b, depth + 1));
    const ExprPtr decisive = make_literal(Value::boolean(e.kind == ExprKind::Or));
    const ExprPtr neither_decisive = make_not(make_or(make_compare(CompareOp::NullSafeEq, a, decisive),
                                                      make_compare(CompareOp::NullSafeEq, b, decisive)));
    return and_of_buildable(some_side_null, build(*neither_decisive));
  }

  SkipExprPtr build_starts_with(const Expr& value, const std::optional<std::string>& prefix) const {
    if (!prefix || !is_bound_column(value)) return built_by(Probe::RuleNoneOther, nullptr);
    if (!eligibility_.collects_min_max(value.leaf)) return built_by(Probe::RuleNoMinMax, nullptr);
    // c LIKE 's%' can only hold if substr(min(c)) <= s <= substr(max(c)), lengths in code points:
    // substr(·, 1, n) is monotone in code-point order, and truncated stats still bound.
    const int length = static_cast<int>(code_point_count(*prefix));
    const SkipExprPtr s = skip_literal(Value::string(*prefix));
    return built_by(Probe::RuleStartsWith,
                    skip_and(skip_compare(CompareOp::Le, skip_substr(skip_stat(StatKind::Min, value.leaf), length), s),
                             skip_compare(CompareOp::Ge, skip_substr(skip_stat(StatKind::Max, value.leaf), length), s)));
  }

  SkipExprPtr build_in(const Expr& in) const {
    std::vector<Value> items;
    for (size_t i = 1; i < in.children.size(); ++i) {
      std::optional<Value> item = constant_value(*in.children[i]);
      if (!item) return built_by(Probe::RuleNoneOther, nullptr);
      if (!item->is_null()) items.push_back(std::move(*item));
    }
    // An IN over NULL items only is never TRUE.
    if (items.empty()) return built_by(Probe::RuleInAllNull, skip_literal(Value::boolean(false)));
    const Expr& value = *in.children[0];
    if (!is_bound_column(value)) return built_by(Probe::RuleNoneOther, nullptr);
    if (!eligibility_.collects_min_max(value.leaf)) return built_by(Probe::RuleNoMinMax, nullptr);
    // c IN (v1..vn) can only hold if max(c) >= min(vi) and min(c) <= max(vi).
    auto less = [](const Value& a, const Value& b) { return *spark_compare(a, b) < 0; };
    const auto [lowest, highest] = std::minmax_element(items.begin(), items.end(), less);
    return built_by(Probe::RuleIn,
                    skip_and(skip_compare(CompareOp::Ge, skip_stat(StatKind::Max, value.leaf), skip_literal(*lowest)),
                             skip_compare(CompareOp::Le, skip_stat(StatKind::Min, value.leaf), skip_literal(*highest))));
  }

  // Remembered per node: build() asks at every node, and a deep AND/OR chain would otherwise cost
  // the square of its depth (an 8,000-term OR took 1.3 s).
  bool references_column(const Expr& e) const {
    if (const auto it = references_.find(&e); it != references_.end()) return it->second;
    const bool found = e.kind == ExprKind::Column ||
                       std::any_of(e.children.begin(), e.children.end(),
                                   [&](const ExprPtr& c) { return references_column(*c); });
    references_.emplace(&e, found);
    return found;
  }

  const StatsEligibility& eligibility_;
  mutable std::unordered_map<const Expr*, bool> references_;
};

std::optional<SkippingPredicate> as_predicate(SkipExprPtr expr) {
  if (!expr) return std::nullopt;
  std::set<StatRef> refs = referenced_stats(expr);
  return SkippingPredicate{std::move(expr), std::move(refs)};
}

}  // namespace

std::optional<SkippingPredicate> build_skipping_predicate(const ExprPtr& bound,
                                                          const StatsEligibility& eligibility) {
  return as_predicate(Builder(eligibility).build(*bound));
}

std::optional<SkippingPredicate> build_conjunction(const std::vector<ExprPtr>& data_filters,
                                                   const StatsEligibility& eligibility) {
  const Builder builder(eligibility);
  SkipExprPtr conjunction;
  for (const ExprPtr& filter : data_filters) {
    conjunction = and_of_buildable(conjunction, builder.build(*filter));
  }
  return as_predicate(std::move(conjunction));
}

}  // namespace skipsound
