// The live stats audit (proofs/scenario/live_stats_audit.h): after every commit, each live file's
// stats against its live rows. A sound run's stats hold, DV-widened ones included; a widening
// that counts the new DV's cardinality marks a column all null while a live row holds a value.
#include <gtest/gtest.h>

#include <algorithm>

#include "proofs/explorer/explorer.h"
#include "proofs/scenario/live_stats_audit.h"
#include "proofs/scenario/scenario.h"

namespace skipsound {
namespace {

// docs/semantics.md §4.6's shape: a DV DELETE splits the NULL and the value of x; a transaction
// that starts after it reads x.
std::string split_then_read(const std::string& mutant, const std::string& read) {
  return "property deletionVectors: on\n"
         "mutant: " + mutant + "\n"
         "schema: id long, x int\n"
         "file f0: [{\"id\": 1, \"x\": 5}, {\"id\": 2, \"x\": null}, {\"id\": 3, \"x\": null}]\n"
         "T1: DELETE WHERE id = 2\n"
         "commit: T1\n"
         "T2: UPDATE SET x = 7 WHERE " + read + "\n"
         "commit: T2\n";
}

ScenarioRun run(const std::string& text) { return run_scenario(parse_scenario(text, "audit.scn")); }

TEST(LiveStatsAudit, ASoundRunsWidenedStatsHoldAfterEveryCommit) {
  for (const char* read : {"x IS NOT NULL", "x IS NULL", "x <=> 5", "x >= 5"}) {
    SCOPED_TRACE(read);
    EXPECT_TRUE(run(split_then_read("none", read)).stats_audit.empty());
  }
}

TEST(LiveStatsAudit, AWideningThatCountsTheNewDvIsUnsoundStats) {
  // T1 leaves {1, 5} and {3, NULL} live: the mutant compares nullCount(x) = 2 with the live count
  // under the new DV (3 - 1) instead of the previous one (3) and marks x all null.
  const ScenarioRun r = run(split_then_read("widening-counts-new-dv", "x IS NOT NULL"));
  ASSERT_FALSE(r.stats_audit.empty());
  const LiveStatsFinding& f = r.stats_audit.front();
  EXPECT_EQ(f.claim.claim, StatsClaim::AllNull);
  EXPECT_EQ(f.claim.leaf, 1);
  EXPECT_EQ(f.claim.observed, 1);  // one live row holds a value
  EXPECT_EQ(f.text, "v1 f0 (DV of 1 row): nullCount(x) = 3 (all live rows NULL): 1 live rows are not NULL");
  EXPECT_EQ(r.stats_audit.size(), 1u);
}

TEST(LiveStatsAudit, TheFindingIsReportedWithTheWrongResultItCauses) {
  smt::Oracle oracle(skip_oracle_options());
  const ScenarioRun r =
      run_judged_scenario(parse_scenario(split_then_read("widening-counts-new-dv", "x IS NOT NULL"), "audit.scn"), oracle);
  const auto listed = [&](const std::string& prefix) {
    return std::any_of(r.findings.begin(), r.findings.end(),
                       [&](const RunFinding& f) { return f.headline.rfind(prefix, 0) == 0; });
  };
  EXPECT_TRUE(listed("UNSOUND STATS: the stats of v1 f0"));
  EXPECT_TRUE(listed("WRONG RESULT: T2"));  // the UPDATE skipped the file that holds x = 5
}

}  // namespace
}  // namespace skipsound
