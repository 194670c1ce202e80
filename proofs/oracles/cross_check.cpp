#include "proofs/oracles/cross_check.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <tuple>
#include <unordered_set>

#include <nlohmann/json.hpp>

#include "common/number_text.h"
#include "model/values/input_error.h"
#include "proofs/common/parallel_trials.h"

namespace skipsound {

namespace {

// Queries per cvc5 process: large enough to amortise its start, small enough that a refused
// query (which ends the process and sends the batch one by one) costs little.
constexpr size_t kBatchSize = 32;

std::optional<smt::SecondVerdict> expected_second(smt::OracleVerdict z3) {
  if (z3 == smt::OracleVerdict::Sat) return smt::SecondVerdict::Sat;
  if (z3 == smt::OracleVerdict::Unsat) return smt::SecondVerdict::Unsat;
  return std::nullopt;
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
                     std::to_string(solver_runs) + " sent), " + std::to_string(agreed) + " agreed, " +
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
  return {{"queries", asked}, {"sent", solver_runs}, {"agreed", agreed}, {"unknown", unknown},
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

void CrossChecker::check(const std::string& smt2, smt::OracleVerdict z3, const std::string& name) {
  if (!expected_second(z3) || smt2.empty()) return;
  const std::lock_guard<std::mutex> guard(lock_);
  queued_.push_back(Query{smt2, z3, name});
}

CrossCheckTally CrossChecker::finish(unsigned threads) {
  std::vector<Query> queued;
  {
    const std::lock_guard<std::mutex> guard(lock_);
    queued.swap(queued_);
  }
  std::sort(queued.begin(), queued.end(), [](const Query& a, const Query& b) {
    return std::tie(a.name, a.smt2, a.z3) < std::tie(b.name, b.smt2, b.z3);
  });
  std::vector<std::string> unanswered;
  std::unordered_set<std::string> seen;
  for (const Query& q : queued)
    if (!answers_.count(q.smt2) && seen.insert(q.smt2).second) unanswered.push_back(q.smt2);
  std::vector<std::vector<std::string>> batches((unanswered.size() + kBatchSize - 1) / kBatchSize);
  for (size_t i = 0; i < unanswered.size(); ++i) batches[i / kBatchSize].push_back(std::move(unanswered[i]));
  // A batch that throws (a query file that cannot be written, say) stops the rest and is rethrown here.
  parallel::for_each_index(threads, batches.size(), [&](size_t b) { ask(batches[b]); });
  const std::lock_guard<std::mutex> guard(lock_);
  for (const Query& q : queued) record(q, answers_.at(q.smt2));
  return tally_;
}

void CrossChecker::ask(const std::vector<std::string>& batch) {
  // Outside the lock: other threads' batches run at the same time.
  const std::vector<smt::SecondAnswer> answers = solver_.ask_all(batch);
  const std::lock_guard<std::mutex> guard(lock_);
  for (size_t i = 0; i < batch.size(); ++i) {
    answers_.emplace(batch[i], answers[i]);
    ++tally_.solver_runs;
    tally_.solver_seconds += answers[i].seconds;
  }
}

void CrossChecker::record(const Query& query, const smt::SecondAnswer& answer) {
  ++tally_.asked;
  switch (answer.verdict) {
    case smt::SecondVerdict::Unknown:
      ++tally_.unknown;
      ++tally_.reasons["unknown: " + answer.reason];
      return;
    case smt::SecondVerdict::Error:
      ++tally_.errors;
      ++tally_.reasons["error: " + answer.reason];
      return;
    default:
      break;
  }
  if (answer.verdict == *expected_second(query.z3)) {
    ++tally_.agreed;
    return;
  }
  ++tally_.disagreements;
  tally_.findings.push_back(std::string("DISAGREEMENT: Z3 ") + smt::verdict_name(query.z3) + ", " + tally_.solver +
                            " " + smt::second_verdict_name(answer.verdict) + " on " + query.name +
                            "; query: " + write_disagreement(query, answer));
}

std::string CrossChecker::write_disagreement(const Query& query, const smt::SecondAnswer& answer) {
  if (query_dir_.empty()) query_dir_ = fresh_temporary_dir();
  std::filesystem::create_directories(query_dir_);
  const std::filesystem::path path = std::filesystem::path(query_dir_) /
                                     ("disagreement-" + std::to_string(tally_.disagreements) + "-" + file_stem(query.name) + ".smt2");
  std::ofstream out(path, std::ios::binary);
  out << "; Z3 answered " << smt::verdict_name(query.z3) << ", " << solver_.describe() << " answered "
      << smt::second_verdict_name(answer.verdict) << ".\n; `z3 FILE` runs it as is; cvc5 needs "
      << "(set-logic ALL) and (set-option :strings-exp true) first (smt/second_solver.h).\n"
      << query.smt2;
  if (!out) throw InputError("cannot write " + path.string());
  return path.string();
}

}  // namespace skipsound
