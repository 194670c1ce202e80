// `skipsound replay FILE...`: re-runs saved per-file cases (proofs/perfile/corpus.h) through the
// production logic and both oracles, prints each as an Alive2-style report, and exits 0 when
// every case gives the outcome its file expects, 1 when any differs (a regression, or a fix that
// makes an expected counterexample disappear), 2 on bad input, 3 on an internal error.
#include <iostream>
#include <memory>

#include "cli/cli.h"
#include "proofs/perfile/corpus.h"

namespace skipsound::cli {

void add_replay_command(CLI::App& app, int& exit_code) {
  auto* command = app.add_subcommand("replay", "replay per-file corpus cases and compare with their expected outcomes");
  auto files = std::make_shared<std::vector<std::string>>();
  auto mutant_override = std::make_shared<std::string>();
  command->add_option("files", *files, "corpus case files (JSON)")->required()->check(CLI::ExistingFile);
  command->add_option("--mutant", *mutant_override,
                      "run under this mutant instead of the file's (the expected outcome still applies)");
  command->callback([files, mutant_override, &exit_code] {
    exit_code = kExitOk;
    smt::Oracle oracle;
    for (const std::string& file : *files) {
      CorpusCase c = load_corpus_case(file);
      if (!mutant_override->empty()) {
        const auto m = *mutant_override == "none" ? std::optional(Mutant::None) : mutant_from_name(*mutant_override);
        if (!m) throw InputError("unknown mutant \"" + *mutant_override + "\"");
        c.mutant = *m;
      }
      const ReplayResult result = replay_corpus_case(c, oracle, "skipsound replay " + file);
      std::cout << "== " << file << "\n" << result.report << "\n";
      if (result.match == ReplayMatch::Differs) exit_code = kExitFinding;
    }
  });
}

}  // namespace skipsound::cli
