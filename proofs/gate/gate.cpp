#include "proofs/gate/gate.h"

#include <algorithm>
#include <filesystem>
#include <future>

#include "model/values/input_error.h"
#include "proofs/gate/bad_input_corpus.h"
#include "proofs/gate/delta_skipping_suite.h"
#include "proofs/scenario/interleaving_report.h"
#include "proofs/gate/mutant_hunt.h"
#include "proofs/common/parallel_trials.h"
#include "proofs/perfile/per_file_hunt.h"
#include "proofs/rules/prove_all.h"
#include "proofs/scenario/scenario.h"

namespace skipsound {

namespace {

using generators::WorldCategory;

std::vector<CorpusFileResult> run_corpus(const std::string& dir, bool stop_at_first, const GateProgress& progress) {
  std::vector<CorpusFileResult> results;
  if (dir.empty()) return results;
  if (!std::filesystem::is_directory(dir)) throw InputError("corpus directory not found: " + dir);
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() == ".scn") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  smt::Oracle oracle(skip_oracle_options());
  for (const auto& path : files) {
    const parallel::Stopwatch clock;
    CorpusFileResult r;
    r.file = path.filename().string();
    try {
      const Scenario scenario = load_scenario(path.string());
      const ScenarioRun run = run_judged_scenario(scenario, oracle);
      for (const std::string& m : run.mismatches) r.problems.push_back({CorpusProblemKind::Mismatch, m});
      if (r.failed()) r.report = render_report(scenario, run);
    } catch (const InputError& e) {
      r.problems.push_back({CorpusProblemKind::DoesNotLoad, e.render()});
    }
    r.seconds = clock.seconds();
    results.push_back(std::move(r));
    if (progress) progress("corpus", std::to_string(results.size()) + "/" + std::to_string(files.size()) + " files");
    if (stop_at_first && results.back().failed()) break;
  }
  return results;
}

// A skip-expectation folder as corpus files, one per case (proofs/gate/delta_skipping_suite.h): a file
// skipped although a row matches, a skip Delta makes that the checker does not, a bad entry.
std::vector<CorpusFileResult> run_skip_suite(const std::string& dir, bool stop_at_first) {
  std::vector<CorpusFileResult> results;
  const std::string folder = std::filesystem::path(dir).lexically_normal().filename().string();
  for (DeltaSuiteCase& c : run_delta_skipping_suite(dir)) {
    CorpusFileResult r;
    r.file = folder + "/" + c.name + ".json";
    r.seconds = c.seconds;
    for (const SuiteDecision& u : c.unsound) r.problems.push_back({CorpusProblemKind::UnsoundSkip, unsound_text(u)});
    for (const SuiteDecision& m : c.missed) r.problems.push_back({CorpusProblemKind::LostSkip, missed_text(m)});
    for (const SuiteDecision& x : c.extra) r.problems.push_back({CorpusProblemKind::SkipBeyondDelta, extra_text(x)});
    for (const SuiteError& e : c.errors) {
      const CorpusProblemKind kind =
          e.kind == SuiteErrorKind::DoesNotLoad ? CorpusProblemKind::DoesNotLoad : CorpusProblemKind::BadEntry;
      r.problems.push_back({kind, error_text(e)});
    }
    for (const CorpusProblem& p : r.problems) r.report += "  " + problem_text(p) + "\n";
    results.push_back(std::move(r));
    if (stop_at_first && results.back().failed()) break;
  }
  return results;
}

// The bad-input corpus as corpus files, one per case, run `threads` at a time (each is a process).
// With stop_at_first the cases after the first failing one (in file order) are dropped.
std::vector<CorpusFileResult> run_bad_inputs(const GateOptions& o, bool stop_at_first) {
  constexpr int kHangLimitSeconds = 60;  // catches a hang; times nothing
  const std::vector<BadInputCase> cases = load_bad_input_cases(o.bad_input_dir);
  std::vector<CorpusFileResult> results(cases.size());
  parallel::for_each_index(o.threads, cases.size(), [&](size_t i) {
    const BadInputRun run = run_bad_input_case(cases[i], o.bad_input_dir, o.skipsound_binary, kHangLimitSeconds);
    CorpusFileResult& r = results[i];
    r.file = "bad-inputs/cases.txt:" + std::to_string(cases[i].line) + " " + cases[i].name;
    for (const std::string& p : run.problems) r.problems.push_back({CorpusProblemKind::BadInputRun, p});
    r.seconds = run.seconds;
    if (r.failed()) r.report = "  $ " + bad_input_command_line(cases[i]) + "\n" + run.output;
  });
  if (stop_at_first) {
    const auto failing = std::find_if(results.begin(), results.end(),
                                      [](const CorpusFileResult& r) { return r.failed(); });
    if (failing != results.end()) results.erase(failing + 1, results.end());
  }
  return results;
}

// Whether --phase chose the phase or corpus part `name`: the corpus runs when one of its parts is
// chosen, and every part when the corpus is.
bool chosen(const GateOptions& o, const std::string& name) {
  const auto named = [&](const std::string& n) { return std::find(o.phases.begin(), o.phases.end(), n) != o.phases.end(); };
  if (o.phases.empty() || named(name)) return true;
  const bool part = std::find(std::begin(kCorpusParts), std::end(kCorpusParts), name) != std::end(kCorpusParts);
  if (part) return named("corpus");
  return name == "corpus" && std::any_of(std::begin(kCorpusParts), std::end(kCorpusParts), named);
}

// ---- each phase's time to its first finding (seconds into the phase; nullopt: none) ----

std::optional<double> corpus_first_finding(const std::vector<CorpusFileResult>& corpus) {
  double elapsed = 0;
  for (const CorpusFileResult& c : corpus) {
    elapsed += c.seconds;
    if (c.failed()) return elapsed;
  }
  return std::nullopt;
}

std::optional<double> explorer_first_finding(const std::vector<CategoryResult>& categories) {
  double elapsed = 0;
  for (const CategoryResult& c : categories) {
    if (c.finding) return elapsed + c.finding->seconds_to_find;
    elapsed += c.stats.seconds;
  }
  return std::nullopt;
}

// The production rules' theorems, once every thread that worked on `jobs` is done.
ProofGroupResult proof_result(const RuleTheoremJobs& jobs, const parallel::Stopwatch& started) {
  ProofGroupResult r;
  r.group = "rule theorems";
  jobs.collect(r.summary);
  r.seconds = started.seconds();
  r.summary.total_millis = r.seconds * 1000;
  return r;
}

PerFileResult run_per_file(const GateOptions& o, const GateBudget& budget, CrossChecker* checker,
                           const GateProgress& progress) {
  PerFileHunt hunt = hunt_per_file({.seed = o.seed,
                                     .cases = budget.file_cases,
                                     .seconds = budget.file_seconds,
                                     .threads = o.threads,
                                     .stop_at_first = o.fail_fast != FailFast::Off,
                                     .cross_check = checker,
                                     .intervals = o.interval_oracle},
                                    progress);
  if (hunt.first_failing) {
    const PerFileCounterexample cx =
        shrink_file_case(case_seed(o.seed, Mutant::None, *hunt.first_failing), Mutant::None, o.interval_oracle);
    hunt.result.first_failure = cx.report;
    hunt.result.first_failure_case = cx.corpus_json;
    hunt.result.first_failure_decision = cx.decision;
  }
  return hunt.result;
}

ExhaustiveReport run_exhaustive(const GateOptions& o, const GateProgress& progress) {
  if (progress) progress("exhaustive", std::to_string(o.exhaustive_comparisons) + " comparisons");
  ExhaustiveOptions exhaustive;
  exhaustive.seed = o.seed;
  exhaustive.comparisons = o.exhaustive_comparisons;
  exhaustive.threads = o.threads;
  exhaustive.stop_at_first_disagreement = o.fail_fast != FailFast::Off;
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
  e.stop_at_first_finding = o.fail_fast != FailFast::Off;
  return explore(e, [&](WorldCategory c, size_t done, size_t planned) {
    if (!progress) return;
    // Appended piece by piece: GCC 12 warns (-Wrestrict, a false positive) on "/" + to_string(...).
    std::string trials = std::to_string(done);
    if (planned) {
      trials += '/';
      trials += std::to_string(planned);
    }
    trials += " trials";
    progress(std::string("explore ") + world_category_name(c), trials);
  });
}

}  // namespace

std::string problem_text(const CorpusProblem& p) {
  switch (p.kind) {
    case CorpusProblemKind::UnsoundSkip: return "UNSOUND SKIP: " + p.detail;
    case CorpusProblemKind::LostSkip: return "LOST SKIP: " + p.detail;
    case CorpusProblemKind::SkipBeyondDelta: return "SKIP BEYOND DELTA: " + p.detail;
    case CorpusProblemKind::Mismatch:
    case CorpusProblemKind::DoesNotLoad:
    case CorpusProblemKind::BadEntry:
    case CorpusProblemKind::BadInputRun: return p.detail;
  }
  return p.detail;
}

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
    for (const CorpusProblem& p : c.problems) out.push_back("corpus " + c.file + ": " + problem_text(p));
  }
  if (per_file.failing_cases) out.push_back("per-file properties: " + std::to_string(per_file.failing_cases) + " failing cases");
  if (exhaustive && exhaustive->disagreements()) {
    out.push_back("bounded exhaustive cross-check: " + std::to_string(exhaustive->disagreements()) + " disagreements with the oracle");
  }
  for (const CategoryResult& c : categories) {
    if (c.finding) out.push_back(std::string("explorer ") + world_category_name(c.category) + ": " + c.finding->headline);
    // The generators draw only worlds the model can run: a world an operation refuses is a bug of
    // the generators or of the model (an assignment it should accept, say), not a skipped trial.
    if (c.stats.discarded) {
      out.push_back(std::string("explorer ") + world_category_name(c.category) + ": " + std::to_string(c.stats.discarded) +
                    " generated worlds could not be run, first: " + c.stats.first_discard);
    }
    if (c.stats.unexpected_errors) {
      out.push_back(std::string("explorer ") + world_category_name(c.category) + ": " +
                    std::to_string(c.stats.unexpected_errors) +
                    " conflict checks kept every file after an unexpected exception, first: " +
                    c.stats.first_unexpected_error);
    }
  }
  for (const ProofGroupResult& p : proofs) {
    if (p.failed()) out.push_back("proofs: " + p.group + " failed");
  }
  for (const MutantResult& m : mutants) {
    if (!m.killed()) out.push_back(std::string("mutant ") + mutant_name(m.mutant) + " survived");
  }
  if (cross_check) {
    for (const std::string& f : cross_check->findings) out.push_back("cross-check: " + f);
  }
  if (coverage.required) {
    for (const std::string& row : coverage.unreached()) out.push_back("coverage: never reached: " + row);
  }
  return out;
}

GateReport run_gate(const GateOptions& o, const GateProgress& progress) {
  const parallel::Stopwatch clock;
  const coverage::Counts coverage_before = coverage::snapshot();
  const GateBudget budget = gate_budget(o);
  GateReport report;
  report.seed = o.seed;
  report.shard = o.shard;
  const bool stop_at_first = o.fail_fast != FailFast::Off;
  // Runs one phase unless --fail-fast gate has seen a finding; `body` returns its first finding's time.
  const auto phase = [&](const std::string& name, const auto& body) {
    const bool found = std::any_of(report.phases.begin(), report.phases.end(),
                                   [](const PhaseTiming& p) { return p.first_finding.has_value(); });
    if ((o.fail_fast == FailFast::Gate && found) || !chosen(o, name)) {
      report.skipped_phases.push_back(name);
      return;
    }
    PhaseTiming timing;
    timing.phase = name;
    timing.started = clock.seconds();
    const parallel::Stopwatch phase_clock;
    timing.first_finding = body(phase_clock);
    timing.seconds = phase_clock.seconds();
    report.phases.push_back(std::move(timing));
  };
  using Clock = parallel::Stopwatch;
  // The symbolic proofs are the slowest part and need no other: with two or more threads one of
  // them starts on the rule theorems beside everything else, and the others join it once the
  // other phases are done; with one thread they run last, on it.
  const bool proofs_beside = o.proofs && o.threads > 1;
  std::optional<RuleTheoremJobs> proof_jobs;
  if (o.proofs) proof_jobs.emplace(rule_theorem_options(Mutant::None));
  const parallel::Stopwatch proofs_clock;
  std::future<void> proofs;
  if (proofs_beside) proofs = std::async(std::launch::async, [&] { proof_jobs->work(); });
  phase("corpus", [&](const Clock&) {
    if (chosen(o, "scenarios")) report.corpus = run_corpus(o.corpus_dir, stop_at_first, progress);
    // With --fail-fast a finding so far stops the corpus phase before its next part.
    const auto stopped = [&] {
      return stop_at_first && std::any_of(report.corpus.begin(), report.corpus.end(),
                                          [](const CorpusFileResult& c) { return c.failed(); });
    };
    for (const std::string& dir : o.skip_suite_dirs) {
      if (stopped() || !chosen(o, "skip-suites")) break;
      for (CorpusFileResult& r : run_skip_suite(dir, stop_at_first)) report.corpus.push_back(std::move(r));
    }
    if (!o.bad_input_dir.empty() && !o.skipsound_binary.empty() && !stopped() && chosen(o, "bad-inputs")) {
      if (progress) progress("corpus", "bad inputs");
      for (CorpusFileResult& r : run_bad_inputs(o, stop_at_first)) report.corpus.push_back(std::move(r));
    }
    return corpus_first_finding(report.corpus);
  });

  std::optional<CrossChecker> cross_check;
  if (o.cross_check) cross_check.emplace(*o.cross_check, o.cross_check_dir);
  CrossChecker* checker = cross_check ? &*cross_check : nullptr;
  phase("per-file", [&](const Clock&) {
    report.per_file = run_per_file(o, budget, checker, progress);
    return report.per_file.first_failure_seconds;
  });
  if (o.exhaustive_comparisons) {
    phase("exhaustive", [&](const Clock&) {
      report.exhaustive = run_exhaustive(o, progress);
      return report.exhaustive->first_disagreement_seconds;
    });
  }
  phase("explorer", [&](const Clock&) {
    report.categories = run_explorer(o, budget, checker, progress);
    return explorer_first_finding(report.categories);
  });
  if (cross_check) {
    phase("cross-check", [&](const Clock& phase_clock) -> std::optional<double> {
      if (progress) progress("cross-check", "asking the second solver");
      report.cross_check = cross_check->finish(o.threads);
      if (report.cross_check->findings.empty()) return std::nullopt;
      return phase_clock.seconds();
    });
  }

  if (!o.skip_mutants) {
    phase("mutants", [&](const Clock& phase_clock) -> std::optional<double> {
      std::optional<double> first_survivor;
      for (Mutant m : o.mutants.empty() ? all_mutants() : o.mutants) {
        if (progress) progress(std::string("mutant ") + mutant_name(m), "hunting");
        report.mutants.push_back(hunt_mutant(m, o, budget, progress));
        if (report.mutants.back().killed()) continue;
        if (!first_survivor) first_survivor = phase_clock.seconds();
        if (stop_at_first) break;
      }
      return first_survivor;
    });
  }
  const auto proved = [&](ProofGroupResult p) -> std::optional<double> {
    report.proofs.push_back(std::move(p));
    return report.proofs.back().failed() ? std::optional<double>(report.proofs.back().seconds) : std::nullopt;
  };
  if (proofs_beside) {
    if (progress) progress("proofs", "proving the rule theorems left");
    parallel::run_on_threads(o.threads - 1, [&](size_t) { proof_jobs->work(); });
    proofs.get();
    const std::optional<double> failed = proved(proof_result(*proof_jobs, proofs_clock));
    report.phases.push_back({"proofs", 0, report.proofs.back().seconds, failed});
  } else if (o.proofs) {
    phase("proofs", [&](const Clock& phase_clock) {
      if (progress) progress("proofs", "proving the rule theorems");
      proof_jobs->work();
      return proved(proof_result(*proof_jobs, phase_clock));
    });
  }
  report.coverage = coverage_since(coverage_before, o.require_coverage);
  report.seconds = clock.seconds();
  return report;
}

}  // namespace skipsound
