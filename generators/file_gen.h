// RapidCheck generator for one data file: its physical rows, an optional deletion vector, and
// the stats the log carries for it — collected by the writer rules (docs/semantics.md §4.2), then possibly
// widened by one or two DV deletes and stripped of some fields.
#pragma once
#include <string>
#include <vector>

#include <rapidcheck.h>

#include "generators/schema_gen.h"
#include "model/mutants/mutant.h"
#include "model/sql/row.h"
#include "model/stats/stats.h"
#include "model/stats/string_truncation.h"

namespace skipsound::generators {

// How the file's stats came to be, for classifying cases.
enum class StatsHistory {
  Written,          // collected once by the writer, no deletion vector
  DeletedOnce,      // written, then one DV delete widened them
  DeletedTwice,     // written, widened, then widened again by a second delete
  RecomputedThenDeleted,  // tight stats recomputed on a file with a DV, then one more delete
};
const char* stats_history_name(StatsHistory h);

// How the file reaches a reader: the choices a Delta writer makes when it logs the file, which
// the log text must survive (proofs/perfile/per_file_log.h writes it, the production reader reads it).
struct LogShape {
  int timestamp_offset_minutes = 0;  // timestamp stats written at this zone offset (0: with Z)
  bool add_before_remove = false;    // a DV update lists its add before its remove (Delta allows either)
  bool dropped_column_stats = false;  // the stats still carry a column dropped from the schema since
  bool decimals_as_strings = false;  // decimal min/max written as JSON strings ("1.50"), not numbers
  bool operator==(const LogShape&) const = default;
};

struct GeneratedFile {
  std::vector<Row> rows;      // physical rows in file order; an absent leaf reads NULL
  std::vector<bool> deleted;  // by row: marked by the file's deletion vector
  FileStats stats;            // as the log carries them
  StatsHistory history = StatsHistory::Written;
  std::vector<std::string> dropped;  // stats fields removed after collection, e.g. "max(c1)"
  // The last this-many leaves were absent from the written data (a column added later): the
  // writer saw short rows (docs/semantics.md §4.6: such a leaf gets nullCount = numRecords).
  int absent_leaves = 0;
  LogShape log;
  StringMinCut string_min_cut = StringMinCut::CodePoints;  // how the writer cut string mins

  std::vector<Row> live_rows() const;
  int64_t dv_cardinality() const;
};

// `writer_mutant` reaches the stats writer (string-max-plain-prefix lives there).
rc::Gen<GeneratedFile> file_for(const TableShape& table, Mutant writer_mutant = Mutant::None);

// The stats the writer records for `rows` of a file whose last `absent_leaves` leaves it never
// saw: a Written file's stats, re-collected when a saved case replays (proofs/perfile/corpus.h).
FileStats writer_stats(const TableShape& table, const std::vector<Row>& rows, int absent_leaves,
                       Mutant writer_mutant, bool with_tight_bounds);
// Removes the stats fields named as GeneratedFile::dropped names them ("max(c1)", "numRecords");
// a name the stats do not hold removes nothing.
void drop_stats_fields(FileStats& stats, const Schema& schema, const std::vector<std::string>& names);

}  // namespace skipsound::generators
