// `skipsound explore --files [--seed N] [--trials N] [--mutant NAME] [--save DIR] [--cross-check cvc5]`: the precision
// report of per-file skipping. Generates random (predicate, file) decisions, asks the oracle
// (intervals first, then Z3) about every one, and prints per predicate form how many files production skipped, how many Z3 proved
// skippable, the missed-skip rate, the unknowns and the findings; then the throughput. The seed
// is always printed, and the same seed gives the same report (apart from the timing line). With
// --cross-check, every sat/unsat answer is re-asked in cvc5; a disagreement is a finding.
#include <chrono>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>
#include <random>
#include <thread>

#include "generators/file_case.h"
#include "model/sql/printer.h"
#include "generators/predicate_gen.h"
#include "cli/cli.h"
#include "cli/file_inputs.h"
#include "proofs/perfile/corpus.h"
#include "proofs/oracles/cross_check.h"
#include "proofs/common/oracle_config.h"

namespace skipsound::cli {
namespace {

constexpr int kMaxRapidCheckSize = 100;

struct ExploreOptions {
  bool files = false;
  std::optional<uint64_t> seed;
  int trials = 200;
  std::string mutant = "none";
  std::string save_dir;
  std::string cross_check = "none";
  bool contain_crashes = false;
};

struct FormTally {
  long decisions = 0, skipped = 0, provable = 0, missed = 0, unknown = 0, findings = 0;
};

void count(FormTally& t, const DecisionCheck& d) {
  ++t.decisions;
  t.skipped += d.production.verdict == FileVerdict::Skip;
  const auto verdict = d.oracle ? std::optional(smt::verdict_of(*d.oracle)) : std::nullopt;
  t.provable += verdict == smt::OracleVerdict::Unsat;
  t.unknown += verdict == smt::OracleVerdict::Unknown;
  t.missed += d.outcome == DecisionOutcome::MissedSkip;
  t.findings += is_finding(d.outcome);
}

std::string percent(long part, long whole) {
  if (whole == 0) return "-";
  std::ostringstream os;
  os << std::fixed << std::setprecision(1) << 100.0 * part / whole << "%";
  return os.str();
}

void print_row(const std::string& form, const FormTally& t) {
  std::cout << std::left << std::setw(24) << form << std::right << std::setw(9) << t.decisions << std::setw(9)
            << t.skipped << std::setw(9) << t.provable << std::setw(9) << t.missed << std::setw(9)
            << percent(t.missed, t.provable) << std::setw(9) << t.unknown << std::setw(9) << t.findings << "\n";
}

int explore_files(const ExploreOptions& options) {
  const Mutant mutant = mutant_from_option(options.mutant);
  const uint64_t seed = options.seed.value_or(std::random_device{}());
  std::cout << "seed " << seed << ", " << options.trials << " trials, mutant " << mutant_name(mutant) << std::endl;

  const std::optional<smt::SecondSolverOptions> second = cross_check_solver(options.cross_check);
  std::optional<CrossChecker> cross_check;
  if (second) cross_check.emplace(*second, options.save_dir);
  // The gate's per-file oracle: the interval procedure first, Z3 outside it and on one of its
  // answers in kIntervalCrossCheckStride; with a second solver, Z3 alone (its query text is re-asked).
  smt::OracleOptions oracle_options;
  oracle_options.record_smt2 = second.has_value();
  oracle_options.intervals_first = !second;
  oracle_options.interval_cross_check_stride = kIntervalCrossCheckStride;
  oracle_options.contain_crashes = options.contain_crashes;
  smt::Oracle oracle(oracle_options);
  std::map<std::string, FormTally> by_form;
  FormTally total;
  int saved = 0;
  rc::Random random(seed);
  const auto generator = generators::file_case(mutant);
  const auto start = std::chrono::steady_clock::now();
  for (int trial = 0; trial < options.trials; ++trial) {
    const generators::FileCase c = generator(random.split(), trial % (kMaxRapidCheckSize + 1)).value();
    const size_t crashes_before = oracle.counters().crashes;
    const CaseCheck check = check_case(c, &oracle, PerFileOptions{mutant, OracleUse::Always});
    if (oracle.counters().crashes > crashes_before) {
      std::cout << "Z3 crashed on " << oracle.counters().crashes - crashes_before << " query(ies) of trial " << trial
                << " (reported as unknown; replay: --seed " << seed << ")" << std::endl;
    }
    for (size_t i = 0; i < c.predicates.size(); ++i) {
      const DecisionCheck& d = check.decisions[i];
      count(by_form[generators::predicate_form(*c.predicates[i])], d);
      count(total, d);
      if (cross_check && d.oracle) {
        cross_check->check(d.oracle_smt2, smt::verdict_of(*d.oracle),
                           "explore-" + std::to_string(seed) + "-" + std::to_string(trial) + "-" + std::to_string(i));
      }
      // Each finding is printed when it is found, so that a run that dies later keeps it.
      if (is_finding(d.outcome)) {
        std::cout << "finding: trial " << trial << " predicate " << i << " (" << to_sql(c.predicates[i])
                  << "): " << outcome_name(d.outcome) << " (replay: --seed " << seed << ")" << std::endl;
      }
      if (is_finding(d.outcome) && !options.save_dir.empty()) {
        const auto path = (std::filesystem::path(options.save_dir) /
                           ("finding-" + std::to_string(seed) + "-" + std::to_string(trial) + "-" +
                            std::to_string(i) + ".json")).string();
        // Saved as `gate --out` saves a case: it fails while the bug is there (proofs/perfile/corpus.h).
        CorpusCase finding{"found by skipsound explore --files", c.table, c.file, c.predicates[i], mutant, seed,
                           std::nullopt};
        finding.observed = replay_verdicts_text(d.outcome, check.stats_inconsistent(), !check.log.consistent());
        finding.stats_recipe = recipe_of(c.table, c.file, mutant);
        save_corpus_case(finding, path);
        std::cout << "saved " << path << std::endl;
        ++saved;
      }
    }
    if (check.first_finding && total.findings == 1) {
      std::cout << render_case_failure(c, check, FindingOrigin{seed, mutant, ""}) << std::endl;
    }
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  std::cout << std::left << std::setw(24) << "form" << std::right << std::setw(9) << "checked" << std::setw(9)
            << "skipped" << std::setw(9) << "z3-unsat" << std::setw(9) << "missed" << std::setw(9) << "miss%"
            << std::setw(9) << "unknown" << std::setw(9) << "findings" << "\n";
  for (const auto& [form, tally] : by_form) print_row(form, tally);
  print_row("total", total);
  if (options.contain_crashes) std::cout << "Z3 crashes contained: " << oracle.counters().crashes << "\n";
  std::cout << "timing: " << std::fixed << std::setprecision(2) << seconds << " s, "
            << static_cast<long>(total.decisions / std::max(seconds, 1e-9)) << " decisions checked per second\n";
  const smt::OracleCounters& asked = oracle.counters();
  std::cout << "oracle: " << asked.by_intervals << " queries by the interval procedure (" << asked.cross_checked
            << " re-asked of Z3; a difference is a finding), " << asked.by_z3 << " by Z3\n";
  const CrossCheckTally cross_checked = cross_check ? cross_check->finish(std::max(1u, std::thread::hardware_concurrency())) : CrossCheckTally{};
  if (cross_check) cross_checked.print(std::cout);
  return total.findings > 0 || cross_checked.disagreements > 0 ? kExitFinding : kExitOk;
}

}  // namespace

void add_explore_command(CLI::App& app, int& exit_code) {
  auto* command = app.add_subcommand("explore", "random exploration with a precision report");
  auto options = std::make_shared<ExploreOptions>();
  command->add_flag("--files", options->files, "per-file skip decisions (production vs Z3)");
  command->add_option("--seed", options->seed, "random seed (printed; the same seed gives the same report)");
  command->add_option("--trials", options->trials, "generated files (each with up to 8 predicates)")
      ->check(CLI::PositiveNumber);
  command->add_option("--mutant", options->mutant, "run the production logic as this mutant");
  command->add_option("--save", options->save_dir, "save every finding as a corpus case in this directory")
      ->check(CLI::ExistingDirectory);
  command->add_option("--cross-check", options->cross_check,
                      "re-ask every sat/unsat answer in a second solver: cvc5 or none (default); "
                      "disagreeing queries go to --save's folder or a temporary one");
  command->add_flag("--contain-crashes", options->contain_crashes,
                    "run each Z3 query first in a forked copy of the process, so that a crash inside Z3 "
                    "costs that query (reported as unknown, with the signal) instead of the run");
  command->callback([options, &exit_code] {
    if (!options->files) throw CLI::ValidationError("explore", "choose what to explore: --files");
    exit_code = explore_files(*options);
  });
}

}  // namespace skipsound::cli
