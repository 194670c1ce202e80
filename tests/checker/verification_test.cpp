// Stats verification, eligibility (docs/semantics.md §4.2, §5.4) and the value-order corners of concrete
// evaluation: millisecond timestamps, NaN, signed zeros and wide (DV) bounds.
#include "tests/support/checker_fixture.h"

namespace skipsound::test {
namespace {

class Verification : public CheckerTest {};

TEST_F(Verification, MissingMinPassesWhenTheColumnIsAllNull) {
  FileStats all_null = file(3);
  set(all_null, X, std::nullopt, std::nullopt, 3);
  EXPECT_EQ(decide(cmp(CompareOp::Gt, col("x"), lit(5)), all_null), SKIP);
}

TEST_F(Verification, MissingMinFailsWhenSomeValueIsNotNull) {
  FileStats partly = file(3);
  set(partly, X, std::nullopt, lng(4), 1);
  const auto built = build(cmp(CompareOp::Lt, col("x"), lit(0)));
  const FileDecision d = decide_file(built, FileView{&partly, 0}, schema);
  EXPECT_EQ(d.verdict, KEEP);
  EXPECT_EQ(d.verification.outcome, VerificationOutcome::Failed);
  ASSERT_TRUE(d.verification.missing.has_value());
  EXPECT_EQ(to_string(*d.verification.missing, schema), "min(x)");
}

TEST_F(Verification, MissingNullCountKeepsTheFile) {
  FileStats no_null_count = file(3);
  set(no_null_count, X, lng(1), lng(4), std::nullopt);
  EXPECT_EQ(decide(cmp(CompareOp::Gt, col("x"), lit(100)), no_null_count), KEEP);
  EXPECT_EQ(decide(make_is_null(col("x")), no_null_count), KEEP);
}

TEST_F(Verification, MissingNumRecordsKeepsTheFile) {
  FileStats no_count;
  set(no_count, X, lng(1), lng(4), 0);
  EXPECT_EQ(decide(cmp(CompareOp::Gt, col("x"), lit(100)), no_count), KEEP);
}

TEST_F(Verification, NoStatsAtAllKeepsTheFile) {
  const auto built = build(cmp(CompareOp::Gt, col("x"), lit(100)));
  EXPECT_EQ(decide_file(built, FileView{nullptr, 0}, schema).verdict, KEEP);
}

TEST_F(Verification, CoversTheUnionOfAllConjunctsOfARead) {
  // x > 100 alone rules the file out, but y's min is missing: Delta keeps the file.
  FileStats f = file(5);
  set(f, X, lng(1), lng(4), 0);
  set(f, Y, std::nullopt, lng(4), 0);
  const auto built = build_conjunction({cmp(CompareOp::Gt, col("x"), lit(100)),
                                        cmp(CompareOp::Lt, col("y"), lit(3))},
                                       *eligibility);
  ASSERT_TRUE(built.has_value());
  EXPECT_EQ(decide_file(built, FileView{&f, 0}, schema).verdict, KEEP);
  EXPECT_EQ(decide(cmp(CompareOp::Gt, col("x"), lit(100)), f), SKIP);
}

TEST_F(Verification, AColumnOutsideTheIndexedSetGivesNone) {
  StatsConfig one;
  one.num_indexed_cols = 1;
  one.partition_columns = {"p"};
  reconfigure(one);
  EXPECT_EQ(expression(cmp(CompareOp::Gt, col("y"), lit(1))), "none");
  EXPECT_EQ(expression(cmp(CompareOp::Gt, col("x"), lit(1))), "max(x) > 1L");
}

TEST_F(Verification, ZeroIndexedColumnsSkipNothing) {
  StatsConfig none;
  none.num_indexed_cols = 0;
  reconfigure(none);
  FileStats f = file(5);
  set(f, X, lng(1), lng(4), 0);
  EXPECT_EQ(decide(cmp(CompareOp::Gt, col("x"), lit(100)), f), KEEP);
}

TEST_F(Verification, StatsColumnsOverrideTheCount) {
  StatsConfig listed;
  listed.stats_columns = std::vector<ColumnPath>{{"y"}};
  reconfigure(listed);
  EXPECT_EQ(expression(cmp(CompareOp::Gt, col("x"), lit(1))), "none");
  EXPECT_EQ(expression(cmp(CompareOp::Gt, col("y"), lit(1))), "max(y) > 1L");
}

TEST(Eligibility, IneligibleTypesCountPartitionColumnsDoNotNestedLeavesCountOneByOne) {
  DataType st = DataType::of(TypeKind::Struct);
  st.fields = {field("a", TypeKind::Int), field("b", TypeKind::Int)};
  const Schema schema({field("p", TypeKind::Int), field("flag", TypeKind::Boolean),
                       StructField{"st", st, true, ""}, field("x", TypeKind::Long)});
  StatsConfig config;
  config.num_indexed_cols = 3;  // flag, st.a, st.b: p is a partition column and not counted
  config.partition_columns = {"p"};
  const StatsEligibility e(schema, config);
  EXPECT_FALSE(e.collects_null_count(0));
  EXPECT_TRUE(e.collects_null_count(1));
  EXPECT_FALSE(e.collects_min_max(1));  // boolean: nullCount only
  EXPECT_TRUE(e.collects_min_max(2));
  EXPECT_TRUE(e.collects_min_max(3));
  EXPECT_FALSE(e.collects_null_count(4));  // x is the 4th counted leaf
  EXPECT_TRUE(e.partitioned());
  config.num_indexed_cols = -1;
  EXPECT_TRUE(StatsEligibility(schema, config).collects_min_max(4));
}

class TimestampBump : public CheckerTest {
 protected:
  // Written stats are floored to the millisecond: max 1000 us stands for values up to 1999 us.
  FileStats f = [] {
    FileStats s = file(2);
    set(s, T, ts(0), ts(1000), 0);
    return s;
  }();
  ExprPtr t = col("t");
};

TEST_F(TimestampBump, MaxIsReadAsMaxPlusOneMillisecond) {
  EXPECT_EQ(decide(cmp(CompareOp::Gt, t, lit(ts(1500))), f), KEEP);  // a 1999 us row may exist
  EXPECT_EQ(decide(cmp(CompareOp::Ge, t, lit(ts(1999))), f), KEEP);
  EXPECT_EQ(decide(cmp(CompareOp::Ge, t, lit(ts(2000))), f), KEEP);  // bumped max = 2000
  EXPECT_EQ(decide(cmp(CompareOp::Gt, t, lit(ts(2000))), f), SKIP);
  EXPECT_EQ(decide(cmp(CompareOp::Eq, t, lit(ts(1999))), f), KEEP);
}

TEST_F(TimestampBump, MinIsNotBumped) {
  EXPECT_EQ(decide(cmp(CompareOp::Lt, t, lit(ts(0))), f), SKIP);
  EXPECT_EQ(decide(cmp(CompareOp::Le, t, lit(ts(0))), f), KEEP);
}

TEST_F(TimestampBump, BumpSaturatesAtTheInt64Limit) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  FileStats high = file(1);
  set(high, T, ts(kMax - 10), ts(kMax - 10), 0);
  EXPECT_EQ(decide(cmp(CompareOp::Gt, t, lit(ts(kMax - 5))), high), KEEP);
  const StatReadContext ctx{high, schema, 0};
  EXPECT_EQ(read_stat(StatRef{StatKind::Max, T}, ctx).as_int(), kMax);
}

class FloatingOrder : public CheckerTest {
 protected:
  ExprPtr d = col("d");
  static FileStats doubles(double min, double max) {
    FileStats s = file(3);
    set(s, D, dbl(min), dbl(max), 0);
    return s;
  }
};

TEST_F(FloatingOrder, NaNIsAboveEverything) {
  const FileStats with_nan = doubles(1.0, nan());  // a NaN row makes max NaN
  EXPECT_EQ(decide(cmp(CompareOp::Gt, d, lit(dbl(5.0))), with_nan), KEEP);
  EXPECT_EQ(decide(cmp(CompareOp::Eq, d, lit(dbl(nan()))), with_nan), KEEP);
  EXPECT_EQ(decide(cmp(CompareOp::Lt, d, lit(dbl(1.0))), with_nan), SKIP);
  EXPECT_EQ(decide(cmp(CompareOp::Eq, d, lit(dbl(nan()))), doubles(1.0, 3.0)), SKIP);
  EXPECT_EQ(decide(cmp(CompareOp::Gt, d, lit(dbl(1e308))), doubles(1.0, 3.0)), SKIP);
}

TEST_F(FloatingOrder, SignedZerosAreEqual) {
  const FileStats negative_zero = doubles(-0.0, -0.0);
  EXPECT_EQ(decide(cmp(CompareOp::Eq, d, lit(dbl(0.0))), negative_zero), KEEP);
  EXPECT_EQ(decide(cmp(CompareOp::Gt, d, lit(dbl(0.0))), negative_zero), SKIP);
  EXPECT_EQ(decide(cmp(CompareOp::Lt, d, lit(dbl(-0.0))), doubles(0.0, 1.0)), SKIP);
  EXPECT_EQ(decide(cmp(CompareOp::Le, d, lit(dbl(-0.0))), doubles(0.0, 1.0)), KEEP);
}

class WideBounds : public CheckerTest {
 protected:
  static FileStats wide(int64_t rows, int64_t nulls) {
    FileStats s = file(rows);
    s.tight_bounds = false;
    set(s, X, lng(10), lng(20), nulls);
    return s;
  }
};

TEST_F(WideBounds, NullCountOfNumRecordsMeansEveryLiveRowIsNull) {
  EXPECT_EQ(decide(make_is_not_null(col("x")), wide(4, 4), Mutant::None, 1), SKIP);
  EXPECT_EQ(decide(make_is_not_null(col("x")), wide(4, 2), Mutant::None, 1), KEEP);
}

TEST_F(WideBounds, NullCountZeroMeansNoLiveRowIsNull) {
  EXPECT_EQ(decide(make_is_null(col("x")), wide(4, 0), Mutant::None, 1), SKIP);
  EXPECT_EQ(decide(make_is_null(col("x")), wide(4, 2), Mutant::None, 1), KEEP);
}

TEST_F(WideBounds, BoundsStillBoundTheLiveValues) {
  EXPECT_EQ(decide(cmp(CompareOp::Gt, col("x"), lit(25)), wide(4, 0), Mutant::None, 2), SKIP);
  EXPECT_EQ(decide(cmp(CompareOp::Gt, col("x"), lit(15)), wide(4, 0), Mutant::None, 2), KEEP);
}

TEST_F(Verification, ExplanationNamesTheExpressionAndEachPart) {
  FileStats f = file(5);
  set(f, X, lng(1), lng(4), 0);
  const auto built = build(cmp(CompareOp::Eq, col("x"), lit(7)));
  const FileDecision d = decide_file(built, FileView{&f, 0}, schema);
  EXPECT_EQ(d.verdict, SKIP);
  EXPECT_EQ(d.expression, "min(x) <= 7L AND 7L <= max(x)");
  ASSERT_TRUE(d.evaluation.has_value());
  ASSERT_EQ(d.evaluation->children.size(), 2u);
  EXPECT_EQ(d.evaluation->children[0].text, "min(x) <= 7L");
  EXPECT_EQ(truth_of_value(d.evaluation->children[0].value), Truth::True);
  EXPECT_EQ(truth_of_value(d.evaluation->children[1].value), Truth::False);
  EXPECT_EQ(d.evaluation->children[1].children[1].value.as_int(), 4);
}

// docs/semantics.md §5.4: keep = (expression IS TRUE) OR NOT verified; each decision names its cause.
TEST_F(Verification, EachDecisionExplainsItsVerdict) {
  FileStats f = file(5);
  set(f, X, lng(1), lng(4), 0);
  const FileDecision skip = decide_file(build(cmp(CompareOp::Gt, col("x"), lit(7))), FileView{&f, 0}, schema);
  EXPECT_EQ(skip.verdict, SKIP);
  EXPECT_EQ(skip.reason, "skipped: the skipping expression is FALSE and stats verification passed");
  const FileDecision keep = decide_file(build(cmp(CompareOp::Lt, col("x"), lit(7))), FileView{&f, 0}, schema);
  EXPECT_EQ(keep.verdict, KEEP);
  EXPECT_EQ(keep.reason, "kept: the skipping expression is TRUE");
}

}  // namespace
}  // namespace skipsound::test
