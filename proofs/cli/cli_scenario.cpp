// `skipsound scenario FILE...`: replays scenario files (proofs/scenario.h) and prints each report;
// exit 1 when a verdict differs from the expected one (or the conflict filter hid an unexpected
// exception), 2 on bad input, 3 on an internal error.
#include <iostream>

#include "proofs/cli/cli.h"
#include "proofs/interleaving_report.h"
#include "proofs/scenario.h"

namespace skipsound::cli {

void add_scenario_command(CLI::App& app, int& exit_code) {
  auto* command = app.add_subcommand("scenario", "replay scenario files and check their verdicts");
  auto files = std::make_shared<std::vector<std::string>>();
  command->add_option("files", *files, "scenario files")->required()->check(CLI::ExistingFile);
  command->callback([files, &exit_code] {
    exit_code = kExitOk;
    for (const std::string& file : *files) {
      const Scenario scenario = load_scenario(file);
      const ScenarioRun run = run_scenario(scenario);
      std::cout << render_report(scenario, run) << "\n";
      if (!run.mismatches.empty()) exit_code = kExitFinding;
    }
  });
}

}  // namespace skipsound::cli
