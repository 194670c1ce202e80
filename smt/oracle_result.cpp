#include "smt/oracle_result.h"

#include <nlohmann/json.hpp>

namespace skipsound::smt {

OracleVerdict verdict_of(const OracleResult& r) { return static_cast<OracleVerdict>(r.index()); }

const char* verdict_name(OracleVerdict v) {
  switch (v) {
    case OracleVerdict::Unsat: return "UNSAT";
    case OracleVerdict::Sat: return "SAT";
    case OracleVerdict::Unknown: return "UNKNOWN";
    case OracleVerdict::InternalError: return "INTERNAL ERROR";
  }
  return "?";
}

std::string describe(const OracleResult& r, const Schema& schema) {
  std::string text = verdict_name(verdict_of(r));
  if (const auto* unsat = std::get_if<Unsat>(&r)) {
    std::string reasons;
    for (const std::string& label : unsat->reason) reasons += (reasons.empty() ? "" : "; ") + label;
    return text + " (" + reasons + ")";
  }
  if (const auto* sat = std::get_if<Sat>(&r)) return text + " (witness " + row_to_json(sat->witness, schema).dump() + ")";
  if (const auto* unknown = std::get_if<Unknown>(&r)) return text + " (" + unknown->reason + ")";
  const auto& error = std::get<InternalError>(r);
  return text + " (" + error.message + "; witness " + row_to_json(error.witness, schema).dump() + ")";
}

}  // namespace skipsound::smt
