// `skipsound scenario`'s run of one file, shared with `skipsound replay`, which hands it the
// `.scn` files the gate's `--out` writes.
#pragma once
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "model/mutants/mutant.h"
#include "proofs/report/html_report.h"
#include "smt/oracle.h"

namespace skipsound::cli {

// Runs and judges one scenario file (proofs/explorer/explorer.h run_judged_scenario) under
// `mutant` when given, else under its own `mutant:` line, and prints its report (text, or one JSON
// document); with `html`, also appends the run for the HTML page. Returns kExitOk when every
// expectation is met, kExitFinding otherwise; throws InputError on bad input.
int run_scenario_file(const std::string& path, std::optional<Mutant> mutant, bool json, smt::Oracle& oracle,
                      std::ostream& out, std::vector<ReplayedFile>* html = nullptr);

// `--html FILE` of scenario and replay: the page of the files `command` ran ("scenario" or
// "replay", with `mutant` as --mutant gave it); nothing when `path` is empty.
void write_replay_html(const std::string& path, const std::string& command, const std::string& mutant,
                       const std::vector<std::string>& files, const std::vector<ReplayedFile>& runs);

// `--mutant NAME` of scenario and replay: nullopt when not given.
std::optional<Mutant> mutant_option(const std::string& name);

}  // namespace skipsound::cli
