// Resumable campaigns, samples and diff mode, below the program: the journal a stopped run
// leaves and what --resume reads back, the merging of shard reports, the score's interval for a
// sample, and the changed lines of a unified diff.
#include <gtest/gtest.h>

#include <fstream>

#include "model/values/scratch_directory.h"
#include "tools/mutate/campaign_journal.h"
#include "tools/mutate/changed_lines.h"

namespace skipsound::mutation {
namespace {

MutantRecord record(const std::string& file, size_t line, Status status) {
  MutantRecord r;
  r.candidate.file = file;
  r.candidate.mutation.op = Operator::Relational;
  r.candidate.mutation.line = line;
  r.candidate.text = {"a < b /* " + std::to_string(line) + " */", "a <= b /* " + std::to_string(line) + " */"};
  r.outcome.status = status;
  r.outcome.gate_seconds = 1.5;
  return r;
}

class Journal : public ::testing::Test {
 protected:
  const ScratchDirectory scratch_{"journal"};
  const std::string path_ = (scratch_.path() / "reports" / "mutation-journal.jsonl").string();
};

TEST_F(Journal, AResumedJournalHoldsWhatEarlierSessionsJudged) {
  {
    CampaignJournal first(path_, false);
    first.start_afresh();
    first.append(record("checker/a.cpp", 3, Status::Killed), 10, 15);
    first.append(record("checker/a.cpp", 4, Status::Survived), 25, 40);
  }
  {
    CampaignJournal second(path_, true);
    ASSERT_EQ(second.earlier().size(), 2u);
    EXPECT_EQ(second.earlier_wall_seconds(), 25);
    EXPECT_EQ(second.earlier_cpu_seconds(), 40);
    second.append(record("checker/b.cpp", 9, Status::Timeout), 7, 12);
  }
  const CampaignJournal third(path_, true);
  ASSERT_EQ(third.earlier().size(), 3u);
  EXPECT_EQ(third.earlier()[1].outcome.status, Status::Survived);
  EXPECT_EQ(third.earlier()[2].candidate.file, "checker/b.cpp");
  EXPECT_EQ(third.earlier()[2].candidate.mutation.line, 9u);
  EXPECT_FALSE(third.earlier()[2].outcome.own_build);
  EXPECT_EQ(third.earlier_wall_seconds(), 25 + 7) << "each session up to its last record";
  EXPECT_EQ(third.earlier_cpu_seconds(), 40 + 12);
}

TEST_F(Journal, ALineTornByAKillIsDroppedAndADamagedOneNamed) {
  {
    CampaignJournal journal(path_, false);
    journal.start_afresh();
    journal.append(record("checker/a.cpp", 3, Status::Killed), 10, 10);
  }
  std::ofstream(path_, std::ios::app) << R"({"session": 0, "sessionSeconds": 12, "mut)";
  EXPECT_EQ(CampaignJournal(path_, true).earlier().size(), 1u);
  std::ofstream(path_, std::ios::app) << "\n" << R"({"session": 0})" << "\n";
  try {
    CampaignJournal damaged(path_, true);
    ADD_FAILURE() << "a damaged journal was read";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("mutation-journal.jsonl:2"), std::string::npos) << e.what();
  }
}

TEST_F(Journal, AFreshStartForgetsTheEarlierCampaign) {
  {
    CampaignJournal journal(path_, false);
    journal.start_afresh();
    journal.append(record("checker/a.cpp", 3, Status::Killed), 10, 10);
  }
  CampaignJournal fresh(path_, true);
  fresh.start_afresh();
  EXPECT_TRUE(fresh.earlier().empty());
  EXPECT_TRUE(CampaignJournal(path_, true).earlier().empty());
}

TEST(MergedRuns, ShardsAddUpAndAReJudgedMutantKeepsItsLaterRecord) {
  RecordedRun shard0, shard1;
  shard0.summary.files = {"checker/b.cpp"};
  shard0.summary.enumerated = 4;
  shard0.summary.planned = 2;
  shard0.summary.wall_seconds = 60;
  shard0.records = {record("checker/b.cpp", 1, Status::Survived), record("checker/b.cpp", 2, Status::Killed)};
  shard1.summary.files = {"checker/a.cpp"};
  shard1.summary.enumerated = 4;
  shard1.summary.planned = 2;
  shard1.summary.wall_seconds = 30;
  shard1.records = {record("checker/a.cpp", 5, Status::Killed), record("checker/b.cpp", 1, Status::Killed)};
  const RecordedRun merged = merge_runs({shard0, shard1});
  EXPECT_EQ(merged.summary.planned, 4u);
  EXPECT_EQ(merged.summary.enumerated, 4u);
  EXPECT_EQ(merged.summary.wall_seconds, 90);
  EXPECT_EQ(merged.summary.merged_runs, 2u);
  EXPECT_EQ(merged.summary.files, (std::vector<std::string>{"checker/a.cpp", "checker/b.cpp"}));
  ASSERT_EQ(merged.records.size(), 3u);
  const Score score = score_of(merged.records, {});
  EXPECT_EQ(score.detected, 3u);
  EXPECT_EQ(score.survived, 0u) << "b.cpp:1 survived in shard 0, was killed when judged again";
}

TEST(SampleScore, TheIntervalIsWilsons) {
  Score score;
  score.detected = 45;
  score.survived = 5;
  const auto [low, high] = score.interval95();
  EXPECT_NEAR(low, 78.64, 0.01);
  EXPECT_NEAR(high, 95.65, 0.01);
  score.detected = 10;
  score.survived = 0;
  EXPECT_NEAR(score.interval95().first, 72.25, 0.01);
  EXPECT_NEAR(score.interval95().second, 100, 1e-9) << "not empty at 100 %, never above it";
}

TEST(ChangedLines, TheNewSideOfEachHunk) {
  const ChangedLines changed = parse_changed_lines(
      "diff --git a/checker/x.cpp b/checker/x.cpp\n"
      "--- a/checker/x.cpp\n+++ b/checker/x.cpp\n"
      "@@ -10,2 +10,3 @@ int f() {\n-  a\n-  b\n+  c\n+  d\n+  e\n"
      "@@ -30 +31 @@\n-x\n+y\n"
      "@@ -40,2 +41,0 @@\n-gone\n-gone\n"
      "diff --git a/model/y.cpp b/model/y.cpp\nnew file mode 100644\n--- /dev/null\n+++ b/model/y.cpp\n"
      "@@ -0,0 +1,2 @@\n+one\n+two\n");
  EXPECT_EQ(changed.at("checker/x.cpp"), (std::set<size_t>{10, 11, 12, 31}));
  EXPECT_EQ(changed.at("model/y.cpp"), (std::set<size_t>{1, 2}));
  EXPECT_EQ(changed.size(), 2u);
}

}  // namespace
}  // namespace skipsound::mutation
