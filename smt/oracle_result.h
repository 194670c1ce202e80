// What the Z3 oracle answers for one file and predicate (SPEC §6): a type, never a bool.
#pragma once
#include <string>
#include <variant>
#include <vector>

#include "model/row.h"

namespace skipsound::smt {

// No row consistent with the stats makes the predicate TRUE: the file may be skipped. `reason`
// holds the unsat-core labels ("stats.x.max = 20", "pred: x > 30").
struct Unsat {
  std::vector<std::string> reason;
};
// A row consistent with the stats on which the predicate is TRUE, re-checked outside Z3.
struct Sat {
  Row witness;
};
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

using OracleResult = std::variant<Unsat, Sat, Unknown, InternalError>;

enum class OracleVerdict { Unsat, Sat, Unknown, InternalError };
OracleVerdict verdict_of(const OracleResult& r);
const char* verdict_name(OracleVerdict v);  // "UNSAT", "SAT", "UNKNOWN", "INTERNAL ERROR"
// One line for reports: "UNSAT (stats.x.max = 20; pred: x > 30)", "UNKNOWN (timeout)".
std::string describe(const OracleResult& r, const Schema& schema);

}  // namespace skipsound::smt
