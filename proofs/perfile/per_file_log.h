// A per-file case through the real input path (docs/semantics.md §4.7): the generated file is logged
// as a Delta writer logs it — protocol and metaData (stats settings, column mapping in name mode
// with physical names), its add with the stats as JSON text keyed by physical names and the
// partition values as strings, each DV update as a remove and an add — and read back by the
// production log reader (model/log/delta_log.h). The production decision sees what the reader made
// of the text; the oracles keep the writer's truth. Whatever does not read back as it was written
// is listed: a reader, writer or log replay bug is a finding even when no predicate trips on it.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "generators/file_gen.h"
#include "generators/schema_gen.h"
#include "model/log/delta_log.h"
#include "model/mutants/mutant.h"
#include "model/sql/row.h"
#include "model/stats/stats.h"
#include "smt/oracle_stats_reader.h"

namespace skipsound {

// The path the per-file case's file has in its log and in reports.
inline constexpr const char* kPerFileCasePath = "part-00000.parquet";

// The commits a writer leaves for the file: commit 0 adds it; a file with a DV gets one DV update
// (two when two or more rows are deleted and the stats history has two deletes).
std::vector<LogCommit> file_case_log(const generators::TableShape& table, const generators::GeneratedFile& file);

struct LogReadBack {
  std::optional<FileStats> stats;     // as the reader parsed them; nullopt: none, or unreadable
  Row partition_values;               // by leaf ordinal, typed from the log's text
  int64_t dv_cardinality = 0;
  std::vector<std::string> problems;  // how the read-back file differs from the written one
  // Where the oracle's own reading of the stats text (smt/oracle_stats_reader.h) differs from the
  // production reader's; each is also a problem ("DECODE …").
  std::vector<smt::DecodeDifference> decode;
  std::string stats_text;             // the live file's stats as logged ("" when none)
  StatsNaming stats_naming = StatsNaming::Logical;  // how that text names its columns
  std::string log_text;               // the commits, for reports

  bool consistent() const { return problems.empty(); }
};

// The file's log read back under `mutant` (an input-path mutant of the reader; others read as
// written). The file's partition values, as the writer knew them, by leaf ordinal.
LogReadBack read_back(const generators::TableShape& table, const generators::GeneratedFile& file, Mutant mutant);
Row written_partition_values(const generators::TableShape& table, const generators::GeneratedFile& file);

}  // namespace skipsound
