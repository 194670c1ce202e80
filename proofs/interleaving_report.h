// The Elle/Hermitage-style report of one scenario run (docs/semantics.md §9): the schedule as tagged steps,
// what each transaction read and wrote, the committed outcome, the allowed serial outcomes, the
// rows that differ and why no serial order explains them.
#pragma once
#include <string>

#include "proofs/scenario.h"

namespace skipsound {

std::string render_report(const Scenario& scenario, const ScenarioRun& run);

}  // namespace skipsound
