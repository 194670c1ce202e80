#include "proofs/gate.h"

#include <algorithm>
#include <filesystem>
#include <future>

#include "model/values/input_error.h"
#include "proofs/interleaving_report.h"
#include "proofs/mutant_hunt.h"
#include "proofs/parallel_trials.h"
#include "proofs/per_file_hunt.h"
#include "proofs/prove_all.h"
#include "proofs/scenario.h"

namespace skipsound {

namespace {

using generators::WorldCategory;

std::vector<CorpusFileResult> run_corpus(const std::string& dir, const GateProgress& progress) {
  std::vector<CorpusFileResult> results;
  if (dir.empty()) return results;
  if (!std::filesystem::is_directory(dir)) throw InputError("corpus directory not found: " + dir);
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() == ".scn") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  for (const auto& path : files) {
    const parallel::Stopwatch clock;
    CorpusFileResult r;
    r.file = path.filename().string();
    try {
      const Scenario scenario = load_scenario(path.string());
      const ScenarioRun run = run_scenario(scenario);
      r.problems = run.mismatches;
      if (!r.problems.empty()) r.report = render_report(scenario, run);
    } catch (const InputError& e) {
      r.problems.push_back(e.render());
    }
    r.seconds = clock.seconds();
    results.push_back(std::move(r));
    if (progress) progress("corpus", std::to_string(results.size()) + "/" + std::to_string(files.size()) + " files");
  }
  return results;
}

ProofGroupResult run_proofs(Mutant mutant) {
  const parallel::Stopwatch clock;
  ProofGroupResult r;
  r.group = mutant == Mutant::None ? "rule theorems" : std::string("rule theorems under ") + mutant_name(mutant);
  const ProveSummary summary = prove_rule_theorems(mutant);
  r.failed = summary.outcome() != ProveOutcome::AsExpected;
  r.text = summary_to_text(summary);
  r.seconds = clock.seconds();
  return r;
}

PerFileResult run_per_file(const GateOptions& o, const GateBudget& budget, CrossChecker* checker,
                           const GateProgress& progress) {
  PerFileHunt hunt = hunt_per_file({.seed = o.seed,
                                     .cases = budget.file_cases,
                                     .seconds = budget.file_seconds,
                                     .threads = o.threads,
                                     .cross_check = checker,
                                     .intervals = o.interval_oracle},
                                    progress);
  if (hunt.first_failing) {
    hunt.result.first_failure =
        shrink_file_case(case_seed(o.seed, Mutant::None, *hunt.first_failing), Mutant::None, o.interval_oracle).report;
  }
  return hunt.result;
}

ExhaustiveReport run_exhaustive(const GateOptions& o, const GateProgress& progress) {
  if (progress) progress("exhaustive", std::to_string(o.exhaustive_comparisons) + " comparisons");
  ExhaustiveOptions exhaustive;
  exhaustive.seed = o.seed;
  exhaustive.comparisons = o.exhaustive_comparisons;
  exhaustive.threads = o.threads;
  return run_exhaustive_cross_check(exhaustive);
}

std::vector<CategoryResult> run_explorer(const GateOptions& o, const GateBudget& budget, CrossChecker* checker,
                                         const GateProgress& progress) {
  ExploreOptions e;
  e.seed = o.seed;
  e.categories = o.categories;
  e.threads = o.threads;
  e.shard = o.shard;
  e.trials_per_category = budget.trials_per_category;
  e.seconds_per_category = budget.seconds_per_category;
  e.cross_check = checker;
  return explore(e, [&](WorldCategory c, size_t done, size_t planned) {
    if (progress) {
      progress(std::string("explore ") + world_category_name(c),
               std::to_string(done) + (planned ? "/" + std::to_string(planned) : std::string()) + " trials");
    }
  });
}

}  // namespace

GateBudget gate_budget(const GateOptions& o) {
  const size_t categories = o.categories.empty() ? generators::all_world_categories().size() : o.categories.size();
  if (!o.seconds) return GateBudget{o.trials_per_category, std::nullopt, o.trials_per_category * 2, std::nullopt};
  // A time budget: half to the explorer's categories, a tenth to the per-file properties; the
  // mutant matrix stops at each kill and gets what is left.
  const double total = *o.seconds;
  return GateBudget{SIZE_MAX, total * 0.5 / static_cast<double>(categories), SIZE_MAX, total * 0.1};
}

GateOutcome GateReport::outcome() const { return failures().empty() ? GateOutcome::Pass : GateOutcome::Fail; }

std::vector<std::string> GateReport::failures() const {
  std::vector<std::string> out;
  for (const CorpusFileResult& c : corpus) {
    for (const std::string& p : c.problems) out.push_back("corpus " + c.file + ": " + p);
  }
  if (per_file.failing_cases) out.push_back("per-file properties: " + std::to_string(per_file.failing_cases) + " failing cases");
  if (exhaustive && exhaustive->disagreements()) {
    out.push_back("bounded exhaustive cross-check: " + std::to_string(exhaustive->disagreements()) + " disagreements with the oracle");
  }
  for (const CategoryResult& c : categories) {
    if (c.finding) out.push_back(std::string("explorer ") + world_category_name(c.category) + ": " + c.finding->headline);
    if (c.stats.unexpected_errors) {
      out.push_back(std::string("explorer ") + world_category_name(c.category) + ": " +
                    std::to_string(c.stats.unexpected_errors) +
                    " conflict checks kept every file after an unexpected exception, first: " +
                    c.stats.first_unexpected_error);
    }
  }
  for (const ProofGroupResult& p : proofs) {
    if (p.failed) out.push_back("proofs: " + p.group + " failed");
  }
  for (const MutantResult& m : mutants) {
    if (!m.killed()) out.push_back(std::string("mutant ") + mutant_name(m.mutant) + " survived");
  }
  if (cross_check) {
    for (const std::string& f : cross_check->findings) out.push_back("cross-check: " + f);
  }
  return out;
}

GateReport run_gate(const GateOptions& o, const GateProgress& progress) {
  const parallel::Stopwatch clock;
  const GateBudget budget = gate_budget(o);
  GateReport report;
  report.seed = o.seed;
  report.shard = o.shard;
  // The symbolic proofs are the slowest part and need no other: they run beside everything else.
  std::future<ProofGroupResult> proofs;
  if (o.proofs) proofs = std::async(std::launch::async, run_proofs, Mutant::None);
  report.corpus = run_corpus(o.corpus_dir, progress);

  std::optional<CrossChecker> cross_check;
  if (o.cross_check) cross_check.emplace(*o.cross_check, o.cross_check_dir);
  CrossChecker* checker = cross_check ? &*cross_check : nullptr;
  report.per_file = run_per_file(o, budget, checker, progress);
  if (o.exhaustive_comparisons) report.exhaustive = run_exhaustive(o, progress);
  report.categories = run_explorer(o, budget, checker, progress);
  if (cross_check) {
    if (progress) progress("cross-check", "asking the second solver");
    report.cross_check = cross_check->finish(o.threads);
  }

  if (!o.skip_mutants) {
    const std::vector<Mutant>& mutants = o.mutants.empty() ? gate_hunted_mutants() : o.mutants;
    for (Mutant m : mutants) {
      if (progress) progress(std::string("mutant ") + mutant_name(m), "hunting");
      report.mutants.push_back(hunt_mutant(m, o, budget, progress));
    }
  }
  if (proofs.valid()) {
    if (progress) progress("proofs", "waiting for the rule theorems");
    report.proofs.push_back(proofs.get());
  }
  report.seconds = clock.seconds();
  return report;
}

}  // namespace skipsound
