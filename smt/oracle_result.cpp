#include "smt/oracle_result.h"

#include <nlohmann/json.hpp>

#include "model/values/exact_json.h"

namespace skipsound::smt {

OracleVerdict verdict_of(const OracleResult& r) { return static_cast<OracleVerdict>(r.index()); }

CallValues replayed_calls(const Sat& sat) {
  CallValues calls;
  for (const CallValue& c : sat.calls) calls.emplace(c.call, c.value);
  return calls;
}

std::string calls_text(const Sat& sat) {
  std::string text;
  for (const CallValue& c : sat.calls) text += (text.empty() ? " with " : ", ") + c.name + " = " + to_display(c.value);
  return text;
}

const char* verdict_name(OracleVerdict v) {
  switch (v) {
    case OracleVerdict::Unsat: return "UNSAT";
    case OracleVerdict::Sat: return "SAT";
    case OracleVerdict::Unknown: return "UNKNOWN";
    case OracleVerdict::InternalError: return "INTERNAL ERROR";
    case OracleVerdict::ImpossibleStats: return "IMPOSSIBLE STATS";
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
  if (const auto* sat = std::get_if<Sat>(&r))
    return text + " (witness " + dump_json(row_to_json(sat->witness, schema)) + calls_text(*sat) + ")";
  if (const auto* unknown = std::get_if<Unknown>(&r)) return text + " (" + unknown->reason + ")";
  if (const auto* impossible = std::get_if<ImpossibleStats>(&r)) return text + " (" + impossible->reason + ")";
  const auto& error = std::get<InternalError>(r);
  return text + " (" + error.message + "; witness " + dump_json(row_to_json(error.witness, schema)) + ")";
}

}  // namespace skipsound::smt
