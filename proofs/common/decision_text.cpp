#include "proofs/common/decision_text.h"

#include "model/values/value.h"

namespace skipsound::cli {

namespace {

// A part's value: its SQL literal, but a plain NULL, whose type the part already says.
std::string value_text(const Value& value) { return value.is_null() ? "NULL" : to_sql_literal(value); }

}  // namespace

void print_skip_trace(std::ostream& out, const SkipTrace& trace, int indent) {
  out << std::string(indent, ' ') << trace.text << "  =>  " << value_text(trace.value) << "\n";
  for (const SkipTrace& child : trace.children) {
    if (child.children.empty() && child.text == to_sql_literal(child.value)) continue;
    print_skip_trace(out, child, indent + 2);
  }
}

nlohmann::json skip_trace_json(const SkipTrace& trace) {
  nlohmann::json j{{"expr", trace.text}, {"value", value_text(trace.value)}};
  if (!trace.children.empty()) {
    j["parts"] = nlohmann::json::array();
    for (const SkipTrace& child : trace.children) j["parts"].push_back(skip_trace_json(child));
  }
  return j;
}

std::string verification_text(const StatsVerification& verification, const Schema& schema) {
  if (verification.outcome == VerificationOutcome::Passed) return "passed";
  return "failed: " + to_string(*verification.missing, schema) + " missing";
}

}  // namespace skipsound::cli
