// The skipsound command line: each subcommand lives in its own proofs/cli_<name>.cpp and
// registers itself here. Exit codes: 0 success, 1 a finding (unsound skip, missed conflict,
// differing verdict), 2 bad input or usage.
#pragma once
#include <CLI/CLI.hpp>

namespace skipsound::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFinding = 1;
inline constexpr int kExitUsage = 2;

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

}  // namespace skipsound::cli
