// The Z3 oracle for per-file skip soundness (docs/semantics.md §6.1): is there a row consistent with a file's
// stats on which the predicate is TRUE? One Oracle per thread: it owns a z3::context and a
// solver reused with push/pop for every query, until Z3 abandons a check (resource limit, error): then both are renewed.
#pragma once
#include <memory>
#include <optional>
#include <string>

#include "model/sql/expr.h"
#include "model/stats/stats_consistency.h"
#include "smt/oracle_result.h"
#include "smt/solver_limits.h"

namespace skipsound::smt {

// How hard Z3 tries: a skip's proof decides soundness; a keep is only classified (kept, or a
// skip the production logic missed), so a keep that Z3 cannot settle quickly stays "kept".
enum class Effort { Proof, Classify };

struct OracleOptions {
  // Measured: answered queries use at most ~1.5M steps, most under 10k.
  SolverLimits limits{2'000'000, 0};
  // Effort::Classify: a keep is never unsound, so its class (kept or missed skip) only measures
  // precision, and a keep Z3 cannot settle counts as kept. Measured on the default gate's 4,000
  // per-file cases: 300k steps instead classify one more keep of 17,940 decisions as a missed
  // skip; the keeps Z3 cannot settle (string functions mostly) spend the whole budget, which cost
  // the gate-distribution benchmark 1.2-1.4 times its CPU time and `explore --files` 1.6 times
  // (the gate's per-file phase showed no difference within its ±10 % noise); 2M steps classify
  // one more, at four times the time.
  SolverLimits classify_limits{60'000, 0};
  bool record_smt2 = false;  // keep each query Z3 answers as SMT-LIB 2 text (see last_smt2)
  // Try smt/interval_decider.h first and ask Z3 only outside its fragment.
  bool intervals_first = false;
  // With intervals_first: every Nth query the interval procedure decides is asked of Z3 too, and a
  // different definite answer is an InternalError. 0: never.
  size_t interval_cross_check_stride = 0;
  // Run every Z3 query first in a forked copy of the process (smt/crash_containment.h), so that a
  // crash inside Z3 ends as UNKNOWN for that query. Single-threaded callers only.
  bool contain_crashes = false;
};

// Who answered how many queries (impossible stats, answered by neither, are not counted).
struct OracleCounters {
  size_t by_intervals = 0;
  size_t by_z3 = 0;
  size_t cross_checked = 0;  // interval answers Z3 confirmed or disputed
  size_t crashes = 0;        // Z3 queries that killed their forked copy (contain_crashes)
  size_t renewals = 0;       // fresh Z3 contexts after a check Z3 abandoned
  OracleCounters& operator+=(const OracleCounters& o);
};

class Oracle {
 public:
  explicit Oracle(OracleOptions options = {});
  ~Oracle();
  Oracle(const Oracle&) = delete;
  Oracle& operator=(const Oracle&) = delete;

  // `predicate` must be bound against `schema`.
  OracleResult check(const ExprPtr& predicate, const Schema& schema, const FileEvidence& file,
                     Effort effort = Effort::Proof);

  // The last query as SMT-LIB 2 with every labelled assertion asserted plainly, so that
  // `z3 file.smt2` answers it alike. Empty unless options.record_smt2, and when the interval
  // procedure answered it alone.
  const std::string& last_smt2() const { return last_smt2_; }

  const OracleCounters& counters() const { return counters_; }

 private:
  void renew_solver();
  SolverLimits limits_for(Effort effort) const;

  struct State;
  std::unique_ptr<State> state_;
  OracleOptions options_;
  std::string last_smt2_;
  OracleCounters counters_;
};

}  // namespace skipsound::smt
