// Text and JSON for one production file decision (checker/file_decision.h): the skipping
// expression's evaluation as an indented tree and the stats verification, for the commands
// that explain decisions.
#pragma once
#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

#include "checker/file_decision.h"

namespace skipsound::cli {

// One node a line, "    max(x) > 10  =>  TRUE", children indented below their parent; literals
// that print as themselves are left out.
void print_skip_trace(std::ostream& out, const SkipTrace& trace, int indent = 4);
nlohmann::json skip_trace_json(const SkipTrace& trace);

// "passed" or "failed: nullCount(x) missing".
std::string verification_text(const StatsVerification& verification, const Schema& schema);

}  // namespace skipsound::cli
