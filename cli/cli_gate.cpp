// `skipsound gate`: the correctness gate (proofs/gate/gate.h). Exit 0 when nothing is unsound and
// every mutant is killed, 1 with the findings otherwise (an unexpected exception inside the
// checker is one), 2 on bad usage, 3 on an internal error of skipsound.
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <thread>

#include <nlohmann/json.hpp>

#include "model/mutants/mutant.h"
#include "model/values/input_error.h"
#include "cli/cli.h"
#include "cli/file_inputs.h"
#include "proofs/gate/gate.h"
#include "proofs/gate/gate_report.h"
#include "proofs/gate/junit_report.h"
#include "proofs/report/html_report.h"
#include "model/values/exact_json.h"

namespace skipsound::cli {

namespace {

struct GateArguments {
  std::string budget;
  std::string seed;
  std::vector<std::string> categories;
  std::vector<std::string> mutants;
  unsigned threads = 0;
  std::string junit;
  std::string json;
  std::string html;
  std::string out;
  std::string shard;
  std::string corpus;
  bool skip_proofs = false;
  size_t exhaustive = kGateExhaustiveComparisons;
  std::string cross_check = "cvc5";
  std::string oracle_engine = "intervals";
  std::string fail_fast;  // "", "phase" or "gate"
  std::vector<std::string> phases;
};

void parse_budget(const std::string& text, GateOptions& options) {
  if (text.empty()) return;
  try {
    size_t used = 0;
    if (text.back() == 's') {
      const double seconds = std::stod(text.substr(0, text.size() - 1), &used);
      if (used != text.size() - 1 || seconds <= 0) throw std::invalid_argument("budget");
      options.seconds = seconds;
    } else {
      const unsigned long long trials = std::stoull(text, &used);
      if (used != text.size() || trials == 0) throw std::invalid_argument("budget");
      options.trials_per_category = trials;
    }
  } catch (const std::logic_error&) {
    throw InputError("--budget takes a trial count per category (300) or seconds (60s), got '" + text + "'");
  }
}

uint64_t parse_seed(const std::string& text) {
  if (text.empty()) return kDefaultGateSeed;
  if (text == "random") return std::random_device{}() * 0x100000001ULL ^ std::random_device{}();
  try {
    size_t used = 0;
    const uint64_t seed = std::stoull(text, &used);
    if (used == text.size()) return seed;
  } catch (const std::logic_error&) {
  }
  throw InputError("--seed takes a number or 'random', got '" + text + "'");
}

Shard parse_shard(const std::string& text) {
  if (text.empty()) return Shard{};
  const size_t slash = text.find('/');
  try {
    if (slash != std::string::npos) {
      const Shard shard{std::stoul(text.substr(0, slash)), std::stoul(text.substr(slash + 1))};
      if (shard.count > 0 && shard.index < shard.count) return shard;
    }
  } catch (const std::logic_error&) {
  }
  throw InputError("--shard takes I/N with 0 <= I < N, got '" + text + "'");
}

// The scenario corpus, found from the executable: installed, it sits at
// SKIPSOUND_INSTALLED_CORPUS relative to the binary's folder (<prefix>/bin ->
// <prefix>/share/skipsound/corpus/scenarios); in a build tree (build/<preset>/skipsound) it is
// tests/corpus/scenarios a few folders up. Never taken from the working directory, which may
// belong to another checkout. Empty when neither exists.
std::string default_corpus_dir() {
  std::error_code error;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error) return {};
  const std::filesystem::path installed = exe.parent_path() / SKIPSOUND_INSTALLED_CORPUS;
  if (std::filesystem::is_directory(installed)) return installed.lexically_normal().string();
  std::filesystem::path dir = exe.parent_path();
  for (int up = 0; up < 5 && dir != dir.parent_path(); ++up, dir = dir.parent_path()) {
    const auto candidate = dir / "tests" / "corpus" / "scenarios";
    if (std::filesystem::is_directory(candidate)) return candidate.string();
  }
  return {};
}

// The skip-expectation folders (proofs/gate/delta_skipping_suite.h) that sit beside the scenario corpus,
// in the source tree and installed alike: Delta's suite and the rule corpus.
std::vector<std::string> skip_suites_beside(const std::string& corpus_dir) {
  std::vector<std::string> suites;
  if (corpus_dir.empty()) return suites;
  const std::filesystem::path dir = std::filesystem::path(corpus_dir).lexically_normal();
  const std::filesystem::path parent = (dir.has_filename() ? dir : dir.parent_path()).parent_path();
  for (const char* name : {"delta-skipping", "rule-skips"}) {
    if (std::filesystem::is_directory(parent / name)) suites.push_back((parent / name).string());
  }
  return suites;
}

// The bad-input corpus beside the scenario corpus (a source tree's; the installed corpus has none).
std::string bad_inputs_beside(const std::string& corpus_dir) {
  if (corpus_dir.empty()) return {};
  const std::filesystem::path dir = std::filesystem::path(corpus_dir).lexically_normal();
  const std::filesystem::path candidate = (dir.has_filename() ? dir : dir.parent_path()).parent_path() / "bad-inputs";
  return std::filesystem::is_regular_file(candidate / "cases.txt") ? candidate.string() : std::string();
}

// This program, which the bad-input corpus's command lines run.
std::string running_binary() {
  std::error_code error;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", error);
  return error ? std::string() : exe.string();
}

GateOptions gate_options(const GateArguments& a) {
  GateOptions o;
  parse_budget(a.budget, o);
  o.seed = parse_seed(a.seed);
  for (const std::string& name : a.categories) {
    const auto category = generators::world_category_from_name(name);
    if (!category) throw InputError("unknown category '" + name + "'");
    o.categories.push_back(*category);
  }
  for (const std::string& name : a.mutants) {
    // `--mutant none` is the sound checker alone: no matrix.
    const Mutant mutant = mutant_from_option(name);
    if (mutant == Mutant::None) o.skip_mutants = true;
    else o.mutants.push_back(mutant);
  }
  o.threads = a.threads ? a.threads : std::max(1u, std::thread::hardware_concurrency());
  o.shard = parse_shard(a.shard);
  o.corpus_dir = a.corpus.empty() ? default_corpus_dir() : a.corpus;
  if (o.corpus_dir.empty()) std::cerr << "warning: scenario corpus not found; pass --corpus DIR\n";
  o.skip_suite_dirs = skip_suites_beside(o.corpus_dir);
  o.bad_input_dir = bad_inputs_beside(o.corpus_dir);
  o.skipsound_binary = running_binary();
  o.proofs = !a.skip_proofs;
  o.exhaustive_comparisons = a.exhaustive;
  // Part of the default gate: a missing solver fails it up front (exit 2), not after the other phases.
  o.cross_check = cross_check_solver(a.cross_check);
  o.cross_check_dir = a.out;
  o.interval_oracle = a.oracle_engine == "intervals";
  if (!a.fail_fast.empty()) o.fail_fast = a.fail_fast == "gate" ? FailFast::Gate : FailFast::Phase;
  o.phases = a.phases;
  // The default gate's full scope must reach every coverage row; a narrowed run only reports.
  o.require_coverage = a.budget.empty() && a.categories.empty() && a.mutants.empty() && a.shard.empty() &&
                       !a.skip_proofs && a.fail_fast.empty() && a.exhaustive == kGateExhaustiveComparisons &&
                       a.phases.empty();
  return o;
}

// The command line that runs this gate again: the seed it drew and the options that narrow it.
std::string replay_command(const GateArguments& a, uint64_t seed) {
  std::string line = "skipsound gate --seed " + std::to_string(seed);
  const auto add = [&](const std::string& option, const std::string& value) {
    if (!value.empty()) line += " " + option + " " + value;
  };
  add("--budget", a.budget);
  for (const std::string& category : a.categories) add("--category", category);
  for (const std::string& mutant : a.mutants) add("--mutant", mutant);
  add("--shard", a.shard);
  if (a.skip_proofs) line += " --skip-proofs";
  if (a.exhaustive != kGateExhaustiveComparisons) add("--exhaustive", std::to_string(a.exhaustive));
  if (!a.fail_fast.empty()) line += " --fail-fast=" + a.fail_fast;
  if (a.cross_check != "cvc5") add("--cross-check", a.cross_check);
  if (a.oracle_engine != "intervals") add("--oracle-engine", a.oracle_engine);
  return line;
}

// A \r-updated line on a terminal; plain lines, one per phase, otherwise (CI logs).
GateProgress progress_printer() {
  const bool terminal = isatty(STDOUT_FILENO);
  auto last_phase = std::make_shared<std::string>();
  return [terminal, last_phase](const std::string& phase, const std::string& status) {
    if (terminal) {
      std::cout << "\r\033[K[" << phase << "] " << status << std::flush;
    } else if (phase != *last_phase) {
      std::cout << "[" << phase << "] " << status << std::endl;
    }
    *last_phase = phase;
  };
}

int run(const GateArguments& arguments) {
  const GateOptions options = gate_options(arguments);
  std::cout << "skipsound gate: seed " << options.seed << " (replay with --seed " << options.seed << "), "
            << options.threads << " threads";
  if (options.shard.count > 1) std::cout << ", shard " << options.shard.index << "/" << options.shard.count;
  std::cout << "\nscenario corpus: " << (options.corpus_dir.empty() ? "none" : options.corpus_dir)
            << "\nskip expectations:";
  for (const std::string& dir : options.skip_suite_dirs) std::cout << " " << dir;
  std::cout << (options.skip_suite_dirs.empty() ? " none" : "")
            << "\nbad inputs: " << (options.bad_input_dir.empty() ? "none" : options.bad_input_dir) << std::endl;
  GateReport report = run_gate(options, progress_printer());
  report.command = replay_command(arguments, options.seed);
  if (isatty(STDOUT_FILENO)) std::cout << "\r\033[K";
  std::cout << gate_summary_text(report);
  if (!arguments.junit.empty()) write_text_file(arguments.junit, gate_junit_xml(report));
  if (!arguments.json.empty()) write_text_file(arguments.json, dump_json(gate_report_json(report), 2) + "\n");
  if (!arguments.html.empty()) write_text_file(arguments.html, gate_report_html(report));
  if (!arguments.out.empty()) {
    for (const std::string& path : write_gate_findings(report, arguments.out)) std::cout << "wrote " << path << "\n";
  }
  return report.outcome() == GateOutcome::Pass ? kExitOk : kExitFinding;
}

}  // namespace

void add_gate_command(CLI::App& app, int& exit_code) {
  auto arguments = std::make_shared<GateArguments>();
  CLI::App* command = app.add_subcommand(
      "gate", "the CI correctness gate: scenario corpus, per-file properties, interleaving explorer, "
              "symbolic proofs and the mutant matrix");
  command->add_option("--budget", arguments->budget, "trials per category (default 2000), or seconds like 60s");
  command->add_option("--seed", arguments->seed, "master seed (a number or 'random'; printed at start)");
  command->add_option("--category", arguments->categories, "explorer categories to run (default all)");
  command->add_option("--mutant", arguments->mutants,
                      "mutants to hunt ('none' skips the matrix; default: every one, " + mutant_names(all_mutants()) +
                          "; case2-no-base-subtract is a liveness mutant, killed when the same trials abort falsely "
                          "more often than under the sound checker)");
  command->add_option("--threads", arguments->threads,
                      "worker threads of the phases (default: all cores); with two or more, the rule proofs run "
                      "beside them on one more thread, with one they run last")
      ->check(CLI::Range(1u, kMaxThreads));
  command->add_option("--junit", arguments->junit, "write JUnit XML here");
  command->add_option("--json", arguments->json, "write the report as JSON here");
  command->add_option("--html", arguments->html,
                      "write the report as one self-contained HTML page here: verdict, seed, phase timings, each "
                      "finding's counterexample drawn, tier and throughput plots, the coverage grid");
  command->add_option("--out", arguments->out, "write one replayable file per finding into this directory");
  command->add_option("--shard", arguments->shard, "I/N: run shard I of N of the trial space");
  command->add_option("--corpus", arguments->corpus, "scenario corpus directory (default: the installed share/skipsound/corpus/scenarios, "
                      "else tests/corpus/scenarios above the executable in a build tree); the skip expectations in the folders "
                      "delta-skipping (Delta's own suite) and rule-skips beside it are judged with it");
  command->add_option("--exhaustive", arguments->exhaustive,
                      "comparisons of the bounded exhaustive cross-check against the Z3 oracle (default 3000; 0 skips)");
  command->add_flag("--skip-proofs", arguments->skip_proofs, "do not run the symbolic rule proofs");
  command->add_option("--cross-check", arguments->cross_check,
                      "re-ask Z3's skip proofs (one explorer trial in 100, one per-file case in 10) in a second "
                      "solver: cvc5 (default; must be installed) or none");
  command->add_option("--oracle-engine", arguments->oracle_engine,
                      "per-file oracle: intervals (default: the interval procedure, Z3 outside its fragment and "
                      "on one answer in 50 as a check) or z3 (Z3 for every query)")
      ->check(CLI::IsMember({"intervals", "z3"}));
  command->add_flag("--fail-fast{phase}", arguments->fail_fast,
                    "stop each phase at its first finding; --fail-fast=gate also skips the phases after it "
                    "(the time to each phase's first finding is reported either way)")
      ->check(CLI::IsMember({"phase", "gate"}));
  std::vector<std::string> phase_names = {"corpus", "per-file", "exhaustive", "explorer", "cross-check", "mutants"};
  phase_names.insert(phase_names.end(), std::begin(kCorpusParts), std::end(kCorpusParts));
  command->add_option("--phase", arguments->phases,
                      "run only this phase (repeatable): corpus, per-file, exhaustive, explorer, cross-check or "
                      "mutants, or a part of the corpus (scenarios, skip-suites, bad-inputs); the rule proofs "
                      "follow --skip-proofs")
      ->check(CLI::IsMember(phase_names));
  command->callback([arguments, &exit_code] { exit_code = run(*arguments); });
}

}  // namespace skipsound::cli
