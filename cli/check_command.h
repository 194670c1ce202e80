// `skipsound check` as a function, so tests can run it on their own streams
// (cli/cli_check.cpp registers it as a subcommand and documents the decisions-file format).
#pragma once
#include <optional>
#include <ostream>
#include <string>

#include "cli/file_inputs.h"
#include "smt/oracle.h"
#include "smt/second_solver.h"

namespace skipsound::cli {

struct CheckArguments {
  std::string predicate;       // required unless decisions_file is given
  FileInputOptions inputs;     // skipsound's own decisions on these files
  std::string decisions_file;  // or: another engine's decisions, one JSON object a line
  std::string mutant = "none";
  bool json = false;
  smt::OracleOptions oracle;   // its limits (record_smt2 follows smt_dump_dir)
  std::string smt_dump_dir;    // when set, each query is written there as SMT-LIB 2
  std::optional<smt::SecondSolverOptions> cross_check;  // re-ask every sat/unsat answer there
};

// Judges every decision; returns kExitFinding when a skip is unsound (or skipsound's oracle
// disagrees with itself, or the cross-check solver disagrees with Z3), else kExitOk. Throws InputError on bad input.
int run_check(const CheckArguments& args, std::ostream& out, std::ostream& err);

}  // namespace skipsound::cli
