#include "proofs/cross_check.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "model/input_error.h"

namespace skipsound {

namespace {

std::optional<smt::SecondVerdict> expected_second(smt::OracleVerdict z3) {
  if (z3 == smt::OracleVerdict::Sat) return smt::SecondVerdict::Sat;
  if (z3 == smt::OracleVerdict::Unsat) return smt::SecondVerdict::Unsat;
  return std::nullopt;
}

std::string fixed(double v, int digits) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", digits, v);
  return buffer;
}

std::string file_stem(const std::string& name) {
  std::string stem = name.substr(0, 80);
  for (char& c : stem)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '.') c = '_';
  return stem;
}

std::string fresh_temporary_dir() {
  std::string pattern = (std::filesystem::temp_directory_path() / "skipsound-cross-check-XXXXXX").string();
  if (!mkdtemp(pattern.data())) throw InputError("cannot create a temporary folder for disagreeing queries");
  return pattern;
}

}  // namespace

std::string CrossCheckTally::summary_line() const {
  std::string line = "cross-check (" + solver + "): " + std::to_string(asked) + " queries (" +
                     std::to_string(solver_runs) + " distinct), " + std::to_string(agreed) + " agreed, " +
                     std::to_string(unknown) + " unknown, " + std::to_string(errors) + " errors, " +
                     std::to_string(disagreements) + " disagreements, " + fixed(solver_seconds, 1) + " s in " + solver;
  if (solver_seconds > 0) line += " (" + fixed(static_cast<double>(solver_runs) / solver_seconds, 1) + " queries/s)";
  return line;
}

void CrossCheckTally::print(std::ostream& out) const {
  for (const std::string& finding : findings) out << finding << "\n";
  for (const auto& [reason, n] : reasons) out << "cross-check not confirmed x" << n << ": " << reason << "\n";
  out << summary_line() << "\n";
}

nlohmann::json CrossCheckTally::json() const {
  return {{"queries", asked}, {"distinct", solver_runs}, {"agreed", agreed}, {"unknown", unknown},
          {"errors", errors}, {"disagreements", disagreements}, {"solverSeconds", solver_seconds},
          {"reasons", reasons}, {"findings", findings}};
}

std::optional<smt::SecondSolverOptions> cross_check_solver(const std::string& name) {
  if (name == "none") return std::nullopt;
  if (name != "cvc5") throw InputError("--cross-check takes cvc5 or none, got '" + name + "'");
  const smt::SecondSolverOptions options;
  if (!smt::SecondSolver(options).available()) {
    throw InputError("--cross-check cvc5: the `" + options.command + "` command cannot be run; install cvc5 "
                     "(scripts/run does: apt-get install cvc5) or pass --cross-check none");
  }
  return options;
}

CrossChecker::CrossChecker(smt::SecondSolverOptions solver, std::string query_dir)
    : solver_(solver), query_dir_(std::move(query_dir)) {
  tally_.solver = solver.command;
}

CrossCheckOutcome CrossChecker::check(const std::string& smt2, smt::OracleVerdict z3, const std::string& name) {
  const std::optional<smt::SecondVerdict> expected = expected_second(z3);
  if (!expected || smt2.empty()) return CrossCheckOutcome::NotAsked;
  std::optional<smt::SecondAnswer> answer;
  {
    const std::lock_guard<std::mutex> guard(lock_);
    if (const auto known = answers_.find(smt2); known != answers_.end()) answer = known->second;
  }
  const bool ran = !answer;
  if (ran) answer = solver_.ask(smt2);  // outside the lock: queries run in parallel

  const std::lock_guard<std::mutex> guard(lock_);
  ++tally_.asked;
  if (ran) {
    answers_.emplace(smt2, *answer);
    ++tally_.solver_runs;
    tally_.solver_seconds += answer->seconds;
  }
  switch (answer->verdict) {
    case smt::SecondVerdict::Unknown:
      ++tally_.unknown;
      ++tally_.reasons["unknown: " + answer->reason];
      return CrossCheckOutcome::Unknown;
    case smt::SecondVerdict::Error:
      ++tally_.errors;
      ++tally_.reasons["error: " + answer->reason];
      return CrossCheckOutcome::Error;
    default:
      break;
  }
  if (answer->verdict == *expected) {
    ++tally_.agreed;
    return CrossCheckOutcome::Agreed;
  }
  ++tally_.disagreements;
  tally_.findings.push_back(std::string("DISAGREEMENT: Z3 ") + smt::verdict_name(z3) + ", " + solver_.describe() +
                            " " + smt::second_verdict_name(answer->verdict) + " on " + name + "; query: " +
                            write_disagreement(smt2, z3, *answer, name));
  return CrossCheckOutcome::Disagreed;
}

// Called with lock_ held.
std::string CrossChecker::write_disagreement(const std::string& smt2, smt::OracleVerdict z3,
                                             const smt::SecondAnswer& answer, const std::string& name) {
  if (query_dir_.empty()) query_dir_ = fresh_temporary_dir();
  std::filesystem::create_directories(query_dir_);
  const std::filesystem::path path = std::filesystem::path(query_dir_) /
                                     ("disagreement-" + std::to_string(tally_.disagreements) + "-" + file_stem(name) + ".smt2");
  std::ofstream out(path, std::ios::binary);
  out << "; Z3 answered " << smt::verdict_name(z3) << ", " << solver_.describe() << " answered "
      << smt::second_verdict_name(answer.verdict) << "\n; z3 FILE runs it as is; cvc5 needs the lines of "
      << "smt::cvc5_smt2 first: (set-logic ALL) (set-option :strings-exp true)\n"
      << smt2;
  if (!out) throw InputError("cannot write " + path.string());
  return path.string();
}

CrossCheckTally CrossChecker::tally() const {
  const std::lock_guard<std::mutex> guard(lock_);
  return tally_;
}

}  // namespace skipsound
