// `skipsound replay FILE...`: reproduces saved findings, whichever file the gate's `--out` wrote.
// A `.scn` file is a scenario, run as `skipsound scenario` runs it; any other file is a per-file
// case (proofs/perfile/corpus.h), re-run through the production logic and both oracles and
// printed as an Alive2-style report. Exit 0 when every file gives what it expects, 1 when any
// differs (a file `--out` wrote expects no finding, so it fails while the bug is there), 2 on bad
// input, 3 on an internal error.
#include <filesystem>
#include <iostream>
#include <memory>

#include "cli/cli.h"
#include "cli/scenario_command.h"
#include "proofs/perfile/corpus.h"
#include "proofs/explorer/explorer.h"

namespace skipsound::cli {

namespace {

int replay_per_file_case(const std::string& file, std::optional<Mutant> mutant, smt::Oracle& oracle,
                         std::vector<ReplayedFile>& runs) {
  CorpusCase c = load_corpus_case(file);
  if (mutant) c.mutant = *mutant;
  ReplayResult result = replay_corpus_case(c, oracle, "skipsound replay " + file);
  std::cout << result.report << "\n";
  const bool as_expected = result.match == ReplayMatch::AsExpected;
  runs.push_back(ReplayedFile{file, as_expected, nullptr, std::move(result.decision)});
  return as_expected ? kExitOk : kExitFinding;
}

}  // namespace

void add_replay_command(CLI::App& app, int& exit_code) {
  auto* command = app.add_subcommand(
      "replay", "replay saved findings (the gate's --out files: .scn scenarios, .json per-file cases) and "
                "compare with what they expect");
  auto files = std::make_shared<std::vector<std::string>>();
  auto mutant = std::make_shared<std::string>();
  auto html = std::make_shared<std::string>();
  command->add_option("--html", *html,
                      "also write one self-contained HTML page of the replays here: each schedule drawn as a "
                      "timeline, each per-file case with its stats, skipping expression and witness row");
  command->add_option("files", *files, "scenario files (.scn) and per-file cases (JSON)")
      ->required()
      ->check(CLI::ExistingFile);
  command->add_option("--mutant", *mutant,
                      "run under this mutant instead of the file's ('none': the sound checker); the expectations "
                      "still apply");
  command->callback([files, mutant, html, &exit_code] {
    exit_code = kExitOk;
    const std::optional<Mutant> instead = mutant_option(*mutant);
    smt::Oracle per_file_oracle;
    smt::Oracle skip_oracle(skip_oracle_options());
    std::vector<ReplayedFile> runs;
    for (const std::string& file : *files) {
      std::cout << "== " << file << "\n";
      const int code = std::filesystem::path(file).extension() == ".scn"
                           ? run_scenario_file(file, instead, false, skip_oracle, std::cout, &runs)
                           : replay_per_file_case(file, instead, per_file_oracle, runs);
      if (code != kExitOk) exit_code = kExitFinding;
    }
    write_replay_html(*html, "replay", *mutant, *files, runs);
  });
}

}  // namespace skipsound::cli
