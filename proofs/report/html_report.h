// The HTML reports (docs/gate.md, "The HTML report"): one self-contained page per run, rendered
// from the same result data as the JSON — `gate --html`, and `scenario --html` / `replay --html`
// for the files they ran. Inline CSS and SVG only: the page loads nothing from outside.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "proofs/gate/gate.h"

namespace skipsound {

// Top: verdict, seed, the replay command, phase timings; then each finding with its counterexample
// drawn (the shrunk schedule as a timeline, a per-file decision with its stats and witness row);
// the mutant matrix; plots of the false conflicts per 100 attempts with each §10 tier off and on
// and of the trials per second per category; the coverage table as a grid.
std::string gate_report_html(const GateReport& report);

// One file `scenario` or `replay` ran: a scenario's judged run, or a per-file case's decision.
struct ReplayedFile {
  std::string file;
  bool as_expected = true;
  std::shared_ptr<const JudgedRun> scenario;
  std::optional<DecisionFinding> decision;
};

// `command` is the command line that ran them.
std::string replay_report_html(const std::string& command, const std::vector<ReplayedFile>& files);

}  // namespace skipsound
