// Builds a Scenario (proofs/scenario/scenario.h) directive by directive, with the same checks and
// errors whoever drives it: the parser of scenario files line by line, and the explorer straight
// from a generated world (proofs/explorer/explorer.h), so a trial never prints its world to parse
// it back. Rows, operations and options are the scenario language's (scenario_format()).
#pragma once
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/mutants/mutant.h"
#include "model/table/operations.h"
#include "model/table/table.h"
#include "proofs/scenario/scenario.h"

namespace skipsound {

class ScenarioBuilder {
 public:
  // `mutant_override`, when given, is the mutant the scenario runs under whatever `mutant` says.
  ScenarioBuilder(std::string source, std::optional<Mutant> mutant_override);

  // The line the next directives come from: a transaction names where it first appears.
  void at_line(int line) { line_ = line; }

  // The table, before the first file, step or transaction (throws InputError after it).
  void check_table_open() const;
  // The table, once its directives are read: the first file, step or transaction builds it.
  void build_table();
  void schema(std::vector<StructField> fields);
  void partitioned_by(std::vector<std::string> columns);
  void property(const std::string& name, const std::string& value);  // `property <name>: <value>`
  void flag(const std::string& name, bool on);                        // `flag <name>: on|off`
  void log(LogReplay where);
  void mutant(Mutant mutant);  // before the first file or transaction: it shapes their stats

  // Rows as a scenario writes them (a JSON array of objects, or `range ...`), or the JSON array
  // itself; both count against the scenario's row limit.
  std::vector<Row> rows(const std::string& text);
  std::vector<Row> json_rows(const nlohmann::json& rows);

  // `file <name> [nostats|nostats=<columns>] [deleted=<rows>]: <rows>`; `deleted`: the physical
  // rows a DV marks. Files come before the first step or transaction (check_files_open).
  void check_files_open() const;
  void file(const std::string& name, const std::vector<Row>& rows, StatsPresence presence,
            const std::vector<std::string>& columns_without_stats, const std::vector<int>& deleted);
  void raw_stats(const std::string& name, const std::string& json_text);  // `stats <name>: {...}`

  // `<name> [options] [@v<start>]: <operation>`: the transaction is declared where it first appears.
  void transaction(const std::string& name, std::optional<int64_t> start, const std::vector<std::string>& options,
                   const std::string& operation);
  // `step [options]: <operation>`: committed history, named S1, S2, ...
  void step(const std::vector<std::string>& options, const std::string& operation);
  void commit(const std::string& name);  // one name of a `commit:` line

  size_t transaction_index(const std::string& name) const;
  Scenario& scenario() { return scenario_; }  // for the expectations a file states
  const Scenario& scenario() const { return scenario_; }
  // Throws InputError when there is no transaction, or a transaction but no commit line.
  Scenario finish();

 private:
  const Schema& current_schema() const { return current_schema_; }
  std::vector<Row> range_rows(const std::string& text);
  void count_rows(size_t n);
  void attach_deletion_vector(TableFile& file, const std::vector<int>& rows) const;
  ScenarioTransaction& declared(const std::string& name, bool history_step);
  void count_operation();
  static void apply_option(ScenarioTransaction& txn, const std::string& option);
  ExprPtr optional_where(const std::string& text) const;
  int leaf_of(const std::string& column) const;
  int target_leaf(const std::string& column) const;

  // The operation `txn` adds next (a RESTORE's version is recorded in `txn`): scenario_operations.cpp.
  Operation parse_operation(const std::string& text, ScenarioTransaction& txn);
  void parse_update(const std::string& text, Operation& op);
  void parse_set_where(const std::string& text, Operation& op) const;
  void parse_merge(const std::string& text, Operation& op);
  void parse_merge_clause(const std::string& text, const Schema& joint, MergeSpec& merge) const;
  void parse_merge_update_or_delete(const std::string& action, const Schema& joint, MergeClause& clause) const;
  void parse_merge_insert(const std::string& action, const Schema& joint, MergeClause& clause) const;
  std::vector<Assignment> every_column_from_source(const Schema& joint) const;
  void parse_alter(const std::string& text, Operation& op);
  void parse_add_file(const std::string& text, Operation& op);
  void parse_optimize(const std::string& text, Operation& op) const;

  Scenario scenario_;
  Schema schema_;
  bool has_schema_ = false;
  std::vector<std::string> partition_columns_;
  TableProperties properties_;
  bool table_built_ = false;
  Schema current_schema_;  // the table's, with the columns ALTER TABLE ADD COLUMNS above added
  std::set<std::string> committed_;  // names already in a commit line or committed as a step
  int steps_ = 0;
  int line_ = 0;
  size_t rows_written_ = 0;  // by `file` lines, INSERT and MERGE, against kMaxScenarioRows
  size_t operations_ = 0;
  std::optional<Mutant> mutant_override_;
};

}  // namespace skipsound
