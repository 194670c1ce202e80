// RapidCheck generator for one data file: its physical rows, an optional deletion vector, and
// the stats the log carries for it — collected by the writer rules (docs/semantics.md §4), then possibly
// widened by one or two DV deletes and stripped of some fields.
#pragma once
#include <string>
#include <vector>

#include <rapidcheck.h>

#include "generators/schema_gen.h"
#include "model/mutants/mutant.h"
#include "model/sql/row.h"
#include "model/stats/stats.h"

namespace skipsound::generators {

// How the file's stats came to be, for classifying cases.
enum class StatsHistory {
  Written,          // collected once by the writer, no deletion vector
  DeletedOnce,      // written, then one DV delete widened them
  DeletedTwice,     // written, widened, then widened again by a second delete
  RecomputedThenDeleted,  // tight stats recomputed on a file with a DV, then one more delete
};
const char* stats_history_name(StatsHistory h);

struct GeneratedFile {
  std::vector<Row> rows;      // physical rows in file order
  std::vector<bool> deleted;  // by row: marked by the file's deletion vector
  FileStats stats;            // as the log carries them
  StatsHistory history = StatsHistory::Written;
  std::vector<std::string> dropped;  // stats fields removed after collection, e.g. "max(c1)"

  std::vector<Row> live_rows() const;
  int64_t dv_cardinality() const;
};

// `writer_mutant` reaches the stats writer (string-max-plain-prefix lives there).
rc::Gen<GeneratedFile> file_for(const TableShape& table, Mutant writer_mutant = Mutant::None);

}  // namespace skipsound::generators
