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
  DriverCommand driver;
  SqlDialect dialect = SqlDialect::DataFusion;  // the engine's SQL: DataFusion's for delta-rs, Spark's for Delta Spark
  // Where the tables are written and kept; none: a scratch folder removed at the end.
  std::optional<std::filesystem::path> keep_tables;
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
  double seconds = 0;
  double judged_per_second() const { return seconds > 0 ? static_cast<double>(ran) / seconds : 0.0; }
};

struct EngineTrialFinding {
  generators::WorldCategory category = generators::WorldCategory::Mixed;
  size_t index = 0;
  EngineFinding finding;
  std::string scenario_text;  // the world, replayable with `skipsound scenario`
  nlohmann::json request;     // the driver's request, as sent
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
