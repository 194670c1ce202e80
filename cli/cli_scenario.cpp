// `skipsound scenario [--json] [--mutant M] FILE...`: replays scenario files
// (proofs/scenario/scenario.h), judges every run as the explorer judges a trial, and prints each
// report (text, or one JSON document per file with --json); `--help` prints the format. Exit 1 when an expectation is not
// met (a finding the file does not expect is one), 2 on bad input, 3 on an internal error.
#include <iostream>
#include <memory>

#include "cli/cli.h"
#include "cli/file_inputs.h"
#include "cli/scenario_command.h"
#include "proofs/explorer/explorer.h"
#include "proofs/scenario/interleaving_report.h"
#include "proofs/scenario/scenario.h"
#include "model/values/exact_json.h"

namespace skipsound::cli {

std::optional<Mutant> mutant_option(const std::string& name) {
  if (name.empty()) return std::nullopt;
  return mutant_from_option(name);
}

int run_scenario_file(const std::string& path, std::optional<Mutant> mutant, bool json, smt::Oracle& oracle,
                      std::ostream& out, std::vector<ReplayedFile>* html) {
  Scenario scenario = load_scenario(path, mutant);
  ScenarioRun run = run_judged_scenario(scenario, oracle);
  if (json) {
    out << dump_json(report_json(scenario, run)) << "\n";
  } else {
    out << render_report(scenario, run) << "\n";
  }
  const int code = run.mismatches.empty() ? kExitOk : kExitFinding;
  if (html) {
    html->push_back(ReplayedFile{path, code == kExitOk,
                                 std::make_shared<const JudgedRun>(JudgedRun{std::move(scenario), std::move(run)}), {}});
  }
  return code;
}

void write_replay_html(const std::string& path, const std::string& command, const std::string& mutant,
                       const std::vector<std::string>& files, const std::vector<ReplayedFile>& runs) {
  if (path.empty()) return;
  std::string line = "skipsound " + command + (mutant.empty() ? "" : " --mutant " + mutant);
  for (const std::string& file : files) line += " " + file;
  write_text_file(path, replay_report_html(line, runs));
}

void add_scenario_command(CLI::App& app, int& exit_code) {
  auto* command = app.add_subcommand("scenario", "replay scenario files and check their verdicts");
  command->footer(scenario_format());
  auto files = std::make_shared<std::vector<std::string>>();
  auto json = std::make_shared<bool>(false);
  auto mutant = std::make_shared<std::string>();
  auto html = std::make_shared<std::string>();
  command->add_option("files", *files, "scenario files")->required()->check(CLI::ExistingFile);
  command->add_option("--html", *html,
                      "also write one self-contained HTML page of the runs here: each schedule drawn as a timeline");
  command->add_flag("--json", *json, "print each run as JSON (one document per line)");
  command->add_option("--mutant", *mutant,
                      "run under this mutant instead of the file's `mutant:` line ('none': the sound checker); "
                      "the expectations still apply");
  command->callback([files, json, mutant, html, &exit_code] {
    exit_code = kExitOk;
    smt::Oracle oracle(skip_oracle_options());
    const std::optional<Mutant> instead = mutant_option(*mutant);
    std::vector<ReplayedFile> runs;
    for (const std::string& file : *files) {
      if (run_scenario_file(file, instead, *json, oracle, std::cout, &runs) != kExitOk) exit_code = kExitFinding;
    }
    write_replay_html(*html, "scenario", *mutant, *files, runs);
  });
}

}  // namespace skipsound::cli
