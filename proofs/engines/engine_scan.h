// Scan-time judging of an engine (docs/engines.md, "Scan time"): generated read predicates over a
// world's final table go to the driver, which answers the files the engine keeps for each (the
// pyarrow dataset fragments left by delta-rs's stats guarantees, and delta-rs's own file
// skipping) and the rows its query returns. skipsound judges them with the model's evaluator on
// every live row: a dropped file holding a matching row is ENGINE UNSOUND SKIP, a query whose rows
// differ from the matching rows is ENGINE WRONG QUERY RESULT. The driver only reports.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/sql/expr.h"
#include "model/table/table.h"
#include "proofs/engines/driver_process.h"
#include "proofs/engines/engine_judge.h"

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

// The driver's `scans` answer judged against `table`, the engine's table at `version` as skipsound's
// reader reads its log, with the files' rows.
ScanJudgement judge_scan(const Table& table, const std::vector<ScanPredicate>& predicates, const nlohmann::json& response,
                         int64_t version);

// Draws, translates, asks the driver and judges: the whole scan step of one trial.
ScanJudgement scan_final_table(DriverProcess& driver, const Table& table, int64_t version, const std::string& dir,
                               uint64_t seed, size_t count);

}  // namespace skipsound::engines
