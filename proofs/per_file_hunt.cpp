#include "proofs/per_file_hunt.h"

#include <memory>

#include <nlohmann/json.hpp>

#include "generators/file_case.h"
#include "proofs/corpus.h"
#include "proofs/explorer.h"
#include "proofs/parallel_trials.h"
#include "proofs/per_file_properties.h"

namespace skipsound {

namespace {

constexpr int kFileCaseSize = 60;
constexpr size_t kShrinkLimit = 300;
constexpr size_t kCasesPerChunk = 50;  // cases between progress reports, early stops and time checks

rc::Shrinkable<generators::FileCase> file_case_at(uint64_t seed, Mutant mutant) {
  parallel::require_generation_thread();
  return generators::file_case(mutant)(rc::Random(seed), kFileCaseSize);
}

PerFileOptions per_file_options(Mutant mutant) { return PerFileOptions{mutant, OracleUse::Sampled}; }

smt::OracleOptions recording_queries() {
  smt::OracleOptions options;
  options.record_smt2 = true;
  return options;
}

// One worker's oracles: the cases cross-checked go to the recording one, so only they pay for
// the query text.
struct CaseOracles {
  smt::Oracle plain;
  std::optional<smt::Oracle> recording;
};

// Re-asks the Z3 answers of a case's decisions in the second solver.
void cross_check_case(const CaseCheck& check, size_t index, CrossChecker& checker) {
  for (size_t d = 0; d < check.decisions.size(); ++d) {
    const DecisionCheck& decision = check.decisions[d];
    if (!decision.oracle) continue;
    checker.check(decision.oracle_smt2, smt::verdict_of(*decision.oracle),
                  "per-file-case-" + std::to_string(index) + "-predicate-" + std::to_string(d));
  }
}

}  // namespace

uint64_t case_seed(uint64_t master, Mutant mutant, size_t index) {
  return trial_seed(master ^ (0x5bd1e995ULL * (static_cast<uint64_t>(mutant) + 17)),
                    generators::WorldCategory::Mixed, index);
}

generators::FileCase hunt_file_case(uint64_t master, Mutant mutant, size_t index) {
  return file_case_at(case_seed(master, mutant, index), mutant).value();
}

PerFileHunt hunt_per_file(const PerFileHuntOptions& o, const GateProgress& progress) {
  const parallel::Stopwatch clock;
  PerFileHunt hunt;
  parallel::Workers<CaseOracles> workers(o.threads, [&] {
    auto oracles = std::make_unique<CaseOracles>();
    if (o.cross_check) oracles->recording.emplace(recording_queries());
    return oracles;
  });
  struct Indexed {
    size_t index;
    generators::FileCase c;
  };
  const auto generate = [&](size_t i) { return Indexed{i, file_case_at(case_seed(o.seed, o.mutant, i), o.mutant).value()}; };
  const auto run = [&](const Indexed& in, CaseOracles& oracles) {
    const bool cross_checked = o.cross_check && in.index % kCrossCheckCaseStride == 0;
    CaseCheck check = check_case(in.c, cross_checked ? &*oracles.recording : &oracles.plain, per_file_options(o.mutant));
    if (cross_checked) cross_check_case(check, in.index, *o.cross_check);
    return check;
  };
  const auto merge = [&](size_t i, CaseCheck&& check) {
    ++hunt.result.cases;
    hunt.result.decisions += check.decisions.size();
    if (!check.failed()) return true;
    ++hunt.result.failing_cases;
    if (!hunt.first_failing) hunt.first_failing = i;
    return !o.stop_at_first;
  };
  const auto report = [&](size_t done) {
    if (progress) progress("per-file", std::to_string(done) + " cases");
  };
  parallel::run_trials(workers, parallel::TrialBudget{o.cases, o.seconds, kCasesPerChunk}, generate, run, merge, report);
  hunt.result.seconds = clock.seconds();
  return hunt;
}

PerFileCounterexample shrink_file_case(uint64_t seed, Mutant mutant) {
  smt::Oracle oracle;
  const auto fails = [&](const generators::FileCase& c) {
    return check_case(c, &oracle, per_file_options(mutant)).failed();
  };
  const auto shrunk = parallel::shrink_greedily(file_case_at(seed, mutant), kShrinkLimit, fails);
  const generators::FileCase& c = shrunk.minimal.value();
  const CaseCheck check = check_case(c, &oracle, per_file_options(mutant));
  PerFileCounterexample out;
  const FindingOrigin origin{seed, mutant, "skipsound replay FILE"};
  out.report = render_case_failure(c, check, origin);
  out.headline = out.report.substr(0, out.report.find('\n'));
  if (check.first_finding) {
    const DecisionCheck& d = check.decisions[*check.first_finding];
    const CorpusCase corpus{out.headline, c.table, c.file, c.predicates[*check.first_finding], mutant, seed, d.outcome};
    out.corpus_json = corpus_case_to_json(corpus).dump(2) + "\n";
  }
  return out;
}

}  // namespace skipsound
