// Judging what an engine did with a world, with skipsound's own instruments only
// (docs/engines.md, "Judging"): the log it wrote read by skipsound's reader, every add's stats
// audited against the file's rows, and every commit attempt put to the serial-order oracle with
// the table states read back from that log. The driver reported; nothing here asks the engine
// whether it was right.
#pragma once
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "proofs/engines/engine_world.h"
#include "proofs/oracles/serial_oracle.h"
#include "proofs/scenario/scenario.h"

namespace skipsound::engines {

enum class EngineFindingKind {
  EngineError,      // the driver died, hung, answered garbage, or the engine failed other than by a conflict
  Log,              // skipsound's reader refuses the engine's log, or lists other files than the engine
  UnsoundStats,     // an add's stats exclude one of its rows, or count them wrong
  MissedConflict,   // a commit no allowed serial order explains
  WrongResult,      // a commit whose rows differ from its operations run on its own snapshot
  UnsoundSkip,      // a scan drops a file holding a row its predicate matches (engine_scan.h)
  WrongQueryResult, // a query's rows differ from the model's evaluation of every live row
};
const char* engine_finding_name(EngineFindingKind k);  // "ENGINE ERROR", "LOG", ...

struct EngineFinding {
  EngineFindingKind kind = EngineFindingKind::EngineError;
  std::string headline;
  std::optional<size_t> transaction;  // the attempt's transaction, when one is to blame
  // For a missed conflict or a wrong result: the live rows each allowed serial order gives after
  // that commit (arrays of driver rows), what a reproduction asserts against.
  nlohmann::json allowed_tables = nlohmann::json::array();
  // For a scan finding: the table version, the predicate (its SQL and pyarrow form), the part
  // that erred, and the dropped file with its matching row or the rows the query must return
  // (an ENGINE ERROR of a scan part has the first three).
  nlohmann::json scan = nullptr;
};

EngineFinding engine_finding(EngineFindingKind kind, std::string headline, std::optional<size_t> transaction = {},
                             nlohmann::json allowed_tables = nlohmann::json::array());

// One attempt as the engine decided it and as the oracle labels it.
enum class EngineOutcome { Committed, Aborted, Failed };
struct JudgedAttempt {
  size_t transaction = 0;
  EngineOutcome outcome = EngineOutcome::Committed;
  std::string exception;  // the engine's, for an abort or a failure
  std::optional<VerdictKind> verdict;  // the serial oracle's, when the states could be built
};

struct EngineJudgement {
  std::vector<JudgedAttempt> attempts;
  std::vector<EngineFinding> findings;
  std::string unsupported;  // the driver (or the model, refusing the world's operations) could not run it
  // Sound stats that follow other writer rules than Delta Spark's, by the rule they break
  // (docs/semantics.md §4): the engine's stats dialect.
  std::map<std::string, size_t> stats_dialect;
  // The table at the last version the engine wrote, as skipsound's reader reads it: what the
  // scan step (engine_scan.h) judges.
  std::optional<Table> final_table;
  int64_t final_version = -1;
  std::set<std::string> foreign_files;  // written by a foreign writer: Delta Spark's stats dialect
};

// The response's `attempts`, `versions` and `files` judged against the world they ran; `table_dir`
// is where the engine wrote the table (the response names it, but the gate chose it).
EngineJudgement judge_engine_run(const Scenario& scenario, const WorldRequest& world,
                                 const nlohmann::json& response, const std::string& table_dir);

}  // namespace skipsound::engines
