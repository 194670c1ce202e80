// The interleaving explorer: silent on the sound checker, each category really produces its
// shape, every conflict mutant is killed with a shrunk replayable schedule, runs are
// deterministic whatever the thread count, and shards partition the trial space exactly.
#include <gtest/gtest.h>

#include "proofs/explorer/explorer.h"
#include "proofs/scenario/scenario.h"
#include "tests/support/category_shape.h"

namespace skipsound {
namespace {

using generators::WorldCategory;

ExploreOptions small_run(size_t trials) {
  ExploreOptions o;
  o.seed = 7;
  o.trials_per_category = trials;
  return o;
}

TEST(Explorer, SoundCheckerHasNoFindingAndEveryCategoryHasItsShape) {
  for (const CategoryResult& c : explore(small_run(48))) {
    SCOPED_TRACE(world_category_name(c.category));
    EXPECT_EQ(c.stats.missed_conflicts, 0u);
    EXPECT_EQ(c.stats.wrong_results, 0u);
    EXPECT_EQ(c.stats.unexpected_errors, 0u) << c.stats.first_unexpected_error;
    EXPECT_EQ(c.stats.unjustified_skips, 0u);
    EXPECT_FALSE(c.finding.has_value()) << (c.finding ? c.finding->report : "");
    EXPECT_GT(c.stats.shapes.count(test::category_shape(c.category)), 0u);
    EXPECT_LT(c.stats.discarded * 10, c.stats.trials) << "most generated worlds must be runnable";
    EXPECT_GT(c.stats.commits, 0u);
  }
}

TEST(Explorer, ConflictTimeSkipsAreProvedByZ3) {
  size_t checks = 0;
  for (const CategoryResult& c : explore(small_run(48))) {
    SCOPED_TRACE(world_category_name(c.category));
    EXPECT_EQ(c.stats.proved_skips, c.stats.skip_checks) << "a conflict-time skip Z3 did not prove UNSAT";
    EXPECT_EQ(c.stats.unknown_count(), 0u);
    checks += c.stats.skip_checks;
  }
  EXPECT_GT(checks, 0u);
}

// The check above can fail: a mutant's conflict-time skip of a file holding a matching row is
// counted unproved and reported as an unjustified skip.
TEST(Explorer, AnUnprovedConflictTimeSkipIsReported) {
  ExploreOptions o = small_run(48);
  o.mutant = Mutant::AppendSuppression;
  o.categories = {WorldCategory::ValueMoving};
  const CategoryResult c = explore(o).front();
  EXPECT_LT(c.stats.proved_skips, c.stats.skip_checks);
  EXPECT_GT(c.stats.unjustified_skips, 0u);
  ASSERT_TRUE(c.finding.has_value());
  EXPECT_TRUE(is_finding(c.finding->verdict));
}

class ConflictMutant : public ::testing::TestWithParam<Mutant> {};

TEST_P(ConflictMutant, IsKilledWithAShrunkReplayableSchedule) {
  ExploreOptions o = small_run(400);
  o.mutant = GetParam();
  o.stop_at_first_finding = true;
  o.categories = {WorldCategory::ValueMoving, WorldCategory::Mixed, WorldCategory::WholeTable,
                  WorldCategory::EmptyReads, WorldCategory::Overlapping};
  const std::vector<CategoryResult> results = explore(o);
  ASSERT_FALSE(results.empty());
  const auto& found = results.back().finding;
  ASSERT_TRUE(found.has_value()) << mutant_name(GetParam()) << " survived";
  EXPECT_TRUE(is_finding(found->verdict));
  EXPECT_FALSE(found->report.empty());
  // The shrunk schedule is a scenario file that fails with the finding's headline while the
  // mutant is there, and passes on the sound checker.
  const Scenario scenario = parse_scenario(found->scenario_text, "shrunk");
  EXPECT_LE(scenario.transactions.size(), 4u);
  EXPECT_EQ(scenario.mutant, GetParam());
  EXPECT_EQ(scenario.findings, FindingExpectation::None);
  smt::Oracle oracle(skip_oracle_options());
  const ScenarioRun run = run_judged_scenario(scenario, oracle);
  ASSERT_FALSE(run.mismatches.empty()) << found->scenario_text;
  EXPECT_EQ(run.mismatches.front(), found->headline);
  const ScenarioRun sound = run_judged_scenario(parse_scenario(found->scenario_text, "shrunk", Mutant::None), oracle);
  EXPECT_TRUE(sound.mismatches.empty()) << found->scenario_text;
}

INSTANTIATE_TEST_SUITE_P(AllConflictMutants, ConflictMutant,
                         ::testing::Values(Mutant::AppendSuppression, Mutant::AndAcrossReads,
                                           Mutant::SkipWholeTableRead, Mutant::EmptyReadsSkipAll),
                         [](const auto& info) {
                           std::string name = mutant_name(info.param);
                           for (char& ch : name) if (ch == '-') ch = '_';
                           return name;
                         });

// A per-file mutant acting on the transactions' own scans: the serial oracle's re-runs read every
// file, so the scans' lost rows show up as wrong results or missed conflicts (they used to be
// re-run through the same mutated scan and judged serializable).
TEST(Explorer, ScanTimeMutantShowsAsWrongResultsOrMissedConflicts) {
  ExploreOptions o = small_run(200);
  o.mutant = Mutant::LeAsLt;
  o.categories = {WorldCategory::ValueMoving, WorldCategory::Overlapping, WorldCategory::Mixed};
  size_t unsound_commits = 0;
  for (const CategoryResult& c : explore(o)) {
    unsound_commits += c.stats.wrong_results + c.stats.missed_conflicts;
    if (c.stats.wrong_results + c.stats.missed_conflicts > 0) {
      EXPECT_TRUE(c.finding.has_value()) << world_category_name(c.category);
    }
  }
  EXPECT_GT(unsound_commits, 0u);
  EXPECT_TRUE(is_finding(TrialVerdict::WrongResult));
  EXPECT_TRUE(is_finding(TrialVerdict::InternalError));
  EXPECT_FALSE(is_finding(TrialVerdict::Discarded));
}

void expect_same_stats(const CategoryStats& a, const CategoryStats& b) {
  EXPECT_EQ(a.trials, b.trials);
  EXPECT_EQ(a.attempts, b.attempts);
  EXPECT_EQ(a.commits, b.commits);
  EXPECT_EQ(a.aborts, b.aborts);
  EXPECT_EQ(a.false_conflicts, b.false_conflicts);
  EXPECT_EQ(a.skip_checks, b.skip_checks);
  EXPECT_EQ(a.discarded, b.discarded);
  EXPECT_EQ(a.shapes, b.shapes);
}

TEST(Explorer, SameSeedSameSummaryWhateverTheThreads) {
  ExploreOptions one = small_run(40);
  one.categories = {WorldCategory::Mixed, WorldCategory::ValueMoving};
  ExploreOptions two = one;
  two.threads = 2;
  const auto a = explore(one);
  const auto b = explore(two);
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) expect_same_stats(a[i].stats, b[i].stats);
  ExploreOptions other_seed = one;
  other_seed.seed = 8;
  EXPECT_NE(explore(other_seed)[0].stats.shapes, a[0].stats.shapes);
}

TEST(Explorer, ShardsTogetherRunExactlyTheUnshardedTrials) {
  constexpr size_t kShards = 3;
  ExploreOptions whole = small_run(20 * kShards);
  whole.categories = {WorldCategory::Mixed};
  const CategoryStats unsharded = explore(whole)[0].stats;
  CategoryStats merged;
  for (size_t i = 0; i < kShards; ++i) {
    ExploreOptions part = small_run(20);
    part.categories = {WorldCategory::Mixed};
    part.shard = Shard{i, kShards};
    const CategoryStats s = explore(part)[0].stats;
    merged.trials += s.trials;
    merged.attempts += s.attempts;
    merged.commits += s.commits;
    merged.false_conflicts += s.false_conflicts;
    merged.skip_checks += s.skip_checks;
    merged.discarded += s.discarded;
    for (const auto& [k, v] : s.aborts) merged.aborts[k] += v;
    for (const auto& [k, v] : s.shapes) merged.shapes[k] += v;
  }
  expect_same_stats(merged, unsharded);
}

TEST(Explorer, TrialSeedsDependOnCategoryAndIndex) {
  EXPECT_EQ(trial_seed(1, WorldCategory::Mixed, 5), trial_seed(1, WorldCategory::Mixed, 5));
  EXPECT_NE(trial_seed(1, WorldCategory::Mixed, 5), trial_seed(1, WorldCategory::Mixed, 6));
  EXPECT_NE(trial_seed(1, WorldCategory::Mixed, 5), trial_seed(1, WorldCategory::Disjoint, 5));
  EXPECT_NE(trial_seed(1, WorldCategory::Mixed, 5), trial_seed(2, WorldCategory::Mixed, 5));
}

}  // namespace
}  // namespace skipsound
