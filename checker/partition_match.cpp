#include "checker/partition_match.h"

#include "checker/filter_classification.h"
#include "model/sql/evaluator.h"

namespace skipsound {

namespace {

Truth widened_truth(const Expr& filter, const Row& partition_values) {
  if (!is_deterministic(filter)) return Truth::True;
  try {
    return evaluate(filter, partition_values);
  } catch (const NotEvaluable&) {
    return Truth::True;
  }
}

}  // namespace

PartitionMatch match_partition(const std::vector<ExprPtr>& partition_filters,
                               const Row& partition_values) {
  for (const ExprPtr& filter : partition_filters) {
    if (widened_truth(*filter, partition_values) != Truth::True) return PartitionMatch::NoMatch;
  }
  return PartitionMatch::Match;
}

}  // namespace skipsound
