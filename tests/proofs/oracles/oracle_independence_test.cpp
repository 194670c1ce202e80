// docs/semantics.md §6.5: an oracle shares no code with the code under test (checker/). Every
// project file an oracle source includes — directly, through project headers, or through the
// implementation file beside each such header (the code it calls) — must be outside checker/.
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tests/include_walk.h"

namespace skipsound {
namespace {

using include_graph::chains_reaching;
using include_graph::FollowImplementations;
using include_graph::joined_lines;
using include_graph::kSourceRoot;

// Each checker/ file reached from `root`, with the include chain that reaches it.
std::vector<std::string> checker_files_reached(const std::string& root) {
  return chains_reaching(
      root, [](const std::string& file) { return file.rfind("checker/", 0) == 0; }, FollowImplementations::Yes);
}

TEST(OracleIndependence, NoOracleSourceReachesTheCheckerThroughItsIncludes) {
  for (const char* oracle : {"proofs/oracles/serial_oracle.h", "proofs/oracles/serial_oracle.cpp", "smt/oracle.h", "smt/oracle.cpp"}) {
    SCOPED_TRACE(oracle);
    ASSERT_TRUE(std::filesystem::exists(kSourceRoot / oracle));
    const std::vector<std::string> reached = checker_files_reached(oracle);
    EXPECT_TRUE(reached.empty()) << "an oracle source includes checker/ code:\n" << joined_lines(reached);
  }
}

TEST(OracleIndependence, TheWalkFindsACheckerIncludeWhereThereIsOne) {
  // The adapter that pairs verdicts with the checker's exceptions does include the checker.
  const std::vector<std::string> reached = checker_files_reached("proofs/scenario/schedule_verdict.h");
  ASSERT_FALSE(reached.empty());
  EXPECT_NE(joined_lines(reached).find(" -> checker/conflict_checker.h\n"), std::string::npos)
      << joined_lines(reached);
}

}  // namespace
}  // namespace skipsound
