// A scenario's world as an engine driver's request (docs/engines.md, "Request"): the schema, the
// table properties, the initial files with their rows, the transactions' operations with
// predicates in the engine's SQL dialect, and the commit attempts in the world's order. What the
// engine cannot express is a reason, counted by the gate, never a silently changed world.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/sql/printer.h"
#include "model/sql/row.h"
#include "model/sql/schema.h"
#include "proofs/scenario/scenario.h"

namespace skipsound::engines {

// One commit attempt of the request: the scenario's transaction, and how many attempts ran
// before its snapshot was taken (its start: the table as they left it).
struct DriverAttempt {
  size_t transaction = 0;
  size_t start = 0;
};

struct WorldRequest {
  nlohmann::json request;                // the JSON line, without its "dir" and "trial"
  std::vector<DriverAttempt> attempts;   // in commit order, history steps included
};

struct Translation {
  std::optional<WorldRequest> world;
  std::string unsupported;  // why not, when world is empty: "deletion vectors", "OPTIMIZE CLUSTER BY", ...
};

// delta-rs's view of the scenario (its writer, its API, DataFusion's SQL).
Translation translate_for_delta_rs(const Scenario& scenario);
// The same with predicates and expressions in `dialect` (Spark's for Delta Spark).
Translation translate_world(const Scenario& scenario, SqlDialect dialect);

// Values as the drivers carry them: numbers, "NaN"/"Infinity"/"-Infinity" for doubles, decimals as
// digit strings, dates as "yyyy-mm-dd", timestamps as microseconds since the epoch (UTC).
nlohmann::json value_to_driver(const Value& v);
// Throws InputError naming the type when the JSON is not a value of it.
Value value_from_driver(const nlohmann::json& j, const DataType& type);
nlohmann::json row_to_driver(const Row& row, const Schema& schema);
// A row of a data file as the driver read it: the columns it holds; the others stay NULL.
Row row_from_driver(const nlohmann::json& j, const Schema& schema);

}  // namespace skipsound::engines
