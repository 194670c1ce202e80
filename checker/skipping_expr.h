// The skipping expression: a small IR over one file's statistics (SPEC §5), built from a bound
// predicate, evaluated concretely here and encoded symbolically by smt/.
#pragma once
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "model/expr.h"
#include "model/stats.h"

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
};

// What the builder returns for a predicate that can skip: the expression and every stat it
// needs verified (min/max of c also bring nullCount(c) and numRecords).
struct SkippingPredicate {
  SkipExprPtr expr;
  std::set<StatRef> referenced;
};

std::string to_string(const StatRef& s, const Schema& schema);  // "max(x)", "numRecords"
std::string to_string(const SkipExprPtr& e, const Schema& schema);

}  // namespace skipsound
