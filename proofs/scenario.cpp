#include "proofs/scenario.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "checker/scan_planner.h"
#include "model/sql/binder.h"
#include "model/values/input_error.h"
#include "model/sql/parser.h"
#include "model/sql/printer.h"
#include "model/stats/stats_collection.h"
#include "model/stats/stats_widening.h"
#include "model/values/ascii_text.h"
#include "model/values/exact_json.h"

namespace skipsound {

std::string expected_verdict_text(const ExpectedVerdict& v) {
  std::string text = verdict_kind_name(v.kind);
  if (v.exception) text += std::string(" ") + exception_name(*v.exception);
  return text;
}

namespace {


bool starts_with_word(std::string_view text, std::string_view word) {
  if (text.size() < word.size() || ascii_lower(text.substr(0, word.size())) != ascii_lower(word)) return false;
  return text.size() == word.size() || !std::isalnum(static_cast<unsigned char>(text[word.size()]));
}

// Splits at `separator` outside single quotes, brackets and parentheses.
std::vector<std::string> split_top_level(std::string_view text, char separator) {
  std::vector<std::string> parts;
  int depth = 0;
  bool quoted = false;
  size_t start = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\'') quoted = !quoted;
    if (quoted) continue;
    if (c == '(' || c == '[' || c == '{') ++depth;
    if (c == ')' || c == ']' || c == '}') --depth;
    if (c == separator && depth == 0) {
      parts.push_back(trim_whitespace(text.substr(start, i - start)));
      start = i + 1;
    }
  }
  parts.push_back(trim_whitespace(text.substr(start)));
  return parts;
}

// Position of the keyword as a whole word outside quotes, or npos.
size_t find_keyword(std::string_view text, std::string_view keyword) {
  bool quoted = false;
  for (size_t i = 0; i + keyword.size() <= text.size(); ++i) {
    if (text[i] == '\'') quoted = !quoted;
    if (quoted) continue;
    const bool boundary_before = i == 0 || !std::isalnum(static_cast<unsigned char>(text[i - 1]));
    if (boundary_before && starts_with_word(text.substr(i), keyword)) return i;
  }
  return std::string_view::npos;
}

class ScenarioParser {
 public:
  explicit ScenarioParser(std::string source) { scenario_.source = std::move(source); }

  Scenario parse(std::string_view text) {
    std::istringstream lines{std::string(text)};
    std::string line;
    while (std::getline(lines, line)) {
      ++line_number_;
      const std::string directive = trim_whitespace(line);
      if (directive.empty() || directive.front() == '#') continue;
      try {
        parse_directive(directive);
      } catch (const InputError& e) {
        throw located(e.column() > 0 ? e.render() : e.message());
      } catch (const std::exception& e) {
        throw located(e.what());
      }
    }
    finish();
    return std::move(scenario_);
  }

 private:
  InputError located(const std::string& message) const {
    return InputError(scenario_.source + ":" + std::to_string(line_number_) + ": " + message);
  }

  void parse_directive(const std::string& line) {
    const size_t colon = line.find(':');
    if (colon == std::string::npos) throw InputError("expected '<directive>: ...'");
    const std::string head = trim_whitespace(std::string_view(line).substr(0, colon));
    const std::string body = trim_whitespace(std::string_view(line).substr(colon + 1));
    const std::string key = ascii_lower(head);
    if (key == "schema") return parse_schema(body);
    if (key == "partitioned by") return table_directive([&] { partition_columns_ = split_top_level(body, ','); });
    if (key.rfind("property ", 0) == 0) return table_directive([&] { parse_property(trim_whitespace(head.substr(9)), body); });
    if (key.rfind("flag ", 0) == 0) return parse_flag(trim_whitespace(head.substr(5)), body);
    if (key == "mutant") return parse_mutant(body);
    if (key.rfind("file ", 0) == 0) return parse_file(trim_whitespace(head.substr(5)), body);
    if (key == "commit") return parse_commit_order(body);
    if (key.rfind("expect ", 0) == 0) return parse_expectation(trim_whitespace(head.substr(7)), body);
    return parse_transaction_line(head, body);
  }

  template <class F>
  void table_directive(F apply) {
    if (table_built_) throw InputError("table directives must come before the first file");
    apply();
  }

  void parse_schema(const std::string& body) {
    table_directive([&] {
      std::vector<StructField> fields;
      for (const std::string& column : split_top_level(body, ',')) {
        const size_t name_end = end_of_column_name(column);
        if (name_end >= column.size()) throw InputError("expected '<name> <type>' in the schema");
        fields.push_back(StructField{top_level_name(column.substr(0, name_end)),
                                     parse_type_name(trim_whitespace(column.substr(name_end))), true, {}});
      }
      schema_ = Schema(std::move(fields));
      has_schema_ = true;
    });
  }

  // The first whitespace outside backquotes ends a schema column's name.
  static size_t end_of_column_name(const std::string& column) {
    bool quoted = false;
    for (size_t i = 0; i < column.size(); ++i) {
      if (column[i] == '`') quoted = !quoted;
      if (!quoted && std::isspace(static_cast<unsigned char>(column[i]))) return i;
    }
    return column.size();
  }

  // A name as Delta's column lists write it ("x", "`a.b`"): the same syntax as statsColumns.
  static std::string top_level_name(const std::string& text) {
    const std::vector<ColumnPath> columns = parse_stats_columns(text);
    if (columns.size() != 1 || columns.front().size() != 1) {
      throw InputError("expected one top-level column name, got '" + text + "' (backquote a name with dots)");
    }
    return columns.front().front();
  }

  static bool on_off(const std::string& value) {
    const std::string v = ascii_lower(value);
    if (v == "on" || v == "true") return true;
    if (v == "off" || v == "false") return false;
    throw InputError("expected on or off, got '" + value + "'");
  }

  // Property names as scenarios abbreviate them or as Delta spells them; values in Delta's syntax,
  // parsed by the same code that reads a Delta log's metaData.configuration.
  void parse_property(const std::string& name, const std::string& value) {
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
    } else {
      throw InputError("unknown property '" + name + "'");
    }
  }

  static int parse_int(const std::string& text) {
    size_t used = 0;
    const int value = std::stoi(text, &used);
    if (used != text.size()) throw InputError("expected an integer, got '" + text + "'");
    return value;
  }

  // The seeds' flag and docs/semantics.md §10's tier flags, by their Delta names (Case 1b: skipsound's).
  void parse_flag(const std::string& name, const std::string& value) {
    static const std::pair<const char*, bool ConflictCheckOptions::*> kFlags[] = {
        {"conflictdataskipping", &ConflictCheckOptions::conflict_data_skipping},
        {"valueexact", &ConflictCheckOptions::value_exact},
        {"rowlevelconcurrency", &ConflictCheckOptions::row_level_concurrency},
        {"removedrows", &ConflictCheckOptions::removed_rows},
        {"excludenodatachangefiles", &ConflictCheckOptions::exclude_no_data_change},
    };
    for (const auto& [flag, member] : kFlags) {
      if (ascii_lower(name) == flag) {
        scenario_.options.*member = on_off(value);
        return;
      }
    }
    throw InputError("unknown flag '" + name + "'");
  }

  void parse_mutant(const std::string& name) {
    const auto mutant = mutant_from_name(ascii_lower(name));
    if (!mutant) throw InputError("unknown mutant '" + name + "'");
    // The mutant also shapes the stats of the files written from here on.
    if (table_built_) throw InputError("the mutant must come before the first file or transaction");
    scenario_.options.mutant = *mutant;
  }

  void build_table() {
    if (table_built_) return;
    if (!has_schema_) throw InputError("the scenario needs a 'schema:' line first");
    properties_.stats.partition_columns = partition_columns_;
    with_error_context("property statsColumns", [&] { check_stats_columns(schema_, properties_.stats); });
    scenario_.table = Table(schema_, properties_);
    table_built_ = true;
  }

  std::vector<Row> parse_rows(const std::string& text) {
    build_table();
    const Schema& schema = scenario_.table.schema();
    if (starts_with_word(text, "range")) return parse_range(text, schema);
    const nlohmann::json rows = parse_json(text);
    if (!rows.is_array()) throw InputError("rows must be a JSON array of objects or 'range ...'");
    std::vector<Row> parsed;
    for (const nlohmann::json& row : rows) parsed.push_back(row_from_json(row, schema));
    return parsed;
  }

  // range <column> <from> <to> [{"other": value}]: one row per integer in [from, to).
  static std::vector<Row> parse_range(const std::string& text, const Schema& schema) {
    std::istringstream in(text.substr(5));
    std::string column, from_text, to_text;
    in >> column >> from_text >> to_text;
    std::string rest;
    std::getline(in, rest);
    const Leaf* leaf = schema.find_leaf({column});
    if (!leaf || !is_integral(leaf->type.kind)) {
      throw InputError("range needs an integral column, got '" + column + "'");
    }
    const long long from = std::stoll(from_text), to = std::stoll(to_text);
    if (to < from || to - from > 1000000) throw InputError("range bounds out of order or too wide");
    rest = trim_whitespace(rest);
    const Row base = row_from_json(rest.empty() ? nlohmann::json::object() : parse_json(rest), schema);
    std::vector<Row> rows;
    rows.reserve(static_cast<size_t>(to - from));
    for (long long v = from; v < to; ++v) {
      Row row = base;
      row[static_cast<size_t>(leaf->ordinal)] = Value::integral(leaf->type.kind, v);
      rows.push_back(std::move(row));
    }
    return rows;
  }

  void parse_file(const std::string& spec, const std::string& body) {
    std::istringstream in(spec);
    std::string name, option;
    in >> name;
    StatsPresence presence = StatsPresence::Collected;
    std::optional<std::string> deleted;
    while (in >> option) {
      if (ascii_lower(option) == "nostats") {
        presence = StatsPresence::Missing;
      } else if (ascii_lower(option).rfind("deleted=", 0) == 0) {
        deleted = option.substr(8);
      } else {
        throw InputError("unknown file option '" + option + "'");
      }
    }
    std::vector<Row> rows = parse_rows(body);
    if (rows.empty()) throw InputError("file '" + name + "' has no rows");
    std::vector<TableFile> files =
        scenario_.table.write_files(rows, name, 0, presence, scenario_.options.mutant);
    if (files.size() != 1) throw InputError("file '" + name + "' mixes partition values");
    files.front().path = name;
    if (deleted) attach_deletion_vector(files.front(), *deleted);
    scenario_.table.add_initial_file(std::move(files.front()));
  }

  // `deleted=2,3`: a DV over those physical rows, the stats widened as Delta does when it
  // attaches one (model/stats/stats_widening.h) — the wide stats a later scan reads.
  void attach_deletion_vector(TableFile& file, const std::string& indexes) const {
    if (!scenario_.table.properties().deletion_vectors) {
      throw InputError("file '" + file.path + "': deleted= needs 'property deletionVectors: on'");
    }
    for (const std::string& index : split_top_level(indexes, ',')) {
      const int row = parse_int(index);
      if (row < 0 || row >= file.physical_count()) {
        throw InputError("file '" + file.path + "': no row " + index + " to delete");
      }
      file.deleted.push_back(static_cast<uint32_t>(row));
    }
    std::sort(file.deleted.begin(), file.deleted.end());
    file.deleted.erase(std::unique(file.deleted.begin(), file.deleted.end()), file.deleted.end());
    if (file.stats) file.stats = widen_for_deletion_vector(*file.stats, 0);
  }

  size_t transaction_index(const std::string& name) const {
    for (size_t i = 0; i < scenario_.transactions.size(); ++i) {
      if (scenario_.transactions[i].name == name) return i;
    }
    throw InputError("unknown transaction '" + name + "'");
  }

  void parse_transaction_line(const std::string& head, const std::string& body) {
    build_table();
    std::string name = head;
    std::vector<std::string> options;
    if (const size_t bracket = head.find('['); bracket != std::string::npos) {
      if (head.back() != ']') throw InputError("expected ']' after the transaction options");
      name = trim_whitespace(head.substr(0, bracket));
      options = split_top_level(std::string_view(head).substr(bracket + 1, head.size() - bracket - 2), ',');
    }
    if (name.empty() || name.find(' ') != std::string::npos) {
      throw InputError("unknown directive '" + head + "'");
    }
    auto found = std::find_if(scenario_.transactions.begin(), scenario_.transactions.end(),
                              [&](const ScenarioTransaction& t) { return t.name == name; });
    if (found == scenario_.transactions.end()) {
      scenario_.transactions.push_back(ScenarioTransaction{
          name, {}, WriterSettings{name, StatsPresence::Collected, false, false, scenario_.options.mutant}});
      found = scenario_.transactions.end() - 1;
    }
    for (const std::string& option : options) apply_option(*found, ascii_lower(option));
    found->operations.push_back(parse_operation(body));
  }

  static void apply_option(ScenarioTransaction& txn, const std::string& option) {
    if (option == "whole-table-read") {
      txn.settings.reads_whole_table = true;
    } else if (option == "not-blind") {
      txn.settings.force_not_blind = true;
    } else if (option == "no-stats") {
      txn.settings.stats = StatsPresence::Missing;
    } else {
      throw InputError("unknown transaction option '" + option + "'");
    }
  }

  // "<keyword> WHERE <predicate>" -> the bound predicate, or nullptr without WHERE.
  ExprPtr optional_where(const std::string& text) const {
    const std::string rest = trim_whitespace(text);
    if (rest.empty()) return nullptr;
    if (!starts_with_word(rest, "where")) throw InputError("expected WHERE, got '" + rest + "'");
    return parse_and_bind(trim_whitespace(std::string_view(rest).substr(5)), scenario_.table.schema());
  }

  int leaf_of(const std::string& column) const {
    const Leaf* leaf = scenario_.table.schema().find_leaf({trim_whitespace(column)});
    if (!leaf) throw InputError("unknown column '" + trim_whitespace(column) + "'");
    return leaf->ordinal;
  }

  Operation parse_operation(const std::string& text) {
    Operation op;
    op.text = text;
    if (starts_with_word(text, "insert")) {
      op.kind = OperationKind::Insert;
      op.rows = parse_rows(trim_whitespace(text.substr(6)));
    } else if (starts_with_word(text, "select")) {
      op.kind = OperationKind::Select;
      op.condition = optional_where(text.substr(6));
    } else if (starts_with_word(text, "delete")) {
      op.kind = OperationKind::Delete;
      op.condition = optional_where(text.substr(6));
    } else if (starts_with_word(text, "update")) {
      parse_update(text, op);
    } else if (starts_with_word(text, "merge")) {
      parse_merge(text, op);
    } else if (starts_with_word(text, "optimize")) {
      parse_optimize(trim_whitespace(text.substr(8)), op);
    } else {
      throw InputError("unknown operation '" + text + "'");
    }
    return op;
  }

  // The binder types predicates only; a value expression is bound as the operand of IS NULL.
  ExprPtr bind_value(const std::string& text) const {
    const ExprPtr bound = skipsound::bind(make_is_null(parse_predicate(text)), scenario_.table.schema(), text);
    return bound->children.front();
  }

  void parse_update(const std::string& text, Operation& op) {
    op.kind = OperationKind::Update;
    const std::string rest = trim_whitespace(text.substr(6));
    if (!starts_with_word(rest, "set")) throw InputError("expected UPDATE SET ...");
    const std::string after_set = rest.substr(3);
    const size_t where = find_keyword(after_set, "where");
    const std::string assignments = after_set.substr(0, where);
    if (where != std::string::npos) op.condition = optional_where(after_set.substr(where));
    for (const std::string& assignment : split_top_level(assignments, ',')) {
      const size_t eq = assignment.find('=');
      if (eq == std::string::npos) throw InputError("expected 'column = expression' in SET");
      op.assignments.push_back(Assignment{
          leaf_of(assignment.substr(0, eq)),
          bind_value(trim_whitespace(std::string_view(assignment).substr(eq + 1)))});
    }
  }

  void parse_merge(const std::string& text, Operation& op) {
    op.kind = OperationKind::Merge;
    const std::string rest = trim_whitespace(text.substr(5));
    if (!starts_with_word(rest, "on")) throw InputError("expected MERGE ON <key> USING <rows>");
    const size_t using_at = find_keyword(rest, "using");
    if (using_at == std::string::npos) throw InputError("expected USING <rows> after MERGE ON <key>");
    op.key_leaf = leaf_of(rest.substr(2, using_at - 2));
    op.rows = parse_rows(trim_whitespace(rest.substr(using_at + 5)));
  }

  void parse_optimize(const std::string& rest, Operation& op) {
    op.kind = OperationKind::Optimize;
    if (rest.empty()) return;
    std::istringstream in(rest);
    std::string cluster, by, column, rows, per, file, count;
    in >> cluster >> by >> column >> rows >> per >> file >> count;
    if (ascii_lower(cluster) != "cluster" || ascii_lower(by) != "by" || column.empty()) {
      throw InputError("expected OPTIMIZE or OPTIMIZE CLUSTER BY <column> [ROWS PER FILE <n>]");
    }
    op.optimize_mode = OptimizeMode::Clustering;
    op.key_leaf = leaf_of(column);
    if (!rows.empty()) {
      if (ascii_lower(rows) != "rows" || ascii_lower(per) != "per" || ascii_lower(file) != "file" || count.empty()) {
        throw InputError("expected ROWS PER FILE <n>");
      }
      op.rows_per_file = parse_int(count);
      if (op.rows_per_file <= 0) throw InputError("ROWS PER FILE must be positive");
    }
  }

  void parse_commit_order(const std::string& body) {
    scenario_.commit_order.clear();
    for (const std::string& name : split_top_level(body, ',')) {
      scenario_.commit_order.push_back(transaction_index(name));
    }
  }

  void parse_expectation(const std::string& name, const std::string& body) {
    std::istringstream in(body);
    std::string kind_text, exception_text;
    in >> kind_text >> exception_text;
    const auto kind = verdict_kind_from_name(ascii_lower(kind_text));
    if (!kind) throw InputError("unknown verdict '" + kind_text + "'");
    ExpectedVerdict expected{*kind, std::nullopt};
    const bool aborts = *kind == VerdictKind::Abort || *kind == VerdictKind::FalseConflict;
    if (aborts) {
      expected.exception = conflict_kind_from_exception_name(exception_text);
      if (!expected.exception) throw InputError("expected an exception name after '" + kind_text + "'");
    } else if (!exception_text.empty()) {
      throw InputError("unexpected '" + exception_text + "' after '" + kind_text + "'");
    }
    scenario_.expected[transaction_index(name)] = expected;
  }

  void finish() {
    if (scenario_.transactions.empty()) throw located("the scenario has no transactions");
    if (scenario_.commit_order.empty()) throw located("the scenario needs a 'commit:' line");
    std::vector<size_t> sorted = scenario_.commit_order;
    std::sort(sorted.begin(), sorted.end());
    if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) {
      throw located("the commit order names a transaction twice");
    }
  }

  Scenario scenario_;
  Schema schema_;
  bool has_schema_ = false;
  std::vector<std::string> partition_columns_;
  TableProperties properties_;
  bool table_built_ = false;
  int line_number_ = 0;
};

}  // namespace

Scenario parse_scenario(std::string_view text, const std::string& source) {
  return ScenarioParser(source).parse(text);
}

Scenario load_scenario(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("cannot read scenario file '" + path + "'");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_scenario(text.str(), path);
}

const TransactionVerdict* ScenarioRun::verdict_of(size_t transaction) const {
  for (const TransactionVerdict& v : verdicts) {
    if (v.transaction == transaction) return &v;
  }
  return nullptr;
}

std::vector<std::string> unexpected_errors(const ScheduleRun& schedule,
                                           const std::vector<Transaction>& transactions) {
  std::vector<std::string> errors;
  for (const CommitAttempt& attempt : schedule.attempts) {
    for (size_t k = 0; k < attempt.checks.size(); ++k) {
      const auto& append = attempt.checks[k].append;
      if (!append || append->filtered.unexpected_error.empty()) continue;
      errors.push_back(transactions[attempt.transaction].name + " vs " +
                       transactions[attempt.winners[k]].name + ": " + append->filtered.unexpected_error);
    }
  }
  return errors;
}

ScenarioRun run_scenario(const Scenario& scenario) {
  const ProductionScanPlanner planner(scenario.options.mutant);
  ScenarioRun run;
  for (const ScenarioTransaction& t : scenario.transactions) {
    run.transactions.push_back(
        run_transaction(t.name, scenario.table, t.operations, t.settings, planner));
  }
  run.schedule = run_schedule(scenario.table, run.transactions, scenario.commit_order, scenario.options);
  run.verdicts = judge_schedule(scenario.table, run.transactions, run.schedule);
  for (const std::string& error : unexpected_errors(run.schedule, run.transactions)) {
    run.mismatches.push_back("INTERNAL ERROR in the conflict filter, every file kept: " + error);
  }
  for (const auto& [index, expected] : scenario.expected) {
    const TransactionVerdict* actual = run.verdict_of(index);
    const std::string& name = scenario.transactions[index].name;
    if (!actual) {
      run.mismatches.push_back(name + ": expected " + expected_verdict_text(expected) +
                               ", but it is not in the commit order");
      continue;
    }
    const ExpectedVerdict got{actual->kind, actual->exception};
    if (!(got == expected)) {
      run.mismatches.push_back(name + ": expected " + expected_verdict_text(expected) + ", got " +
                               expected_verdict_text(got));
    }
  }
  return run;
}

}  // namespace skipsound
