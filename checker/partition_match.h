// Partition filters are decided exactly on a file's partition values (docs/semantics.md §5.5): the file
// matches only when the AND of the filters is TRUE; NULL is no match.
#pragma once
#include <vector>

#include "model/sql/expr.h"
#include "model/sql/row.h"

namespace skipsound {

enum class PartitionMatch { Match, NoMatch };

// Non-deterministic filters, and filters the model cannot evaluate, count as TRUE (widened).
PartitionMatch match_partition(const std::vector<ExprPtr>& partition_filters,
                               const Row& partition_values);

}  // namespace skipsound
