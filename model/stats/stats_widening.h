// Widening a file's stats when a deletion vector is attached or replaced (docs/semantics.md §4.6).
#pragma once
#include <cstdint>

#include "model/stats/stats.h"

namespace skipsound {

// Keeps min/max/numRecords and sets tightBounds:false. Only tight stats (tightBounds:true) also
// rewrite nullCount := numRecords for every column whose nullCount equalled the live count
// under the previous DV (numRecords - previous_dv_cardinality): those live rows were all null.
FileStats widen_for_deletion_vector(const FileStats& stats, int64_t previous_dv_cardinality);

}  // namespace skipsound
