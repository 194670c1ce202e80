// The interleaving explorer (docs/semantics.md §6.3): generated worlds (generators/world_gen.h) run through the
// operations, the conflict checker and the serial-order oracle; every conflict-time skip of a
// winner-added file is also put to the Z3 oracle (production skip => Unsat). A failing trial
// shrinks (RapidCheck's shrink tree) to a minimal schedule, saved as a scenario file.
//
// Determinism: trial i of a category has the seed trial_seed(master, category, i), whatever the
// thread count; threads only partition the trial indexes and results merge in index order.
// Sharding: local trial j of shard I/N is global trial j*N + I, so N shards with budget B run
// exactly the global trials 0 .. N*B-1 of one unsharded run with budget N*B.
#pragma once
#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "generators/world_gen.h"
#include "model/mutants/mutant.h"
#include "proofs/common/trial_seed.h"
#include "proofs/oracles/cross_check.h"
#include "proofs/explorer/world_scenario.h"
#include "proofs/scenario/scenario.h"
#include "smt/oracle.h"

namespace skipsound {

struct Shard {
  size_t index = 0;
  size_t count = 1;
};

// The world trial i of a category runs (generation only: on the calling thread).
generators::World trial_world(uint64_t master_seed, generators::WorldCategory category, size_t global_index);

// That world shrunk as the explorer shrinks its findings (RapidCheck's shrink tree, then dropping
// transactions, history steps, files and rows), keeping each smaller world for which
// still_fails holds; at most trial_limit candidates in each of the two stages. `steps`: the
// shrinks taken.
generators::World shrink_trial_world(uint64_t master_seed, generators::WorldCategory category, size_t global_index,
                                     size_t trial_limit,
                                     const std::function<bool(const generators::World&)>& still_fails,
                                     size_t& steps);


enum class TrialVerdict {
  Sound,            // every commit serializable, every skip proved by Z3
  WrongResult,      // a commit's actions differ from its operations run on its snapshot
  MissedConflict,   // the serial oracle found a commit no serial order explains
  UnjustifiedSkip,  // a conflict-time skip for which Z3 found a matching consistent row
  InternalError,    // the conflict filter kept every file for an unexpected exception
  LogReadBack,      // the world's Delta log replays to other files, stats or partition values than the model's
  UnsoundStats,     // a live file's stats claim what its live rows refute (proofs/scenario/live_stats_audit.h)
  Discarded,        // the world could not be run (an operation rejected its input)
};
const char* trial_verdict_name(TrialVerdict v);
inline bool is_finding(TrialVerdict v) {
  return v != TrialVerdict::Sound && v != TrialVerdict::Discarded;
}

// A scenario and its judged run (run.findings filled): what the reports of a finding render.
// Shared, never copied: the run's append checks point into its own logged actions.
struct JudgedRun {
  Scenario scenario;
  ScenarioRun run;
};

struct TrialResult {
  TrialVerdict verdict = TrialVerdict::Sound;
  size_t attempts = 0;
  size_t commits = 0;
  size_t false_conflicts = 0;
  size_t missed_conflicts = 0;
  size_t wrong_results = 0;
  std::vector<std::string> unexpected_errors;  // "T2 vs T1: <exception>", keeps they caused
  size_t skip_checks = 0;  // (excluded file, loser read) pairs put to Z3
  size_t proved_skips = 0;  // of those, the ones Z3 proved (Unsat): the rest are unknown or findings
  std::map<std::string, size_t> z3_unknowns;  // by Z3's reason
  std::map<std::string, size_t> aborts;  // by exception name
  std::vector<std::string> shapes;       // what the trial really contained ("value-moving", ...)
  generators::WorldFlags flags;          // the tiers it ran with
  std::string headline;                  // of the first finding, and of a discard
  std::vector<RunFinding> findings;      // every finding, the first one first
  std::vector<std::string> expect_lines; // the verdicts observed, as scenario `expect` lines
  std::string report;                    // only when asked for (with_report = true)
  std::shared_ptr<const JudgedRun> shown;  // likewise
};

// The explorer's judgement of a scenario run (a replayed finding file, or a trial's world): the
// serial oracle's verdicts, the conflict filter's unexpected errors, and Z3 on every conflict-time
// skip. With `cross_check`, every conflict-time skip query Z3 answers is re-asked there; `oracle`
// must then record its queries (OracleOptions::record_smt2).
TrialResult judge_run(const ScenarioRun& run, smt::Oracle& oracle,
                      CrossChecker* cross_check = nullptr);

// The oracle the explorer puts conflict-time skips to: the interval procedure first, Z3 outside its
// fragment and on one of its answers in kIntervalCrossCheckStride; `recording` keeps the text of
// the queries Z3 answers and asks Z3 alone (for a second solver).
smt::OracleOptions skip_oracle_options(bool recording = false);

// A scenario file as `skipsound scenario`, `skipsound replay` and the gate's corpus run it: run
// (run_scenario), judged as the explorer judges a trial (judge_run; `oracle` as
// skip_oracle_options() builds it gives the explorer's answers), and each finding held against the
// file's expectations (Scenario::findings): one it does not expect is a mismatch, its headline.
ScenarioRun run_judged_scenario(const Scenario& scenario, smt::Oracle& oracle);

// A world's trial: its scenario run judged (judge_run), and the shapes it really contained.
TrialResult run_trial(const generators::World& world, Mutant mutant, smt::Oracle& oracle,
                      bool with_report = false, CrossChecker* cross_check = nullptr);

struct InterleavingFinding {
  generators::WorldCategory category = generators::WorldCategory::Mixed;
  size_t global_index = 0;
  uint64_t seed = 0;
  TrialVerdict verdict = TrialVerdict::MissedConflict;
  std::string headline;       // of the shrunk counterexample
  std::string scenario_text;  // shrunk, replayable with `skipsound scenario FILE`
  std::string report;         // Elle-style, of the shrunk run
  std::shared_ptr<const JudgedRun> shrunk;  // the shrunk run itself, for the HTML report
  size_t shrink_steps = 0;
  size_t trials_to_find = 0;  // local trials run until (and including) the failing one
  double seconds_to_find = 0;
};

// One tier's effect in a category (docs/semantics.md §10 "Flags"): the trials that ran with it off and on,
// their commit attempts and the false conflicts among them. Every other draw is independent of
// the flag, so the two sides differ by the tier alone, up to sampling.
struct TierSplit {
  struct Side {
    size_t trials = 0;
    size_t attempts = 0;
    size_t false_conflicts = 0;
    double false_conflicts_per_attempt() const {
      return attempts == 0 ? 0.0 : static_cast<double>(false_conflicts) / static_cast<double>(attempts);
    }
  };
  std::array<Side, 2> side;  // [off, on]
};

struct CategoryStats {
  size_t trials = 0;
  size_t discarded = 0;
  std::string first_discard;  // why the first discarded world could not be run
  size_t attempts = 0;
  size_t commits = 0;
  size_t false_conflicts = 0;
  size_t missed_conflicts = 0;
  size_t wrong_results = 0;
  size_t unexpected_errors = 0;          // conflict checks whose every-file keep hid an exception
  std::string first_unexpected_error;    // the first, as the conflict filter reported it
  size_t unjustified_skips = 0;
  size_t skip_checks = 0;
  size_t proved_skips = 0;
  std::map<std::string, size_t> z3_unknowns;  // by Z3's reason
  std::map<std::string, size_t> aborts;
  std::map<std::string, size_t> shapes;  // trials containing each shape
  std::array<TierSplit, generators::kTierCount> tiers;  // by generators::Tier
  double seconds = 0;

  size_t abort_count() const;
  size_t unknown_count() const;
  double false_conflict_rate() const;  // false conflicts / aborts
  double trials_per_second() const;
  void add(const TrialResult& r);
};

struct CategoryResult {
  generators::WorldCategory category = generators::WorldCategory::Mixed;
  CategoryStats stats;
  size_t failing_trials = 0;
  std::optional<InterleavingFinding> finding;  // the lowest failing index, shrunk
};

struct ExploreOptions {
  uint64_t seed = 1;
  std::vector<generators::WorldCategory> categories;  // empty = all
  size_t trials_per_category = 200;
  size_t first_trial = 0;  // each category's trials are first_trial, first_trial + 1, ... (rounds of a hunt)
  std::optional<double> seconds_per_category;  // overrides the trial count when set
  Mutant mutant = Mutant::None;
  unsigned threads = 1;
  Shard shard;
  bool stop_at_first_finding = false;
  size_t shrink_trial_limit = 400;  // trials spent shrinking one finding
  // Re-asks the conflict-time skip queries of one trial in kCrossCheckTrialStride (not while
  // shrinking); the other trials' queries go to the interval procedure first.
  CrossChecker* cross_check = nullptr;
};
inline constexpr size_t kCrossCheckTrialStride = 100;

// Called after each chunk of trials: category, trials done, trials planned (0 = time budget).
using ExploreProgress = std::function<void(generators::WorldCategory, size_t, size_t)>;

std::vector<CategoryResult> explore(const ExploreOptions& options, const ExploreProgress& progress = {});

}  // namespace skipsound
