// The gate as a library: it passes on the sound checker with a small budget, fails (with a
// finding) when the sound checker is replaced by nothing but a mutant, and its JUnit output has
// one testcase per corpus file, category and mutant.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "proofs/gate_report.h"
#include "proofs/junit_report.h"

namespace skipsound {
namespace {

size_t occurrences(const std::string& text, const std::string& word) {
  size_t n = 0;
  for (size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) ++n;
  return n;
}

GateOptions small_gate() {
  GateOptions o;
  o.seed = 11;
  o.trials_per_category = 12;
  o.threads = 2;
  o.corpus_dir = std::string(SKIPSOUND_SOURCE_DIR) + "/tests/corpus/scenarios";
  o.proofs = false;  // the prover has its own suite; the gate only calls it
  o.mutants = {Mutant::AppendSuppression, Mutant::LeAsLt};
  return o;
}

TEST(Gate, PassesOnTheSoundCheckerAndKillsTheMutants) {
  const GateReport report = run_gate(small_gate());
  EXPECT_EQ(report.outcome(), GateOutcome::Pass) << gate_summary_text(report);
  EXPECT_FALSE(report.corpus.empty());
  EXPECT_EQ(report.categories.size(), generators::all_world_categories().size());
  ASSERT_EQ(report.mutants.size(), 2u);
  for (const MutantResult& m : report.mutants) {
    EXPECT_TRUE(m.killed()) << mutant_name(m.mutant);
    EXPECT_FALSE(m.headline.empty());
    EXPECT_FALSE(m.replay_content.empty());
  }

  const std::string xml = gate_junit_xml(report);
  EXPECT_EQ(occurrences(xml, "<testcase "),
            report.corpus.size() + 1 + report.categories.size() + report.mutants.size());
  EXPECT_EQ(occurrences(xml, "<failure "), 0u);

  const nlohmann::json j = gate_report_json(report);
  EXPECT_EQ(j["outcome"], "pass");
  EXPECT_EQ(j["seed"], 11u);
}

TEST(Gate, ASurvivingMutantFailsTheGate) {
  GateOptions o = small_gate();
  o.corpus_dir.clear();
  o.categories = {generators::WorldCategory::Disjoint};
  o.trials_per_category = 1;  // far too small a budget to find a conflict mutant
  o.mutants = {Mutant::AndAcrossReads};
  const GateReport report = run_gate(o);
  if (report.mutants.front().killed()) GTEST_SKIP() << "killed even with one disjoint trial";
  EXPECT_EQ(report.outcome(), GateOutcome::Fail);
  const auto failures = report.failures();
  EXPECT_TRUE(std::any_of(failures.begin(), failures.end(),
                          [](const std::string& f) { return f.find("and-across-reads survived") != std::string::npos; }));
  EXPECT_NE(gate_junit_xml(report).find("<failure "), std::string::npos);
}

TEST(Gate, FindingsAreWrittenAsReplayableFiles) {
  GateOptions o = small_gate();
  o.corpus_dir.clear();
  o.categories = {generators::WorldCategory::ValueMoving};
  o.trials_per_category = 100;
  o.mutants = {Mutant::AppendSuppression};
  const GateReport report = run_gate(o);
  const std::string dir = (std::filesystem::temp_directory_path() / "skipsound-gate-test").string();
  std::filesystem::remove_all(dir);
  const auto written = write_gate_findings(report, dir);
  ASSERT_EQ(written.size(), 1u);
  EXPECT_TRUE(std::filesystem::exists(written.front()));
  EXPECT_NE(written.front().find("mutant-append-suppression.scn"), std::string::npos);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace skipsound
