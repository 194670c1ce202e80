// A data file as the scan-time and conflict-time filters see it.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "model/sql/row.h"
#include "model/sql/schema.h"
#include "model/stats/stats.h"

namespace skipsound {

struct CandidateFile {
  std::string path;
  const FileStats* stats = nullptr;  // nullptr: the add carries no stats
  Row partition_values;              // by leaf ordinal; only partition leaves are read
  int64_t dv_cardinality = 0;
  // The file's physical rows and DV, when the model knows them (a winner's adds do; files read
  // from a Delta log do not): the value-exact tier reads the live ones (docs/semantics.md §10.1).
  const std::vector<Row>* rows = nullptr;
  const std::vector<uint32_t>* deleted = nullptr;
  bool data_change = true;  // the add's dataChange flag (docs/semantics.md §10.4)
};

// Typed partition values by logical column name (as model/log/delta_log.h's LiveFile holds them)
// laid out as a row; columns not named are NULL.
Row partition_row(const std::map<std::string, Value>& values, const Schema& schema);

}  // namespace skipsound
