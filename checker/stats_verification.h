// Stats verification (docs/semantics.md §5.4): a file is trusted only if every stat the skipping predicate
// references exists. A min/max also passes when nullCount(c) = numRecords (an all-null column
// has no bounds); every other stat passes when present.
#pragma once
#include <set>

#include "checker/file_decision.h"
#include "checker/skipping_expr.h"

namespace skipsound {

StatsVerification verify_stats(const std::set<StatRef>& referenced, const StatReadContext& ctx);

}  // namespace skipsound
