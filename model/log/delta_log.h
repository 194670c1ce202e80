// Reading a real Delta table: JSON log replay into the live files of one version (docs/semantics.md §4.7).
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/log/actions.h"
#include "model/stats/stats.h"
#include "model/stats/stats_collection.h"
#include "model/values/value.h"

namespace skipsound {

struct LiveFile {
  AddFile add;
  // Parsed against the table's schema at the loaded version; nullopt when the add has no stats
  // or its stats failed to parse (a warning in DeltaTable::warnings says which).
  std::optional<FileStats> stats;
  // Typed partition values by logical partition column name (NULL for JSON null or "").
  std::map<std::string, Value> partition_values;

  int64_t dv_cardinality() const { return add.dv_cardinality(); }
};

struct DeltaTable {
  std::string dir;
  int64_t version = 0;
  Metadata metadata;
  Protocol protocol;
  std::vector<LiveFile> files;  // keyed by (path, DV id), sorted by path then DV id
  std::map<std::string, int64_t> app_versions;         // txn appId -> version
  std::map<std::string, std::string> domains;          // live domainMetadata
  std::vector<std::string> warnings;                   // skipped stats, ignored checkpoint, ...

  StatsConfig stats_config;  // from metadata.configuration and partitionColumns

  StatsNaming stats_naming() const { return metadata.stats_naming(); }
};

// Replays `<dir>/_delta_log/NNNNNNNNNNNNNNNNNNNN.json` from 0 up to `version` (default: the
// latest). A `_last_checkpoint` is ignored when JSON commits from 0 exist (noted in warnings);
// if the checkpoint would be needed, throws InputError naming it. Throws InputError for a missing
// log, gaps between versions, malformed lines, an unknown version, a missing metaData/protocol, a
// protocol needing a reader version or feature skipsound does not implement, or a malformed
// delta.dataSkipping* setting (each error names the commit file).
// An injected mutant acts as for replay_delta_log.
DeltaTable load_delta_table(const std::string& dir, std::optional<int64_t> version = std::nullopt);

// A JSON commit's file name in _delta_log: "00000000000000000001.json".
std::string commit_file_name(int64_t version);

// One commit's text and the name its errors carry ("00000000000000000001.json").
struct LogCommit {
  std::string file;
  std::string text;
};

// Replays commits 0, 1, ... in order into the table they describe, as load_delta_table does for
// a directory (same errors, naming each commit's `file`). An injected input-path mutant of the
// log reader, the stats reader or the partition values (model/mutants/fault_injection.h) misreads the log.
DeltaTable replay_delta_log(const std::vector<LogCommit>& commits);

// A partition value's text as a typed value: "4", "0.0", "true", "2021-09-08",
// "2021-09-08 11:11:11", "2024-01-01T10:00:00.000000Z". JSON null and "" are NULL.
Value partition_value_from_text(const std::optional<std::string>& text, const DataType& type);

}  // namespace skipsound
