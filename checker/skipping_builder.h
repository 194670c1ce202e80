// The skipping-expression builder (docs/semantics.md §5.3's table, first match wins): a bound predicate becomes
// a skipping expression over stats plus the stats it references, or nothing ("none") when no
// part of it can skip a file.
#pragma once
#include <optional>
#include <vector>

#include "checker/skipping_expr.h"
#include "checker/stats_eligibility.h"
#include "model/sql/expr.h"

namespace skipsound {

// Deepest `(a AND b) IS NULL` expansion, counted from 0 (9 levels).
inline constexpr int kMaxIsNullExpansionDepth = 8;

std::optional<SkippingPredicate> build_skipping_predicate(const ExprPtr& bound,
                                                          const StatsEligibility& eligibility);

// The data filters of one read, ANDed: filters that give none are dropped, the rest are ANDed,
// and the references are the union over all of them (verification covers the whole read).
std::optional<SkippingPredicate> build_conjunction(const std::vector<ExprPtr>& data_filters,
                                                   const StatsEligibility& eligibility);

}  // namespace skipsound
