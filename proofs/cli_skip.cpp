// `skipsound skip`: the production skipping decision for each file, with its explanation — the
// skipping expression, what each part evaluated to, and stats verification (SPEC §5).
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include <nlohmann/json.hpp>

#include "checker/scan_filter.h"
#include "model/binder.h"
#include "model/delta_log.h"
#include "model/input_error.h"
#include "model/printer.h"
#include "model/row.h"
#include "model/stats_collection.h"
#include "proofs/cli.h"

namespace skipsound::cli {

namespace {

constexpr const char* kSkipHelp =
    "decide KEEP or SKIP for each file under a read predicate, and say why: the skipping "
    "expression, each part's value and stats verification. Files come from --stats (one file's "
    "Delta stats JSON), --rows (a JSONL file written as one file: stats collected as a writer "
    "would) or --table (every live file of a Delta table). Partition filters are applied only "
    "with --table, where files have partition values.";

struct SkipArguments {
  std::string predicate;
  std::string schema_file;
  std::string stats_json;
  std::string rows_file;
  std::string table_dir;
  std::optional<int64_t> version;
  std::string mutant = "none";
  std::vector<std::string> partition_columns;
  std::optional<int> num_indexed_cols;
  std::vector<std::string> stats_columns;
  std::optional<int> string_prefix_length;
  bool json = false;
};

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("cannot read " + path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

ColumnPath dotted_path(const std::string& dotted) {
  ColumnPath path;
  std::istringstream parts(dotted);
  for (std::string part; std::getline(parts, part, '.');) path.push_back(part);
  return path;
}

StatsConfig config_from(const SkipArguments& args, StatsConfig config) {
  if (!args.partition_columns.empty()) config.partition_columns = args.partition_columns;
  if (args.num_indexed_cols) config.num_indexed_cols = *args.num_indexed_cols;
  if (!args.stats_columns.empty()) {
    std::vector<ColumnPath> columns;
    for (const std::string& c : args.stats_columns) columns.push_back(dotted_path(c));
    config.stats_columns = columns;
  }
  if (args.string_prefix_length) config.string_prefix_length = *args.string_prefix_length;
  return config;
}

std::vector<Row> read_rows(const std::string& path, const Schema& schema) {
  std::istringstream lines(read_file(path));
  std::vector<Row> rows;
  int number = 0;
  for (std::string line; std::getline(lines, line);) {
    ++number;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    try {
      rows.push_back(row_from_json(nlohmann::json::parse(line), schema));
    } catch (const nlohmann::json::exception& e) {
      throw InputError(path + ":" + std::to_string(number) + ": " + e.what());
    } catch (const InputError& e) {
      throw InputError(path + ":" + std::to_string(number) + ": " + e.message());
    }
  }
  return rows;
}

// The files to decide, with the stats they point at kept alive here.
struct Files {
  Schema schema;
  StatsConfig config;
  std::vector<FileStats> stats;
  std::vector<CandidateFile> candidates;
  bool have_partition_values = false;
};

Files load_files(const SkipArguments& args) {
  Files files;
  if (!args.table_dir.empty()) {
    const DeltaTable table = load_delta_table(args.table_dir, args.version);
    for (const std::string& w : table.warnings) std::cerr << "warning: " << w << "\n";
    files.schema = table.metadata.schema;
    files.config = config_from(args, table.stats_config());
    files.stats.reserve(table.files.size());
    for (const LiveFile& f : table.files) {
      files.stats.push_back(f.stats.value_or(FileStats{}));
      files.candidates.push_back(CandidateFile{f.add.path, f.stats ? &files.stats.back() : nullptr,
                                               partition_row(f.partition_values, files.schema),
                                               f.dv_cardinality()});
    }
    files.have_partition_values = true;
    return files;
  }
  if (args.schema_file.empty()) throw InputError("--schema is required unless --table is given");
  files.schema = Schema::from_json_text(read_file(args.schema_file));
  files.config = config_from(args, StatsConfig{});
  if (!args.stats_json.empty() == !args.rows_file.empty()) {
    throw InputError("give exactly one of --stats, --rows or --table");
  }
  if (!args.stats_json.empty()) {
    files.stats.push_back(stats_from_json_text(args.stats_json, files.schema));
  } else {
    files.stats.push_back(collect_stats(read_rows(args.rows_file, files.schema), files.schema,
                                        files.config));
  }
  const std::string name = args.stats_json.empty() ? args.rows_file : "<stats>";
  files.candidates.push_back(CandidateFile{name, &files.stats.front(), {}, 0});
  return files;
}

std::string value_text(const Value& v) { return v.is_null() ? "NULL" : to_sql_literal(v); }

void print_trace(std::ostream& out, const SkipTrace& t, int depth) {
  out << std::string(4 + 2 * depth, ' ') << t.text << "  =>  " << value_text(t.value) << "\n";
  for (const SkipTrace& c : t.children) {
    if (c.children.empty() && c.text == value_text(c.value)) continue;  // a literal says itself
    print_trace(out, c, depth + 1);
  }
}

nlohmann::json trace_json(const SkipTrace& t) {
  nlohmann::json j{{"expr", t.text}, {"value", value_text(t.value)}};
  if (!t.children.empty()) {
    j["parts"] = nlohmann::json::array();
    for (const SkipTrace& c : t.children) j["parts"].push_back(trace_json(c));
  }
  return j;
}

std::string verification_text(const StatsVerification& v, const Schema& schema) {
  if (v.outcome == VerificationOutcome::Passed) return "passed";
  return "failed: " + to_string(*v.missing, schema) + " missing";
}

void print_text(std::ostream& out, const ScanResult& result, const Files& files) {
  for (const ExprPtr& d : result.filters.dropped) out << "dropped filter: " << to_sql(d) << "\n";
  for (const ExprPtr& p : result.filters.read.partition_filters) {
    out << "partition filter: " << to_sql(p)
        << (files.have_partition_values ? "" : "  (not applied: no partition values)") << "\n";
  }
  out << "skipping expression: "
      << (result.skipping ? to_string(result.skipping->expr, files.schema) : "none") << "\n";
  for (const ScanFileOutcome& f : result.files) {
    out << verdict_name(f.verdict) << "  " << f.path << "\n    " << f.reason << "\n";
    if (f.data.evaluation) print_trace(out, *f.data.evaluation, 0);
    out << "    verification: " << verification_text(f.data.verification, files.schema) << "\n";
  }
}

nlohmann::json result_json(const ScanResult& result, const Files& files, const std::string& predicate) {
  nlohmann::json j{{"predicate", predicate},
                   {"expression", result.skipping ? to_string(result.skipping->expr, files.schema) : "none"},
                   {"files", nlohmann::json::array()}};
  for (const ScanFileOutcome& f : result.files) {
    nlohmann::json file{{"path", f.path},
                        {"verdict", verdict_name(f.verdict)},
                        {"reason", f.reason},
                        {"verification", verification_text(f.data.verification, files.schema)}};
    if (files.have_partition_values) {
      file["partition"] = f.partition == PartitionMatch::Match ? "match" : "no match";
    }
    if (f.data.evaluation) file["evaluation"] = trace_json(*f.data.evaluation);
    j["files"].push_back(file);
  }
  return j;
}

void run_skip(const SkipArguments& args) {
  Mutant mutant = Mutant::None;
  if (args.mutant != "none") {
    const std::optional<Mutant> m = mutant_from_name(args.mutant);
    if (!m) throw InputError("unknown mutant '" + args.mutant + "'");
    mutant = *m;
  }
  Files files = load_files(args);
  const ExprPtr predicate = parse_and_bind(args.predicate, files.schema);
  const StatsEligibility eligibility(files.schema, files.config);
  ScanResult result = filter_scan(predicate, files.candidates, eligibility, mutant);
  if (!files.have_partition_values) {
    for (ScanFileOutcome& f : result.files) {  // no partition values: data skipping decides
      f.verdict = f.data.verdict;
      f.reason = f.data.reason;
    }
  }
  if (args.json) {
    std::cout << result_json(result, files, args.predicate).dump(2) << "\n";
  } else {
    print_text(std::cout, result, files);
  }
}

}  // namespace

void add_skip_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<SkipArguments>();
  auto* command = app.add_subcommand("skip", kSkipHelp);
  command->add_option("predicate", args->predicate, "the read predicate (Spark SQL)")->required();
  command->add_option("--schema", args->schema_file, "Spark StructType JSON file");
  command->add_option("--stats", args->stats_json, "one file's stats JSON");
  command->add_option("--rows", args->rows_file, "JSONL rows written as one file");
  command->add_option("--table", args->table_dir, "a Delta table directory");
  command->add_option("--version", args->version, "table version (default: latest)");
  command->add_option("--mutant", args->mutant, "a mutant of the skipping logic (SPEC §8)");
  command->add_option("--partition-columns", args->partition_columns, "partition column names")
      ->delimiter(',');
  command->add_option("--num-indexed-cols", args->num_indexed_cols, "dataSkippingNumIndexedCols");
  command->add_option("--stats-columns", args->stats_columns, "dataSkippingStatsColumns")->delimiter(',');
  command->add_option("--string-prefix-length", args->string_prefix_length, "string stats prefix length");
  command->add_flag("--json", args->json, "print the decisions as JSON");
  command->callback([args, &exit_code] {
    run_skip(*args);
    exit_code = kExitOk;
  });
}

}  // namespace skipsound::cli
