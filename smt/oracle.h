// The Z3 oracle for per-file skip soundness (docs/semantics.md §6): is there a row consistent with a file's
// stats on which the predicate is TRUE? One Oracle per thread: it owns a z3::context and a
// solver reused with push/pop for every query.
#pragma once
#include <memory>
#include <optional>
#include <string>

#include "model/sql/expr.h"
#include "model/stats/stats_consistency.h"
#include "smt/oracle_result.h"
#include "smt/solver_limits.h"

namespace skipsound::smt {

struct OracleOptions {
  // Measured: answered queries use at most ~1.5M steps, most under 10k.
  SolverLimits limits{2'000'000, 0};
  bool record_smt2 = false;  // keep each query as SMT-LIB 2 text (see last_smt2)
};

class Oracle {
 public:
  explicit Oracle(OracleOptions options = {});
  ~Oracle();
  Oracle(const Oracle&) = delete;
  Oracle& operator=(const Oracle&) = delete;

  // `predicate` must be bound against `schema`.
  OracleResult check(const ExprPtr& predicate, const Schema& schema, const FileEvidence& file);

  // The last query as SMT-LIB 2 with every labelled assertion asserted plainly, so that
  // `z3 file.smt2` answers it alike. Empty unless options.record_smt2.
  const std::string& last_smt2() const { return last_smt2_; }

 private:
  struct State;
  std::unique_ptr<State> state_;
  OracleOptions options_;
  std::string last_smt2_;
};

}  // namespace skipsound::smt
