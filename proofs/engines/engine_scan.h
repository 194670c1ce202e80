// Scan-time judging of an engine (docs/engines.md, "Scan time"): generated read predicates over a
// world's final table go to the driver, which answers the files the engine keeps for each (the
// pyarrow dataset fragments left by delta-rs's stats guarantees, and delta-rs's own file
// skipping) and the rows its query returns. skipsound judges them with the model's evaluator on
// every live row: a dropped file holding a matching row is ENGINE UNSOUND SKIP, a query whose rows
// differ from the matching rows is ENGINE WRONG QUERY RESULT. The driver only reports.
#pragma once
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/sql/expr.h"
#include "model/table/table.h"
#include "proofs/engines/driver_process.h"
#include "proofs/engines/engine_judge.h"
#include "smt/oracle.h"

namespace skipsound::engines {

// One read predicate as the driver gets it.
struct ScanPredicate {
  ExprPtr bound;        // bound against the table's schema: what the model evaluates
  std::string sql;      // SqlDialect::DataFusion: the query's WHERE and delta-rs's file skipping
  nlohmann::json pyarrow = nullptr;  // the structured form the driver builds a pyarrow expression from
  std::string pyarrow_unsupported;   // why there is none
};

// `count` predicates drawn with the per-file predicate generator (generators/predicate_gen.h), each
// biased towards the bounds of one of the table's files in turn; deterministic in `seed`.
std::vector<ExprPtr> scan_predicates(const Table& table, uint64_t seed, size_t count);

// The predicate in DataFusion's SQL and the structured pyarrow form; nullopt with the reason when
// DataFusion's SQL cannot say it.
struct ScanTranslation {
  std::optional<ScanPredicate> predicate;
  std::string unsupported;
};
ScanTranslation translate_scan_predicate(const ExprPtr& bound, const Schema& schema);

// The structured form (docs/engines.md, "Scan time"); throws NotPyarrowExpressible.
struct NotPyarrowExpressible {
  std::string reason;
};
nlohmann::json pyarrow_form(const Expr& e, const Schema& schema);

nlohmann::json scan_request(const std::string& dir, int64_t version, const std::vector<ScanPredicate>& predicates);

struct ScanJudgement {
  std::vector<EngineFinding> findings;
  size_t file_decisions = 0;  // (file, predicate) pairs judged, over both kept-file answers
  size_t queries = 0;         // queries whose rows were compared
  std::map<std::string, size_t> unsupported;  // by the part and its reason
};

// The table a scan reads: the engine's table at `version` as skipsound's reader reads its log, with
// the files' rows; `foreign` names the files of a foreign writer (Delta Spark's stats dialect, the
// others' are delta-rs's: docs/semantics.md §4.8). With an oracle, a dropped file none of whose
// rows matches is judged on its stats too, as `check --decisions` judges a skip: a row the stats
// allow that matches makes the skip unsound.
struct ScanSubject {
  const Table& table;
  int64_t version = 0;
  const std::set<std::string>& foreign;
  smt::Oracle* oracle = nullptr;
};

ScanJudgement judge_scan(const ScanSubject& subject, const std::vector<ScanPredicate>& predicates,
                         const nlohmann::json& response);

// Draws, translates, asks the driver and judges: the whole scan step of one trial.
ScanJudgement scan_final_table(DriverProcess& driver, const ScanSubject& subject, const std::string& dir, uint64_t seed,
                               size_t count);

// What a scan finding's reproduction asserts after it ran the world and the scan part that erred
// (python_reproduction, engine_gate.h): no engine error, and the dropped file kept or the model's
// rows returned.
std::string scan_reproduction_assertions(const EngineFinding& finding);

// engines/delta_rs's scan.py and driver.py as one Python text with no import of the other (what
// python_reproduction embeds). Throws InputError when a file cannot be read.
std::string delta_rs_driver_source(const std::filesystem::path& engines_dir);

}  // namespace skipsound::engines
