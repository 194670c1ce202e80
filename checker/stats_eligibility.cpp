#include "checker/stats_eligibility.h"

#include <algorithm>

#include "model/values/ascii_text.h"

namespace skipsound {

namespace {

bool is_nested_container(TypeKind k) { return k == TypeKind::Array || k == TypeKind::Map; }

}  // namespace

StatsEligibility::StatsEligibility(const Schema& schema, const StatsConfig& config)
    : schema_(&schema), indexed_(indexed_leaves(schema, config)) {
  partition_.reserve(schema.leaves().size());
  for (const Leaf& leaf : schema.leaves()) {
    const bool is_partition =
        std::any_of(config.partition_columns.begin(), config.partition_columns.end(),
                    [&](const std::string& p) { return ascii_iequals(p, leaf.path.front()); });
    partition_.push_back(is_partition);
  }
  partitioned_ = !config.partition_columns.empty();
}

bool StatsEligibility::is_partition_column(int leaf) const {
  return leaf >= 0 && leaf < static_cast<int>(partition_.size()) && partition_[leaf];
}

bool StatsEligibility::collects_null_count(int leaf) const {
  return leaf >= 0 && leaf < static_cast<int>(indexed_.size()) && indexed_[leaf] &&
         !partition_[leaf];
}

bool StatsEligibility::collects_min_max(int leaf) const {
  return collects_null_count(leaf) && has_min_max(schema_->leaves()[leaf].type.kind);
}

bool StatsEligibility::usable_for_null_tests(int leaf) const {
  return collects_null_count(leaf) && !is_nested_container(schema_->leaves()[leaf].type.kind);
}

}  // namespace skipsound
