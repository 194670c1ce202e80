// The concrete file a Z3 model assigns to a SymbolicFile (smt/symbolic_file.h): its stats, the
// deletion vector, and the hidden truth the writer recorded them from. Z3-free, so proof code
// outside smt/ can replay it.
#pragma once
#include <cstdint>
#include <map>

#include "model/stats/stats.h"

namespace skipsound::smt {

struct ColumnTruth {
  Value min, max;  // NULL when every live value is NULL
  int64_t live_nulls = 0;
};

struct DecodedFile {
  FileStats stats;
  int64_t dv_cardinality = 0;
  int64_t physical_rows = 0;
  std::map<int, ColumnTruth> truth;  // by leaf
};

}  // namespace skipsound::smt
