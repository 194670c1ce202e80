#include "proofs/gate/mutant_hunt.h"

#include <algorithm>
#include <cstdint>
#include <optional>

#include "proofs/common/parallel_trials.h"
#include "proofs/perfile/per_file_hunt.h"

namespace skipsound {

namespace {

using generators::WorldCategory;

constexpr size_t kShrinkLimit = 300;
constexpr size_t kMinimumPerFileCases = 2000;

std::optional<std::string> proof_counterexample(const ProveSummary& s) {
  for (const RuleProof& p : s.rules) {
    if (p.result.verdict == TheoremVerdict::Counterexample) {
      return "rule " + p.result.rule + " (" + p.result.type + "): COUNTEREXAMPLE " +
             (p.result.counterexample ? p.result.counterexample->predicate : std::string());
    }
  }
  return std::nullopt;
}

// Where a mutant usually shows first: a docs/semantics.md §10.7 mutant in the worlds built for
// the row-level cases, any other conflict mutant in value-moving and mixed worlds.
bool tried_first(Mutant mutant, WorldCategory c) {
  if (mutant_info(mutant).scope == MutantScope::RowLevel || mutant_info(mutant).scope == MutantScope::Liveness) {
    return c == WorldCategory::SameFileDisjoint || c == WorldCategory::SameFileOverlap ||
           c == WorldCategory::ImageFiles || c == WorldCategory::NoDataChange || c == WorldCategory::Restore;
  }
  return c == WorldCategory::ValueMoving || c == WorldCategory::Mixed;
}

// The worlds a mutant was built to show in, hunted before every other category (the others still
// follow within the same budget): each is the shape the real bug needs.
std::optional<WorldCategory> home_category(Mutant mutant) {
  switch (mutant) {
    case Mutant::DeleteReadComparesDv:                                       // a DV update of a file the loser read
    case Mutant::WideningCountsNewDv: return WorldCategory::WideDv;          // a DV delete splits a column's NULLs
    case Mutant::SkipWholeTableRead: return WorldCategory::WholeTable;       // a read of the whole table
    case Mutant::EmptyReadsSkipAll: return WorldCategory::EmptyReads;        // an INSERT that records no read
    case Mutant::UnknownBlindAsBlind: return WorldCategory::EmptyReads;      // a writer whose reads are not known
    case Mutant::Case2NoMonotonicity:                                        // a RESTORE shrinks a DV
    case Mutant::Case2NonlocalLoser:                                         // history between the two writers
    case Mutant::Case1bCountDiff: return WorldCategory::Restore;             // a RESTORE re-adds rows
    case Mutant::Case1bWrongImage:                                           // OPTIMIZE rewrites a read file
    case Mutant::NodatachangeDeleteDelete:
    case Mutant::Case3NoRepoint:
    case Mutant::ValueexactAndAcrossReads: return WorldCategory::NoDataChange;
    default: return std::nullopt;
  }
}

// A per-file case writes its file with the stats writer and widens the stats itself, never
// through the table's operations: a mutant of their DV widening shows in worlds only.
bool per_file_cases_reach(Mutant mutant) {
  const std::vector<CodePath>& paths = mutant_info(mutant).paths;
  return std::any_of(paths.begin(), paths.end(), [](CodePath p) { return p != CodePath::DvWidening; });
}

ExploreOptions mutant_exploration(Mutant mutant, const GateOptions& o, const GateBudget& b) {
  ExploreOptions e;
  e.seed = o.seed;
  e.categories = o.categories;
  e.mutant = mutant;
  e.threads = o.threads;
  e.shard = o.shard;
  e.stop_at_first_finding = true;
  e.shrink_trial_limit = kShrinkLimit;
  e.trials_per_category = b.trials_per_category;
  if (b.seconds_per_category) e.seconds_per_category = *b.seconds_per_category / 2;
  if (e.categories.empty()) {
    e.categories = generators::all_world_categories();
    std::stable_partition(e.categories.begin(), e.categories.end(), [&](WorldCategory c) { return tried_first(mutant, c); });
    std::stable_partition(e.categories.begin(), e.categories.end(), [&](WorldCategory c) { return c == home_category(mutant); });
  }
  return e;
}

ExploreProgress mutant_progress(Mutant mutant, const GateProgress& progress) {
  return [=](WorldCategory c, size_t done, size_t) {
    if (progress) progress(std::string("mutant ") + mutant_name(mutant), std::string(world_category_name(c)) + " " + std::to_string(done));
  };
}

// A liveness mutant (docs/semantics.md §10.7) is sound: it shows as more false conflicts on the
// same trials, never as a finding. It is killed by the first category where it aborts falsely
// more often than the sound checker on the same seeds, trial count and shard.
MutantResult hunt_liveness(Mutant mutant, const GateOptions& o, const GateBudget& b, const GateProgress& progress) {
  MutantResult r;
  r.mutant = mutant;
  const parallel::Stopwatch clock;
  ExploreOptions e = mutant_exploration(mutant, o, b);
  e.stop_at_first_finding = false;
  e.seconds_per_category.reset();  // a time budget would compare different trials
  const std::vector<WorldCategory> order = e.categories;
  for (WorldCategory c : order) {
    e.categories = {c};
    ExploreOptions sound = e;
    sound.mutant = Mutant::None;
    const CategoryResult with_mutant = explore(e, mutant_progress(mutant, progress)).front();
    const CategoryResult baseline = explore(sound).front();
    r.trials += with_mutant.stats.trials;
    if (with_mutant.finding) {
      r.headline = "a liveness mutant produced a finding: " + with_mutant.finding->headline;
      break;  // survives: a liveness mutant must never be unsound
    }
    if (with_mutant.stats.false_conflicts > baseline.stats.false_conflicts) {
      r.killed_by = MutantKill::FalseConflictRate;
      r.explorer_category = c;
      r.headline = std::to_string(with_mutant.stats.false_conflicts) + " false conflicts against the sound checker's " +
                   std::to_string(baseline.stats.false_conflicts) + " in the same " +
                   std::to_string(with_mutant.stats.trials) + " trials";
      break;
    }
  }
  r.seconds = clock.seconds();
  return r;
}

MutantResult hunt_with_explorer(Mutant mutant, const GateOptions& o, const GateBudget& b, const GateProgress& progress) {
  MutantResult r;
  r.mutant = mutant;
  const parallel::Stopwatch clock;
  ExploreOptions e = mutant_exploration(mutant, o, b);
  const size_t round = e.seconds_per_category ? e.trials_per_category : std::max<size_t>(1, o.hunt_round);
  for (size_t first = 0; first < b.trials_per_category && !r.killed(); first += round) {
    e.first_trial = first;
    e.trials_per_category = std::min(round, b.trials_per_category - first);
    for (const CategoryResult& c : explore(e, mutant_progress(mutant, progress))) {
      r.trials += c.stats.trials;
      if (!c.finding) continue;
      r.killed_by = MutantKill::Explorer;
      r.explorer_category = c.category;
      r.trials -= c.stats.trials - c.finding->trials_to_find;
      r.headline = c.finding->headline;
      r.report = c.finding->report;
      r.replay_file = std::string("mutant-") + mutant_name(mutant) + ".scn";
      r.replay_content = c.finding->scenario_text;
      r.shrunk = c.finding->shrunk;
    }
  }
  r.seconds = clock.seconds();
  return r;
}

// Per-file cases first; a kill there comes with a shrunk corpus case.
MutantResult hunt_with_per_file_cases(Mutant mutant, const GateOptions& o, const GateBudget& b) {
  MutantResult r;
  r.mutant = mutant;
  const PerFileHunt hunt =
      hunt_per_file({.seed = o.seed,
                     .mutant = mutant,
                     .cases = std::max<size_t>(std::min(b.file_cases, SIZE_MAX / 2) * 2, kMinimumPerFileCases),
                     .seconds = b.file_seconds,
                     .threads = o.threads,
                     .stop_at_first = true,
                     .intervals = o.interval_oracle},
                    {});
  r.trials = hunt.result.cases;
  if (!hunt.first_failing) return r;
  const PerFileCounterexample cx = shrink_file_case(case_seed(o.seed, mutant, *hunt.first_failing), mutant, o.interval_oracle);
  r.killed_by = MutantKill::PerFileProperties;
  r.trials = *hunt.first_failing + 1;
  r.headline = cx.headline;
  r.report = cx.report;
  r.replay_file = std::string("mutant-") + mutant_name(mutant) + ".json";
  r.replay_content = cx.corpus_json;
  r.decision = cx.decision;
  return r;
}

void hunt_with_proofs(MutantResult& r) {
  const ProveSummary summary = prove_rule_theorems(r.mutant);
  if (auto cx = proof_counterexample(summary)) {
    r.killed_by = MutantKill::SymbolicProofs;
    r.headline = *cx;
    r.report = summary_to_text(summary);
  }
}

}  // namespace

ProveOptions rule_theorem_options(Mutant mutant) {
  ProveOptions options;
  options.mutant = mutant;
  options.exactness = false;
  return options;
}

ProveSummary prove_rule_theorems(Mutant mutant) { return prove_all(rule_theorem_options(mutant)); }

MutantResult hunt_mutant(Mutant mutant, const GateOptions& o, const GateBudget& b, const GateProgress& progress) {
  if (mutant_info(mutant).scope == MutantScope::Liveness) return hunt_liveness(mutant, o, b, progress);
  if (is_conflict_mutant(mutant) || !per_file_cases_reach(mutant)) return hunt_with_explorer(mutant, o, b, progress);
  const parallel::Stopwatch clock;
  MutantResult r = hunt_with_per_file_cases(mutant, o, b);
  // Input-path mutants change no rule: the rule theorems cannot see them.
  if (!r.killed() && o.proofs && is_per_file_mutant(mutant)) hunt_with_proofs(r);
  if (!r.killed()) {
    MutantResult by_explorer = hunt_with_explorer(mutant, o, b, progress);
    by_explorer.trials += r.trials;
    r = std::move(by_explorer);
  }
  r.seconds = clock.seconds();
  return r;
}

std::string killed_by_text(const MutantResult& r) {
  switch (r.killed_by) {
    case MutantKill::Survived: return "";
    case MutantKill::PerFileProperties: return "per-file properties";
    case MutantKill::SymbolicProofs: return "symbolic proofs";
    case MutantKill::Explorer: return std::string("explorer (") + world_category_name(r.explorer_category) + ")";
    case MutantKill::FalseConflictRate:
      return std::string("false-conflict rate (") + world_category_name(r.explorer_category) + ")";
  }
  return "";
}

}  // namespace skipsound
