// The operations of the scenario language (scenario_format()): each is parsed against the
// table's schema as the timeline has it where the operation is written.
#include <sstream>

#include "model/sql/binder.h"
#include "model/sql/parser.h"
#include "model/sql/printer.h"
#include "model/values/ascii_text.h"
#include "model/values/exact_json.h"
#include "model/values/input_error.h"
#include "model/values/types.h"
#include "proofs/scenario/scenario_builder.h"
#include "proofs/scenario/scenario_text.h"

namespace skipsound {

using namespace scenario_text;

namespace {

// The binder types predicates only; a value expression is bound as the operand of IS NULL.
ExprPtr bind_value(const std::string& text, const Schema& schema) {
  const ExprPtr bound = skipsound::bind(make_is_null(parse_predicate(text)), schema, text);
  return bound->children.front();
}

// RESTORE TO VERSION <n>
int64_t parse_restore_version(const std::string& text) {
  const std::vector<std::string> words = words_of(text);
  if (words.size() != 4 || ascii_lower(words[1]) != "to" || ascii_lower(words[2]) != "version") {
    throw InputError("expected RESTORE TO VERSION <n>");
  }
  const int version = parse_int(words[3]);
  if (version < 0) throw InputError("a version is 0 or more");
  return version;
}

std::string parenthesised(const std::string& text) {
  const std::string t = trim_whitespace(text);
  if (t.size() < 2 || t.front() != '(' || t.back() != ')') throw InputError("expected '(...)', got '" + t + "'");
  return t.substr(1, t.size() - 2);
}

// A trailing `ROWS PER FILE <n>` cut off `text`: n, else 0.
int rows_per_file_suffix(std::string& text) {
  const size_t at = find_top_level(text, "rows");
  if (at == std::string::npos) return 0;
  const std::vector<std::string> words = words_of(text.substr(at));
  if (words.size() != 4 || ascii_lower(words[1]) != "per" || ascii_lower(words[2]) != "file") {
    throw InputError("expected ROWS PER FILE <n> at the end");
  }
  const int n = parse_int(words[3]);
  if (n <= 0) throw InputError("ROWS PER FILE must be positive");
  text = trim_whitespace(text.substr(0, at));
  return n;
}

std::string unquoted(const std::string& text) {
  const std::string t = trim_whitespace(text);
  if (t.size() >= 2 && (t.front() == '\'' || t.front() == '`' || t.front() == '"') && t.back() == t.front()) {
    return t.substr(1, t.size() - 2);
  }
  return t;
}

// SET TXN <app id> VERSION <n> | SET DOMAIN <domain> [<configuration JSON>]
void parse_set_action(const std::string& text, Operation& op) {
  const std::vector<std::string> words = words_of(text);
  const std::string what = words.size() > 1 ? ascii_lower(words[1]) : "";
  if (what == "txn") {
    op.kind = OperationKind::SetTxn;
    if (words.size() != 5 || ascii_lower(words[3]) != "version") throw InputError("expected SET TXN <app id> VERSION <n>");
    op.name = unquoted(words[2]);
    op.txn_version = parse_int(words[4]);
  } else if (what == "domain") {
    op.kind = OperationKind::SetDomain;
    if (words.size() < 3) throw InputError("expected SET DOMAIN <domain> [<configuration JSON>]");
    op.name = unquoted(words[2]);
    const size_t at = text.find(words[2]) + words[2].size();
    const std::string configuration = trim_whitespace(text.substr(at));
    op.domain_configuration = configuration.empty() ? "{}" : dump_json(parse_json_exact(configuration));
  } else {
    throw InputError("expected SET TXN ... or SET DOMAIN ...");
  }
}

}  // namespace

// The operation `txn` adds next (a RESTORE's version is recorded in `txn`).
Operation ScenarioBuilder::parse_operation(const std::string& text, ScenarioTransaction& txn) {
  Operation op;
  op.text = text;
  if (starts_with_word(text, "insert") && starts_with_word(trim_whitespace(text.substr(6)), "select")) {
    op.kind = OperationKind::InsertSelect;
    parse_set_where(trim_whitespace(text.substr(6)).substr(6), op);
  } else if (starts_with_word(text, "insert")) {
    op.kind = OperationKind::Insert;
    std::string values = trim_whitespace(text.substr(6));
    op.rows_per_file = rows_per_file_suffix(values);
    op.rows = rows(values);
  } else if (starts_with_word(text, "restore")) {
    op.kind = OperationKind::Restore;
    txn.restore_versions[txn.operations.size()] = parse_restore_version(text);
  } else if (starts_with_word(text, "alter")) {
    parse_alter(text, op);
  } else if (starts_with_word(text, "add")) {
    parse_add_file(text, op);
  } else if (starts_with_word(text, "remove")) {
    op.kind = OperationKind::RemoveFile;
    const std::vector<std::string> words = words_of(text);
    if (words.size() != 3 || ascii_lower(words[1]) != "file") throw InputError("expected REMOVE FILE <name>");
    op.name = words[2];
  } else if (starts_with_word(text, "set")) {
    parse_set_action(text, op);
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

void ScenarioBuilder::parse_update(const std::string& text, Operation& op) {
  op.kind = OperationKind::Update;
  const std::string rest = trim_whitespace(text.substr(6));
  if (!starts_with_word(rest, "set")) throw InputError("expected UPDATE SET ...");
  parse_set_where(rest, op);
}

// `[SET c = <expr>, ...] [WHERE <predicate>]`, the tail of UPDATE and of INSERT SELECT.
void ScenarioBuilder::parse_set_where(const std::string& text, Operation& op) const {
  const std::string rest = trim_whitespace(text);
  const size_t where = find_keyword(rest, "where");
  if (where != std::string::npos) op.condition = optional_where(rest.substr(where));
  const std::string set = trim_whitespace(rest.substr(0, where));
  if (set.empty()) return;
  if (!starts_with_word(set, "set")) throw InputError("expected SET ... or WHERE ..., got '" + set + "'");
  for (const std::string& assignment : split_top_level(set.substr(3), ',')) {
    const size_t eq = assignment.find('=');
    if (eq == std::string::npos) throw InputError("expected 'column = expression' in SET");
    op.assignments.push_back(Assignment{
        leaf_of(assignment.substr(0, eq)),
        bind_value(trim_whitespace(std::string_view(assignment).substr(eq + 1)), current_schema())});
  }
}

// MERGE USING <rows> ON <condition> WHEN ... , or the upsert shorthand MERGE ON <key> USING <rows>.
void ScenarioBuilder::parse_merge(const std::string& text, Operation& op) {
  op.kind = OperationKind::Merge;
  const std::string rest = trim_whitespace(text.substr(5));
  const Schema& table = current_schema();
  if (starts_with_word(rest, "on")) {
    const size_t using_at = find_keyword(rest, "using");
    if (using_at == std::string::npos) throw InputError("expected USING <rows> after MERGE ON <key>");
    op.merge = upsert_on_key(table, leaf_of(rest.substr(2, using_at - 2)));
    op.rows = rows(trim_whitespace(rest.substr(using_at + 5)));
    return;
  }
  if (!starts_with_word(rest, "using")) {
    throw InputError("expected MERGE USING <rows> ON <condition> WHEN ... (or MERGE ON <key> USING <rows>)");
  }
  const size_t on_at = find_top_level(rest, "on");
  const size_t when_at = find_top_level(rest, "when");
  if (on_at == std::string::npos) throw InputError("expected ON <condition> after MERGE USING <rows>");
  if (when_at == std::string::npos || when_at < on_at) throw InputError("expected WHEN [NOT] MATCHED ... after the ON condition");
  op.rows = rows(trim_whitespace(rest.substr(5, on_at - 5)));
  const Schema joint = merge_schema(table);
  op.merge.on = parse_and_bind(trim_whitespace(rest.substr(on_at + 2, when_at - on_at - 2)), joint);
  for (size_t at = when_at; at != std::string::npos;) {
    const size_t next = find_top_level(rest, "when", at + 4);
    parse_merge_clause(trim_whitespace(rest.substr(at + 4, next == std::string::npos ? std::string::npos : next - at - 4)),
                       joint, op.merge);
    at = next;
  }
}

// MATCHED [AND <c>] THEN UPDATE SET ... | DELETE, or NOT MATCHED [AND <c>] THEN INSERT ...
void ScenarioBuilder::parse_merge_clause(const std::string& text, const Schema& joint, MergeSpec& merge) const {
  const bool not_matched = starts_with_word(text, "not");
  std::string rest = trim_whitespace(not_matched ? text.substr(3) : text);
  if (!starts_with_word(rest, "matched")) throw InputError("expected WHEN [NOT] MATCHED, got 'WHEN " + text + "'");
  rest = trim_whitespace(rest.substr(7));
  const size_t then_at = find_top_level(rest, "then");
  if (then_at == std::string::npos) throw InputError("expected THEN in 'WHEN " + text + "'");
  MergeClause clause;
  const std::string condition = trim_whitespace(rest.substr(0, then_at));
  if (!condition.empty()) {
    if (!starts_with_word(condition, "and")) throw InputError("expected AND <condition> or THEN, got '" + condition + "'");
    clause.condition = parse_and_bind(trim_whitespace(condition.substr(3)), joint);
  }
  const std::string action = trim_whitespace(rest.substr(then_at + 4));
  if (not_matched) {
    parse_merge_insert(action, joint, clause);
    merge.not_matched.push_back(std::move(clause));
  } else {
    parse_merge_update_or_delete(action, joint, clause);
    merge.matched.push_back(std::move(clause));
  }
}

void ScenarioBuilder::parse_merge_update_or_delete(const std::string& action, const Schema& joint, MergeClause& clause) const {
  if (ascii_lower(action) == "delete") {
    clause.action = MergeAction::Delete;
    return;
  }
  if (!starts_with_word(action, "update") || !starts_with_word(trim_whitespace(action.substr(6)), "set")) {
    throw InputError("expected UPDATE SET ... or DELETE after WHEN MATCHED ... THEN, got '" + action + "'");
  }
  clause.action = MergeAction::Update;
  const std::string assignments = trim_whitespace(trim_whitespace(action.substr(6)).substr(3));
  if (assignments == "*") {
    clause.assignments = every_column_from_source(joint);
    return;
  }
  for (const std::string& assignment : split_top_level(assignments, ',')) {
    const size_t eq = assignment.find('=');
    if (eq == std::string::npos) throw InputError("expected 'column = expression' in UPDATE SET");
    clause.assignments.push_back(Assignment{target_leaf(assignment.substr(0, eq)),
                                            bind_value(trim_whitespace(std::string_view(assignment).substr(eq + 1)), joint)});
  }
}

void ScenarioBuilder::parse_merge_insert(const std::string& action, const Schema& joint, MergeClause& clause) const {
  clause.action = MergeAction::Insert;
  if (!starts_with_word(action, "insert")) throw InputError("expected INSERT after WHEN NOT MATCHED ... THEN, got '" + action + "'");
  const std::string rest = trim_whitespace(action.substr(6));
  if (rest == "*") {
    clause.assignments = every_column_from_source(joint);
    return;
  }
  const size_t values_at = find_top_level(rest, "values");
  if (rest.empty() || rest.front() != '(' || values_at == std::string::npos) {
    throw InputError("expected INSERT * or INSERT (<columns>) VALUES (<expressions>)");
  }
  const std::vector<std::string> columns = split_top_level(parenthesised(rest.substr(0, values_at)), ',');
  const std::vector<std::string> values = split_top_level(parenthesised(rest.substr(values_at + 6)), ',');
  if (columns.size() != values.size()) throw InputError("INSERT names " + std::to_string(columns.size()) +
                                                        " columns but gives " + std::to_string(values.size()) + " values");
  for (size_t i = 0; i < columns.size(); ++i) {
    clause.assignments.push_back(Assignment{target_leaf(columns[i]), bind_value(values[i], joint)});
  }
}

std::vector<Assignment> ScenarioBuilder::every_column_from_source(const Schema& joint) const {
  std::vector<Assignment> all;
  for (const Leaf& leaf : current_schema().leaves()) {
    all.push_back(Assignment{leaf.ordinal, bind_value("s." + path_to_sql(leaf.path), joint)});
  }
  return all;
}

// ALTER TABLE SET TBLPROPERTIES ('k' = 'v', ...) | ADD COLUMN[S] [(]c type, ...[)] | DROP FEATURE f
void ScenarioBuilder::parse_alter(const std::string& text, Operation& op) {
  op.kind = OperationKind::Alter;
  std::string rest = trim_whitespace(text.substr(5));
  if (!starts_with_word(rest, "table")) throw InputError("expected ALTER TABLE ...");
  rest = trim_whitespace(rest.substr(5));
  if (starts_with_word(rest, "set")) {
    rest = trim_whitespace(rest.substr(3));
    if (!starts_with_word(rest, "tblproperties")) throw InputError("expected ALTER TABLE SET TBLPROPERTIES (...)");
    for (const std::string& entry : split_top_level(parenthesised(rest.substr(13)), ',')) {
      const size_t eq = entry.find('=');
      if (eq == std::string::npos) throw InputError("expected 'key' = 'value' in TBLPROPERTIES, got '" + entry + "'");
      op.change.properties.emplace_back(unquoted(entry.substr(0, eq)), unquoted(entry.substr(eq + 1)));
    }
  } else if (starts_with_word(rest, "add")) {
    rest = trim_whitespace(rest.substr(3));
    const bool plural = starts_with_word(rest, "columns");
    if (!plural && !starts_with_word(rest, "column")) throw InputError("expected ALTER TABLE ADD COLUMNS (...)");
    rest = trim_whitespace(rest.substr(plural ? 7 : 6));
    if (!rest.empty() && rest.front() == '(') rest = parenthesised(rest);
    std::vector<StructField> fields = current_schema_.fields();
    for (const std::string& column : split_top_level(rest, ',')) {
      const size_t name_end = end_of_column_name(column);
      if (name_end >= column.size()) throw InputError("expected '<name> <type>' in ADD COLUMNS");
      StructField field{top_level_name(column.substr(0, name_end)), parse_type_name(trim_whitespace(column.substr(name_end))), true, {}};
      op.change.added_columns.push_back(field);
      fields.push_back(field);
    }
    current_schema_ = Schema(std::move(fields));
  } else if (starts_with_word(rest, "drop")) {
    const std::vector<std::string> words = words_of(rest);
    if (words.size() != 3 || ascii_lower(words[1]) != "feature") throw InputError("expected ALTER TABLE DROP FEATURE <name>");
    op.change.dropped_features.push_back(unquoted(words[2]));
  } else {
    throw InputError("expected ALTER TABLE SET TBLPROPERTIES, ADD COLUMNS or DROP FEATURE");
  }
}

// ADD FILE <name> [NOSTATS] [<rows>]
void ScenarioBuilder::parse_add_file(const std::string& text, Operation& op) {
  op.kind = OperationKind::AddFile;
  std::istringstream in(text);
  std::string add, file;
  in >> add >> file >> op.name;
  if (ascii_lower(file) != "file" || op.name.empty()) throw InputError("expected ADD FILE <name> [NOSTATS] [<rows>]");
  std::string rest;
  std::getline(in, rest);
  rest = trim_whitespace(rest);
  if (starts_with_word(rest, "nostats")) {
    op.file_stats = StatsPresence::Missing;
    rest = trim_whitespace(rest.substr(7));
  }
  if (!rest.empty()) op.rows = rows(rest);
}

// OPTIMIZE [FILES f1, f2] [CLUSTER BY <column> [ROWS PER FILE <n>]]
void ScenarioBuilder::parse_optimize(const std::string& text, Operation& op) const {
  op.kind = OperationKind::Optimize;
  std::string rest = text;
  if (starts_with_word(rest, "files")) {
    const size_t cluster = find_top_level(rest, "cluster");
    for (const std::string& name : split_top_level(rest.substr(5, cluster == std::string::npos ? std::string::npos : cluster - 5), ',')) {
      if (name.empty()) throw InputError("expected OPTIMIZE FILES <name>, ...");
      op.optimize_files.push_back(name);
    }
    rest = cluster == std::string::npos ? "" : rest.substr(cluster);
  }
  if (rest.empty()) return;
  std::istringstream in(rest);
  std::string cluster, by, column, rows, per, file, count;
  in >> cluster >> by >> column >> rows >> per >> file >> count;
  if (ascii_lower(cluster) != "cluster" || ascii_lower(by) != "by" || column.empty()) {
    throw InputError("expected OPTIMIZE [FILES <name>, ...] [CLUSTER BY <column> [ROWS PER FILE <n>]]");
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

}  // namespace skipsound
