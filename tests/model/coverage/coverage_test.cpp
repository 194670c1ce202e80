// The coverage counters (model/coverage/coverage.h): one catalogue row per probe in enum order,
// every row saying what it stands for, and counts that add up across threads.
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "model/coverage/coverage.h"

namespace skipsound::coverage {
namespace {

TEST(CoverageCatalogue, OneRowPerProbeInEnumOrderEachNamed) {
  const auto rows = probe_catalogue();
  ASSERT_EQ(rows.size(), kProbeCount);
  std::set<std::string> names;
  for (size_t i = 0; i < rows.size(); ++i) {
    SCOPED_TRACE(rows[i].name);
    EXPECT_EQ(static_cast<size_t>(rows[i].probe), i);
    EXPECT_NE(std::string(rows[i].section), "");
    EXPECT_TRUE(names.insert(std::string(rows[i].section) + rows[i].name).second) << "duplicate row";
    EXPECT_EQ(rows[i].need == Need::Unreachable, std::string(rows[i].why) != "") << "an unreachable row says why";
  }
}

TEST(CoverageCounters, HitsAndSkipsAddUpAcrossThreads) {
  const Counts before = snapshot();
  std::vector<std::thread> workers;
  for (int t = 0; t < 4; ++t) {
    workers.emplace_back([] {
      for (int i = 0; i < 1000; ++i) {
        hit(Probe::RuleIn);
        if (i % 10 == 0) decided_skip(Probe::RuleIn);
      }
    });
  }
  for (std::thread& w : workers) w.join();
  const Counts gained = snapshot().since(before);
  EXPECT_EQ(gained.hits[static_cast<size_t>(Probe::RuleIn)], 4000u);
  EXPECT_EQ(gained.skips[static_cast<size_t>(Probe::RuleIn)], 400u);
  EXPECT_EQ(gained.hits[static_cast<size_t>(Probe::RuleEq)], 0u);
}

}  // namespace
}  // namespace skipsound::coverage
