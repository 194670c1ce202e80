// Each checker mutant (docs/semantics.md §8) on a concrete case where the file holds a row matching the
// predicate (named in each test): sound logic keeps it, the mutant skips it.
#include "checker/conflict_filter.h"
#include "model/mutants/fault_injection.h"
#include "tests/support/checker_fixture.h"

namespace skipsound::test {
namespace {

class Mutants : public CheckerTest {};

TEST_F(Mutants, SkipMissingStats) {
  // Rows x = 10 and x = 200; the writer lost max(x). x > 100 matches the second row.
  FileStats f = file(2);
  set(f, X, lng(10), std::nullopt, 0);
  const ExprPtr p = cmp(CompareOp::Gt, col("x"), lit(100));
  EXPECT_EQ(decide(p, f), KEEP);
  EXPECT_EQ(decide(p, f, Mutant::SkipMissingStats), SKIP);
}

TEST_F(Mutants, TrustWideNullcount) {
  // 4 physical rows: x = 1, 2, NULL, NULL; a DV deleted the two NULL rows, then widening kept
  // nullCount = 2 (it did not equal the live count 4 under the previous, empty DV). Live rows
  // 1 and 2 match x IS NOT NULL. The mutant compares nullCount 2 with the live count 4 - 2.
  FileStats f = file(4);
  f.tight_bounds = false;
  set(f, X, lng(1), lng(2), 2);
  const ExprPtr p = make_is_not_null(col("x"));
  EXPECT_EQ(decide(p, f, Mutant::None, 2), KEEP);
  EXPECT_EQ(decide(p, f, Mutant::TrustWideNullcount, 2), SKIP);
}

TEST_F(Mutants, NoTimestampMaxBump) {
  // A row at 1.5 ms was written with max floored to 1 ms; t > 1.2 ms matches it.
  FileStats f = file(1);
  set(f, T, ts(1000), ts(1000), 0);
  const ExprPtr p = cmp(CompareOp::Gt, col("t"), lit(ts(1200)));
  EXPECT_EQ(decide(p, f), KEEP);
  EXPECT_EQ(decide(p, f, Mutant::NoTimestampMaxBump), SKIP);
}

TEST_F(Mutants, IeeeNanOrder) {
  // Rows d = 1.0 and d = NaN; in Spark order NaN > 5.0 is TRUE.
  FileStats f = file(2);
  set(f, D, dbl(1.0), dbl(nan()), 0);
  const ExprPtr p = cmp(CompareOp::Gt, col("d"), lit(dbl(5.0)));
  EXPECT_EQ(decide(p, f), KEEP);
  EXPECT_EQ(decide(p, f, Mutant::IeeeNanOrder), SKIP);
}

TEST_F(Mutants, LeAsLt) {
  // Rows x = 10 and x = 20: x >= 20 and x <= 10 each match one.
  FileStats f = file(2);
  set(f, X, lng(10), lng(20), 0);
  const ExprPtr ge = cmp(CompareOp::Ge, col("x"), lit(20));
  const ExprPtr le = cmp(CompareOp::Le, col("x"), lit(10));
  EXPECT_EQ(decide(ge, f), KEEP);
  EXPECT_EQ(decide(ge, f, Mutant::LeAsLt), SKIP);
  EXPECT_EQ(decide(le, f), KEEP);
  EXPECT_EQ(decide(le, f, Mutant::LeAsLt), SKIP);
}

class ConflictMutants : public CheckerTest {
 protected:
  // Rows x = 10 .. 20 in one added file of an unpartitioned table.
  FileStats stats = [] {
    FileStats s = file(11);
    set(s, X, lng(10), lng(20), 0);
    return s;
  }();
  std::vector<CandidateFile> added{CandidateFile{"part-0", &stats, {}, 0}};

  void SetUp() override { reconfigure(StatsConfig{}); }
  ReadPredicate read(CompareOp op, int64_t v) {
    return ReadPredicate{{}, {cmp(op, col("x"), lit(v))}};
  }
  bool survives(const LoserReads& loser, Mutant m,
                WinnerOperation winner = WinnerOperation::Other) const {
    const FaultScope fault(m);
    ConflictFilterOptions options;
    options.winner_operation = winner;
    return filter_conflict_candidates(loser, added, *eligibility, options).any_survivor();
  }
};

TEST_F(ConflictMutants, AndAcrossReads) {
  // The second read (x < 15) matches x = 10.
  const LoserReads loser{false, {read(CompareOp::Gt, 100), read(CompareOp::Lt, 15)}};
  EXPECT_TRUE(survives(loser, Mutant::None));
  EXPECT_FALSE(survives(loser, Mutant::AndAcrossReads));
}

TEST_F(ConflictMutants, SkipWholeTableRead) {
  // The loser also read the whole table, so every row (x = 10 ..) mattered to it.
  const LoserReads loser{true, {read(CompareOp::Gt, 100)}};
  EXPECT_TRUE(survives(loser, Mutant::None));
  EXPECT_FALSE(survives(loser, Mutant::SkipWholeTableRead));
}

TEST_F(ConflictMutants, EmptyReadsSkipAll) {
  const LoserReads loser{false, {}};
  EXPECT_TRUE(survives(loser, Mutant::None));
  EXPECT_FALSE(survives(loser, Mutant::EmptyReadsSkipAll));
}

TEST_F(ConflictMutants, AppendSuppression) {
  // The seeds' write skew: the winner's UPDATE SET x = 15 wrote rows the loser's x > 10 reads.
  const LoserReads loser{false, {read(CompareOp::Gt, 10)}};
  EXPECT_TRUE(survives(loser, Mutant::None, WinnerOperation::Update));
  EXPECT_FALSE(survives(loser, Mutant::AppendSuppression, WinnerOperation::Update));
  EXPECT_TRUE(survives(loser, Mutant::AppendSuppression, WinnerOperation::Other));
}

}  // namespace
}  // namespace skipsound::test
