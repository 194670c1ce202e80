// Writer conformance (docs/engines.md, "Writer conformance"): tables an engine writes from
// generated rows, read back with skipsound's log reader, and every add's stats compared field by
// field with what skipsound's model writer (model/stats/stats_collection.h) records for the same
// rows — the test of docs/semantics.md §4 against a real writer — and audited against the rows
// (proofs/oracles/stats_audit.h). Results are data; render_writer_conformance prints them.
#pragma once
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/sql/row.h"
#include "model/sql/schema.h"
#include "model/stats/stats.h"
#include "model/stats/stats_collection.h"
#include "proofs/engines/driver_process.h"
#include "proofs/engines/scan_decisions.h"

namespace skipsound::engines {

// A generated table: its schema, partition columns and properties, and its files' rows (each
// file one append of the engine; a partitioned append gives one file per partition value).
struct ConformanceTable {
  std::string name;
  Schema schema;
  std::vector<std::string> partition_columns;
  std::map<std::string, std::string> configuration;
  std::vector<std::vector<Row>> files;
};

// One table drawn from `seed`: every type of docs/semantics.md §2 but binary and the nested
// collections, nested structs, NULLs, edge values, and the settings (indexed column count, stats
// columns, a partition column, column mapping by name, deletion vectors) drawn per table.
ConformanceTable conformance_table(uint64_t seed, const std::string& name);

// The driver's {"kind": "write"} request without its "dir" and "trial": the schema as Spark's
// StructType JSON, rows as JSON objects nested like the schema (docs/engines.md, values).
nlohmann::json conformance_request(const ConformanceTable& table);

// The writer rule a compared stats field falls under (docs/semantics.md §4.2–§4.5).
enum class StatsRule {
  NumRecords,
  TightBounds,
  NullCount,
  IntegralMinMax,      // byte, short, int, long
  FloatingMinMax,      // float, double: NaN, ±0.0, ±Infinity
  DecimalMinMax,
  DateMinMax,
  TimestampMinMax,     // floored to the millisecond
  TimestampNtzMinMax,  // floored to the millisecond
  StringMin,           // a prefix of N code points
  StringMax,           // whole, or a prefix and the tie-breaker, or none past 2N
  NoMinMax,            // boolean leaves get a nullCount only
  NotIndexedByCount,   // beyond delta.dataSkippingNumIndexedCols: no stats
  NotIndexedByList,    // outside delta.dataSkippingStatsColumns: no stats
  PartitionColumn,     // never in stats
};
const char* stats_rule_name(StatsRule r);

// One field of one add: the engine's value and the model's, as JSON text ("absent" when missing).
struct FieldComparison {
  StatsRule rule = StatsRule::NumRecords;
  std::string field;  // "numRecords", "minValues.c1.f0", ...
  std::string engine;
  std::string model;
  bool agree() const { return engine == model; }
};

// Every field either side has, for one file: the engine's parsed stats against the model's
// stats for the file's rows (partition columns included in the rows).
std::vector<FieldComparison> compare_file_stats(const Schema& schema, const StatsConfig& config,
                                                const std::vector<Row>& rows, const std::optional<FileStats>& engine,
                                                bool with_tight_bounds);

struct RuleTally {
  size_t files = 0;   // files where the rule applies to some field
  size_t agree = 0;   // of those, files where every such field agrees
  size_t differ = 0;
};

struct ConformanceDifference {
  std::string table;
  std::string file;
  FieldComparison field;
  nlohmann::json rows;  // the file's rows, as the driver read them
};

struct ConformanceResult {
  std::string engine;
  uint64_t seed = 0;
  size_t tables = 0;
  size_t files = 0;
  std::map<StatsRule, RuleTally> rules;
  std::map<std::string, RuleTally> settings;  // whole-file agreement per table setting
  std::vector<ConformanceDifference> differences;
  std::vector<std::string> unsound_stats;  // ENGINE UNSOUND STATS: a claim the rows refute
  std::vector<std::string> errors;         // ENGINE ERROR / LOG: a table not written or not read
  ScanDecisions scans;                     // with predicates: the engine's scan against skipsound's
  double seconds = 0;
  bool clean() const {
    return differences.empty() && unsound_stats.empty() && errors.empty() && scans.findings.empty();
  }
};

// Judges one written table: the log at `dir` read by skipsound's reader, the driver's `response`
// ({"files": {path: {"rows": [...]}}}) giving each file's rows. Adds to `result`.
void judge_conformance_table(const ConformanceTable& table, const std::string& dir, const nlohmann::json& response,
                             ConformanceResult& result);

struct ConformanceOptions {
  uint64_t seed = 1;
  size_t min_files = 500;  // tables are drawn until this many files were measured
  size_t predicates_per_table = 0;  // scan decisions: generated predicates run over each table
  DriverCommand driver;
  std::optional<std::filesystem::path> keep_tables;
};

// Called after every table: files measured so far, files wanted.
using ConformanceProgress = std::function<void(size_t, size_t)>;

ConformanceResult run_writer_conformance(const ConformanceOptions& options, const ConformanceProgress& progress = {});

std::string render_writer_conformance(const ConformanceResult& result);

}  // namespace skipsound::engines
