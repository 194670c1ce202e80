// The report: the score counts detected mutants over the non-equivalent ones, survivors carry
// their triage, and a bad triage file is rejected with the JSON path of the entry.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "model/values/scratch_directory.h"
#include "tools/mutate/mutation_report.h"

namespace skipsound::mutation {
namespace {

MutantRecord record(const std::string& before, const std::string& after, Status status) {
  MutantRecord r;
  r.candidate.file = "checker/x.cpp";
  r.candidate.mutation.op = Operator::Relational;
  r.candidate.mutation.line = 7;
  r.candidate.text = {before, after};
  r.outcome.status = status;
  r.outcome.output_tail = "GATE PASSED\n";
  return r;
}

std::vector<MutantRecord> run_of_five() {
  return {record("a < b", "a <= b", Status::Killed), record("c < d", "c <= d", Status::Survived),
          record("e < f", "e <= f", Status::Survived), record("g < h", "g <= h", Status::Timeout),
          record("i < j", "i <= j", Status::BuildFailure)};
}

const std::vector<TriageEntry> kTriage = {
    {"checker/x.cpp", "relational", "c < d", "c <= d", "equivalent", "c never equals d here"}};

TEST(MutationReport, TheScoreLeavesOutEquivalentSurvivorsAndBuildFailures) {
  const Score s = score_of(run_of_five(), kTriage);
  EXPECT_EQ(s.detected, 2u);
  EXPECT_EQ(s.survived, 2u);
  EXPECT_EQ(s.equivalent, 1u);
  EXPECT_EQ(s.build_failures, 1u);
  EXPECT_NEAR(s.percent(), 100.0 * 2 / 3, 1e-9);
  EXPECT_EQ(score_of({}, {}).percent(), 100.0);
}

TEST(MutationReport, SurvivorsAreListedWithTheirTriage) {
  RunSummary run;
  run.command = "skipsound-mutate checker/x.cpp";
  const std::string md = report_markdown(run, run_of_five(), kTriage);
  EXPECT_NE(md.find("### checker/x.cpp:7 — relational"), std::string::npos);
  EXPECT_NE(md.find("**equivalent** — c never equals d here"), std::string::npos);
  EXPECT_NE(md.find("**not triaged**"), std::string::npos);
  EXPECT_NE(md.find("**66.7 %**"), std::string::npos);
  const nlohmann::json j = report_json(run, run_of_five(), kTriage);
  EXPECT_EQ(j["mutants"].size(), 5u);
  EXPECT_EQ(j["mutants"][1]["triage"]["verdict"], "equivalent");
  EXPECT_EQ(j["mutants"][2]["outputTail"], "GATE PASSED\n");
  EXPECT_FALSE(j["mutants"][0].contains("outputTail"));
}

TEST(MutationReport, AReportReadBackRendersTheSame) {
  RunSummary run;
  run.command = "skipsound-mutate checker/x.cpp";
  run.files = {"checker/x.cpp"};
  run.seed = 3;
  run.wall_seconds = 61;
  std::vector<MutantRecord> records = run_of_five();
  records[0].outcome.killed_by = "per-file properties: 1 failing cases";
  records[0].outcome.exit_code = 1;
  const nlohmann::json written = report_json(run, records, {});
  const RecordedRun read = read_report_json(written);
  EXPECT_EQ(report_json(read.summary, read.records, kTriage), report_json(run, records, kTriage));
  EXPECT_EQ(report_markdown(read.summary, read.records, kTriage), report_markdown(run, records, kTriage));
  nlohmann::json damaged = written;
  damaged["mutants"][0]["status"] = "resurrected";
  EXPECT_THROW(read_report_json(damaged), std::runtime_error);
  EXPECT_THROW(read_report_json(nlohmann::json::object()), std::runtime_error);
}

// A later run picks its mutants by an earlier report: --survivors-of takes the survivors, and
// --not-run-in the ones the report never ran (matched by text, not by line).
TEST(MutationReport, AnEarlierRunChoosesTheSurvivorsOrTheRest) {
  RecordedRun earlier;
  earlier.records = run_of_five();
  std::vector<Candidate> candidates;
  for (const MutantRecord& r : earlier.records) candidates.push_back(r.candidate);
  Candidate unrun = candidates.front();
  unrun.text = {"k < l", "k <= l"};
  candidates.push_back(unrun);
  Candidate other_file = candidates.front();
  other_file.file = "checker/y.cpp";
  candidates.push_back(other_file);
  candidates[1].mutation.line = 12;  // the source moved: still the same mutation
  const auto texts = [](const std::vector<Candidate>& cs) {
    std::vector<std::string> out;
    for (const Candidate& c : cs) out.push_back(c.text.before);
    return out;
  };
  EXPECT_EQ(texts(survivors_among(candidates, earlier)), (std::vector<std::string>{"c < d", "e < f"}));
  EXPECT_EQ(texts(not_run_in(candidates, earlier)), (std::vector<std::string>{"k < l", "a < b"}));
}

TEST(MutationReport, ABadTriageEntryIsNamedByItsJsonPath) {
  const ScratchDirectory dir("test");
  const auto path = dir.path() / "triage.json";
  std::ofstream(path) << R"([{"file": "a", "operator": "relational", "before": "x", "after": "y", "verdict": "maybe", "reason": "r"}])";
  try {
    load_triage(path.string());
    ADD_FAILURE() << "accepted verdict 'maybe'";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("$[0].verdict"), std::string::npos) << e.what();
  }
  std::ofstream(path) << R"([{"file": "a"}])";
  EXPECT_THROW(load_triage(path.string()), std::runtime_error);
}

}  // namespace
}  // namespace skipsound::mutation
