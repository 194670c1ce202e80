// Which statistics a table collects (SPEC §4): the builder may only use a stat the table's
// writers record. A stat outside this set makes a rule "none"; a stat inside it that one file
// lacks is a verification failure instead (SPEC §5's two kinds of "no").
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "model/schema.h"

namespace skipsound {

// The table properties that decide stats collection.
struct StatsColumnsConfig {
  int num_indexed_cols = 32;                           // dataSkippingNumIndexedCols; -1 = all
  std::optional<std::vector<ColumnPath>> stats_columns;  // dataSkippingStatsColumns; overrides the count
  std::vector<std::string> partition_columns;          // top-level names; never have stats
};

class StatsEligibility {
 public:
  StatsEligibility(const Schema& schema, const StatsColumnsConfig& config);

  bool is_partition_column(int leaf) const;
  bool collects_null_count(int leaf) const;  // every indexed non-struct leaf, arrays and maps too
  bool collects_min_max(int leaf) const;     // indexed and of a type with min/max
  const Schema& schema() const { return *schema_; }

 private:
  const Schema* schema_;
  std::vector<bool> partition_;
  std::vector<bool> indexed_;
};

}  // namespace skipsound
