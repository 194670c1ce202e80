#include "proofs/scenario/scenario_builder.h"

#include <algorithm>
#include <sstream>

#include "model/mutants/fault_injection.h"
#include "model/sql/binder.h"
#include "model/sql/row.h"
#include "model/stats/stats.h"
#include "model/stats/stats_collection.h"
#include "model/stats/stats_widening.h"
#include "model/values/ascii_text.h"
#include "model/values/exact_json.h"
#include "model/values/input_error.h"
#include "model/values/input_limits.h"
#include "model/values/types.h"
#include "proofs/scenario/scenario_text.h"

namespace skipsound {

using namespace scenario_text;

namespace {

InputError rows_limit_error() {
  return InputError("the scenario writes more than " + std::to_string(kMaxScenarioRows) + " rows, the limit");
}

}  // namespace

ScenarioBuilder::ScenarioBuilder(std::string source, std::optional<Mutant> mutant_override)
    : mutant_override_(mutant_override) {
  scenario_.source = std::move(source);
  scenario_.mutant = mutant_override.value_or(Mutant::None);
}

void ScenarioBuilder::check_table_open() const {
  if (table_built_) throw InputError("table directives must come before the first file");
}

void ScenarioBuilder::schema(std::vector<StructField> fields) {
  check_table_open();
  schema_ = Schema(std::move(fields));
  has_schema_ = true;
}

void ScenarioBuilder::partitioned_by(std::vector<std::string> columns) {
  check_table_open();
  partition_columns_ = std::move(columns);
}

// Property names as scenarios abbreviate them or as Delta spells them; values in Delta's syntax,
// parsed by the same code that reads a Delta log's metaData.configuration.
void ScenarioBuilder::property(const std::string& name, const std::string& value) {
  check_table_open();
  const std::string key = ascii_lower(name);
  if (key == "numindexedcols" || key == ascii_lower(kNumIndexedColsKey)) {
    properties_.stats.num_indexed_cols = with_error_context("property " + name, [&] { return parse_num_indexed_cols(value); });
  } else if (key == "statscolumns" || key == ascii_lower(kStatsColumnsKey)) {
    properties_.stats.stats_columns = with_error_context("property " + name, [&] { return parse_stats_columns(value); });
  } else if (key == "deletionvectors") {
    properties_.deletion_vectors = on_off(value);
  } else if (key == "isolation") {
    const auto level = isolation_level_from_name(value);
    if (!level || *level == IsolationLevel::SnapshotIsolation) {
      throw InputError("isolation must be Serializable or WriteSerializable");
    }
    properties_.isolation = *level;
  } else if (key.rfind("delta.", 0) == 0) {
    properties_.other_configuration[name] = value;
  } else {
    throw InputError("unknown property '" + name + "'");
  }
}

// The seeds' flag and the tier flags of docs/semantics.md §10 "Flags", by their Delta names (Case 1b: skipsound's).
void ScenarioBuilder::flag(const std::string& name, bool on) {
  static const std::pair<const char*, bool ConflictCheckOptions::*> kFlags[] = {
      {"conflictdataskipping", &ConflictCheckOptions::conflict_data_skipping},
      {"valueexact", &ConflictCheckOptions::value_exact},
      {"rowlevelconcurrency", &ConflictCheckOptions::row_level_concurrency},
      {"removedrows", &ConflictCheckOptions::removed_rows},
      {"excludenodatachangefiles", &ConflictCheckOptions::exclude_no_data_change},
  };
  for (const auto& [flag, member] : kFlags) {
    if (ascii_lower(name) == flag) {
      scenario_.options.*member = on;
      return;
    }
  }
  throw InputError("unknown flag '" + name + "'");
}

void ScenarioBuilder::log(LogReplay where) { scenario_.log = where; }

void ScenarioBuilder::mutant(Mutant mutant) {
  // The mutant also shapes the stats of the files written from here on.
  if (table_built_) throw InputError("the mutant must come before the first file or transaction");
  scenario_.mutant = mutant_override_.value_or(mutant);
}

void ScenarioBuilder::build_table() {
  if (table_built_) return;
  if (!has_schema_) throw InputError("the scenario needs a 'schema:' line first");
  properties_.stats.partition_columns = partition_columns_;
  with_error_context("property statsColumns", [&] { check_stats_columns(schema_, properties_.stats); });
  scenario_.table = Table(schema_, properties_);
  current_schema_ = schema_;
  table_built_ = true;
}

std::vector<Row> ScenarioBuilder::rows(const std::string& text) {
  if (starts_with_word(text, "range")) return range_rows(text);
  const nlohmann::json parsed = parse_json_exact(text);
  if (!parsed.is_array()) throw InputError("rows must be a JSON array of objects or 'range ...'");
  return json_rows(parsed);
}

std::vector<Row> ScenarioBuilder::json_rows(const nlohmann::json& rows) {
  build_table();
  std::vector<Row> parsed;
  for (const nlohmann::json& row : rows) parsed.push_back(row_from_json(row, current_schema()));
  count_rows(parsed.size());
  return parsed;
}

void ScenarioBuilder::count_rows(size_t n) {
  rows_written_ += n;
  if (rows_written_ > kMaxScenarioRows) throw rows_limit_error();
}

// range <column> <from> <to> [{"other": value}]: one row per integer in [from, to), within the limit.
std::vector<Row> ScenarioBuilder::range_rows(const std::string& text) {
  build_table();
  const Schema& schema = current_schema();
  const size_t room = kMaxScenarioRows - rows_written_;
  std::istringstream in(text.substr(5));
  std::string column, from_text, to_text;
  in >> column >> from_text >> to_text;
  std::string rest;
  std::getline(in, rest);
  const Leaf* leaf = schema.find_leaf({column});
  if (!leaf || !is_integral(leaf->type.kind)) {
    throw InputError("range needs an integral column, got '" + column + "'");
  }
  const long long from = parse_long(from_text), to = parse_long(to_text);
  if (to < from) throw InputError("range bounds out of order");
  if (from < integral_min(leaf->type.kind) || (to > from && to - 1 > integral_max(leaf->type.kind))) {
    throw InputError("range " + from_text + " " + to_text + " does not fit column " + column + "'s type " +
                     type_name(leaf->type));
  }
  // Unsigned: the width of [-2^63, 2^63) does not fit a long long.
  if (static_cast<unsigned long long>(to) - static_cast<unsigned long long>(from) > room) throw rows_limit_error();
  rest = trim_whitespace(rest);
  const Row base = row_from_json(rest.empty() ? nlohmann::json::object() : parse_json_exact(rest), schema);
  std::vector<Row> rows;
  rows.reserve(static_cast<size_t>(to - from));
  for (long long v = from; v < to; ++v) {
    Row row = base;
    row[static_cast<size_t>(leaf->ordinal)] = Value::integral(leaf->type.kind, v);
    rows.push_back(std::move(row));
  }
  count_rows(rows.size());
  return rows;
}

void ScenarioBuilder::check_files_open() const {
  if (!scenario_.transactions.empty()) throw InputError("file lines come before the first step or transaction");
}

void ScenarioBuilder::file(const std::string& name, const std::vector<Row>& rows, StatsPresence presence,
                           const std::vector<std::string>& columns_without_stats, const std::vector<int>& deleted) {
  check_files_open();
  build_table();
  if (rows.empty()) throw InputError("file '" + name + "' has no rows");
  std::vector<TableFile> files = [&] {
    const FaultScope writer(scenario_.mutant);
    return scenario_.table.write_files(rows, name, 0, presence);
  }();
  if (files.size() != 1) throw InputError("file '" + name + "' mixes partition values");
  files.front().path = name;
  if (files.front().stats) {
    for (const std::string& column : columns_without_stats) files.front().stats->column_mut(leaf_of(column)) = ColumnStats{};
  }
  if (!deleted.empty()) attach_deletion_vector(files.front(), deleted);
  scenario_.table.add_initial_file(std::move(files.front()));
}

// The file's stats replaced by Delta stats JSON as written (a writer's lie included: the rows stay
// what the file line says).
void ScenarioBuilder::raw_stats(const std::string& name, const std::string& json_text) {
  const TableFile* file = scenario_.table.find_file(name);
  if (!file || !scenario_.transactions.empty()) throw InputError("stats: no initial file '" + name + "' above");
  TableFile changed = *file;
  changed.stats = stats_from_json_text(json_text, scenario_.table.schema());
  scenario_.table.replace_initial_file(std::move(changed));
}

// A DV over those physical rows, the stats widened as Delta does when it attaches one
// (model/stats/stats_widening.h) — the wide stats a later scan reads.
void ScenarioBuilder::attach_deletion_vector(TableFile& file, const std::vector<int>& rows) const {
  if (!scenario_.table.properties().deletion_vectors) {
    throw InputError("file '" + file.path + "': deleted= needs 'property deletionVectors: on'");
  }
  for (const int row : rows) {
    if (row < 0 || row >= file.physical_count()) {
      throw InputError("file '" + file.path + "': no row " + std::to_string(row) + " to delete");
    }
    file.deleted.push_back(static_cast<uint32_t>(row));
  }
  std::sort(file.deleted.begin(), file.deleted.end());
  file.deleted.erase(std::unique(file.deleted.begin(), file.deleted.end()), file.deleted.end());
  if (file.stats) file.stats = widen_for_deletion_vector(*file.stats, 0);
}

size_t ScenarioBuilder::transaction_index(const std::string& name) const {
  for (size_t i = 0; i < scenario_.transactions.size(); ++i) {
    if (scenario_.transactions[i].name == name) return i;
  }
  throw InputError("unknown transaction '" + name + "'");
}

void ScenarioBuilder::transaction(const std::string& name, std::optional<int64_t> start,
                                  const std::vector<std::string>& options, const std::string& operation) {
  build_table();
  ScenarioTransaction& txn = declared(name, false);
  if (start) {
    if (txn.start_version && *txn.start_version != *start) throw InputError(name + " already starts at v" + std::to_string(*txn.start_version));
    txn.start_version = start;
  }
  for (const std::string& option : options) apply_option(txn, ascii_lower(option));
  txn.bound_width = std::max(txn.bound_width, current_schema().leaves().size());
  count_operation();
  txn.operations.push_back(parse_operation(operation, txn));
}

// The transaction of that name, declared on the timeline where it first appears.
ScenarioTransaction& ScenarioBuilder::declared(const std::string& name, bool history_step) {
  auto found = std::find_if(scenario_.transactions.begin(), scenario_.transactions.end(),
                            [&](const ScenarioTransaction& t) { return t.name == name; });
  if (found != scenario_.transactions.end()) {
    if (committed_.count(name)) throw InputError(name + " already tried to commit above");
    return *found;
  }
  if (scenario_.transactions.size() == kMaxScenarioTransactions) {
    throw InputError("more than " + std::to_string(kMaxScenarioTransactions) + " transactions, the limit");
  }
  scenario_.transactions.push_back(ScenarioTransaction{
      name, {}, WriterSettings{name, StatsPresence::Collected, false, false}, std::nullopt, history_step, 0, {}, line_});
  scenario_.timeline.push_back({TimelineEvent::Kind::Declare, scenario_.transactions.size() - 1});
  return scenario_.transactions.back();
}

void ScenarioBuilder::step(const std::vector<std::string>& options, const std::string& operation) {
  build_table();
  std::string name = "S";
  name += std::to_string(++steps_);
  ScenarioTransaction& step = declared(name, true);
  for (const std::string& option : options) apply_option(step, ascii_lower(option));
  step.bound_width = current_schema().leaves().size();
  count_operation();
  step.operations.push_back(parse_operation(operation, step));
  commit(name);
}

void ScenarioBuilder::commit(const std::string& name) {
  const size_t index = transaction_index(name);
  if (!committed_.insert(name).second) throw InputError(name + " is already in a commit line");
  scenario_.timeline.push_back({TimelineEvent::Kind::Commit, index});
}

void ScenarioBuilder::count_operation() {
  if (++operations_ > kMaxScenarioOperations) {
    throw InputError("more than " + std::to_string(kMaxScenarioOperations) + " operations, the limit");
  }
}

void ScenarioBuilder::apply_option(ScenarioTransaction& txn, const std::string& option) {
  if (option == "whole-table-read") {
    txn.settings.reads_whole_table = true;
  } else if (option == "not-blind") {
    txn.settings.force_not_blind = true;
  } else if (option == "no-stats") {
    txn.settings.stats = StatsPresence::Missing;
  } else if (option == "source-key-read") {
    txn.settings.merge_read = MergeRead::SourceKeys;
  } else if (option == "blind-unknown") {
    txn.settings.blind_flag_unknown = true;
  } else if (option == "no-data-change") {
    txn.settings.declares_no_data_change = true;
  } else if (option.rfind("seed=", 0) == 0) {
    const long long seed = parse_long(option.substr(5));
    if (seed < 0) throw InputError("transaction option '" + option + "': the seed must not be negative");
    txn.settings.random_seed = static_cast<uint64_t>(seed);
  } else {
    throw InputError("unknown transaction option '" + option + "'");
  }
}

// "<keyword> WHERE <predicate>" -> the bound predicate, or nullptr without WHERE.
ExprPtr ScenarioBuilder::optional_where(const std::string& text) const {
  const std::string rest = trim_whitespace(text);
  if (rest.empty()) return nullptr;
  if (!starts_with_word(rest, "where")) throw InputError("expected WHERE, got '" + rest + "'");
  return parse_and_bind(trim_whitespace(std::string_view(rest).substr(5)), current_schema());
}

int ScenarioBuilder::leaf_of(const std::string& column) const {
  const Leaf* leaf = current_schema().find_leaf({top_level_name(trim_whitespace(column))});
  if (!leaf) throw InputError("unknown column '" + trim_whitespace(column) + "'");
  return leaf->ordinal;
}

// A target column of an assignment: `c` or `t.c`.
int ScenarioBuilder::target_leaf(const std::string& column) const {
  const std::string name = trim_whitespace(column);
  const bool qualified = name.size() > 2 && ascii_lower(name.substr(0, 2)) == "t.";
  return leaf_of(qualified ? name.substr(2) : name);
}

Scenario ScenarioBuilder::finish() {
  if (scenario_.transactions.empty()) throw InputError("the scenario has no transactions");
  const bool has_transactions = std::any_of(scenario_.transactions.begin(), scenario_.transactions.end(),
                                            [](const ScenarioTransaction& t) { return !t.history_step; });
  if (has_transactions && scenario_.commit_order().empty()) throw InputError("the scenario needs a 'commit:' line");
  return std::move(scenario_);
}

}  // namespace skipsound
