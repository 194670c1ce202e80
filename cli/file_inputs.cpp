#include "cli/file_inputs.h"

#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "model/mutants/fault_injection.h"
#include "model/log/delta_log.h"
#include "model/values/input_error.h"
#include "model/values/input_limits.h"
#include "model/sql/row.h"
#include "model/values/exact_json.h"

namespace skipsound::cli {

namespace {

// Command-line settings override the table's own configuration.
StatsConfig config_from(const FileInputOptions& options, StatsConfig config, std::vector<std::string>& warnings) {
  if (!options.partition_columns.empty()) config.partition_columns = options.partition_columns;
  if (options.num_indexed_cols) {
    config.num_indexed_cols = with_error_context("--num-indexed-cols", [&] { return parse_num_indexed_cols(*options.num_indexed_cols); });
  }
  if (options.stats_columns) {
    config.stats_columns = with_error_context("--stats-columns", [&] { return parse_stats_columns(*options.stats_columns); });
  }
  if (options.num_indexed_cols && config.stats_columns) {
    warnings.push_back(std::string("--num-indexed-cols ignored: ") + kStatsColumnsKey +
                       " is set, and Delta then ignores " + kNumIndexedColsKey);
  }
  if (options.string_prefix_length) config.string_prefix_length = *options.string_prefix_length;
  return config;
}

// A stats-column list given here is checked as Delta checks the property when it is set.
void check_stats_columns_option(const FileInputOptions& options, const LoadedFiles& files) {
  if (options.stats_columns) with_error_context("--stats-columns", [&] { check_stats_columns(files.schema, files.config); });
}

std::vector<Row> read_rows(const std::string& path, const Schema& schema) {
  std::istringstream lines(read_text_file(path));
  std::vector<Row> rows;
  int number = 0;
  for (std::string line; std::getline(lines, line);) {
    ++number;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    try {
      rows.push_back(row_from_json(parse_json_exact(line), schema));
    } catch (const nlohmann::json::exception& e) {
      throw InputError(path + ":" + std::to_string(number) + ": " + e.what());
    } catch (const InputError& e) {
      throw InputError(path + ":" + std::to_string(number) + ": " + e.message());
    }
  }
  return rows;
}

// A file of a partitioned table holds one value of each partition column: the rows must agree.
Row partition_values_of(const std::vector<Row>& rows, const LoadedFiles& files, const std::string& path) {
  for (const std::string& name : files.config.partition_columns) {
    const Leaf* leaf = files.schema.find_leaf(ColumnPath{name});
    if (leaf == nullptr) throw InputError("--partition-columns: unknown column `" + name + "`");
    for (size_t i = 1; i < rows.size(); ++i) {
      if (!(rows[i][leaf->ordinal] == rows.front()[leaf->ordinal])) {
        throw InputError(path + ": rows 1 and " + std::to_string(i + 1) + " differ in partition column `" + name +
                         "`: a file of a partitioned table holds one value of it");
      }
    }
  }
  return rows.front();
}

// The stats reader runs under the input-path mutant; the writer behind --rows never does.
FileStats read_stats_under(Mutant mutant, const std::string& text, const Schema& schema) {
  const FaultScope reader(mutant);
  return stats_from_json_text(text, schema, StatsNaming::Logical);
}

void load_table(const FileInputOptions& options, LoadedFiles& files, std::vector<std::string>& warnings,
                Mutant mutant) {
  const DeltaTable table = [&] {
    const FaultScope reader(mutant);
    return load_delta_table(options.table_dir, options.version);
  }();
  warnings.insert(warnings.end(), table.warnings.begin(), table.warnings.end());
  files.schema = table.metadata.schema;
  files.config = config_from(options, table.stats_config, warnings);
  check_stats_columns_option(options, files);
  for (const LiveFile& f : table.files) {
    const FileStats* stats = f.stats ? &files.stats.emplace_back(*f.stats) : nullptr;
    files.candidates.push_back(CandidateFile{f.add.path, stats, partition_row(f.partition_values, files.schema),
                                             f.dv_cardinality()});
    files.stats_texts.push_back(stats && f.add.stats ? std::optional(LoadedFiles::StatsText{*f.add.stats, table.stats_naming()})
                                                     : std::nullopt);
  }
  files.have_partition_values = true;
}

}  // namespace

void add_file_input_options(CLI::App& command, FileInputOptions& options) {
  command.add_option("--schema", options.schema_file, "Spark StructType JSON file");
  command.add_option("--stats", options.stats_json,
                     "one file's stats JSON; with --rows, the stats recorded for those rows (written under other settings)");
  command.add_option("--rows", options.rows_file,
                     "JSONL rows written as one file (with --partition-columns, its partition values: the rows must agree)");
  command.add_option("--table", options.table_dir, "a Delta table directory");
  command.add_option("--version", options.version, "table version (default: latest)");
  command.add_option("--partition-columns", options.partition_columns, "partition column names")
      ->delimiter(',');
  command.add_option("--num-indexed-cols", options.num_indexed_cols,
                     "delta.dataSkippingNumIndexedCols (-1: every column); ignored when stats columns are set");
  command.add_option("--stats-columns", options.stats_columns,
                     "delta.dataSkippingStatsColumns, one string in Delta's syntax: \"a, s.b, `x.y`\"");
  command.add_option("--string-prefix-length", options.string_prefix_length,
                     "string stats prefix length N (default 32): the writer's, and the oracle's reading of it")
      ->check(CLI::PositiveNumber);
}

LoadedFiles load_files(const FileInputOptions& options, std::vector<std::string>& warnings, Mutant mutant) {
  LoadedFiles files;
  if (!options.table_dir.empty()) {
    load_table(options, files, warnings, mutant);
    return files;
  }
  if (options.schema_file.empty()) throw InputError("--schema is required unless --table is given");
  try {
    files.schema = Schema::from_json_text(read_text_file(options.schema_file));
  } catch (const SchemaError& e) {
    throw InputError("bad schema in " + options.schema_file + ": " + e.what());
  } catch (const nlohmann::json::exception& e) {
    throw InputError("bad schema JSON in " + options.schema_file + ": " + e.what());
  }
  files.config = config_from(options, StatsConfig{}, warnings);
  check_stats_columns_option(options, files);
  if (options.stats_json.empty() && options.rows_file.empty())
    throw InputError("give one of --stats, --rows or --table");
  const std::vector<Row> rows = options.rows_file.empty() ? std::vector<Row>{} : read_rows(options.rows_file, files.schema);
  // Recorded stats win over the writer's: the file was written under other settings.
  files.stats.push_back(options.stats_json.empty() ? collect_stats(rows, files.schema, files.config)
                                                   : read_stats_under(mutant, options.stats_json, files.schema));
  if (!options.stats_json.empty()) files.stats_texts.push_back(LoadedFiles::StatsText{options.stats_json});
  else files.stats_texts.push_back(std::nullopt);
  Row partition;
  if (!rows.empty() && !files.config.partition_columns.empty()) {
    partition = partition_values_of(rows, files, options.rows_file);
    files.have_partition_values = true;
  }
  const std::string name = options.rows_file.empty() ? "<stats>" : options.rows_file;
  files.candidates.push_back(CandidateFile{name, &files.stats.front(), std::move(partition), 0});
  return files;
}

FileEvidence evidence_of(const CandidateFile& file, const LoadedFiles& files) {
  FileEvidence evidence{file.stats, file.dv_cardinality, {}, files.config.string_prefix_length};
  if (!files.have_partition_values) return evidence;
  for (const std::string& name : files.config.partition_columns) {
    const Leaf* leaf = files.schema.find_leaf(ColumnPath{name});
    if (leaf && static_cast<size_t>(leaf->ordinal) < file.partition_values.size())
      evidence.partition_values.emplace(leaf->ordinal, file.partition_values[leaf->ordinal]);
  }
  return evidence;
}

Mutant mutant_from_option(const std::string& name) {
  const std::optional<Mutant> mutant = mutant_from_name(name);
  if (!mutant) throw InputError(unknown_mutant_message(name));
  return *mutant;
}

std::string read_text_file(const std::string& path) { return read_bounded_file(path); }

void write_text_file(const std::string& path, const std::string& content) {
  std::ofstream out(path);
  if (!out) throw InputError("cannot write " + path);
  out << content;
}

}  // namespace skipsound::cli
