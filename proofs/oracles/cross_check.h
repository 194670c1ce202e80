// `--cross-check cvc5`: every Z3 answer that matters (an Unsat that licenses a skip, a Sat
// witness) is re-asked in a second solver from the same SMT-LIB 2 text `--smt-dump` writes. A
// disagreement (sat against unsat) is a finding, written to disk as a query file that either
// solver can be run on; an unknown or an error of the second solver is counted, never a finding.
#pragma once
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <ostream>
#include <string>
#include <unordered_map>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "smt/oracle_result.h"
#include "smt/second_solver.h"

namespace skipsound {

struct CrossCheckTally {
  std::string solver;        // "cvc5"
  size_t asked = 0;          // Z3 sat/unsat answers re-asked
  size_t solver_runs = 0;    // queries sent (a repeated query is answered from its first run)
  size_t agreed = 0;
  size_t unknown = 0;        // the second solver gave up
  size_t errors = 0;         // it refused the text, crashed or could not be run
  size_t disagreements = 0;  // findings
  double solver_seconds = 0; // summed wall-clock of the second solver's runs
  std::map<std::string, size_t> reasons;  // unknowns and errors, "unknown: timeout"
  std::vector<std::string> findings;      // one line per disagreement, naming its query file

  // "cross-check (cvc5): 120 queries (95 sent), 120 agreed, 0 unknown, 0 errors,
  //  0 disagreements, 3.1 s in cvc5 (30.6 queries/s)"
  std::string summary_line() const;
  nlohmann::json json() const;
  // The findings, the reasons of the unknowns and errors, then the summary line.
  void print(std::ostream& out) const;
};

// The --cross-check option: "none" or "cvc5". Throws InputError for any other name, and when the
// solver cannot be run (second_solver_missing_message): asked for, it is never silently skipped.
std::optional<smt::SecondSolverOptions> cross_check_solver(const std::string& name);

class CrossChecker {
 public:
  // `query_dir`: where disagreeing queries are written; empty = a fresh temporary folder, created
  // on the first disagreement (its path is in the finding line).
  CrossChecker(smt::SecondSolverOptions solver, std::string query_dir);

  // Queues a query Z3 answered `z3` to be re-asked; only Sat and Unsat are. `name` goes into the
  // query file's name. Thread-safe, and cheap: the callers (the explorer's workers wait for each
  // other every few trials) never wait for the second solver.
  void check(const std::string& smt2, smt::OracleVerdict z3, const std::string& name);

  // Asks every distinct queued query once, in batches (SecondSolver::ask_all) on `threads`
  // threads, and returns the tally of every query so far. The queue is put in a fixed order
  // first, so the tally and the findings do not depend on which worker queued what first.
  CrossCheckTally finish(unsigned threads = 1);

 private:
  struct Query {
    std::string smt2;
    smt::OracleVerdict z3;
    std::string name;
  };
  void ask(const std::vector<std::string>& batch);  // thread-safe
  void record(const Query& query, const smt::SecondAnswer& answer);  // with lock_ held
  std::string write_disagreement(const Query& query, const smt::SecondAnswer& answer);

  smt::SecondSolver solver_;
  std::string query_dir_;
  std::mutex lock_;
  CrossCheckTally tally_;
  std::vector<Query> queued_;
  std::unordered_map<std::string, smt::SecondAnswer> answers_;  // by query text
};

}  // namespace skipsound
