#include "proofs/perfile/corpus.h"

#include <fstream>
#include <iterator>
#include <sstream>

#include <nlohmann/json.hpp>

#include "model/sql/binder.h"
#include "model/values/input_error.h"
#include "model/sql/printer.h"
#include "model/sql/row.h"
#include "model/stats/stats.h"
#include "model/stats/stats_collection.h"
#include "model/values/exact_json.h"

namespace skipsound {
namespace {

constexpr DecisionOutcome kAllOutcomes[] = {
    DecisionOutcome::Kept,        DecisionOutcome::MissedSkip,       DecisionOutcome::SoundSkip,
    DecisionOutcome::SkipUnconfirmed, DecisionOutcome::UnsoundSkip, DecisionOutcome::SkipWithoutProof,
    DecisionOutcome::WitnessRejected, DecisionOutcome::OracleError};

const nlohmann::json& required(const nlohmann::json& j, const char* key) {
  if (!j.is_object() || !j.contains(key)) throw InputError(std::string("corpus case: missing key \"") + key + "\"");
  return j.at(key);
}

// One statsColumns entry in Delta's syntax ("s.x", "`a.b`"), read by the table property's parser.
ColumnPath stats_column_from_text(const std::string& text) {
  const std::vector<ColumnPath> columns =
      with_error_context("corpus case: statsColumns", [&] { return parse_stats_columns(text); });
  if (columns.size() != 1) throw InputError("corpus case: statsColumns: expected one column per entry, got '" + text + "'");
  return columns.front();
}

StatsConfig stats_config_from_json(const nlohmann::json& j) {
  StatsConfig config;
  config.num_indexed_cols = required(j, "numIndexedCols").get<int>();
  if (j.contains("statsColumns")) {
    std::vector<ColumnPath> columns;
    for (const auto& c : j.at("statsColumns")) columns.push_back(stats_column_from_text(c.get<std::string>()));
    config.stats_columns = columns;
  }
  config.partition_columns = required(j, "partitionColumns").get<std::vector<std::string>>();
  return config;
}

nlohmann::json stats_config_to_json(const StatsConfig& config) {
  nlohmann::json j = {{"numIndexedCols", config.num_indexed_cols},
                      {"partitionColumns", config.partition_columns}};
  if (config.stats_columns) {
    j["statsColumns"] = nlohmann::json::array();
    for (const auto& path : *config.stats_columns) j["statsColumns"].push_back(path_to_sql(path));
  }
  return j;
}

}  // namespace

std::optional<DecisionOutcome> outcome_from_name(const std::string& name) {
  for (DecisionOutcome o : kAllOutcomes) {
    if (name == outcome_name(o)) return o;
  }
  return std::nullopt;
}

CorpusCase corpus_case_from_json(const nlohmann::json& j) {
  CorpusCase c;
  try {
    c.description = j.value("description", "");
    c.table.schema = Schema::from_json(required(j, "schema"));
    c.table.stats_config = stats_config_from_json(required(j, "statsConfig"));
    for (const auto& r : required(j, "rows")) {
      c.file.rows.push_back(row_from_json(required(r, "values"), c.table.schema));
      c.file.deleted.push_back(r.value("deleted", false));
    }
    c.file.stats = stats_from_json(required(j, "stats"), c.table.schema);
    c.file.absent_leaves = j.value("absentLeaves", 0);
    if (j.contains("log")) {
      const nlohmann::json& log = j.at("log");
      c.file.log = {log.value("timestampOffsetMinutes", 0), log.value("addBeforeRemove", false),
                    log.value("droppedColumnStats", false)};
    }
    c.expected_stats_inconsistent = j.value("expectedStatsAudit", "consistent") == "inconsistent";
    c.expected_log_differs = j.value("expectedLog", "as-written") == "differs";
    c.predicate = parse_and_bind(required(j, "predicate").get<std::string>(), c.table.schema);
    const auto mutant_text = required(j, "mutant").get<std::string>();
    const auto mutant = mutant_text == "none" ? std::optional(Mutant::None) : mutant_from_name(mutant_text);
    if (!mutant) throw InputError("corpus case: unknown mutant \"" + mutant_text + "\"");
    c.mutant = *mutant;
    if (j.contains("seed")) c.seed = j.at("seed").get<uint64_t>();
    const auto expected_text = required(j, "expected").get<std::string>();
    const auto expected = outcome_from_name(expected_text);
    if (!expected) throw InputError("corpus case: unknown expected outcome \"" + expected_text + "\"");
    c.expected = *expected;
  } catch (const nlohmann::json::exception& e) {
    throw InputError(std::string("corpus case: ") + e.what());
  } catch (const SchemaError& e) {
    throw InputError(std::string("corpus case: schema: ") + e.what());
  }
  return c;
}

CorpusCase load_corpus_case(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError("cannot read corpus case " + path);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  try {
    return corpus_case_from_json(parse_json_exact(text));
  } catch (const nlohmann::json::parse_error& e) {
    throw InputError(path + ": " + e.what());
  }
}

nlohmann::json corpus_case_to_json(const CorpusCase& c) {
  nlohmann::json rows = nlohmann::json::array();
  for (size_t r = 0; r < c.file.rows.size(); ++r) {
    rows.push_back({{"values", row_to_json(c.file.rows[r], c.table.schema)}, {"deleted", bool(c.file.deleted[r])}});
  }
  nlohmann::json j = {{"description", c.description},
                      {"schema", c.table.schema.to_json()},
                      {"statsConfig", stats_config_to_json(c.table.stats_config)},
                      {"rows", rows},
                      {"stats", stats_to_json(c.file.stats, c.table.schema)},
                      {"predicate", to_sql(c.predicate)},
                      {"mutant", mutant_name(c.mutant)},
                      {"expected", outcome_name(c.expected)}};
  if (c.seed) j["seed"] = *c.seed;
  if (c.file.absent_leaves) j["absentLeaves"] = c.file.absent_leaves;
  if (c.file.log != generators::LogShape{}) {
    j["log"] = {{"timestampOffsetMinutes", c.file.log.timestamp_offset_minutes},
                {"addBeforeRemove", c.file.log.add_before_remove},
                {"droppedColumnStats", c.file.log.dropped_column_stats}};
  }
  if (c.expected_stats_inconsistent) j["expectedStatsAudit"] = "inconsistent";
  if (c.expected_log_differs) j["expectedLog"] = "differs";
  return j;
}

void save_corpus_case(const CorpusCase& c, const std::string& path) {
  std::ofstream out(path);
  if (!out) throw InputError("cannot write corpus case " + path);
  out << dump_json(corpus_case_to_json(c), 2) << "\n";
}

ReplayResult replay_corpus_case(const CorpusCase& c, smt::Oracle& oracle, const std::string& replay_command) {
  ReplayResult result;
  result.audit = audit_stats(c.table.schema, c.file);
  result.log = read_back(c.table, c.file, c.mutant);
  result.check =
      check_decision(c.table, c.file, result.log, c.predicate, &oracle, PerFileOptions{c.mutant, OracleUse::Always});
  const bool stats_inconsistent = result.audit.verdict == Consistency::Inconsistent;
  const bool log_differs = !result.log.consistent();
  const bool as_expected = result.check.outcome == c.expected && stats_inconsistent == c.expected_stats_inconsistent &&
                           log_differs == c.expected_log_differs;
  result.match = as_expected ? ReplayMatch::AsExpected : ReplayMatch::Differs;
  std::ostringstream os;
  if (!c.description.empty()) os << c.description << "\n\n";
  if (stats_inconsistent) os << "the stats do not describe the rows they were collected from\n" << result.audit.render() << "\n";
  if (log_differs) {
    os << "the file's Delta log does not read back as it was written\n";
    for (const std::string& problem : result.log.problems) os << "    " << problem << "\n";
    os << "\n";
  }
  os << render_finding(c.table, c.file, c.predicate, result.check, FindingOrigin{c.seed, c.mutant, replay_command});
  const auto verdicts = [](DecisionOutcome o, bool stats, bool log) {
    return std::string(outcome_name(o)) + (stats ? ", stats inconsistent" : "") + (log ? ", log differs" : "");
  };
  os << "\nexpected " << verdicts(c.expected, c.expected_stats_inconsistent, c.expected_log_differs) << ", got "
     << verdicts(result.check.outcome, stats_inconsistent, log_differs)
     << (as_expected ? ": as expected\n" : ": DIFFERS\n");
  result.report = os.str();
  return result;
}

}  // namespace skipsound
