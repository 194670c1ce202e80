// Replays every scenario in tests/corpus/scenarios/ and checks each transaction's expected verdict.
#include <filesystem>

#include <gtest/gtest.h>

#include "model/values/input_error.h"
#include "proofs/scenario/interleaving_report.h"
#include "proofs/scenario/scenario.h"

namespace skipsound {
namespace {

std::vector<std::filesystem::path> scenario_files() {
  std::vector<std::filesystem::path> files;
  const std::filesystem::path dir = std::filesystem::path(SKIPSOUND_SOURCE_DIR) / "tests/corpus/scenarios";
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() == ".scn") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

TEST(ScenarioCorpus, EveryScenarioHasItsExpectedVerdicts) {
  const auto files = scenario_files();
  ASSERT_GE(files.size(), 20u);
  for (const auto& file : files) {
    SCOPED_TRACE(file.filename().string());
    const Scenario scenario = load_scenario(file.string());
    const auto steps = std::count_if(scenario.transactions.begin(), scenario.transactions.end(),
                                     [](const ScenarioTransaction& t) { return t.history_step; });
    EXPECT_EQ(scenario.expected.size(), scenario.transactions.size() - static_cast<size_t>(steps))
        << "every transaction should state its expected verdict";
    const ScenarioRun run = run_scenario(scenario);
    EXPECT_TRUE(run.mismatches.empty()) << render_report(scenario, run);
  }
}

TEST(ScenarioCorpus, WriteSkewReportShowsTheSurvivingRow) {
  const Scenario scenario = load_scenario(std::string(SKIPSOUND_SOURCE_DIR) +
                                          "/tests/corpus/scenarios/mutant_append_suppression_write_skew.scn");
  const ScenarioRun run = run_scenario(scenario);
  const std::string report = render_report(scenario, run);
  EXPECT_NE(report.find("T1: UPDATE SET x = 15 WHERE id = 1"), std::string::npos) << report;
  EXPECT_NE(report.find("T2: DELETE WHERE x > 10"), std::string::npos) << report;
  EXPECT_NE(report.find("MISSED CONFLICT"), std::string::npos) << report;
  EXPECT_NE(report.find("+ {\"id\":1,\"x\":15}"), std::string::npos) << report;
}

// The mutant also shapes the stats of the files written after it, so it must come first.
TEST(ScenarioCorpus, AMutantAfterTheFirstFileIsRefused) {
  try {
    parse_scenario("schema: id long\nfile f0: [{\"id\": 1}]\nmutant: string-max-plain-prefix\n"
                   "T1: DELETE WHERE id > 0\ncommit: T1\n",
                   "late.scn");
    FAIL() << "a mutant after the first file was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("late.scn:3: the mutant must come before the first file"), std::string::npos)
        << e.what();
  }
}

TEST(ScenarioCorpus, ADeletionVectorNeedsTheTableFeatureAndRealRows) {
  const auto error_of = [](const std::string& text) -> std::string {
    try {
      parse_scenario(text + "T1: DELETE WHERE id > 0\ncommit: T1\n", "dv.scn");
    } catch (const InputError& e) {
      return e.what();
    }
    return "accepted";
  };
  EXPECT_NE(error_of("schema: id long\nfile f0 deleted=0: [{\"id\": 1}, {\"id\": 2}]\n")
                .find("dv.scn:2: file 'f0': deleted= needs 'property deletionVectors: on'"),
            std::string::npos);
  EXPECT_NE(error_of("schema: id long\nproperty deletionVectors: on\nfile f0 deleted=2: [{\"id\": 1}, {\"id\": 2}]\n")
                .find("dv.scn:3: file 'f0': no row 2 to delete"),
            std::string::npos);
  const Scenario ok = parse_scenario(
      "schema: id long\nproperty deletionVectors: on\nfile f0 deleted=1,0,1: [{\"id\": 1}, {\"id\": 2}, {\"id\": 3}]\n"
      "T1: DELETE WHERE id > 0\ncommit: T1\n",
      "dv.scn");
  const TableFile& file = ok.table.files().front();
  EXPECT_EQ(file.deleted, (DeletedRows{0, 1}));
  EXPECT_EQ(file.live_count(), 1);
  ASSERT_TRUE(file.stats.has_value());
  EXPECT_TRUE(file.stats->wide()) << "stats are widened when a DV is attached";
}

}  // namespace
}  // namespace skipsound
