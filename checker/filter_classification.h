// Which filters of a read the skipping logic may use (docs/semantics.md §5.5):
// non-deterministic filters, subqueries and filters on metadata columns (`_metadata.*`) are dropped;
// filters referencing only partition columns are partition filters; the rest are data filters.
#pragma once
#include <vector>

#include "checker/stats_eligibility.h"
#include "model/sql/expr.h"

namespace skipsound {

// A read's filters, bound, each list meaning the AND of its items.
struct ReadPredicate {
  std::vector<ExprPtr> partition_filters;
  std::vector<ExprPtr> data_filters;
};

struct ClassifiedFilters {
  ReadPredicate read;
  std::vector<ExprPtr> dropped;  // non-deterministic, subquery or metadata-column filters
};

// Top-level AND split into conjuncts: "a AND (b AND c)" -> [a, b, c].
std::vector<ExprPtr> split_conjuncts(const ExprPtr& predicate);

// Classifies the conjuncts of a bound predicate.
ClassifiedFilters classify_filters(const ExprPtr& predicate, const StatsEligibility& eligibility);

bool is_deterministic(const Expr& e);
bool references_metadata_column(const Expr& e);

}  // namespace skipsound
