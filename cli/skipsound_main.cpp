#include <iostream>

#include "cli/cli.h"
#include "model/values/input_error.h"

int main(int argc, char** argv) {
  CLI::App app{"skipsound: proves that conflict-time data skipping never hides a conflict"};
  app.require_subcommand(1);
  int exit_code = skipsound::cli::kExitOk;
  skipsound::cli::add_parse_command(app, exit_code);
  skipsound::cli::add_eval_command(app, exit_code);
  skipsound::cli::add_check_command(app, exit_code);
  skipsound::cli::add_skip_command(app, exit_code);
  skipsound::cli::add_prove_command(app, exit_code);
  skipsound::cli::add_scenario_command(app, exit_code);
  skipsound::cli::add_gate_command(app, exit_code);
  skipsound::cli::add_replay_command(app, exit_code);
  skipsound::cli::add_explore_command(app, exit_code);
  skipsound::cli::add_engine_gate_command(app, exit_code);
  for (CLI::App* command : app.get_subcommands([](CLI::App*) { return true; })) {
    // A command's own footer (the scenario format) comes before the exit codes and the limits.
    const std::string own = command->get_footer();
    const std::string common = std::string(skipsound::cli::kExitCodesHelp) + "\n" + skipsound::cli::input_limits_help();
    command->footer(own.empty() ? common : own + "\n" + common);
  }
  // Set after the commands exist: CLI11 copies a parent's footer into each command it creates.
  app.footer(skipsound::cli::kExitCodesHelp);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : skipsound::cli::kExitUsage;
  } catch (const skipsound::InputError& e) {
    std::cerr << e.render() << "\n";
    return skipsound::cli::kExitUsage;
  } catch (const std::exception& e) {
    const int code = skipsound::cli::exit_code_for(e);
    std::cerr << (code == skipsound::cli::kExitInternal ? "internal error: " : "error: ") << e.what() << "\n";
    return code;
  }
  return exit_code;
}
