// Conflict-time filtering (docs/semantics.md §5.7) and scan-time filtering. Files are named by
// the x range their stats record.
#include "checker/conflict_filter.h"
#include "checker/scan_filter.h"
#include "tests/support/checker_fixture.h"

namespace skipsound::test {
namespace {

// The paths of the files that survive, in input order.
std::vector<std::string> survivors(const ConflictFilterResult& result) {
  std::vector<std::string> paths;
  for (const CandidateOutcome& f : result.files) {
    if (f.verdict == CandidateVerdict::Survives) paths.push_back(f.path);
  }
  return paths;
}

class ConflictFilter : public CheckerTest {
 protected:
  std::vector<FileStats> stats_store = std::vector<FileStats>(8);
  int next = 0;

  CandidateFile added(int64_t min_x, int64_t max_x, std::optional<int64_t> p = std::nullopt) {
    FileStats& s = stats_store.at(next++);
    s = file(10);
    set(s, X, lng(min_x), lng(max_x), 0);
    CandidateFile f;
    f.path = std::string("x").append(std::to_string(min_x)).append("-").append(std::to_string(max_x));
    f.stats = &s;
    f.partition_values = Row(schema.leaves().size(), Value::null(DataType::of(TypeKind::Int)));
    if (p) f.partition_values[P] = Value::integral(TypeKind::Int, *p);
    return f;
  }
  ExprPtr x_gt(int64_t v) { return cmp(CompareOp::Gt, col("x"), lit(v)); }
  ExprPtr x_lt(int64_t v) { return cmp(CompareOp::Lt, col("x"), lit(v)); }
  ExprPtr p_eq(int64_t v) { return cmp(CompareOp::Eq, col("p"), lit(Value::integral(TypeKind::Int, v))); }
  static ReadPredicate data_read(std::vector<ExprPtr> data) { return ReadPredicate{{}, std::move(data)}; }

  ConflictFilterResult run(const LoserReads& loser, const std::vector<CandidateFile>& files,
                           ConflictFilterOptions options = {}) {
    return filter_conflict_candidates(loser, files, *eligibility, options);
  }
  void unpartitioned() {
    StatsConfig c;
    reconfigure(c);
  }
};

TEST_F(ConflictFilter, DisjointRangeIsExcludedOverlappingRangeSurvives) {
  unpartitioned();
  const auto r = run(LoserReads{false, {data_read({x_lt(50)})}}, {added(1000, 1100), added(40, 60)});
  EXPECT_EQ(survivors(r), std::vector<std::string>{"x40-60"});
}

TEST_F(ConflictFilter, OneReadIsAnAndAcrossReadsIsAnOr) {
  unpartitioned();
  const CandidateFile f = added(10, 20);
  // One read, x > 100 AND x < 15: the first conjunct already rules the file out.
  EXPECT_FALSE(run(LoserReads{false, {data_read({x_gt(100), x_lt(15)})}}, {f}).any_survivor());
  // Two reads: the second can match x = 10, so the file must still be checked.
  EXPECT_TRUE(run(LoserReads{false, {data_read({x_gt(100)}), data_read({x_lt(15)})}}, {f}).any_survivor());
}

TEST_F(ConflictFilter, AReadWithoutABuildableFilterKeepsEveryFile) {
  unpartitioned();
  const LoserReads loser{false, {data_read({x_gt(100)}), data_read({col("b")})}};
  EXPECT_TRUE(run(loser, {added(10, 20)}).any_survivor());
}

TEST_F(ConflictFilter, NonDeterministicDataFiltersAreDroppedNotUsed) {
  unpartitioned();
  // If the filter were used, its x > 100 side alone would skip the file.
  const ExprPtr mixed = make_and(x_gt(100), cmp(CompareOp::Lt, make_call("rand", {}), lit(dbl(0.5))));
  EXPECT_TRUE(run(LoserReads{false, {data_read({mixed})}}, {added(10, 20)}).any_survivor());
}

TEST_F(ConflictFilter, WholeTableReadKeepsEveryFile) {
  unpartitioned();
  EXPECT_TRUE(run(LoserReads{true, {data_read({x_gt(100)})}}, {added(10, 20)}).any_survivor());
}

TEST_F(ConflictFilter, NoRecordedReadConflictsOnlyOnAnUnpartitionedTable) {
  const std::vector<CandidateFile> partitioned_files{added(10, 20, 1)};
  EXPECT_FALSE(run(LoserReads{false, {}}, partitioned_files).any_survivor());
  unpartitioned();
  EXPECT_TRUE(run(LoserReads{false, {}}, {added(10, 20)}).any_survivor());
}

TEST_F(ConflictFilter, FlagOffIsPartitionOnly) {
  ConflictFilterOptions off;
  off.data_skipping_enabled = false;
  const LoserReads loser{false, {ReadPredicate{{p_eq(1)}, {x_gt(100)}}}};
  const auto r = run(loser, {added(10, 20, 1), added(10, 20, 2)}, off);
  EXPECT_EQ(survivors(r), std::vector<std::string>{"x10-20"});
  EXPECT_EQ(r.files[0].verdict, CandidateVerdict::Survives);  // x > 100 not consulted
  EXPECT_EQ(r.files[1].verdict, CandidateVerdict::Excluded);
  unpartitioned();
  EXPECT_TRUE(run(LoserReads{false, {data_read({x_gt(100)})}}, {added(10, 20)}, off).any_survivor());
}

TEST_F(ConflictFilter, PartitionedTableSkipsOnDataColumns) {
  const LoserReads loser{false, {ReadPredicate{{p_eq(1)}, {x_gt(100)}}}};
  EXPECT_FALSE(run(loser, {added(10, 20, 1)}).any_survivor());
  EXPECT_TRUE(run(loser, {added(90, 120, 1)}).any_survivor());
  EXPECT_FALSE(run(loser, {added(90, 120, 2)}).any_survivor());
}

TEST_F(ConflictFilter, PartitionStepIsNotReadByRead) {
  // Read 1: p = 1 AND x > 100; read 2: p = 2 AND x < 15. The file (p = 1, x in [10, 12])
  // matches neither read on its own, but docs/semantics.md §5.7 combines (data survivors of any read) with
  // (partition predicates of any read): it survives.
  const LoserReads loser{false, {ReadPredicate{{p_eq(1)}, {x_gt(100)}}, ReadPredicate{{p_eq(2)}, {x_lt(15)}}}};
  EXPECT_TRUE(run(loser, {added(10, 12, 1)}).any_survivor());
  EXPECT_FALSE(run(loser, {added(10, 12, 3)}).any_survivor());
}

TEST_F(ConflictFilter, NullPartitionValueMatchesNoComparison) {
  const CandidateFile null_partition = added(10, 20);
  EXPECT_FALSE(run(LoserReads{false, {ReadPredicate{{p_eq(1)}, {}}}}, {null_partition}).any_survivor());
  EXPECT_TRUE(run(LoserReads{false, {ReadPredicate{{make_is_null(col("p"))}, {}}}}, {null_partition})
                  .any_survivor());
}

TEST_F(ConflictFilter, NonDeterministicPartitionPredicateIsWidenedToTrue) {
  const ExprPtr random = cmp(CompareOp::Lt, make_call("rand", {}), lit(dbl(-1.0)));
  EXPECT_TRUE(run(LoserReads{false, {ReadPredicate{{random}, {}}}}, {added(10, 20, 1)}).any_survivor());
}

TEST_F(ConflictFilter, AnErrorKeepsEveryFile) {
  unpartitioned();
  // A list mixing a string and a number cannot be ordered: building throws, every file counts.
  const ExprPtr bad = make_in(col("x"), {lit(str("a")), lit(1)});
  const auto r = run(LoserReads{false, {data_read({bad})}}, {added(1000, 1100)});
  EXPECT_TRUE(r.any_survivor());
  // Not a declared input error (model/values/input_error.h): the keep stays, and the exception is named
  // so that the harness can report the bug it would otherwise hide.
  EXPECT_FALSE(r.unexpected_error.empty()) << r.summary;
  EXPECT_NE(r.summary.find(r.unexpected_error), std::string::npos) << r.summary;
}

TEST_F(ConflictFilter, AFilterThatRunsNamesNoUnexpectedError) {
  unpartitioned();
  const auto r = run(LoserReads{false, {data_read({x_gt(100)})}}, {added(1000, 1100), added(0, 10)});
  EXPECT_TRUE(r.unexpected_error.empty()) << r.unexpected_error;
  EXPECT_EQ(survivors(r), std::vector<std::string>{"x1000-1100"});
}

TEST_F(ConflictFilter, MissingStatsKeepTheFile) {
  unpartitioned();
  CandidateFile no_stats = added(0, 0);
  no_stats.stats = nullptr;
  EXPECT_TRUE(run(LoserReads{false, {data_read({x_gt(100)})}}, {no_stats}).any_survivor());
}

// docs/semantics.md §10.4: a dataChange=false add is no candidate; the others are judged as ever,
// and each outcome stays with its own file (input order), wherever the excluded files sit.
TEST_F(ConflictFilter, NoDataChangeAddsAreExcludedAndTheRestKeepTheirOwnOutcomes) {
  unpartitioned();
  CandidateFile compacted = added(10, 20);  // x < 15 could match it, but it moves rows only
  compacted.data_change = false;
  const CandidateFile far = added(1000, 1100);
  const CandidateFile near = added(0, 5);
  ConflictFilterOptions case3;
  case3.exclude_no_data_change = true;
  const LoserReads loser{false, {data_read({x_lt(15)})}};
  const auto none = run(loser, {compacted, far}, case3);
  ASSERT_EQ(none.files.size(), 2u);
  EXPECT_FALSE(none.any_survivor());
  EXPECT_EQ(none.files[0].path, compacted.path);
  EXPECT_EQ(none.files[0].decided_by, FilterStep::NoDataChange);
  EXPECT_EQ(none.files[1].path, far.path);
  EXPECT_EQ(none.files[1].verdict, CandidateVerdict::Excluded);
  const auto one = run(loser, {compacted, far, near}, case3);
  EXPECT_EQ(survivors(one), std::vector<std::string>{near.path});
  // With the flag off the dataChange=false add is an ordinary candidate.
  EXPECT_EQ(survivors(run(loser, {compacted, far})), std::vector<std::string>{compacted.path});
}

// A scan's outcomes name their files, in input order (what `skipsound skip` prints).
TEST_F(ConflictFilter, ScanOutcomesNameTheirFiles) {
  const auto r = filter_scan(x_gt(15), {added(10, 20, 1), added(1, 5, 2)}, *eligibility);
  ASSERT_EQ(r.files.size(), 2u);
  EXPECT_EQ(r.files[0].path, "x10-20");
  EXPECT_EQ(r.files[1].path, "x1-5");
}

TEST_F(ConflictFilter, ScanFiltersPartitionsExactlyAndDataByStats) {
  const ExprPtr predicate = make_and(p_eq(1), x_gt(15));
  const auto r = filter_scan(predicate, {added(10, 20, 1), added(10, 20, 2), added(1, 5, 1)}, *eligibility);
  ASSERT_EQ(r.files.size(), 3u);
  EXPECT_EQ(r.filters.read.partition_filters.size(), 1u);
  EXPECT_EQ(r.files[0].verdict, KEEP);
  EXPECT_EQ(r.files[1].verdict, SKIP);
  EXPECT_EQ(r.files[1].partition, PartitionMatch::NoMatch);
  EXPECT_EQ(r.files[2].verdict, SKIP);
}

TEST_F(ConflictFilter, ALiteralOnlyFilterIsDecidedExactlyAtScan) {
  const auto r = filter_scan(cmp(CompareOp::Eq, lit(1), lit(2)), {added(10, 20, 1)}, *eligibility);
  EXPECT_EQ(r.files[0].verdict, SKIP);
}

TEST_F(ConflictFilter, ClassificationDropsMetadataAndNonDeterministicFilters) {
  const ExprPtr metadata = cmp(CompareOp::Eq, make_column({"_metadata", "file_name"}), lit(str("a")));
  const ExprPtr random = cmp(CompareOp::Lt, make_call("rand", {}), lit(dbl(0.5)));
  const ClassifiedFilters c =
      classify_filters(make_and(make_and(metadata, random), make_and(p_eq(1), x_gt(1))), *eligibility);
  EXPECT_EQ(c.dropped.size(), 2u);
  EXPECT_EQ(c.read.partition_filters.size(), 1u);
  EXPECT_EQ(c.read.data_filters.size(), 1u);
}

// docs/semantics.md §5.5: a file outside the read's partitions is skipped, and says why.
TEST_F(ConflictFilter, APartitionSkipIsExplained) {
  const auto r = filter_scan(make_and(p_eq(1), x_gt(15)), {added(10, 20, 2)}, *eligibility);
  ASSERT_EQ(r.files.size(), 1u);
  EXPECT_EQ(r.files[0].verdict, SKIP);
  EXPECT_EQ(r.files[0].reason, "skipped: the partition filters are not TRUE on its partition values");
}

// docs/semantics.md §10.4: the summary says the dataChange=false adds were dropped first.
TEST_F(ConflictFilter, TheSummaryNamesTheDataChangeStep) {
  unpartitioned();
  ConflictFilterOptions case3;
  case3.exclude_no_data_change = true;
  const auto r = run(LoserReads{false, {data_read({x_lt(15)})}}, {added(0, 5)}, case3);
  EXPECT_EQ(r.summary.rfind("dataChange=false adds dropped; ", 0), 0u) << r.summary;
}

}  // namespace
}  // namespace skipsound::test
