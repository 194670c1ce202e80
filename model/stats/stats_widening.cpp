#include "model/stats/stats_widening.h"

#include "model/coverage/coverage.h"

namespace skipsound {

FileStats widen_for_deletion_vector(const FileStats& stats, int64_t previous_dv_cardinality) {
  FileStats wide = stats;
  wide.tight_bounds = false;
  coverage::hit(coverage::Probe::WidenForDv);
  // Wide or unknown-tightness nullCounts already mean "bounds", so only tight ones are rewritten:
  // a column that was null in every live row must read "all null" whatever the new DV deletes.
  const bool was_tight = stats.tight_bounds.has_value() && *stats.tight_bounds;
  if (!was_tight || !stats.num_records) {
    coverage::hit(coverage::Probe::WidenAlreadyWide);
    return wide;
  }
  const int64_t previous_live_rows = *stats.num_records - previous_dv_cardinality;
  for (ColumnStats& column : wide.columns) {
    if (column.null_count && *column.null_count == previous_live_rows) {
      column.null_count = *stats.num_records;
      coverage::hit(coverage::Probe::WidenNullCountAllNull);
    }
  }
  return wide;
}

}  // namespace skipsound
