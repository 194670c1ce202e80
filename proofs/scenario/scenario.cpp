#include "proofs/scenario/scenario.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "checker/scan_planner.h"
#include "model/mutants/fault_injection.h"
#include "model/sql/binder.h"
#include "model/values/input_error.h"
#include "model/values/input_limits.h"
#include "model/sql/parser.h"
#include "model/sql/printer.h"
#include "model/stats/stats_collection.h"
#include "model/stats/stats_widening.h"
#include "model/values/ascii_text.h"
#include "model/values/exact_json.h"
#include "model/values/types.h"
#include "proofs/oracles/serial_oracle.h"

namespace skipsound {

const std::string& scenario_format() {
  static const std::string kFormat = R"FORMAT(Format (one directive per line; blank lines and lines starting with '#' are ignored; keywords
are case-insensitive; the file is a timeline, read top to bottom):

 The table (before the first file, step or transaction)
  schema: id long, x int, p string        columns and Spark SQL types (top-level only)
  partitioned by: p                       partition columns, comma-separated
  property numIndexedCols: 0              delta.dataSkippingNumIndexedCols (default 32, -1 all)
  property statsColumns: id, x            delta.dataSkippingStatsColumns
  property deletionVectors: on            DML writes deletion vectors (default off: copy-on-write)
  property isolation: WriteSerializable   Serializable (default) or WriteSerializable
  property delta.appendOnly: false        any other delta.* key: kept in the configuration
  flag conflictDataSkipping: off          the seeds' feature (default on)
  flag valueExact: off                    docs/semantics.md §10's tiers: valueExact (§10.1,
  flag rowLevelConcurrency: off           default on), rowLevelConcurrency (Case 2, §10.2,
  flag removedRows: on                    on), removedRows (Case 1b, §10.3, off),
  flag excludeNoDataChangeFiles: on       excludeNoDataChangeFiles (Case 3, §10.4, off)
  log: replayed                           every commit is also written as Delta log text and the
                                          log replayed by the production reader: the checker
                                          sees a winner's files as the reader made them, and a
                                          replay that differs from the model is a finding
  log: directory                          the same, but the commits are files of a table
                                          directory of the run's own (each with the `.crc`
                                          file Delta writes beside it), loaded as `--table`
                                          loads one, at the latest version and, by time
                                          travel, the one before it; a warning is a finding
  mutant: append-suppression              a named unsound variant (default none); it acts
                                          wherever its code runs: the checker's scans and
                                          conflict checks, and the stats every file is given

 Initial files (version 0)
  file f1: [{"id": 1, "x": 5}]            a file with its rows as JSON objects
  file f2 nostats: range id 0 100 {"x":3} rows id = 0..99 (other columns from the object,
                                          else NULL); `nostats`: written without stats
  file f3 nostats=x,p: [...]              stats for every column but x and p
  file f4 deleted=2,3: [...]              with a deletion vector over physical rows 2 and 3
                                          (needs deletionVectors on), stats widened as Delta does
  stats f1: {"numRecords": 1, ...}        f1's stats replaced by raw Delta stats JSON

 History and transactions
  step: <operation>                       committed history: runs on the latest version and
                                          commits at once (named S1, S2, ... in reports)
  T1: UPDATE SET x = 15 WHERE id = 1      a transaction, started at the latest version where
                                          it first appears; more lines with the same name add
                                          operations (at most one data or ALTER operation)
  T3 @v1: DELETE WHERE x > 10             started at version 1
  T2 [whole-table-read]: DELETE           options in brackets: whole-table-read (also records
                                          a whole-table read), not-blind (commit info says
                                          isBlindAppend=false), no-stats (writes without
                                          stats), source-key-read (a MERGE also records
                                          t.k IN (source keys): tighter than Delta's read),
                                          blind-unknown (commit info without isBlindAppend)
  Operations (predicates in the SQL syntax of model/sql/parser.h):
    INSERT <rows> [ROWS PER FILE <n>]     rows as in `file`: a JSON array or `range ...`;
                                          one file per n rows (and per partition)
    SELECT [WHERE <predicate>]            a read only
    DELETE [WHERE <predicate>]
    UPDATE SET c = <expr>[, ...] [WHERE <predicate>]
    INSERT SELECT [SET c = <expr>, ...] [WHERE <predicate>]
                                          appends a copy of each row WHERE matches, SET's
                                          columns replaced: INSERT INTO t SELECT ... FROM t
    RESTORE TO VERSION <n>                back to version n's live files, (path, DV) each
                                          (DVs may shrink); records a whole-table read
    MERGE USING <rows> ON <condition>     target columns as t.c, source columns as s.c (the
      WHEN MATCHED [AND <cond>] THEN      source has the table's columns); clauses in order:
        UPDATE SET c = <expr>, ... | UPDATE SET * | DELETE
      WHEN NOT MATCHED [AND <cond>] THEN
        INSERT * | INSERT (c, ...) VALUES (<expr>, ...)
                                          records ON's target-only conjuncts (and, MATCHED
                                          clauses only, the OR of theirs), as Delta does
    MERGE ON <key> USING <rows>           upsert: ON t.key = s.key, UPDATE SET *, INSERT *
    OPTIMIZE [FILES f1, f2]               compaction, of the named files only with FILES
    OPTIMIZE [FILES ...] CLUSTER BY <column> [ROWS PER FILE <n>]
    ALTER TABLE SET TBLPROPERTIES ('k' = 'v', ...)   a metaData action; delta.feature.<f> =
                                          supported and delta.min{Reader,Writer}Version add a
                                          protocol action
    ALTER TABLE ADD COLUMNS (c type, ...) columns at the end; earlier rows read them as NULL
    ALTER TABLE DROP FEATURE <feature>    a protocol action without the feature
    ADD FILE <name> [NOSTATS] [<rows>]    an explicit add action (no rows: an empty file)
    REMOVE FILE <name>                    an explicit remove of a live file, nothing read
    SET TXN <app id> VERSION <n>          reads the app id's version, commits txn(app id, n)
    SET DOMAIN <domain> [<JSON>]          commits domainMetadata(domain, configuration)

 Commits and expectations
  commit: T1, T2                          they try to commit, in this order, here on the
                                          timeline; more commit lines may follow
  expect T1: commit                       commit | wrong-result | missed-conflict |
  expect T2: abort ConcurrentAppendException   abort <Exception> | false-conflict <Exception>,
  expect T3: abort ConcurrentAppendException by T1 on T1-1   optionally naming the winner
                                          and the file the exception names
  expect T2 keeps from T1: T1-3, T1-4     the winner's added files T2's append check keeps
  expect table: <rows>                    the live rows at the end, as a multiset
  expect dv f0: 10, 20                    the one live add of f0 at the end has exactly this
                                          DV (physical positions; `none`: no DV)
  expect dv f0: cardinality 2             ... or a DV of that many positions

 Findings (every run is judged as the explorer judges a trial: the serial oracle's missed
 conflicts and wrong results, every conflict-time skip put to the per-file oracle, an error the
 conflict filter hid behind a keep, a log that reads back otherwise; each fails the file unless
 an `expect T:` line above names it or the file expects it here)
  expect findings: none                   says so outright: what `gate --out` writes, so that a
                                          saved finding fails while the bug is there
  expect mutant: killed                   the run must show a finding under the file's mutant,
                                          and every finding is expected: a pinned kill
)FORMAT";
  return kFormat;
}

std::string expected_verdict_text(const ExpectedVerdict& v) {
  std::string text = verdict_kind_name(v.kind);
  if (v.exception) text += std::string(" ") + exception_name(*v.exception);
  if (v.winner) text += " by " + *v.winner;
  if (v.file) text += " on " + (v.file->empty() ? std::string("(no file)") : *v.file);
  return text;
}

namespace {


bool is_word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

bool starts_with_word(std::string_view text, std::string_view word) {
  if (text.size() < word.size() || ascii_lower(text.substr(0, word.size())) != ascii_lower(word)) return false;
  return text.size() == word.size() || !is_word_char(text[word.size()]);
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
    const bool boundary_before = i == 0 || !is_word_char(text[i - 1]);
    if (boundary_before && starts_with_word(text.substr(i), keyword)) return i;
  }
  return std::string_view::npos;
}

// Position of the keyword as a whole word at the top level of `text` — outside quotes (' and "),
// brackets, parentheses and CASE ... END — at or after `from`; npos when absent.
size_t find_top_level(std::string_view text, std::string_view keyword, size_t from = 0) {
  int depth = 0;
  char quote = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quote) {
      if (c == quote) quote = 0;
      continue;
    }
    if (c == '\'' || c == '"' || c == '`') {
      quote = c;
      continue;
    }
    if (c == '(' || c == '[' || c == '{') ++depth;
    if (c == ')' || c == ']' || c == '}') --depth;
    const bool boundary_before = i == 0 || !is_word_char(text[i - 1]);
    if (!boundary_before) continue;
    if (starts_with_word(text.substr(i), "case")) ++depth;
    if (starts_with_word(text.substr(i), "end")) --depth;
    if (depth == 0 && i >= from && starts_with_word(text.substr(i), keyword)) return i;
  }
  return std::string_view::npos;
}

class ScenarioParser {
 public:
  ScenarioParser(std::string source, std::optional<Mutant> mutant) : mutant_override_(mutant) {
    scenario_.source = std::move(source);
    scenario_.mutant = mutant.value_or(Mutant::None);
  }

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

  // One entry per directive keyword: `<keyword>: body` or `<keyword> <argument>: body`. A head
  // that matches none is a transaction line. New directives are one entry and one member.
  struct Directive {
    std::string_view keyword;
    bool takes_argument;
    void (ScenarioParser::*parse)(const std::string& argument, const std::string& body);
  };

  static const std::vector<Directive>& directives() {
    static const std::vector<Directive> kDirectives = {
        {"schema", false, &ScenarioParser::parse_schema},
        {"partitioned by", false, &ScenarioParser::parse_partitioning},
        {"property", true, &ScenarioParser::parse_property_directive},
        {"flag", true, &ScenarioParser::parse_flag},
        {"mutant", false, &ScenarioParser::parse_mutant},
        {"log", false, &ScenarioParser::parse_log},
        {"file", true, &ScenarioParser::parse_file},
        {"stats", true, &ScenarioParser::parse_raw_stats},
        {"step", false, &ScenarioParser::parse_step},
        {"commit", false, &ScenarioParser::parse_commit_order},
        {"expect", true, &ScenarioParser::parse_expectation},
    };
    return kDirectives;
  }

  void parse_directive(const std::string& line) {
    const size_t colon = line.find(':');
    if (colon == std::string::npos) throw InputError("expected '<directive>: ...'");
    const std::string head = trim_whitespace(std::string_view(line).substr(0, colon));
    const std::string body = trim_whitespace(std::string_view(line).substr(colon + 1));
    const std::string key = ascii_lower(head);
    for (const Directive& d : directives()) {
      if (key == d.keyword && !d.takes_argument) return (this->*d.parse)("", body);
      const bool with_argument = key.size() > d.keyword.size() && key.rfind(d.keyword, 0) == 0 &&
                                 key[d.keyword.size()] == ' ';
      if (with_argument && d.takes_argument) return (this->*d.parse)(trim_whitespace(head.substr(d.keyword.size())), body);
    }
    parse_transaction_line(head, body);
  }

  void parse_partitioning(const std::string&, const std::string& body) {
    table_directive([&] { partition_columns_ = split_top_level(body, ','); });
  }

  void parse_property_directive(const std::string& name, const std::string& body) {
    table_directive([&] { parse_property(name, body); });
  }

  template <class F>
  void table_directive(F apply) {
    if (table_built_) throw InputError("table directives must come before the first file");
    apply();
  }

  void parse_schema(const std::string&, const std::string& body) {
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
    } else if (key.rfind("delta.", 0) == 0) {
      properties_.other_configuration[name] = value;
    } else {
      throw InputError("unknown property '" + name + "'");
    }
  }

  // The whole text, an integer: `range id 9x 10` is refused, not read as `range id 9 10`.
  static long long parse_long(const std::string& text) {
    size_t used = 0;
    long long value = 0;
    try {
      value = std::stoll(text, &used);
    } catch (const std::logic_error&) {
      used = 0;
    }
    if (used == 0 || used != text.size()) throw InputError("expected an integer, got '" + text + "'");
    return value;
  }

  static int parse_int(const std::string& text) {
    const long long value = parse_long(text);
    if (value < std::numeric_limits<int>::min() || value > std::numeric_limits<int>::max()) {
      throw InputError("expected a 32-bit integer, got '" + text + "'");
    }
    return static_cast<int>(value);
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

  void parse_log(const std::string&, const std::string& value) {
    const std::string where = ascii_lower(value);
    if (where == "replayed") {
      scenario_.log = LogReplay::InMemory;
    } else if (where == "directory") {
      scenario_.log = LogReplay::Directory;
    } else {
      throw InputError("log: expected 'replayed' or 'directory', got '" + value + "'");
    }
  }

  void parse_mutant(const std::string&, const std::string& name) {
    const auto mutant = mutant_from_name(ascii_lower(name));
    if (!mutant) throw InputError("unknown mutant '" + name + "'");
    // The mutant also shapes the stats of the files written from here on.
    if (table_built_) throw InputError("the mutant must come before the first file or transaction");
    scenario_.mutant = mutant_override_.value_or(*mutant);
    names_a_mutant_ = true;
  }

  void build_table() {
    if (table_built_) return;
    if (!has_schema_) throw InputError("the scenario needs a 'schema:' line first");
    properties_.stats.partition_columns = partition_columns_;
    with_error_context("property statsColumns", [&] { check_stats_columns(schema_, properties_.stats); });
    scenario_.table = Table(schema_, properties_);
    current_schema_ = schema_;
    table_built_ = true;
  }

  // The schema operations bind against: the table's, with the columns ALTER TABLE ADD COLUMNS
  // lines above have added (the file is read as a timeline).
  const Schema& schema() const { return current_schema_; }

  std::vector<Row> parse_rows(const std::string& text) {
    build_table();
    const Schema& schema = this->schema();
    std::vector<Row> parsed;
    if (starts_with_word(text, "range")) {
      parsed = parse_range(text, schema, kMaxScenarioRows - rows_written_);
    } else {
      const nlohmann::json rows = parse_json_exact(text);
      if (!rows.is_array()) throw InputError("rows must be a JSON array of objects or 'range ...'");
      for (const nlohmann::json& row : rows) parsed.push_back(row_from_json(row, schema));
    }
    rows_written_ += parsed.size();
    if (rows_written_ > kMaxScenarioRows) throw rows_limit_error();
    return parsed;
  }

  static InputError rows_limit_error() {
    return InputError("the scenario writes more than " + std::to_string(kMaxScenarioRows) + " rows, the limit");
  }

  // range <column> <from> <to> [{"other": value}]: one row per integer in [from, to), at most `room`.
  static std::vector<Row> parse_range(const std::string& text, const Schema& schema, size_t room) {
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
    return rows;
  }

  void parse_file(const std::string& spec, const std::string& body) {
    if (!scenario_.transactions.empty()) throw InputError("file lines come before the first step or transaction");
    std::istringstream in(spec);
    std::string name, option;
    in >> name;
    StatsPresence presence = StatsPresence::Collected;
    std::optional<std::string> deleted;
    std::vector<std::string> columns_without_stats;
    while (in >> option) {
      const std::string lower = ascii_lower(option);
      if (lower == "nostats") {
        presence = StatsPresence::Missing;
      } else if (lower.rfind("nostats=", 0) == 0) {
        columns_without_stats = split_top_level(option.substr(8), ',');
      } else if (lower.rfind("deleted=", 0) == 0) {
        deleted = option.substr(8);
      } else {
        throw InputError("unknown file option '" + option + "'");
      }
    }
    std::vector<Row> rows = parse_rows(body);
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
    if (deleted) attach_deletion_vector(files.front(), *deleted);
    scenario_.table.add_initial_file(std::move(files.front()));
  }

  // `stats f1: {...}`: the file's stats replaced by Delta stats JSON as written (a writer's lie
  // included: the rows stay what the file line says).
  void parse_raw_stats(const std::string& name, const std::string& body) {
    const TableFile* file = scenario_.table.find_file(name);
    if (!file || !scenario_.transactions.empty()) throw InputError("stats: no initial file '" + name + "' above");
    TableFile changed = *file;
    changed.stats = stats_from_json_text(body, scenario_.table.schema());
    scenario_.table.replace_initial_file(std::move(changed));
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

  // `<name> [options] [@v<N>]: <operation>`.
  void parse_transaction_line(const std::string& head, const std::string& body) {
    build_table();
    std::string name = head;
    std::vector<std::string> options;
    if (const size_t bracket = head.find('['); bracket != std::string::npos) {
      const size_t close = head.find(']', bracket);
      if (close == std::string::npos) throw InputError("expected ']' after the transaction options");
      options = split_top_level(std::string_view(head).substr(bracket + 1, close - bracket - 1), ',');
      name = head.substr(0, bracket) + head.substr(close + 1);
    }
    std::optional<int64_t> start;
    if (const size_t at = name.find('@'); at != std::string::npos) {
      const std::string version = trim_whitespace(name.substr(at + 1));
      if (version.size() < 2 || ascii_lower(version.substr(0, 1)) != "v") throw InputError("expected @v<version>, got '@" + version + "'");
      start = parse_int(version.substr(1));
      if (*start < 0) throw InputError("a version is 0 or more");
      name = name.substr(0, at);
    }
    name = trim_whitespace(name);
    if (name.empty() || name.find(' ') != std::string::npos) {
      throw InputError("unknown directive '" + head + "'");
    }
    ScenarioTransaction& txn = declared(name, false);
    if (start) {
      if (txn.start_version && *txn.start_version != *start) throw InputError(name + " already starts at v" + std::to_string(*txn.start_version));
      txn.start_version = start;
    }
    for (const std::string& option : options) apply_option(txn, ascii_lower(option));
    txn.bound_width = std::max(txn.bound_width, schema().leaves().size());
    count_operation();
    txn.operations.push_back(parse_operation(body, txn));
  }

  // The transaction of that name, declared on the timeline where it first appears.
  ScenarioTransaction& declared(const std::string& name, bool history_step) {
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
        name, {}, WriterSettings{name, StatsPresence::Collected, false, false},
        std::nullopt, history_step, 0, {}, line_number_});
    scenario_.timeline.push_back({TimelineEvent::Kind::Declare, scenario_.transactions.size() - 1});
    return scenario_.transactions.back();
  }

  // `step [options]: <operation>`: committed history, named S1, S2, ... in the reports.
  void parse_step(const std::string&, const std::string& body) {
    build_table();
    std::string text = body;
    std::vector<std::string> options;
    if (!text.empty() && text.front() == '[') {
      const size_t close = text.find(']');
      if (close == std::string::npos) throw InputError("expected ']' after the step options");
      options = split_top_level(std::string_view(text).substr(1, close - 1), ',');
      text = trim_whitespace(text.substr(close + 1));
    }
    std::string name = "S";
    name += std::to_string(++steps_);
    ScenarioTransaction& step = declared(name, true);
    for (const std::string& option : options) apply_option(step, ascii_lower(option));
    step.bound_width = schema().leaves().size();
    count_operation();
    step.operations.push_back(parse_operation(text, step));
    commit(name);
  }

  void commit(const std::string& name) {
    if (!committed_.insert(name).second) throw InputError(name + " is already in a commit line");
    scenario_.timeline.push_back({TimelineEvent::Kind::Commit, transaction_index(name)});
  }

  void count_operation() {
    if (++operations_ > kMaxScenarioOperations) {
      throw InputError("more than " + std::to_string(kMaxScenarioOperations) + " operations, the limit");
    }
  }

  static void apply_option(ScenarioTransaction& txn, const std::string& option) {
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
    } else {
      throw InputError("unknown transaction option '" + option + "'");
    }
  }

  // "<keyword> WHERE <predicate>" -> the bound predicate, or nullptr without WHERE.
  ExprPtr optional_where(const std::string& text) const {
    const std::string rest = trim_whitespace(text);
    if (rest.empty()) return nullptr;
    if (!starts_with_word(rest, "where")) throw InputError("expected WHERE, got '" + rest + "'");
    return parse_and_bind(trim_whitespace(std::string_view(rest).substr(5)), schema());
  }

  int leaf_of(const std::string& column) const {
    const Leaf* leaf = schema().find_leaf({top_level_name(trim_whitespace(column))});
    if (!leaf) throw InputError("unknown column '" + trim_whitespace(column) + "'");
    return leaf->ordinal;
  }

  // The operation `txn` adds next (a RESTORE's version is recorded in `txn`).
  Operation parse_operation(const std::string& text, ScenarioTransaction& txn) {
    Operation op;
    op.text = text;
    if (starts_with_word(text, "insert") && starts_with_word(trim_whitespace(text.substr(6)), "select")) {
      op.kind = OperationKind::InsertSelect;
      parse_set_where(trim_whitespace(text.substr(6)).substr(6), op);
    } else if (starts_with_word(text, "insert")) {
      op.kind = OperationKind::Insert;
      std::string rows = trim_whitespace(text.substr(6));
      op.rows_per_file = rows_per_file_suffix(rows);
      op.rows = parse_rows(rows);
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

  // The binder types predicates only; a value expression is bound as the operand of IS NULL.
  static ExprPtr bind_value(const std::string& text, const Schema& schema) {
    const ExprPtr bound = skipsound::bind(make_is_null(parse_predicate(text)), schema, text);
    return bound->children.front();
  }

  void parse_update(const std::string& text, Operation& op) {
    op.kind = OperationKind::Update;
    const std::string rest = trim_whitespace(text.substr(6));
    if (!starts_with_word(rest, "set")) throw InputError("expected UPDATE SET ...");
    parse_set_where(rest, op);
  }

  // `[SET c = <expr>, ...] [WHERE <predicate>]`, the tail of UPDATE and of INSERT SELECT.
  void parse_set_where(const std::string& text, Operation& op) const {
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
          bind_value(trim_whitespace(std::string_view(assignment).substr(eq + 1)), schema())});
    }
  }

  // RESTORE TO VERSION <n>
  static int64_t parse_restore_version(const std::string& text) {
    const std::vector<std::string> words = words_of(text);
    if (words.size() != 4 || ascii_lower(words[1]) != "to" || ascii_lower(words[2]) != "version") {
      throw InputError("expected RESTORE TO VERSION <n>");
    }
    const int version = parse_int(words[3]);
    if (version < 0) throw InputError("a version is 0 or more");
    return version;
  }

  // MERGE USING <rows> ON <condition> WHEN ... , or the upsert shorthand MERGE ON <key> USING <rows>.
  void parse_merge(const std::string& text, Operation& op) {
    op.kind = OperationKind::Merge;
    const std::string rest = trim_whitespace(text.substr(5));
    const Schema& table = schema();
    if (starts_with_word(rest, "on")) {
      const size_t using_at = find_keyword(rest, "using");
      if (using_at == std::string::npos) throw InputError("expected USING <rows> after MERGE ON <key>");
      op.merge = upsert_on_key(table, leaf_of(rest.substr(2, using_at - 2)));
      op.rows = parse_rows(trim_whitespace(rest.substr(using_at + 5)));
      return;
    }
    if (!starts_with_word(rest, "using")) {
      throw InputError("expected MERGE USING <rows> ON <condition> WHEN ... (or MERGE ON <key> USING <rows>)");
    }
    const size_t on_at = find_top_level(rest, "on");
    const size_t when_at = find_top_level(rest, "when");
    if (on_at == std::string::npos) throw InputError("expected ON <condition> after MERGE USING <rows>");
    if (when_at == std::string::npos || when_at < on_at) throw InputError("expected WHEN [NOT] MATCHED ... after the ON condition");
    op.rows = parse_rows(trim_whitespace(rest.substr(5, on_at - 5)));
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
  void parse_merge_clause(const std::string& text, const Schema& joint, MergeSpec& merge) const {
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

  void parse_merge_update_or_delete(const std::string& action, const Schema& joint, MergeClause& clause) const {
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

  void parse_merge_insert(const std::string& action, const Schema& joint, MergeClause& clause) const {
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

  static std::string parenthesised(const std::string& text) {
    const std::string t = trim_whitespace(text);
    if (t.size() < 2 || t.front() != '(' || t.back() != ')') throw InputError("expected '(...)', got '" + t + "'");
    return t.substr(1, t.size() - 2);
  }

  // A target column of an assignment: `c` or `t.c`.
  int target_leaf(const std::string& column) const {
    const std::string name = trim_whitespace(column);
    const bool qualified = name.size() > 2 && ascii_lower(name.substr(0, 2)) == "t.";
    return leaf_of(qualified ? name.substr(2) : name);
  }

  std::vector<Assignment> every_column_from_source(const Schema& joint) const {
    std::vector<Assignment> all;
    for (const Leaf& leaf : schema().leaves()) {
      all.push_back(Assignment{leaf.ordinal, bind_value("s." + path_to_sql(leaf.path), joint)});
    }
    return all;
  }

  // A trailing `ROWS PER FILE <n>` cut off `text`: n, else 0.
  static int rows_per_file_suffix(std::string& text) {
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

  static std::vector<std::string> words_of(const std::string& text) {
    std::istringstream in(text);
    std::vector<std::string> words;
    for (std::string w; in >> w;) words.push_back(w);
    return words;
  }

  // ALTER TABLE SET TBLPROPERTIES ('k' = 'v', ...) | ADD COLUMN[S] [(]c type, ...[)] | DROP FEATURE f
  void parse_alter(const std::string& text, Operation& op) {
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

  static std::string unquoted(const std::string& text) {
    const std::string t = trim_whitespace(text);
    if (t.size() >= 2 && (t.front() == '\'' || t.front() == '`' || t.front() == '"') && t.back() == t.front()) {
      return t.substr(1, t.size() - 2);
    }
    return t;
  }

  // ADD FILE <name> [NOSTATS] [<rows>]
  void parse_add_file(const std::string& text, Operation& op) {
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
    if (!rest.empty()) op.rows = parse_rows(rest);
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

  // OPTIMIZE [FILES f1, f2] [CLUSTER BY <column> [ROWS PER FILE <n>]]
  void parse_optimize(const std::string& text, Operation& op) {
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

  void parse_commit_order(const std::string&, const std::string& body) {
    for (const std::string& name : split_top_level(body, ',')) {
      transaction_index(name);
      commit(name);
    }
  }

  // expect <T>: <verdict> | expect table: <rows> | expect <T> keeps from <W>: <files>
  // | expect dv <file>: <positions> | expect dv <file>: cardinality <n>
  // | expect findings: none | expect mutant: killed
  void parse_expectation(const std::string& subject, const std::string& body) {
    if (ascii_lower(subject) == "table") {
      scenario_.expected_table = parse_rows(body);
      return;
    }
    if (const auto findings = finding_expectation(ascii_lower(subject), ascii_lower(body))) {
      if (scenario_.findings != FindingExpectation::Unstated && scenario_.findings != *findings) {
        throw InputError("'expect findings: none' and 'expect mutant: killed' contradict each other");
      }
      scenario_.findings = *findings;
      findings_line_ = line_number_;
      return;
    }
    const std::vector<std::string> words = words_of(subject);
    if (words.size() == 2 && ascii_lower(words[0]) == "dv") {
      scenario_.expected_dvs.push_back(parse_expected_dv(words[1], body));
      return;
    }
    if (words.size() == 4 && ascii_lower(words[1]) == "keeps" && ascii_lower(words[2]) == "from") {
      ExpectedSurvivors survivors{transaction_index(words[0]), transaction_index(words[3]), {}};
      if (!trim_whitespace(body).empty()) survivors.files = split_top_level(body, ',');
      std::sort(survivors.files.begin(), survivors.files.end());
      scenario_.expected_survivors.push_back(std::move(survivors));
      return;
    }
    if (words.size() != 1) {
      throw InputError("expected 'expect <transaction>:', 'expect table:', 'expect <T> keeps from <W>:', "
                       "'expect dv <file>:', 'expect findings: none' or 'expect mutant: killed'");
    }
    scenario_.expected[transaction_index(subject)] = parse_verdict(body);
  }

  static std::optional<FindingExpectation> finding_expectation(const std::string& subject, const std::string& body) {
    if (subject == "findings") {
      if (body != "none") throw InputError("expected 'expect findings: none', got '" + body + "'");
      return FindingExpectation::None;
    }
    if (subject == "mutant") {
      if (body != "killed") throw InputError("expected 'expect mutant: killed', got '" + body + "'");
      return FindingExpectation::Killed;
    }
    return std::nullopt;
  }

  static ExpectedDv parse_expected_dv(const std::string& path, const std::string& body) {
    ExpectedDv expected{path, std::nullopt, std::nullopt};
    const std::vector<std::string> words = words_of(body);
    if (!words.empty() && ascii_lower(words[0]) == "cardinality") {
      if (words.size() != 2) throw InputError("expected 'expect dv <file>: cardinality <n>'");
      const int n = parse_int(words[1]);
      if (n < 0) throw InputError("a cardinality is 0 or more");
      expected.cardinality = static_cast<size_t>(n);
      return expected;
    }
    expected.positions.emplace();
    if (words.empty() || (words.size() == 1 && ascii_lower(words[0]) == "none")) return expected;
    for (const std::string& position : split_top_level(body, ',')) {
      const int row = parse_int(position);
      if (row < 0) throw InputError("a DV position is 0 or more, got '" + position + "'");
      expected.positions->push_back(static_cast<uint32_t>(row));
    }
    std::sort(expected.positions->begin(), expected.positions->end());
    expected.positions->erase(std::unique(expected.positions->begin(), expected.positions->end()),
                              expected.positions->end());
    return expected;
  }

  ExpectedVerdict parse_verdict(const std::string& body) const {
    const std::vector<std::string> words = words_of(body);
    if (words.empty()) throw InputError("expected a verdict");
    const auto kind = verdict_kind_from_name(ascii_lower(words[0]));
    if (!kind) throw InputError("unknown verdict '" + words[0] + "'");
    ExpectedVerdict expected{*kind, std::nullopt, std::nullopt, std::nullopt};
    const bool aborts = *kind == VerdictKind::Abort || *kind == VerdictKind::FalseConflict;
    size_t next = 1;
    if (aborts) {
      if (words.size() > 1) expected.exception = conflict_kind_from_exception_name(words[1]);
      if (!expected.exception) throw InputError("expected an exception name after '" + words[0] + "'");
      next = 2;
      for (; next + 1 < words.size(); next += 2) {
        const std::string word = ascii_lower(words[next]);
        if (word == "by") {
          expected.winner = scenario_.transactions[transaction_index(words[next + 1])].name;
        } else if (word == "on") {
          expected.file = words[next + 1];
        } else {
          break;
        }
      }
    }
    if (next < words.size()) throw InputError("unexpected '" + words[next] + "' after '" + words[0] + "'");
    return expected;
  }

  void finish() {
    if (scenario_.transactions.empty()) throw located("the scenario has no transactions");
    const bool has_transactions = std::any_of(scenario_.transactions.begin(), scenario_.transactions.end(),
                                              [](const ScenarioTransaction& t) { return !t.history_step; });
    if (has_transactions && scenario_.commit_order().empty()) throw located("the scenario needs a 'commit:' line");
    check_finding_expectation();
  }

  // `expect findings: none` cannot stand beside a transaction expected to be a finding, and a
  // kill needs a mutant to kill.
  void check_finding_expectation() const {
    const auto at_findings_line = [&](const std::string& message) {
      return InputError(scenario_.source + ":" + std::to_string(findings_line_) + ": " + message);
    };
    if (scenario_.findings == FindingExpectation::Killed && !names_a_mutant_) {
      throw at_findings_line("'expect mutant: killed' needs a 'mutant:' line");
    }
    if (scenario_.findings != FindingExpectation::None) return;
    for (const auto& [index, verdict] : scenario_.expected) {
      if (is_unsound(verdict.kind)) {
        throw at_findings_line("'expect findings: none' contradicts 'expect " + scenario_.transactions[index].name +
                               ": " + expected_verdict_text(verdict) + "'");
      }
    }
  }

  Scenario scenario_;
  Schema schema_;
  bool has_schema_ = false;
  std::vector<std::string> partition_columns_;
  TableProperties properties_;
  bool table_built_ = false;
  Schema current_schema_;
  std::set<std::string> committed_;  // names already in a commit line or committed as a step
  int steps_ = 0;
  int line_number_ = 0;
  size_t rows_written_ = 0;  // by `file` lines, INSERT and MERGE, against kMaxScenarioRows
  size_t operations_ = 0;
  std::optional<Mutant> mutant_override_;  // replaces the `mutant:` line's (`--mutant`)
  bool names_a_mutant_ = false;            // a `mutant:` line was read
  int findings_line_ = 0;                  // of `expect findings:` or `expect mutant:`
};

}  // namespace

Scenario parse_scenario(std::string_view text, const std::string& source, std::optional<Mutant> mutant) {
  return ScenarioParser(source, mutant).parse(text);
}

Scenario load_scenario(const std::string& path, std::optional<Mutant> mutant) {
  const std::string text = with_error_context("scenario file", [&] { return read_bounded_file(path); });
  return parse_scenario(text, path, mutant);
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

std::vector<size_t> Scenario::commit_order() const {
  std::vector<size_t> order;
  for (const TimelineEvent& event : timeline) {
    if (event.kind == TimelineEvent::Kind::Commit && !transactions[event.transaction].history_step) {
      order.push_back(event.transaction);
    }
  }
  return order;
}

namespace {

// Delta's tests remove files of the snapshot by name; a name the snapshot lacks is a typo.
void check_removed_files_exist(const ScenarioTransaction& txn, const Table& snapshot) {
  for (const Operation& op : txn.operations) {
    if (op.kind == OperationKind::RemoveFile && !snapshot.find_file(op.name)) {
      throw InputError(txn.name + ": REMOVE FILE " + op.name + ": no such live file at v" +
                       std::to_string(snapshot.version()));
    }
  }
}

// Every column a transaction's operations use must exist in its snapshot.
void check_columns_exist(const ScenarioTransaction& txn, const Table& snapshot, size_t bound_width) {
  if (snapshot.schema().leaves().size() < bound_width) {
    throw InputError(txn.name + " uses columns added after its snapshot v" + std::to_string(snapshot.version()));
  }
}

std::string rows_summary(const std::vector<Row>& rows, const Schema& schema) {
  constexpr size_t kShown = 5;
  std::string text;
  for (size_t i = 0; i < rows.size() && i < kShown; ++i) text += (i ? ", " : "") + dump_json(row_to_json(rows[i], schema));
  if (rows.size() > kShown) text += ", ... (" + std::to_string(rows.size()) + " rows)";
  return text.empty() ? "none" : text;
}

// The transaction's operations, each RESTORE given the live files of its version, (path, DV)
// each (docs/semantics.md §10.8). A transaction sees no version after its snapshot.
std::vector<Operation> with_restored_files(const ScenarioTransaction& txn, const CommitDriver& driver,
                                           int64_t snapshot_version) {
  std::vector<Operation> operations = txn.operations;
  for (const auto& [at, version] : txn.restore_versions) {
    if (version > snapshot_version) {
      throw InputError(txn.name + ": RESTORE TO VERSION " + std::to_string(version) + ": the table has no version " +
                       std::to_string(version) + " at its snapshot v" + std::to_string(snapshot_version));
    }
    operations[at].restore_to = driver.at_version(version).files();
  }
  return operations;
}

std::string positions_text(const DeletedRows& positions) {
  std::string text;
  for (uint32_t p : positions) text += (text.empty() ? "" : ", ") + std::to_string(p);
  return text.empty() ? "none" : "{" + text + "}";
}

void check_expected_dvs(const Scenario& scenario, ScenarioRun& run) {
  const Table& final_state = run.schedule.final_state();
  for (const ExpectedDv& expected : scenario.expected_dvs) {
    std::vector<const TableFile*> live;
    for (const TableFile& file : final_state.files()) {
      if (file.path == expected.path) live.push_back(&file);
    }
    const std::string what = "dv " + expected.path + ": expected " +
                             (expected.cardinality ? "cardinality " + std::to_string(*expected.cardinality)
                                                   : positions_text(*expected.positions));
    if (live.empty()) {
      run.mismatches.push_back(what + ", but no add of " + expected.path + " is live");
    } else if (live.size() > 1) {
      // (path, DV) replay (docs/semantics.md §10): a remove that named another DV cancelled nothing.
      std::string dvs;
      for (const TableFile* file : live) dvs += (dvs.empty() ? "" : " and ") + positions_text(file->deleted);
      run.mismatches.push_back(what + ", but " + std::to_string(live.size()) + " adds of " + expected.path +
                               " are live (DVs " + dvs + "): a stale remove left one live");
    } else if (expected.cardinality ? live.front()->deleted.size() != *expected.cardinality
                                    : live.front()->deleted != *expected.positions) {
      run.mismatches.push_back(what + ", got " + positions_text(live.front()->deleted));
    }
  }
}

void check_expected_verdicts(const Scenario& scenario, ScenarioRun& run) {
  for (const auto& [index, expected] : scenario.expected) {
    const TransactionVerdict* actual = run.verdict_of(index);
    const std::string& name = scenario.transactions[index].name;
    if (!actual) {
      run.mismatches.push_back(name + ": expected " + expected_verdict_text(expected) +
                               ", but it is not in the commit order");
      continue;
    }
    ExpectedVerdict got{actual->kind, actual->exception, std::nullopt, std::nullopt};
    for (const CommitAttempt& attempt : run.schedule.attempts) {
      const auto* aborted = std::get_if<Aborted>(&attempt.result);
      if (attempt.transaction != index || !aborted) continue;
      if (expected.winner) got.winner = run.transactions[aborted->winner].name;
      if (expected.file) got.file = aborted->conflict.file;
    }
    if (expected_verdict_text(got) != expected_verdict_text(expected)) {
      run.mismatches.push_back(name + ": expected " + expected_verdict_text(expected) + ", got " +
                               expected_verdict_text(got));
    }
  }
}

void check_expected_survivors(const Scenario& scenario, ScenarioRun& run) {
  for (const ExpectedSurvivors& expected : scenario.expected_survivors) {
    const std::string what = scenario.transactions[expected.loser].name + " keeps from " +
                             scenario.transactions[expected.winner].name;
    std::optional<std::vector<std::string>> kept;
    for (const CommitAttempt& attempt : run.schedule.attempts) {
      if (attempt.transaction != expected.loser) continue;
      for (size_t k = 0; k < attempt.checks.size(); ++k) {
        if (attempt.winners[k] != expected.winner || !attempt.checks[k].append) continue;
        kept.emplace();
        for (const CandidateOutcome& file : attempt.checks[k].append->filtered.files) {
          if (file.verdict == CandidateVerdict::Survives) kept->push_back(file.path);
        }
        std::sort(kept->begin(), kept->end());
      }
    }
    if (!kept) {
      run.mismatches.push_back(what + ": the append check against it did not run");
    } else if (*kept != expected.files) {
      const auto names = [](const std::vector<std::string>& files) {
        std::string text;
        for (const std::string& f : files) text += (text.empty() ? "" : ", ") + f;
        return text.empty() ? std::string("none") : text;
      };
      run.mismatches.push_back(what + ": expected " + names(expected.files) + ", got " + names(*kept));
    }
  }
}

void check_expected_table(const Scenario& scenario, ScenarioRun& run) {
  if (!scenario.expected_table) return;
  const Table& final_state = run.schedule.final_state();
  const std::vector<Row> got = canonical_rows(final_state.live_rows());
  const std::vector<Row> want = canonical_rows(*scenario.expected_table);
  std::vector<Row> missing, extra;
  std::set_difference(want.begin(), want.end(), got.begin(), got.end(), std::back_inserter(missing), row_less);
  std::set_difference(got.begin(), got.end(), want.begin(), want.end(), std::back_inserter(extra), row_less);
  if (missing.empty() && extra.empty()) return;
  run.mismatches.push_back("table: expected " + std::to_string(want.size()) + " rows, got " +
                           std::to_string(got.size()) + "; missing " + std::to_string(missing.size()) + " (" +
                           rows_summary(missing, final_state.schema()) + "), unexpected " +
                           std::to_string(extra.size()) + " (" + rows_summary(extra, final_state.schema()) + ")");
}

}  // namespace

ScenarioRun run_scenario(const Scenario& scenario) {
  // Every step of the run (its writers, scans, log reads and conflict checks) runs under the
  // scenario's mutant.
  const FaultScope fault(scenario.mutant);
  const ProductionScanPlanner planner;
  ScenarioRun run;
  run.transactions.resize(scenario.transactions.size());
  std::vector<int64_t> start(scenario.transactions.size(), -1);
  std::vector<bool> ran(scenario.transactions.size(), false);
  CommitDriver driver(scenario.table, scenario.options, scenario.log);
  const auto run_on_snapshot = [&](size_t index) {
    const ScenarioTransaction& t = scenario.transactions[index];
    if (start[index] > driver.latest_version()) {
      throw InputError(t.name + " @v" + std::to_string(start[index]) + ": the table has no version " +
                       std::to_string(start[index]) + " yet (latest: v" + std::to_string(driver.latest_version()) + ")");
    }
    const Table& snapshot = driver.at_version(start[index]);
    check_removed_files_exist(t, snapshot);
    check_columns_exist(t, snapshot, t.bound_width);
    run.transactions[index] =
        run_transaction(t.name, snapshot, with_restored_files(t, driver, snapshot.version()), t.settings, planner);
    ran[index] = true;
  };
  // Bad input that only the run finds names the line where its transaction first appears.
  const auto at_line = [&](size_t index, const auto& step) {
    try {
      step();
    } catch (const InputError& e) {
      throw InputError(scenario.source + ":" + std::to_string(scenario.transactions[index].line) + ": " +
                       (e.column() > 0 ? e.render() : e.message()));
    }
  };
  for (const TimelineEvent& event : scenario.timeline) {
    const size_t index = event.transaction;
    if (event.kind == TimelineEvent::Kind::Declare) {
      start[index] = scenario.transactions[index].start_version.value_or(driver.latest_version());
      continue;
    }
    at_line(index, [&] {
      run_on_snapshot(index);
      driver.commit(index, run.transactions);
    });
  }
  for (size_t index = 0; index < ran.size(); ++index) {
    if (!ran[index] && start[index] <= driver.latest_version()) at_line(index, [&] { run_on_snapshot(index); });
  }
  run.schedule = std::move(driver).finish();
  run.verdicts = judge_schedule(run.transactions, run.schedule);
  check_expected_verdicts(scenario, run);
  check_expected_survivors(scenario, run);
  check_expected_table(scenario, run);
  check_expected_dvs(scenario, run);
  return run;
}

}  // namespace skipsound
