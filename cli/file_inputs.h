// The files a per-file command works on, loaded from its options: one file's stats JSON
// (--stats), a JSONL file of rows written as one file (--rows: stats collected as a writer would)
// or every live file of a Delta table (--table [--version]). Shared by the subcommands that decide
// or judge files (`skipsound skip`, `skipsound check`).
#pragma once
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "checker/candidate_file.h"
#include "model/mutants/mutant.h"
#include "model/sql/schema.h"
#include "model/stats/stats.h"
#include "model/stats/stats_collection.h"
#include "model/stats/stats_consistency.h"

namespace skipsound::cli {

struct FileInputOptions {
  std::string schema_file;
  std::string stats_json;
  std::string rows_file;
  std::string table_dir;
  std::optional<int64_t> version;
  std::vector<std::string> partition_columns;
  // Table properties in Delta's own syntax, parsed by model/stats' parsers.
  std::optional<std::string> num_indexed_cols;
  std::optional<std::string> stats_columns;
  std::optional<int> string_prefix_length;
};

// Adds --schema, --stats, --rows, --table, --version and the stats-configuration options.
void add_file_input_options(CLI::App& command, FileInputOptions& options);

struct LoadedFiles {
  LoadedFiles() = default;
  LoadedFiles(const LoadedFiles&) = delete;  // candidates point into `stats`
  LoadedFiles& operator=(const LoadedFiles&) = delete;
  LoadedFiles(LoadedFiles&&) = default;      // a moved deque keeps its elements in place
  LoadedFiles& operator=(LoadedFiles&&) = default;

  Schema schema;
  StatsConfig config;
  std::deque<FileStats> stats;  // a deque: candidates point into it
  std::vector<CandidateFile> candidates;
  bool have_partition_values = false;  // only --table files carry partition values
  // By candidate: the stats JSON text the production reader read, for the oracle's own reading
  // (smt/oracle_stats_reader.h); nullopt where no text was read (stats collected from --rows).
  struct StatsText {
    std::string text;
    StatsNaming naming = StatsNaming::Logical;
  };
  std::vector<std::optional<StatsText>> stats_texts;
};

// Throws InputError for missing or conflicting options and unreadable or malformed input; table
// warnings go to `warnings` (stderr in the commands). `mutant`: an input-path mutant of the stats
// and log readers (model/mutants/mutant.h); the others read as written.
LoadedFiles load_files(const FileInputOptions& options, std::vector<std::string>& warnings,
                       Mutant mutant = Mutant::None);

// What the Z3 oracle needs to know about one of `files`' candidates: its stats, DV and (with
// --table) the exact values of the partition columns.
FileEvidence evidence_of(const CandidateFile& file, const LoadedFiles& files);

// "none" or a mutant name; throws InputError naming an unknown one.
Mutant mutant_from_option(const std::string& name);

// The whole file, within the input limits of model/values/input_limits.h.
std::string read_text_file(const std::string& path);
// Writes `content` to `path`; throws InputError when it cannot.
void write_text_file(const std::string& path, const std::string& content);

}  // namespace skipsound::cli
