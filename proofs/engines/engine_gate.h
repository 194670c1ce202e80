// The engine gate (docs/engines.md): the explorer's world categories run through an engine's
// driver and judged with skipsound's instruments (engine_judge.h); beside each category, the
// same worlds run through skipsound's own conflict checker, so the engine's false-conflict rate
// and its verdicts stand next to the checker's. Results are data; render_engine_gate prints them.
#pragma once
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "generators/world_gen.h"
#include "proofs/engines/driver_process.h"
#include "proofs/engines/engine_judge.h"

namespace skipsound::engines {

struct EngineGateOptions {
  uint64_t seed = 1;
  std::vector<generators::WorldCategory> categories;  // empty: every category
  size_t trials_per_category = 50;
  size_t first_trial = 0;  // trial indexes first_trial .. first_trial + trials_per_category - 1 run
  DriverCommand driver;
  SqlDialect dialect = SqlDialect::DataFusion;  // the engine's SQL: DataFusion's for delta-rs, Spark's for Delta Spark
  // Where the tables are written and kept; none: a scratch folder removed at the end.
  std::optional<std::filesystem::path> keep_tables;
  // Candidate worlds tried in each stage of shrinking a finding through the engine (one per
  // finding kind of a trial); 0: findings are reported as found.
  size_t shrink_trial_limit = 0;
  // Read predicates judged at scan time on each judged world's final table (engine_scan.h); 0: none.
  size_t scan_predicates = 4;
  // The share of trials that are cross-writer worlds (engine_cross_writer.h), in [0, 1].
  double cross_writer_share = 0;
};

// Decisions on the same attempts: the engine's, and skipsound's checker's on the model's run.
struct SideCounts {
  size_t attempts = 0;
  size_t aborts = 0;
  size_t false_conflicts = 0;  // aborts the serial oracle labels false
  double false_conflict_rate() const {
    return aborts == 0 ? 0.0 : static_cast<double>(false_conflicts) / static_cast<double>(aborts);
  }
};

struct EngineCategoryStats {
  size_t trials = 0;
  size_t ran = 0;  // judged (not unsupported)
  std::map<std::string, size_t> unsupported;  // by reason
  std::map<std::string, size_t> adapted;      // worlds run changed, by how (then for both sides)
  SideCounts engine;
  SideCounts skipsound;
  size_t compared = 0;  // attempts both decided
  size_t agreed = 0;    // of those, where both committed or both aborted
  std::map<EngineFindingKind, size_t> findings;
  std::map<std::string, size_t> stats_dialect;  // files whose sound stats break a Delta Spark writer rule, by rule
  size_t scan_file_decisions = 0;  // (file, predicate) pairs judged at scan time
  size_t scan_queries = 0;         // queries whose rows were compared with the model's
  std::map<std::string, size_t> scan_unsupported;  // scan parts not run, by part and reason
  size_t cross_writer_worlds = 0;  // judged worlds with files of a foreign writer
  size_t foreign_files = 0;        // files the foreign writer wrote in them
  double seconds = 0;
  double judged_per_second() const { return seconds > 0 ? static_cast<double>(ran) / seconds : 0.0; }
};

struct EngineTrialFinding {
  generators::WorldCategory category = generators::WorldCategory::Mixed;
  size_t index = 0;
  EngineFinding finding;
  std::string scenario_text;  // the world, replayable with `skipsound scenario`
  nlohmann::json request;     // the driver's request, as sent
  size_t shrink_steps = 0;    // the world and request are the shrunk ones when this is not 0
};

struct EngineGateResult {
  std::string engine;  // the engine and its version, as the driver reports it
  uint64_t seed = 0;
  std::vector<std::pair<generators::WorldCategory, EngineCategoryStats>> categories;
  std::vector<EngineTrialFinding> findings;  // every finding, in trial order
  size_t driver_starts = 0;
  double seconds = 0;
  size_t finding_count() const { return findings.size(); }
};

// Called after every trial: category, trials done in it, trials planned.
using EngineProgress = std::function<void(generators::WorldCategory, size_t, size_t)>;

EngineGateResult run_engine_gate(const EngineGateOptions& options, const EngineProgress& progress = {});

std::string render_engine_gate(const EngineGateResult& result);

// A Python file that runs the finding's world with deltalake and pyarrow alone and asserts what
// skipsound's oracle says must hold; `driver_source` is the driver's text (its execution code).
std::string python_reproduction(const EngineTrialFinding& finding, const std::string& driver_source,
                                const std::string& engine);

}  // namespace skipsound::engines
