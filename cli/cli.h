// The skipsound command line: each subcommand lives in its own cli/cli_<name>.cpp and
// registers itself here. Exit codes: 0 success, 1 a finding (unsound skip, missed conflict,
// differing verdict), 2 bad input or usage, 3 an internal error of skipsound itself.
#pragma once
#include <exception>
#include <string>

#include <CLI/CLI.hpp>

#include "model/sql/schema.h"
#include "model/values/input_error.h"
#include "model/values/input_limits.h"

namespace skipsound::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFinding = 1;
inline constexpr int kExitUsage = 2;
inline constexpr int kExitInternal = 3;

inline constexpr const char* kExitCodesHelp =
    "Exit codes: 0 success, 1 a finding, 2 bad input or usage, 3 an internal error of skipsound.";

// Worker threads a command may start (--threads).
inline constexpr unsigned kMaxThreads = 256;

// The bounds every command holds its input to (model/values/input_limits.h); beyond them it exits 2.
inline std::string input_limits_help() {
  return "Input limits (exit 2 beyond them): " + byte_size_text(kMaxInputFileBytes) + " per file read; " +
         std::to_string(kMaxPredicateBytes) + " bytes per predicate; a Delta log of at most " +
         std::to_string(kMaxLogCommits) + " JSON commits, " + byte_size_text(kMaxLogBytes) + " in all and " +
         std::to_string(kMaxLiveFiles) + " live files; a scenario of at most " + std::to_string(kMaxScenarioRows) +
         " rows written, " + std::to_string(kMaxScenarioTransactions) + " transactions and " +
         std::to_string(kMaxScenarioOperations) + " operations; --threads at most " + std::to_string(kMaxThreads) +
         ". numRecords and counts are 64-bit: no value is materialised row by row.";
}

// A declared input error (the user's to fix) exits 2; any other exception is skipsound's own bug.
inline int exit_code_for(const std::exception& e) {
  const bool declared = dynamic_cast<const InputError*>(&e) || dynamic_cast<const SchemaError*>(&e);
  return declared ? kExitUsage : kExitInternal;
}

// Each adds one subcommand whose callback stores its exit code in `exit_code`.
void add_parse_command(CLI::App& app, int& exit_code);
void add_eval_command(CLI::App& app, int& exit_code);
void add_check_command(CLI::App& app, int& exit_code);
void add_skip_command(CLI::App& app, int& exit_code);
void add_prove_command(CLI::App& app, int& exit_code);
void add_scenario_command(CLI::App& app, int& exit_code);
void add_gate_command(CLI::App& app, int& exit_code);
void add_replay_command(CLI::App& app, int& exit_code);
void add_explore_command(CLI::App& app, int& exit_code);
void add_engine_gate_command(CLI::App& app, int& exit_code);

}  // namespace skipsound::cli
