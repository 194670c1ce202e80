#include "proofs/engines/engine_cross_writer.h"

#include "model/stats/stats_collection.h"

namespace skipsound::engines {

namespace {

// Delta Spark's stats for these rows as the log's text (docs/semantics.md §4).
std::string spark_stats_text(const std::vector<Row>& rows, const Table& table) {
  return stats_to_json(collect_stats(rows, table.schema(), table.properties().stats), table.schema()).dump();
}

}  // namespace

bool is_cross_writer_trial(uint64_t trial_seed, double share) {
  constexpr uint64_t kSteps = 1000;
  return static_cast<double>((trial_seed >> 7) % kSteps) < share * static_cast<double>(kSteps);
}

size_t add_foreign_writer(nlohmann::json& request, const Scenario& scenario) {
  const Table& table = scenario.table;
  if (!table.properties().partition_columns().empty()) return 0;
  size_t files = 0;
  request["foreign_files"] = nlohmann::json::object();
  // A file the world writes without stats stays delta-rs's (parquet statistics off): the foreign
  // writer writes stats only where the world has them.
  if (!table.files().empty() && table.files()[0].stats) {
    request["foreign_files"]["0"] = spark_stats_text(*table.files()[0].rows, table);
    ++files;
  }
  for (size_t i = 0; i < scenario.transactions.size(); ++i) {
    nlohmann::json& op = request["transactions"][i]["operation"];
    if (op["kind"] != "append" || op.contains("stats")) continue;  // "stats": false, an append without stats
    op["kind"] = "foreign_append";
    op["stats"] = spark_stats_text(scenario.transactions[i].operations[0].rows, table);
    ++files;
  }
  return files;
}

}  // namespace skipsound::engines
