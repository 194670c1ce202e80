// Which statistics a table collects (docs/semantics.md §4.2): the builder may only use a stat the table's
// writers record. A stat outside this set makes a rule "none"; a stat inside it that one file
// lacks is a verification failure instead (docs/semantics.md §5.1's two kinds of "no").
#pragma once
#include <vector>

#include "model/sql/schema.h"
#include "model/stats/stats_collection.h"

namespace skipsound {

class StatsEligibility {
 public:
  // Uses the writer's own rule (indexed_leaves in model/stats/stats_collection.h), so reader and
  // writer cannot disagree on which leaves carry stats. `schema` must outlive this object.
  StatsEligibility(const Schema& schema, const StatsConfig& config);

  bool is_partition_column(int leaf) const;
  bool collects_null_count(int leaf) const;  // every indexed non-struct leaf, arrays and maps too
  bool collects_min_max(int leaf) const;     // indexed and of a type with min/max
  // nullCount usable by IS [NOT] NULL: predicates on arrays and maps give none (docs/semantics.md §5.3).
  bool usable_for_null_tests(int leaf) const;
  bool partitioned() const { return partitioned_; }
  const Schema& schema() const { return *schema_; }

 private:
  const Schema* schema_;
  std::vector<bool> partition_;
  std::vector<bool> indexed_;
  bool partitioned_ = false;
};

}  // namespace skipsound
