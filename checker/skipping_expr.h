// The skipping expression: a small IR over one file's statistics (docs/semantics.md §5.2), built from a bound
// predicate, evaluated concretely here and encoded symbolically by smt/.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "model/coverage/coverage.h"
#include "model/sql/expr.h"
#include "model/stats/stats.h"

namespace skipsound {

enum class StatKind { Min, Max, NullCount, NumRecords };

struct StatRef {
  StatKind kind = StatKind::NumRecords;
  int leaf = -1;  // -1 for NumRecords
  auto operator<=>(const StatRef&) const = default;
};

enum class SkipKind {
  Literal,  // literal (TRUE, FALSE, NULL or a typed constant)
  Stat,     // stat
  Compare,  // op in {=, <, <=, >, >=, <=>}; children: lhs, rhs
  Substr,   // substr(child, 1, length) in code points; children: operand
  And,
  Or,
  Not,
};

struct SkipExpr;
using SkipExprPtr = std::shared_ptr<const SkipExpr>;

struct SkipExpr {
  SkipKind kind = SkipKind::Literal;
  Value literal;
  StatRef stat;
  CompareOp op = CompareOp::Eq;
  int length = 0;  // Substr
  std::vector<SkipExprPtr> children;
  // The docs/semantics.md §5.3 rules that built this node (bits of skip_rule_bit), so that a skip
  // can be credited to every rule that took part in it (model/coverage/coverage.h).
  uint64_t rules = 0;
};

// The bit of a §5.3 rule probe (coverage::Probe::RuleLiteralsOnly ... RuleNoMinMax).
uint64_t skip_rule_bit(coverage::Probe rule);
// Counts `rule` as reached and, for a buildable result, marks the node as built by it.
SkipExprPtr built_by(coverage::Probe rule, SkipExprPtr e);
// Credits a skip to every rule that built a node of `e`.
void credit_skip(const SkipExpr& e);

// What the builder returns for a predicate that can skip: the expression and every stat it
// needs verified (min/max of c also bring nullCount(c) and numRecords).
struct SkippingPredicate {
  SkipExprPtr expr;
  std::set<StatRef> referenced;
};

// Constructors for skipping expressions (the builder, tests, smt/).
SkipExprPtr skip_literal(Value v);
SkipExprPtr skip_stat(StatKind kind, int leaf = -1);
SkipExprPtr skip_compare(CompareOp op, SkipExprPtr lhs, SkipExprPtr rhs);
SkipExprPtr skip_substr(SkipExprPtr operand, int length);
SkipExprPtr skip_and(SkipExprPtr lhs, SkipExprPtr rhs);
SkipExprPtr skip_or(SkipExprPtr lhs, SkipExprPtr rhs);
SkipExprPtr skip_not(SkipExprPtr operand);

// Every stat the expression needs verified: its own stats, and for each min/max of c also
// nullCount(c) and numRecords (docs/semantics.md §5.3).
std::set<StatRef> referenced_stats(const SkipExprPtr& e);

// One file's stats as the concrete evaluation reads them.
struct StatReadContext {
  const FileStats& stats;
  const Schema& schema;
  int64_t dv_cardinality = 0;  // read only by the trust-wide-nullcount mutant
};

// A stat's value, NULL when the file lacks it. A timestamp max reads as max + 1 ms (saturating),
// because writers floor it to the millisecond (docs/semantics.md §4.5).
Value read_stat(const StatRef& s, const StatReadContext& ctx);

// What one node evaluated to, children in order (for explanations and reports).
struct SkipTrace {
  std::string text;  // the node printed, e.g. "max(x) > 10"
  Value value;       // TRUE/FALSE/NULL for predicates, the value for stats, literals, substr
  std::vector<SkipTrace> children;
};

// Concrete evaluation in Spark order with SQL three-valued logic; booleans come back as
// Value::boolean or NULL. Throws std::invalid_argument on incomparable operands.
Value evaluate_skip(const SkipExpr& e, const StatReadContext& ctx);
Value evaluate_skip_traced(const SkipExpr& e, const StatReadContext& ctx, SkipTrace& trace);
// The hot path: a predicate's truth, copying no values and building no text.
Truth evaluate_skip_truth(const SkipExpr& e, const StatReadContext& ctx);
Truth truth_of_value(const Value& v);  // NULL -> Null, booleans as they are

std::string to_string(const StatRef& s, const Schema& schema);  // "max(x)", "numRecords"
std::string to_string(const SkipExprPtr& e, const Schema& schema);

}  // namespace skipsound
