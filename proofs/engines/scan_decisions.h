// Scan-time decisions of a real engine (docs/engines.md, "Scan decisions"): for generated
// predicates over a table the engine wrote, the files its data skipping keeps against the files
// skipsound's scan filter (checker/scan_filter.h) keeps on the same log. Every skip either side
// makes alone is judged by the rows (a skipped file holding a matching live row is unsound) and by
// the Z3 oracle (a skip no stats-consistent row contradicts is proved).
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/log/delta_log.h"
#include "model/sql/expr.h"
#include "model/sql/row.h"

namespace skipsound::engines {

struct SparkScanPredicate {
  ExprPtr predicate;  // bound against the table's schema
  std::string sql;    // Spark's dialect, as the driver receives it
  std::string form;   // generators::predicate_form
};

// `count` predicates from the per-file generator, each biased towards one of the table's files
// (its rows and the model writer's stats for them), drawn from `seed`.
std::vector<SparkScanPredicate> spark_scan_predicates(const Schema& schema, const StatsConfig& config,
                                           const std::vector<std::vector<Row>>& files, uint64_t seed, size_t count);

struct ScanFormTally {
  size_t pairs = 0;           // (file, predicate) pairs decided by both
  size_t agree = 0;           // both keep or both skip
  size_t lost_skips = 0;      // the engine skips, skipsound keeps
  size_t beyond_proved = 0;   // skipsound skips, the engine keeps, the oracle proves the skip
  size_t beyond_unproved = 0; // the same, the oracle does not prove it (a finding of skipsound)
  size_t engine_skips = 0;    // every engine skip
  size_t engine_unproved = 0; // engine skips the oracle does not prove (no finding unless a row matches)
  size_t engine_unsound = 0;  // ENGINE UNSOUND SKIP: the engine skips a file with a matching live row
  size_t refused = 0;         // predicates the engine could not run (counted once a predicate)
};

struct ScanDecisions {
  std::map<std::string, ScanFormTally> forms;
  std::vector<std::string> findings;   // ENGINE UNSOUND SKIP, skipsound skips not proved
  std::vector<std::string> lost_skips; // LOST SKIP, each with the file's stats and the predicate
};

// One table: the engine's answers (`scans`: per predicate {"kept": [paths]} or {"error": text})
// against skipsound's scan filter on `log`, judged with the files' rows (by path).
void judge_scan_decisions(const DeltaTable& log, const std::map<std::string, std::vector<Row>>& rows,
                          const std::vector<SparkScanPredicate>& predicates, const nlohmann::json& scans,
                          const std::string& table, ScanDecisions& out);

}  // namespace skipsound::engines
