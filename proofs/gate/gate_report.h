// The gate's results for people and tools: the summary text, JSON, and one replayable file per
// finding (the JUnit XML is proofs/gate/junit_report.h).
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "proofs/gate/gate.h"

namespace skipsound {

std::string gate_summary_text(const GateReport& report);
nlohmann::json gate_report_json(const GateReport& report);
// One replayable file per finding: scenario files (.scn, `skipsound scenario`) and per-file
// corpus cases (.json, `skipsound replay`). Returns the paths written.
std::vector<std::string> write_gate_findings(const GateReport& report, const std::string& dir);

}  // namespace skipsound
