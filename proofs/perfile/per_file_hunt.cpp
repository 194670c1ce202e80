#include "proofs/perfile/per_file_hunt.h"

#include <memory>
#include <optional>

#include <nlohmann/json.hpp>

#include "generators/file_case.h"
#include "proofs/perfile/corpus.h"
#include "proofs/common/oracle_config.h"
#include "proofs/common/parallel_trials.h"
#include "proofs/common/trial_seed.h"
#include "proofs/perfile/per_file_properties.h"
#include "model/values/exact_json.h"

namespace skipsound {

namespace {

constexpr int kFileCaseSize = 60;
constexpr size_t kShrinkLimit = 300;
// Cases between progress reports, early stops and time checks. A hunt that stops at its first
// failure starts no case past the chunk being merged, so it waits at each chunk's end for the
// slowest case (a Z3 query may take a second or two) and takes short chunks, to stop soon; a run
// to the end waits for no chunk (proofs/common/parallel_trials.h).
constexpr size_t kCasesPerChunk = 400;
constexpr size_t kCasesPerChunkWhenStopping = 50;

rc::Shrinkable<generators::FileCase> file_case_at(uint64_t seed, Mutant mutant) {
  parallel::require_generation_thread();
  return generators::file_case(mutant)(rc::Random(seed), kFileCaseSize);
}

PerFileOptions per_file_options(Mutant mutant) { return PerFileOptions{mutant, OracleUse::Sampled}; }


// The per-file oracle: the interval procedure first (Z3 outside its fragment), with every one of
// its answers re-asked of Z3 when `checked`; or Z3 alone. `recording` keeps the text of each
// query Z3 answers, for the second solver.
smt::OracleOptions per_file_oracle(bool intervals, bool checked, bool recording = false) {
  smt::OracleOptions options;
  options.intervals_first = intervals;
  options.interval_cross_check_stride = checked ? 1 : 0;
  options.record_smt2 = recording;
  return options;
}

// One worker's oracles. The cases cross-checked in the second solver go to the recording one
// (only they pay for the query text; the second solver re-asks what Z3 answered); one case in
// kIntervalCrossCheckStride goes to the checked one, whose interval answers Z3 re-asks. Chosen by
// case index, so the same seed re-checks the same cases whatever the threads.
struct CaseOracles {
  explicit CaseOracles(bool intervals)
      : plain(per_file_oracle(intervals, false)), checked(per_file_oracle(intervals, true)) {}
  smt::Oracle plain;
  smt::Oracle checked;
  std::optional<smt::Oracle> recording;

  smt::Oracle& for_case(size_t index, bool cross_checked) {
    if (cross_checked) return *recording;
    return index % kIntervalCrossCheckStride == kIntervalCrossCheckStride / 2 ? checked : plain;
  }
  smt::OracleCounters counters() const {
    smt::OracleCounters sum = plain.counters();
    sum += checked.counters();
    if (recording) sum += recording->counters();
    return sum;
  }
};

// Re-asks the Z3 answers of a case's decisions in the second solver.
void cross_check_case(const CaseCheck& check, size_t index, CrossChecker& checker) {
  for (size_t d = 0; d < check.decisions.size(); ++d) {
    const DecisionCheck& decision = check.decisions[d];
    if (!decision.oracle || decision.oracle_smt2.empty()) continue;  // the interval procedure's alone
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
    auto oracles = std::make_unique<CaseOracles>(o.intervals);
    if (o.cross_check) oracles->recording.emplace(per_file_oracle(o.intervals, false, true));
    return oracles;
  });
  struct Indexed {
    size_t index;
    generators::FileCase c;
  };
  const auto generate = [&](size_t i) { return Indexed{i, file_case_at(case_seed(o.seed, o.mutant, i), o.mutant).value()}; };
  const auto run = [&](const Indexed& in, CaseOracles& oracles) {
    const bool cross_checked = o.cross_check && in.index % kCrossCheckCaseStride == 0;
    CaseCheck check = check_case(in.c, &oracles.for_case(in.index, cross_checked), per_file_options(o.mutant));
    if (cross_checked) cross_check_case(check, in.index, *o.cross_check);
    return check;
  };
  const auto merge = [&](size_t i, CaseCheck&& check) {
    ++hunt.result.cases;
    hunt.result.decisions += check.decisions.size();
    for (const DecisionCheck& d : check.decisions) ++hunt.result.outcomes[outcome_name(d.outcome)];
    if (!check.failed()) return true;
    ++hunt.result.failing_cases;
    if (!hunt.first_failing) {
      hunt.first_failing = i;
      hunt.result.first_failure_seconds = clock.seconds();
    }
    return !o.stop_at_first;
  };
  const auto report = [&](size_t done) {
    if (progress) progress("per-file", std::to_string(done) + " cases");
  };
  parallel::run_trials(workers, parallel::TrialBudget{o.cases, o.seconds, o.stop_at_first ? kCasesPerChunkWhenStopping : kCasesPerChunk, o.stop_at_first}, generate, run, merge, report);
  for (size_t w = 0; w < workers.size(); ++w) hunt.result.oracle += workers.state(w).counters();
  hunt.result.seconds = clock.seconds();
  return hunt;
}

PerFileCounterexample shrink_file_case(uint64_t seed, Mutant mutant, bool intervals) {
  // A stats-audit or log read-back failure needs no solver: it shrinks on those checks alone.
  const auto input_failure = [&](const generators::FileCase& c) {
    const CaseCheck check = check_case(c, nullptr, per_file_options(mutant));
    return check.stats_inconsistent() || !check.log.consistent();
  };
  const generators::FileCase& found = file_case_at(seed, mutant).value();
  const bool solver_free = input_failure(found);
  // A finding the oracle shows by itself shrinks on that oracle. Only a disagreement between the
  // interval procedure and Z3, found on a sample, needs every interval answer re-asked of Z3 on
  // every shrink step (which costs Z3 a query per decision).
  smt::Oracle plain(per_file_oracle(intervals, false));
  std::optional<smt::Oracle> checked;
  if (!solver_free && !check_case(found, &plain, per_file_options(mutant)).failed())
    checked.emplace(per_file_oracle(intervals, true));
  smt::Oracle& oracle = checked ? *checked : plain;
  const auto fails = [&](const generators::FileCase& c) {
    return solver_free ? input_failure(c) : check_case(c, &oracle, per_file_options(mutant)).failed();
  };
  const auto shrunk = parallel::shrink_greedily(file_case_at(seed, mutant), kShrinkLimit, fails);
  const generators::FileCase& c = shrunk.minimal.value();
  const CaseCheck check = check_case(c, &oracle, per_file_options(mutant));
  PerFileCounterexample out;
  const FindingOrigin origin{seed, mutant, "skipsound replay FILE"};
  out.report = render_case_failure(c, check, origin);
  out.headline = out.report.substr(0, out.report.find('\n'));
  // A case whose stats or log fail without a decision finding replays through its first predicate.
  // The file expects what must happen ("sound"), so it fails while the bug is there; what this
  // build gave is its "observed".
  const size_t shown = check.first_finding.value_or(0);
  CorpusCase corpus{out.headline, c.table, c.file, c.predicates[shown], mutant, seed, std::nullopt};
  corpus.observed =
      replay_verdicts_text(check.decisions[shown].outcome, check.stats_inconsistent(), !check.log.consistent());
  // Stats the rows determine are collected again when the case replays, so a writer bug
  // reproduces under its mutant and is gone once the writer is fixed.
  corpus.stats_recipe = recipe_of(c.table, c.file, mutant);
  out.corpus_json = dump_json(corpus_case_to_json(corpus), 2) + "\n";
  if (check.first_finding) {
    out.decision = DecisionFinding{decision_headline(check.decisions[shown].outcome), c.table, c.file,
                                   c.predicates[shown], check.decisions[shown], origin};
  }
  return out;
}

}  // namespace skipsound
