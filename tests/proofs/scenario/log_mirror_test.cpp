// The world's log replayed after every commit (proofs/scenario/log_mirror.h): a sound run replays to the
// model's table exactly; a reader that misreads the text, or a replay that keys files wrongly, is
// a LOG READ-BACK finding of the scenario even when no conflict check trips on it.
#include <gtest/gtest.h>

#include <algorithm>

#include "proofs/scenario/scenario.h"

namespace skipsound {
namespace {

// Decimals through x + 1 (a wider decimal, cast back on assignment), timestamps with microseconds,
// partition values, DV updates (T4 removes the file T1 gave a DV) and a removal.
const char* const kScenario =
    "schema: id long, x decimal(10,2), ts timestamp, p string\n"
    "partitioned by: p\n"
    "property deletionVectors: on\n"
    "file f0: [{\"id\": 1, \"x\": \"1.25\", \"ts\": \"2024-03-10 01:59:59.999990\", \"p\": \"a\"}, "
    "{\"id\": 2, \"x\": \"2.50\", \"ts\": \"2024-03-10 02:00:00.000005\", \"p\": \"a\"}]\n"
    "file f1: [{\"id\": 3, \"x\": \"7.75\", \"p\": \"b\"}]\n"
    "T1: UPDATE SET x = x + 1 WHERE id = 1\n"
    "T2: DELETE WHERE p = 'b'\n"
    "T3: INSERT [{\"id\": 4, \"x\": \"0.10\", \"ts\": \"2024-03-10 01:00:00.000001\", \"p\": \"c\"}]\n"
    "commit: T1, T2, T3\n"
    "T4: DELETE WHERE id = 2\n"
    "commit: T4\n";

std::vector<std::string> log_problems(const std::string& head) {
  const ScenarioRun run = run_scenario(parse_scenario(head + kScenario, "log.scn"));
  return run.schedule.log_problems;
}

TEST(LogMirror, ASoundRunReplaysToTheModelsTable) {
  EXPECT_EQ(log_problems("log: replayed\n"), std::vector<std::string>{});
}

TEST(LogMirror, ASoundRunLoadsFromItsTableDirectoryAtEveryVersion) {
  EXPECT_EQ(log_problems("log: directory\n"), std::vector<std::string>{});
}

TEST(LogMirror, WithoutTheDirectiveNothingIsReplayed) {
  EXPECT_TRUE(log_problems("mutant: decimal-stats-unscaled\n").empty());
}

TEST(LogMirror, AReaderThatMisreadsTheTextIsFound) {
  for (const char* where : {"replayed", "directory"}) {
    for (const char* mutant : {"decimal-stats-unscaled", "remove-ignores-dv"}) {
      SCOPED_TRACE(std::string(where) + ", " + mutant);
      const std::vector<std::string> problems =
          log_problems(std::string("log: ") + where + "\nmutant: " + mutant + "\n");
      ASSERT_FALSE(problems.empty());
      EXPECT_EQ(problems.front().rfind("version ", 0), 0u) << problems.front();
    }
  }
}

TEST(LogMirror, TheFindingIsAScenarioMismatch) {
  const ScenarioRun run =
      run_scenario(parse_scenario(std::string("log: replayed\nmutant: decimal-stats-unscaled\n") + kScenario, "log.scn"));
  const bool listed = std::any_of(run.mismatches.begin(), run.mismatches.end(),
                                  [](const std::string& m) { return m.rfind("LOG READ-BACK at version ", 0) == 0; });
  EXPECT_TRUE(listed);
}

TEST(LogMirror, ABadDirectiveNamesItsLine) {
  EXPECT_THROW(parse_scenario(std::string("log: sometimes\n") + kScenario, "log.scn"), InputError);
}

}  // namespace
}  // namespace skipsound
