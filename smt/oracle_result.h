// What the Z3 oracle answers for one file and predicate (docs/semantics.md §6.1): a type, never a bool.
#pragma once
#include <string>
#include <variant>
#include <vector>

#include "model/sql/evaluator.h"
#include "model/sql/row.h"

namespace skipsound::smt {

// No row consistent with the stats makes the predicate TRUE: the file may be skipped. `reason`
// holds the unsat-core labels ("stats.x.max = 20", "pred: x > 30").
struct Unsat {
  std::vector<std::string> reason;
};
// What one occurrence of a non-deterministic call returned on the witness ("rand() #1").
struct CallValue {
  const Expr* call = nullptr;  // a node of the predicate the oracle was asked about
  std::string name;
  Value value;
};

// A row consistent with the stats on which the predicate is TRUE, re-checked outside Z3 — with
// the values its non-deterministic calls returned, which the model evaluator replays.
struct Sat {
  Row witness;
  std::vector<CallValue> calls;
};
CallValues replayed_calls(const Sat& sat);
// "", or " with rand() #1 = 0.25, now() #2 = …" for reports.
std::string calls_text(const Sat& sat);
// Timeout, unsupported construct, or an over-approximated witness that the model rejects.
// Never a licence to skip.
struct Unknown {
  std::string reason;
};
// Z3 and the Z3-free re-check disagree on an exactly encoded query: a bug in skipsound.
struct InternalError {
  std::string message;
  Row witness;
};
// No writer (docs/semantics.md §4.4, with the file's string prefix length) produces these stats, so no file
// holds them and the question has no answer: neither a licence to skip nor a witness. `reason`
// names the stat ("stats.s.min = abc (string prefix length 2: ...): longer than ...").
struct ImpossibleStats {
  std::string reason;
};

using OracleResult = std::variant<Unsat, Sat, Unknown, InternalError, ImpossibleStats>;

enum class OracleVerdict { Unsat, Sat, Unknown, InternalError, ImpossibleStats };
OracleVerdict verdict_of(const OracleResult& r);
// "UNSAT", "SAT", "UNKNOWN", "INTERNAL ERROR", "IMPOSSIBLE STATS"
const char* verdict_name(OracleVerdict v);
// One line for reports: "UNSAT (stats.x.max = 20; pred: x > 30)", "UNKNOWN (timeout)".
std::string describe(const OracleResult& r, const Schema& schema);

}  // namespace skipsound::smt
