#include "proofs/perfile/corpus.h"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <regex>
#include <sstream>

#include <nlohmann/json.hpp>

#include "model/sql/binder.h"
#include "model/values/input_error.h"
#include "model/sql/printer.h"
#include "model/sql/row.h"
#include "model/stats/stats.h"
#include "model/stats/stats_collection.h"
#include "model/stats/stats_widening.h"
#include "model/values/exact_json.h"

namespace skipsound {
namespace {

constexpr DecisionOutcome kAllOutcomes[] = {
    DecisionOutcome::Kept,        DecisionOutcome::MissedSkip,       DecisionOutcome::SoundSkip,
    DecisionOutcome::SkipUnconfirmed, DecisionOutcome::UnsoundSkip, DecisionOutcome::SkipWithoutProof,
    DecisionOutcome::WitnessRejected, DecisionOutcome::OracleError};

// nlohmann's message without its "[json.exception.parse_error.101] parse error at line 1, column
// 1: " preambles (the caller says where): "syntax error while parsing value - invalid literal".
std::string json_message(const nlohmann::json::exception& e) {
  static const std::regex preamble(R"(\[json\.exception\.[a-z_]+\.[0-9]+\] |parse error( at (line [0-9]+, column [0-9]+|byte [0-9]+))?: )");
  return std::regex_replace(std::string(e.what()), preamble, "");
}

// "<line>:<column>" of the 1-based byte position a parse error names.
std::string line_and_column(const std::string& text, size_t byte) {
  const size_t at = std::min(byte > 0 ? byte - 1 : 0, text.size());
  const std::string_view before = std::string_view(text).substr(0, at);
  const size_t line = 1 + static_cast<size_t>(std::count(before.begin(), before.end(), '\n'));
  const size_t line_start = before.rfind('\n');
  const size_t column = line_start == std::string_view::npos ? at + 1 : at - line_start;
  return std::to_string(line) + ":" + std::to_string(column);
}

const nlohmann::json& required(const nlohmann::json& j, const char* key) {
  if (!j.is_object() || !j.contains(key)) throw InputError(std::string("corpus case: missing key \"") + key + "\"");
  return j.at(key);
}

// A required key's value as T; a value of another type is named by its key.
template <class T>
T required_as(const nlohmann::json& j, const char* key) {
  try {
    return required(j, key).get<T>();
  } catch (const nlohmann::json::type_error& e) {
    throw InputError(std::string("corpus case: \"") + key + "\": " + json_message(e));
  }
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
  config.num_indexed_cols = required_as<int>(j, "numIndexedCols");
  if (j.contains("statsColumns")) {
    std::vector<ColumnPath> columns;
    for (const auto& c : j.at("statsColumns")) columns.push_back(stats_column_from_text(c.get<std::string>()));
    config.stats_columns = columns;
  }
  config.partition_columns = required_as<std::vector<std::string>>(j, "partitionColumns");
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

FileStats stats_by_recipe(const generators::TableShape& table, const generators::GeneratedFile& file,
                          StatsRecipe recipe, Mutant writer_mutant) {
  const bool tight = recipe.tight_bounds || recipe.widened_by_one_delete;
  FileStats stats = generators::writer_stats(table, file.rows, file.absent_leaves, writer_mutant, tight);
  if (recipe.widened_by_one_delete) stats = widen_for_deletion_vector(stats, 0);
  generators::drop_stats_fields(stats, table.schema, recipe.dropped);
  return stats;
}

std::optional<StatsRecipe> recipe_of(const generators::TableShape& table, const generators::GeneratedFile& file,
                                     Mutant writer_mutant) {
  const nlohmann::json stats = stats_to_json(file.stats, table.schema);
  for (const StatsRecipe& recipe : {StatsRecipe{false, false, file.dropped}, StatsRecipe{true, false, file.dropped},
                                    StatsRecipe{false, true, file.dropped}}) {
    if (stats_to_json(stats_by_recipe(table, file, recipe, writer_mutant), table.schema) == stats) return recipe;
  }
  return std::nullopt;
}

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
    if (j.contains("collectStats")) {
      if (j.contains("stats")) throw InputError("corpus case: \"stats\" and \"collectStats\" exclude each other");
      const nlohmann::json& recipe = j.at("collectStats");
      c.stats_recipe = StatsRecipe{recipe.value("tightBounds", false), recipe.value("widenedByOneDelete", false),
                                   recipe.value("dropped", std::vector<std::string>{})};
    } else {
      c.file.stats = stats_from_json(required(j, "stats"), c.table.schema);
    }
    c.file.absent_leaves = j.value("absentLeaves", 0);
    if (j.contains("log")) {
      const nlohmann::json& log = j.at("log");
      c.file.log = {log.value("timestampOffsetMinutes", 0), log.value("addBeforeRemove", false),
                    log.value("droppedColumnStats", false), log.value("decimalsAsStrings", false)};
    }
    c.expected_stats_inconsistent = j.value("expectedStatsAudit", "consistent") == "inconsistent";
    c.expected_log_differs = j.value("expectedLog", "as-written") == "differs";
    c.predicate = parse_and_bind(required_as<std::string>(j, "predicate"), c.table.schema);
    const auto mutant_text = required_as<std::string>(j, "mutant");
    const auto mutant = mutant_from_name(mutant_text);
    if (!mutant) throw InputError("corpus case: " + unknown_mutant_message(mutant_text));
    c.mutant = *mutant;
    if (j.contains("seed")) c.seed = j.at("seed").get<uint64_t>();
    c.observed = j.value("observed", "");
    const auto expected_text = required_as<std::string>(j, "expected");
    if (expected_text != "sound") {
      c.expected = outcome_from_name(expected_text);
      if (!c.expected) throw InputError("corpus case: unknown expected outcome \"" + expected_text + "\"");
    } else if (c.expected_stats_inconsistent || c.expected_log_differs) {
      throw InputError("corpus case: \"expected\": \"sound\" contradicts \"expectedStatsAudit\" and \"expectedLog\"");
    }
  } catch (const nlohmann::json::exception& e) {
    throw InputError("corpus case: " + json_message(e));
  } catch (const SchemaError& e) {
    throw InputError(std::string("corpus case: schema: ") + e.what());
  }
  return c;
}

CorpusCase load_corpus_case(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError("cannot read corpus case " + path);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  nlohmann::json j;
  try {
    j = parse_json_exact(text);
  } catch (const nlohmann::json::parse_error& e) {
    throw InputError(path + ":" + line_and_column(text, e.byte) + ": not valid JSON: " + json_message(e) +
                     " (a per-file case is JSON; a scenario file is read when its name ends in .scn)");
  }
  return with_error_context(path, [&] { return corpus_case_from_json(j); });
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
                      {"predicate", to_sql(c.predicate)},
                      {"mutant", mutant_name(c.mutant)},
                      {"expected", c.expected ? outcome_name(*c.expected) : "sound"}};
  if (!c.observed.empty()) j["observed"] = c.observed;
  if (c.stats_recipe) {
    const StatsRecipe& recipe = *c.stats_recipe;
    j["collectStats"] = recipe.widened_by_one_delete ? nlohmann::json{{"widenedByOneDelete", true}}
                                                     : nlohmann::json{{"tightBounds", recipe.tight_bounds}};
    if (!recipe.dropped.empty()) j["collectStats"]["dropped"] = recipe.dropped;
  } else {
    j["stats"] = stats_to_json(c.file.stats, c.table.schema);
  }
  if (c.seed) j["seed"] = *c.seed;
  if (c.file.absent_leaves) j["absentLeaves"] = c.file.absent_leaves;
  if (c.file.log != generators::LogShape{}) {
    j["log"] = {{"timestampOffsetMinutes", c.file.log.timestamp_offset_minutes},
                {"addBeforeRemove", c.file.log.add_before_remove},
                {"droppedColumnStats", c.file.log.dropped_column_stats},
                {"decimalsAsStrings", c.file.log.decimals_as_strings}};
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

std::string replay_verdicts_text(DecisionOutcome outcome, bool stats_inconsistent, bool log_differs) {
  return std::string(outcome_name(outcome)) + (stats_inconsistent ? ", stats inconsistent" : "") +
         (log_differs ? ", log differs" : "");
}

ReplayResult replay_corpus_case(const CorpusCase& c, smt::Oracle& oracle, const std::string& replay_command) {
  generators::FileCase file_case{c.table, c.file, {c.predicate}};
  if (c.stats_recipe) file_case.file.stats = stats_by_recipe(c.table, c.file, *c.stats_recipe, c.mutant);
  const CaseCheck check = check_case(file_case, &oracle, PerFileOptions{c.mutant, OracleUse::Always});
  ReplayResult result;
  result.check = check.decisions.front();
  result.audit = check.audit;
  result.log = check.log;
  const bool stats_inconsistent = check.stats_inconsistent();
  const bool log_differs = !check.log.consistent();
  const bool as_expected =
      c.expected ? *c.expected == result.check.outcome && stats_inconsistent == c.expected_stats_inconsistent &&
                       log_differs == c.expected_log_differs
                 : !check.failed();
  result.match = as_expected ? ReplayMatch::AsExpected : ReplayMatch::Differs;
  std::ostringstream os;
  if (!c.description.empty()) os << "description: " << c.description << "\n";
  if (!c.observed.empty()) os << "observed when saved: " << c.observed << "\n";
  if (!c.description.empty() || !c.observed.empty()) os << "\n";
  const FindingOrigin origin{c.seed, c.mutant, replay_command};
  os << (check.failed() ? render_case_failure(file_case, check, origin)
                        : render_finding(c.table, file_case.file, c.predicate, result.check, origin));
  const std::string expected = c.expected ? replay_verdicts_text(*c.expected, c.expected_stats_inconsistent,
                                                                 c.expected_log_differs)
                                          : "sound";
  os << "\nexpected " << expected << ", got " << replay_verdicts_text(result.check.outcome, stats_inconsistent, log_differs)
     << (as_expected ? ": as expected\n" : ": DIFFERS\n");
  result.report = os.str();
  result.decision = DecisionFinding{decision_headline(result.check.outcome), c.table, file_case.file, c.predicate,
                                    result.check, origin};
  return result;
}

}  // namespace skipsound
