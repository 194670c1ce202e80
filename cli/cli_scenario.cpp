// `skipsound scenario [--json] FILE...`: replays scenario files (proofs/scenario/scenario.h) and prints
// each report (text, or one JSON document per file with --json); `--help` prints the format.
// Exit 1 when an expectation is not met (or the conflict filter hid an unexpected exception),
// 2 on bad input, 3 on an internal error.
#include <iostream>

#include "cli/cli.h"
#include "proofs/scenario/interleaving_report.h"
#include "proofs/scenario/scenario.h"
#include "model/values/exact_json.h"

namespace skipsound::cli {

void add_scenario_command(CLI::App& app, int& exit_code) {
  auto* command = app.add_subcommand("scenario", "replay scenario files and check their verdicts");
  command->footer(scenario_format());
  auto files = std::make_shared<std::vector<std::string>>();
  auto json = std::make_shared<bool>(false);
  command->add_option("files", *files, "scenario files")->required()->check(CLI::ExistingFile);
  command->add_flag("--json", *json, "print each run as JSON (one document per line)");
  command->callback([files, json, &exit_code] {
    exit_code = kExitOk;
    for (const std::string& file : *files) {
      const Scenario scenario = load_scenario(file);
      const ScenarioRun run = run_scenario(scenario);
      if (*json) {
        std::cout << dump_json(report_json(scenario, run)) << "\n";
      } else {
        std::cout << render_report(scenario, run) << "\n";
      }
      if (!run.mismatches.empty()) exit_code = kExitFinding;
    }
  });
}

}  // namespace skipsound::cli
