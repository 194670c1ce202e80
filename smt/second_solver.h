// A second SMT solver (cvc5) re-asks the oracle's queries from their SMT-LIB 2 text, so that an
// Unsat that licenses a skip, or a Sat witness, does not rest on Z3 alone. The solver runs as a
// subprocess on a temporary file: a crash or a hang costs one query, never the run. No Z3 here.
#pragma once
#include <string>
#include <vector>

namespace skipsound::smt {

enum class SecondVerdict {
  Sat,
  Unsat,
  Unknown,  // the solver gave up (its time limit, incompleteness): never a proof either way
  Error,    // it could not be run, refused the text, crashed or printed no answer
};
const char* second_verdict_name(SecondVerdict v);  // "sat", "unsat", "unknown", "error"

struct SecondAnswer {
  SecondVerdict verdict = SecondVerdict::Error;
  std::string reason;  // for Unknown and Error: the solver's reason, its error or exit status
  double seconds = 0;  // wall-clock, process start to exit
};

struct SecondSolverOptions {
  std::string command = "cvc5";  // looked up on PATH unless it holds a '/'
  unsigned time_limit_ms = 10'000;  // per query; the process is killed a second after it
};

// The rewrites that make Z3's `solver.to_smt2()` text acceptable to cvc5 1.0:
//   * `(set-logic ALL)` first: Z3 writes no logic, and cvc5 needs one for strings, sequences,
//     floating point and integers together;
//   * `(set-option :strings-exp true)`: Z3's text uses extended string/sequence operators
//     (str.<, seq.nth, str.to_code, ...) that cvc5 accepts only with that option;
//   * Z3's `(set-info :status ...)` line is dropped: it is a comment for the reader, not a claim.
// The assertions and declarations are passed through unchanged.
std::string cvc5_smt2(const std::string& z3_smt2);

class SecondSolver {
 public:
  explicit SecondSolver(SecondSolverOptions options = {});

  // Whether the command can be run at all (`command --version` exits 0).
  bool available() const;
  // The command line used, for reports: "cvc5 --lang smt2 --tlimit-per=10000".
  std::string describe() const;

  // Asks `smt2` (Z3's text; cvc5_smt2 rewrites it). Thread-safe: each call has its own process
  // and temporary file.
  SecondAnswer ask(const std::string& z3_smt2) const;

  // Asks every query, in one process where it can: starting cvc5 costs more than most queries
  // (measured: ~40 ms against a few ms), so the queries go into one file separated by `(reset)`.
  // When that run does not give one sat/unsat answer per query (a refused query ends cvc5's run),
  // or for an unknown (to learn its reason), the query is asked alone. `seconds` is the run's
  // share per query.
  std::vector<SecondAnswer> ask_all(const std::vector<std::string>& z3_smt2) const;

 private:
  SecondSolverOptions options_;
};

}  // namespace skipsound::smt
