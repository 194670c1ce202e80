// The Elle/Hermitage-style report of one scenario run (docs/semantics.md §9): the schedule as tagged steps,
// what each transaction read and wrote, the committed outcome, the allowed serial outcomes, the
// rows that differ and why no serial order explains them.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "proofs/scenario/scenario.h"

namespace skipsound {

// "predicates [x > 10], files [f0, f1]" (", whole table" when it read everything).
std::string reads_text(const ReadSet& reads);
// "add T1-1 (2 live rows), remove f0; commitInfo UPDATE isBlindAppend=false".
std::string writes_text(const Commit& commit);

// The text report; its last line is the summary (summary_line).
std::string render_report(const Scenario& scenario, const ScenarioRun& run);
// "summary: 3 transactions, 1 history step: 2 committed, 1 aborted (1 false conflict), 0 unsound;
// expectations met" (or "2 expectations not met"); a judged run with findings counts them after
// "unsound" ("1 unsound, 2 findings").
std::string summary_line(const Scenario& scenario, const ScenarioRun& run);
// The same run as data: transactions (reads, writes), attempts (each winner check, with every
// kept file's per-read decision), verdicts, the final table's size, findings, mismatches, summary.
nlohmann::json report_json(const Scenario& scenario, const ScenarioRun& run);

}  // namespace skipsound
