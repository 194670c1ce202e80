// `skipsound prove`: the symbolic rule theorems (docs/semantics.md §6.6) as a table, text or JSON.
#include <algorithm>
#include <iostream>
#include <memory>
#include <thread>

#include <nlohmann/json.hpp>

#include "model/mutants/mutant.h"
#include "cli/cli.h"
#include "proofs/rules/prove_all.h"
#include "model/values/exact_json.h"

namespace skipsound::cli {

namespace {

std::string prove_help() {
  return "prove every skipping rule of docs/semantics.md §5.3 on every type (float with --all-types) with symbolic "
         "stats and literals: "
         "PROVED, COUNTEREXAMPLE (stats, literal, row) or UNKNOWN (reason), with times. "
         "--mutant takes the per-file mutants (" +
         mutant_names(MutantScope::PerFile) + "); the conflict-time mutants (" +
         mutant_names(MutantScope::ConflictTime) + ") and the input-path mutants (" +
         mutant_names(MutantScope::InputPath) +
         ") are not properties of one rule and are out of scope here. Exit 0 when every theorem comes "
         "out as expected (PROVED, or COUNTEREXAMPLE for the rules a mutant breaks), 1 otherwise, 2 on "
         "bad usage, 3 on an internal error.";
}

struct ProveArguments {
  std::string mutant = "none";
  bool json = false;
  bool composition = false;
  bool no_exactness = false;
  bool all_types = false;
  int max_connectives = 3;
  size_t stride = 1;
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  smt::SolverLimits limits = kProverLimits;
};

}  // namespace

void add_prove_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<ProveArguments>();
  auto* command = app.add_subcommand("prove", prove_help());
  command->add_option("--mutant", args->mutant, "prove against a per-file mutant");
  command->add_flag("--json", args->json, "print the results as JSON");
  command->add_flag("--composition", args->composition,
                    "also prove every AND/OR/NOT template over the composition atoms");
  command->add_option("--max-connectives", args->max_connectives,
                      "composition templates have at most this many AND/OR/NOT")
      ->check(CLI::Range(0, 3));
  command->add_option("--stride", args->stride, "prove every n-th composition template")
      ->check(CLI::PositiveNumber);
  command->add_option("--threads", args->threads,
                      "prove the theorems and composition templates on this many threads (default: one per core); "
                      "verdicts and their order do not depend on it")
      ->check(CLI::Range(1u, kMaxThreads));
  command->add_flag("--all-types", args->all_types,
                    "also prove the rules on float (~80 s more) and the exactness converse on strings, "
                    "floating point, binary and boolean (most end UNKNOWN: Z3 times out on the quantifier)");
  command->add_flag("--no-exactness", args->no_exactness, "skip the converse (missed-skip) proofs");
  command->add_option("--rlimit", args->limits.resource_limit,
                      "Z3 resource limit per theorem: a deterministic budget (default 50000000)")
      ->check(CLI::PositiveNumber);
  command->add_option("--timeout-ms", args->limits.timeout_ms, "wall-clock ceiling per theorem (default: none; the resource limit bounds a theorem)")
      ->check(CLI::PositiveNumber);
  command->callback([args, &exit_code] {
    ProveOptions options;
    const std::optional<Mutant> mutant = mutant_from_name(args->mutant);
    if (!mutant || (*mutant != Mutant::None && !is_per_file_mutant(*mutant))) {
      std::cerr << "error: --mutant " << args->mutant << " is not a per-file mutant\n";
      exit_code = kExitUsage;
      return;
    }
    options.mutant = *mutant;
    options.exactness = !args->no_exactness;
    options.types = args->all_types ? TypeCoverage::All : TypeCoverage::Default;
    options.composition = args->composition;
    options.max_connectives = args->max_connectives;
    options.composition_stride = args->stride;
    options.limits = args->limits;
    options.threads = args->threads;
    // The sweep runs for a long time: each template's line as soon as it is proved (on stderr
    // under --json, which keeps stdout one JSON document).
    std::ostream* progress = args->json ? &std::cerr : &std::cout;
    options.on_composition = [progress](size_t index, size_t count, const TheoremResult& r) {
      *progress << "composition " << index + 1 << "/" << count << "  " << theorem_line(r) << std::flush;
    };
    const ProveSummary summary = prove_all(options);
    if (args->json) std::cout << dump_json(summary_to_json(summary), 2) << "\n";
    else std::cout << summary_to_text(summary);
    exit_code = summary.outcome() == ProveOutcome::AsExpected ? kExitOk : kExitFinding;
  });
}

}  // namespace skipsound::cli
