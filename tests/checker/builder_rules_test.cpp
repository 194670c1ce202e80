// One keeping and one skipping case per row of docs/semantics.md §5.3's builder table. Expected verdicts are
// worked out from the rule by hand: x has stats [10, 20] with no nulls, y [0, 5] with 2 nulls,
// in a file of 10 rows.
#include <map>

#include "model/coverage/coverage.h"
#include "tests/support/checker_fixture.h"

namespace skipsound::test {
namespace {

class BuilderRules : public CheckerTest {
 protected:
  FileStats f = [] {
    FileStats s = file(10);
    set(s, X, lng(10), lng(20), 0);
    set(s, Y, lng(0), lng(5), 2);
    set(s, B, std::nullopt, std::nullopt, 0);
    set(s, S, str("ba"), str("bz"), 0);
    return s;
  }();
  ExprPtr x = col("x"), y = col("y"), b = col("b"), s = col("s");
};

TEST_F(BuilderRules, OnlyLiteralsGiveNone) {
  EXPECT_EQ(expression(cmp(CompareOp::Eq, lit(1), lit(2))), "none");
  EXPECT_EQ(decide(cmp(CompareOp::Eq, lit(1), lit(2)), f), KEEP);
}

// Which rule built nothing, as the gate's coverage table counts it: a predicate over literals only
// never reaches the other rules (also where an AND asks first whether its sides read a column),
// and a bare boolean column is its own rule.
TEST_F(BuilderRules, LiteralsOnlyAndBareBooleansAreTheirOwnRules) {
  const auto rule_hits = [&](const ExprPtr& predicate) {
    const coverage::Counts before = coverage::snapshot();
    expression(predicate);
    const coverage::Counts after = coverage::snapshot().since(before);
    std::map<std::string, uint64_t> hits;
    for (const coverage::ProbeInfo& info : coverage::probe_catalogue()) {
      const uint64_t n = after.hits[static_cast<size_t>(info.probe)];
      if (n > 0 && std::string(info.section).starts_with("§5 rule")) hits[info.name] = n;
    }
    return hits;
  };
  const auto name_of = [](coverage::Probe p) {
    return std::string(coverage::probe_catalogue()[static_cast<size_t>(p)].name);
  };
  const std::string literals_only = name_of(coverage::Probe::RuleLiteralsOnly);
  const std::map<std::string, uint64_t> alone{{literals_only, 1}};
  EXPECT_EQ(rule_hits(cmp(CompareOp::Eq, lit(1), lit(2))), alone);
  EXPECT_EQ(rule_hits(b), (std::map<std::string, uint64_t>{{name_of(coverage::Probe::RuleBareBoolean), 1}}));
  const auto with_x = rule_hits(make_and(cmp(CompareOp::Eq, lit(1), lit(2)), cmp(CompareOp::Gt, x, lit(15))));
  ASSERT_TRUE(with_x.count(literals_only));
  EXPECT_EQ(with_x.at(literals_only), 1u);
}

// Spark folds constants before Delta builds its filters: ts >= CAST('…' AS TIMESTAMP) skips there.
TEST_F(BuilderRules, AConstantOperandIsFoldedIntoItsValue) {
  const ExprPtr hundred = make_cast(lit(str("100")), DataType::of(TypeKind::Long));
  EXPECT_EQ(expression(cmp(CompareOp::Gt, x, hundred)), "max(x) > 100L");
  EXPECT_EQ(decide(cmp(CompareOp::Gt, x, hundred), f), SKIP);
  EXPECT_EQ(decide(cmp(CompareOp::Lt, hundred, x), f), SKIP);  // 100 < x, as x > 100
  EXPECT_EQ(decide(cmp(CompareOp::Lt, hundred, y), f), SKIP);
  EXPECT_EQ(decide(cmp(CompareOp::Gt, hundred, x), f), KEEP);
  EXPECT_EQ(decide(make_in(x, {hundred, lit(200)}), f), SKIP);
  EXPECT_EQ(expression(cmp(CompareOp::Gt, x, make_call("rand", {}))), "none");  // a value per row
  EXPECT_EQ(expression(cmp(CompareOp::Gt, x, make_cast(y, DataType::of(TypeKind::Long)))), "none");
}

TEST_F(BuilderRules, AndCombinesAndDropsANoneSide) {
  EXPECT_EQ(decide(make_and(cmp(CompareOp::Gt, x, lit(15)), cmp(CompareOp::Lt, y, lit(0))), f), SKIP);
  EXPECT_EQ(decide(make_and(cmp(CompareOp::Gt, x, lit(15)), cmp(CompareOp::Lt, y, lit(3))), f), KEEP);
  const ExprPtr with_none = make_and(cmp(CompareOp::Gt, x, lit(100)), b);
  EXPECT_EQ(expression(with_none), "max(x) > 100L");
  EXPECT_EQ(decide(with_none, f), SKIP);
}

TEST_F(BuilderRules, OrNeedsBothSides) {
  EXPECT_EQ(decide(make_or(cmp(CompareOp::Gt, x, lit(100)), cmp(CompareOp::Lt, y, lit(0))), f), SKIP);
  EXPECT_EQ(decide(make_or(cmp(CompareOp::Gt, x, lit(100)), cmp(CompareOp::Lt, y, lit(3))), f), KEEP);
  EXPECT_EQ(expression(make_or(cmp(CompareOp::Gt, x, lit(100)), b)), "none");
}

TEST_F(BuilderRules, NotOfAndOrUsesDeMorgan) {
  // NOT (x <= 100 AND y >= 0) = x > 100 OR y < 0: both impossible here.
  EXPECT_EQ(decide(make_not(make_and(cmp(CompareOp::Le, x, lit(100)), cmp(CompareOp::Ge, y, lit(0)))), f), SKIP);
  // NOT (x <= 15 OR y >= 0) = x > 15 AND y < 0: y < 0 is impossible.
  EXPECT_EQ(decide(make_not(make_or(cmp(CompareOp::Le, x, lit(15)), cmp(CompareOp::Ge, y, lit(0)))), f), SKIP);
  // NOT (x <= 15 AND y >= 0) = x > 15 OR y < 0: x = 16 is possible.
  EXPECT_EQ(decide(make_not(make_and(cmp(CompareOp::Le, x, lit(15)), cmp(CompareOp::Ge, y, lit(0)))), f), KEEP);
  EXPECT_EQ(expression(make_not(make_not(cmp(CompareOp::Gt, x, lit(100))))), "max(x) > 100L");
}

TEST_F(BuilderRules, IsNullUsesNullCount) {
  EXPECT_EQ(expression(make_is_null(x)), "nullCount(x) > 0L");
  EXPECT_EQ(decide(make_is_null(x), f), SKIP);
  EXPECT_EQ(decide(make_is_null(y), f), KEEP);
}

TEST_F(BuilderRules, IsNotNullComparesNullCountWithNumRecords) {
  FileStats all_null = file(4);
  set(all_null, X, std::nullopt, std::nullopt, 4);
  EXPECT_EQ(expression(make_is_not_null(x)), "nullCount(x) < numRecords");
  EXPECT_EQ(decide(make_is_not_null(x), all_null), SKIP);
  EXPECT_EQ(decide(make_is_not_null(x), f), KEEP);
  EXPECT_EQ(decide(make_not(make_is_null(x)), all_null), SKIP);
  EXPECT_EQ(decide(make_not(make_is_not_null(x)), f), SKIP);  // = x IS NULL, no nulls
}

// Delta skips NOT ((a > 1) IS NULL) on an all-NULL a (Spark infers isnotnull(a) first): an
// operator that is NULL on a NULL operand is non-NULL only where its operands are.
TEST_F(BuilderRules, IsNotNullOfANullIntolerantOperatorNeedsItsOperandsNonNull) {
  FileStats all_null = file(4);
  set(all_null, X, std::nullopt, std::nullopt, 4);
  const ExprPtr x_gt_1 = cmp(CompareOp::Gt, x, lit(1));
  EXPECT_EQ(expression(make_is_not_null(x_gt_1)), "nullCount(x) < numRecords");
  EXPECT_EQ(decide(make_not(make_is_null(x_gt_1)), all_null), SKIP);
  EXPECT_EQ(decide(make_not(make_is_null(x_gt_1)), f), KEEP);
  EXPECT_EQ(expression(make_is_not_null(make_arith(ArithOp::Add, {x, lit(1)}))), "nullCount(x) < numRecords");
  EXPECT_EQ(expression(make_is_not_null(cmp(CompareOp::Lt, x, y))),
            "nullCount(x) < numRecords AND nullCount(y) < numRecords");
  EXPECT_EQ(expression(make_is_not_null(make_in(x, {y}))), "nullCount(x) < numRecords");  // items may be NULL
  EXPECT_EQ(decide(make_is_not_null(cmp(CompareOp::Gt, x, null_lit())), f), SKIP);  // always NULL
  EXPECT_EQ(expression(make_is_not_null(cmp(CompareOp::NullSafeEq, x, lit(1)))), "none");  // never NULL
  EXPECT_EQ(expression(make_is_not_null(make_or(x_gt_1, make_is_null(y)))), "none");  // TRUE OR NULL is TRUE
}

TEST_F(BuilderRules, IsNullOfAComparisonAsksWhetherAChildCanBeNull) {
  EXPECT_EQ(decide(make_is_null(cmp(CompareOp::Gt, x, lit(5))), f), SKIP);  // x never null, 5 never
  EXPECT_EQ(decide(make_is_null(cmp(CompareOp::Gt, y, lit(5))), f), KEEP);  // y can be null
  EXPECT_EQ(decide(make_is_null(cmp(CompareOp::Eq, x, null_lit())), f), KEEP);  // NULL child: TRUE
  EXPECT_EQ(decide(make_is_null(make_not(cmp(CompareOp::Lt, x, lit(5)))), f), SKIP);
  EXPECT_EQ(expression(make_is_null(cmp(CompareOp::NullSafeEq, x, lit(5)))), "none");
  EXPECT_EQ(expression(make_is_null(make_in(x, {lit(1)}))), "none");
}

TEST_F(BuilderRules, IsNullOfAndOrExpandsToNineLevels) {
  const ExprPtr on_x = make_and(cmp(CompareOp::Gt, x, lit(1)), cmp(CompareOp::Lt, x, lit(5)));
  EXPECT_EQ(decide(make_is_null(on_x), f), SKIP);
  const ExprPtr on_y = make_or(cmp(CompareOp::Gt, y, lit(1)), cmp(CompareOp::Lt, x, lit(5)));
  EXPECT_EQ(decide(make_is_null(on_y), f), KEEP);
  // Depths 0..8 expand; a 10th nested AND gives none, so the file is kept although x has no nulls.
  auto nested = [&](int levels) {
    ExprPtr e = cmp(CompareOp::Gt, x, lit(1));
    for (int i = 0; i < levels; ++i) e = make_and(e, cmp(CompareOp::Lt, x, lit(i)));
    return make_is_null(e);
  };
  EXPECT_EQ(decide(nested(9), f), SKIP);
  EXPECT_EQ(decide(nested(10), f), KEEP);
  EXPECT_EQ(expression(nested(10)), "none");
}

TEST_F(BuilderRules, BooleanColumnsHaveNoMinMax) {
  FileStats b_all_null = file(10);
  set(b_all_null, B, std::nullopt, std::nullopt, 10);
  EXPECT_EQ(expression(b), "none");
  EXPECT_EQ(expression(cmp(CompareOp::Eq, b, lit(Value::boolean(true)))), "none");
  EXPECT_EQ(decide(cmp(CompareOp::Eq, b, lit(Value::boolean(true))), b_all_null), KEEP);
}

TEST_F(BuilderRules, EqualityNeedsTheValueInsideTheBounds) {
  EXPECT_EQ(expression(cmp(CompareOp::Eq, x, lit(25))), "min(x) <= 25L AND 25L <= max(x)");
  EXPECT_EQ(decide(cmp(CompareOp::Eq, x, lit(25)), f), SKIP);
  EXPECT_EQ(decide(cmp(CompareOp::Eq, x, lit(9)), f), SKIP);
  EXPECT_EQ(decide(cmp(CompareOp::Eq, x, lit(20)), f), KEEP);
  EXPECT_EQ(decide(cmp(CompareOp::Eq, x, lit(10)), f), KEEP);
}

TEST_F(BuilderRules, InequalityNeedsAnotherValue) {
  FileStats constant = file(3);
  set(constant, X, lng(15), lng(15), 0);
  EXPECT_EQ(decide(cmp(CompareOp::Ne, x, lit(15)), constant), SKIP);
  EXPECT_EQ(decide(make_not(cmp(CompareOp::Eq, x, lit(15))), constant), SKIP);
  EXPECT_EQ(decide(cmp(CompareOp::Ne, x, lit(16)), constant), KEEP);
}

TEST_F(BuilderRules, OrderedComparisonsAtTheirBoundaries) {
  EXPECT_EQ(decide(cmp(CompareOp::Lt, x, lit(10)), f), SKIP);
  EXPECT_EQ(decide(cmp(CompareOp::Le, x, lit(10)), f), KEEP);
  EXPECT_EQ(decide(cmp(CompareOp::Le, x, lit(9)), f), SKIP);
  EXPECT_EQ(decide(cmp(CompareOp::Gt, x, lit(20)), f), SKIP);
  EXPECT_EQ(decide(cmp(CompareOp::Ge, x, lit(20)), f), KEEP);
  EXPECT_EQ(decide(cmp(CompareOp::Ge, x, lit(21)), f), SKIP);
  EXPECT_EQ(decide(cmp(CompareOp::Lt, x, lit(11)), f), KEEP);
}

TEST_F(BuilderRules, LiteralOnTheLeftIsSwapped) {
  EXPECT_EQ(decide(cmp(CompareOp::Eq, lit(25), x), f), SKIP);
  EXPECT_EQ(decide(cmp(CompareOp::Gt, lit(5), x), f), SKIP);   // x < 5
  EXPECT_EQ(decide(cmp(CompareOp::Ge, lit(10), x), f), KEEP);  // x <= 10
  EXPECT_EQ(expression(cmp(CompareOp::Gt, lit(5), x)), "min(x) < 5L");
}

TEST_F(BuilderRules, NegatedComparisonsUseTheComplement) {
  EXPECT_EQ(decide(make_not(cmp(CompareOp::Lt, x, lit(21))), f), SKIP);  // x >= 21
  EXPECT_EQ(decide(make_not(cmp(CompareOp::Lt, x, lit(20))), f), KEEP);  // x >= 20
  EXPECT_EQ(decide(make_not(cmp(CompareOp::Gt, lit(10), x)), f), KEEP);  // 10 <= x, i.e. x >= 10
  EXPECT_EQ(decide(make_not(cmp(CompareOp::Ge, x, lit(10))), f), SKIP);  // x < 10
}

TEST_F(BuilderRules, NullSafeEqualityWithAValue) {
  EXPECT_EQ(decide(cmp(CompareOp::NullSafeEq, x, lit(25)), f), SKIP);
  EXPECT_EQ(decide(cmp(CompareOp::NullSafeEq, x, lit(15)), f), KEEP);
  // For a boolean only `nullCount(b) < numRecords` remains.
  const ExprPtr b_true = cmp(CompareOp::NullSafeEq, b, lit(Value::boolean(true)));
  EXPECT_EQ(expression(b_true), "nullCount(b) < numRecords");
  FileStats b_all_null = file(10);
  set(b_all_null, B, std::nullopt, std::nullopt, 10);
  EXPECT_EQ(decide(b_true, b_all_null), SKIP);
  EXPECT_EQ(decide(b_true, f), KEEP);
}

TEST_F(BuilderRules, NullSafeEqualityWithNull) {
  EXPECT_EQ(decide(cmp(CompareOp::NullSafeEq, x, null_lit()), f), SKIP);  // as x IS NULL
  EXPECT_EQ(decide(cmp(CompareOp::NullSafeEq, y, null_lit()), f), KEEP);
  FileStats all_null = file(4);
  set(all_null, X, std::nullopt, std::nullopt, 4);
  EXPECT_EQ(decide(make_not(cmp(CompareOp::NullSafeEq, x, null_lit())), all_null), SKIP);
  EXPECT_EQ(decide(make_not(cmp(CompareOp::NullSafeEq, x, null_lit())), f), KEEP);
}

TEST_F(BuilderRules, NegatedNullSafeEquality) {
  FileStats constant = file(3);
  set(constant, X, lng(15), lng(15), 0);
  set(constant, Y, lng(15), lng(15), 1);
  EXPECT_EQ(decide(make_not(cmp(CompareOp::NullSafeEq, x, lit(15))), constant), SKIP);
  EXPECT_EQ(decide(make_not(cmp(CompareOp::NullSafeEq, y, lit(15))), constant), KEEP);  // a NULL y
  EXPECT_EQ(expression(make_not(cmp(CompareOp::NullSafeEq, b, lit(Value::boolean(true))))), "none");
}

TEST_F(BuilderRules, StartsWithComparesPrefixesOfTheBounds) {
  const ExprPtr ab = make_like(s, lit(str("ab%")));
  EXPECT_EQ(expression(ab), "substr(min(s), 1, 2) <= 'ab' AND substr(max(s), 1, 2) >= 'ab'");
  EXPECT_EQ(decide(ab, f), SKIP);                                 // every s is in [ba, bz]
  EXPECT_EQ(decide(make_like(s, lit(str("bc%"))), f), KEEP);
  EXPECT_EQ(decide(make_like(s, lit(str("bz%"))), f), KEEP);      // "bz" itself starts with bz
  EXPECT_EQ(decide(make_like(s, lit(str("c%"))), f), SKIP);
  EXPECT_EQ(expression(make_like(s, lit(str("a_b%")))), "none");  // not a plain prefix
  EXPECT_EQ(expression(make_like(s, lit(str("%b")))), "none");
  // Code points, not bytes: "é%" is one character long.
  EXPECT_EQ(expression(make_like(s, lit(str("\xC3\xA9%")))),
            "substr(min(s), 1, 1) <= '\xC3\xA9' AND substr(max(s), 1, 1) >= '\xC3\xA9'");
}

// Delta's StartsWith rule: startswith(c, 's') bounds the file exactly as c LIKE 's%' does.
TEST_F(BuilderRules, StartsWithCallIsDeltasStartsWithRule) {
  const auto starts = [&](const std::string& prefix) { return make_call("startswith", {s, lit(str(prefix))}); };
  EXPECT_EQ(expression(starts("ab")), expression(make_like(s, lit(str("ab%")))));
  EXPECT_EQ(decide(starts("ab"), f), SKIP);
  EXPECT_EQ(decide(starts("bz"), f), KEEP);
  EXPECT_EQ(expression(starts("a%")), "substr(min(s), 1, 2) <= 'a%' AND substr(max(s), 1, 2) >= 'a%'")
      << "a literal prefix: '%' is a character here";
  EXPECT_EQ(decide(starts(""), f), KEEP) << "every string starts with ''";
  EXPECT_EQ(expression(make_call("startswith", {s, null_lit()})), "none");
  EXPECT_EQ(expression(make_call("startswith", {s, s})), "none");
  EXPECT_EQ(expression(make_not(starts("ab"))), "none");
  // StartsWith is null-intolerant: its IS NULL pushes down to the column.
  EXPECT_EQ(expression(make_is_null(starts("ab"))), "nullCount(s) > 0L OR FALSE");  // the literal is never NULL
  EXPECT_EQ(decide(make_is_null(starts("ab")), f), SKIP);
}

// A NULL pattern, even one typed STRING, is no "non-NULL string" (docs/semantics.md §5.3): LIKE and
// startswith with it get no rule.
TEST_F(BuilderRules, ATypedNullPatternGivesNone) {
  const ExprPtr null_string = lit(Value::null(DataType::of(TypeKind::String)));
  EXPECT_EQ(expression(make_like(s, null_string)), "none");
  EXPECT_EQ(expression(make_call("startswith", {s, null_string})), "none");
  EXPECT_EQ(decide(make_like(s, null_string), f), KEEP);
}

// Only startswith gets the starts-with rule (docs/semantics.md §5.3): endswith(s, 'ab') has the
// same shape but is TRUE on s = 'bab', inside [ba, bz], so the file must be kept.
TEST_F(BuilderRules, OnlyStartsWithGetsThePrefixRule) {
  EXPECT_EQ(expression(make_call("endswith", {s, lit(str("ab"))})), "none");
  EXPECT_EQ(expression(make_call("contains", {s, lit(str("ab"))})), "none");
  EXPECT_EQ(decide(make_call("endswith", {s, lit(str("ab"))}), f), KEEP);
}

// On an all-NULL string column a starts-with atom is NULL on every row; its missing bounds pass
// verification (docs/semantics.md §5.4), substr(NULL) is NULL, so the file is skipped.
TEST_F(BuilderRules, StartsWithOnAnAllNullColumnSkips) {
  FileStats all_null = file(4);
  set(all_null, S, std::nullopt, std::nullopt, 4);
  EXPECT_EQ(decide(make_like(s, lit(str("ab%"))), all_null), SKIP);
  EXPECT_EQ(decide(make_call("startswith", {s, lit(str("ab"))}), all_null), SKIP);
}

// A column the table does not collect min/max for gets no starts-with rule (docs/semantics.md §5.1),
// even when a file written under an older configuration still carries its stats.
TEST_F(BuilderRules, StartsWithOnAColumnWithoutMinMaxGivesNone) {
  StatsConfig only_x;
  only_x.stats_columns = std::vector<ColumnPath>{{"x"}};
  reconfigure(only_x);
  EXPECT_EQ(expression(make_like(s, lit(str("ab%")))), "none");
  EXPECT_EQ(expression(make_call("startswith", {s, lit(str("ab"))})), "none");
  EXPECT_EQ(decide(make_like(s, lit(str("ab%"))), f), KEEP);
}

TEST_F(BuilderRules, LikeWithEscapeIsAPrefixUnlessThePatternHoldsTheEscape) {
  EXPECT_EQ(expression(make_like_escape(s, lit(str("ab%")), U'#')), expression(make_like(s, lit(str("ab%")))));
  EXPECT_EQ(expression(make_like_escape(s, lit(str("a\\b%")), U'#')),
            "substr(min(s), 1, 3) <= 'a\\\\b' AND substr(max(s), 1, 3) >= 'a\\\\b'")
      << "a backslash is an ordinary character under ESCAPE '#'";
  EXPECT_EQ(expression(make_like_escape(s, lit(str("a#%%")), U'#')), "none") << "Spark leaves it a LIKE";
  EXPECT_EQ(expression(make_is_null(make_like_escape(s, lit(str("ab%")), U'#'))), "(nullCount(s) > 0L OR FALSE) OR FALSE");
}

// Spark's LikeSimplification makes a pattern without wildcards an EqualTo, which Delta bounds.
TEST_F(BuilderRules, LikeWithoutWildcardsIsEquality) {
  EXPECT_EQ(expression(make_like(s, lit(str("bb")))), expression(cmp(CompareOp::Eq, s, lit(str("bb")))));
  EXPECT_EQ(decide(make_like(s, lit(str("ca"))), f), SKIP);
  EXPECT_EQ(decide(make_like(s, lit(str("bc"))), f), KEEP);
  EXPECT_EQ(expression(make_like(s, lit(str("b_")))), "none");
  EXPECT_EQ(expression(make_like_escape(s, lit(str("b#")), U'#')), "none") << "Spark leaves a pattern with its escape a LIKE";
}

// The forms Spark's parser rewrites get the rules of what they become; the others have none in
// Delta (constructDataFilters' `case _ => None`).
TEST_F(BuilderRules, SparksGrammarGetsDeltasRulesOnly) {
  const ExprPtr t = lit(Value::boolean(true));
  // x IS NOT DISTINCT FROM 15 is x <=> 15; x IS DISTINCT FROM 15 is NOT (x <=> 15).
  EXPECT_EQ(expression(cmp(CompareOp::NullSafeEq, x, lit(15))), "nullCount(x) < numRecords AND (min(x) <= 15L AND 15L <= max(x))");
  // b IS TRUE is b <=> TRUE: booleans have no min/max, so only the null-count part remains.
  EXPECT_EQ(expression(cmp(CompareOp::NullSafeEq, b, t)), "nullCount(b) < numRecords");
  // (x > 100) IS TRUE: <=> on a non-column gives none, as Delta's EqualTo on a predicate.
  EXPECT_EQ(expression(cmp(CompareOp::NullSafeEq, cmp(CompareOp::Gt, x, lit(100)), t)), "none");
  // (x > 100) IS UNKNOWN is an IS NULL: pushed into the comparison.
  EXPECT_EQ(expression(make_is_unknown(cmp(CompareOp::Gt, x, lit(100)), false)), "nullCount(x) > 0L OR FALSE");
  EXPECT_EQ(decide(make_is_unknown(cmp(CompareOp::Gt, x, lit(100)), false), f), SKIP);
  EXPECT_EQ(expression(make_rlike(s, lit(str("^a")))), "none");
  EXPECT_EQ(expression(make_like_any(s, {lit(str("a%")), lit(str("b%"))})), "none");
  EXPECT_EQ(expression(make_like_all(s, {lit(str("a%"))})), "none");
  EXPECT_EQ(expression(make_is_null(make_like_any(s, {lit(str("a%"))}))), "none");
  EXPECT_EQ(expression(make_case({{cmp(CompareOp::Gt, x, lit(100)), t}}, nullptr)), "none");
  EXPECT_EQ(expression(make_call("if", {cmp(CompareOp::Gt, x, lit(100)), t, lit(Value::boolean(false))})), "none");
  EXPECT_EQ(expression(cmp(CompareOp::Eq, make_call("substring", {s, lit(1), lit(2)}), lit(str("ab")))), "none");
  EXPECT_EQ(expression(cmp(CompareOp::Gt, make_call("date_add", {x, lit(1)}), lit(100))), "none");
  EXPECT_EQ(expression(make_like(make_call("lower", {s}), make_call("lower", {lit(str("A%"))}))), "none");
}

TEST_F(BuilderRules, InUsesTheListsRange) {
  EXPECT_EQ(decide(make_in(x, {lit(1), lit(2)}), f), SKIP);
  EXPECT_EQ(decide(make_in(x, {lit(1), lit(30)}), f), KEEP);  // the range [1, 30] covers the file
  EXPECT_EQ(decide(make_in(x, {lit(25), null_lit(), lit(40)}), f), SKIP);
  EXPECT_EQ(expression(make_in(x, {null_lit()})), "FALSE");
  EXPECT_EQ(decide(make_in(x, {null_lit()}), f), SKIP);
  EXPECT_EQ(expression(make_in(x, {y, lit(1)})), "none");
  EXPECT_EQ(expression(make_not(make_in(x, {lit(1)}))), "none");
}

TEST_F(BuilderRules, BetweenIsTwoComparisons) {
  EXPECT_EQ(decide(make_between(x, lit(21), lit(30)), f), SKIP);
  EXPECT_EQ(decide(make_between(x, lit(15), lit(30)), f), KEEP);
  EXPECT_EQ(decide(make_between(x, lit(0), lit(9)), f), SKIP);
  // NOT BETWEEN is De Morgan over the two comparisons, as Delta sees Spark's desugared BETWEEN.
  EXPECT_EQ(expression(make_not(make_between(x, lit(0), lit(9)))), expression(make_or(make_not(cmp(CompareOp::Ge, x, lit(0))), make_not(cmp(CompareOp::Le, x, lit(9))))));
  EXPECT_EQ(decide(make_not(make_between(x, lit(0), lit(30))), f), SKIP);
  EXPECT_EQ(decide(make_not(make_between(x, lit(15), lit(30))), f), KEEP);
}

TEST_F(BuilderRules, EverythingElseGivesNone) {
  EXPECT_EQ(expression(make_not(make_like(s, lit(str("a%"))))), "none");
  EXPECT_EQ(expression(cmp(CompareOp::Eq, x, y)), "none");
  EXPECT_EQ(expression(cmp(CompareOp::Eq, make_cast(x, DataType::of(TypeKind::Int)), lit(5))), "none");
  EXPECT_EQ(expression(cmp(CompareOp::Eq, make_call("abs", {x}), lit(100))), "none");
  EXPECT_EQ(expression(cmp(CompareOp::Eq, make_arith(ArithOp::Add, {x, lit(1)}), lit(100))), "none");
  EXPECT_EQ(expression(make_is_null(col("arr"))), "none");  // arrays: none despite nullCount
  EXPECT_EQ(expression(cmp(CompareOp::Gt, col("p"), lit(1))), "none");  // partition column
  EXPECT_EQ(expression(cmp(CompareOp::Eq, col("bin"), lit(Value::binary("a")))), "none");
}

TEST_F(BuilderRules, NestedLeavesAreColumnsOfTheirOwn) {
  FileStats nested = file(5);
  set(nested, ST_A, Value::integral(TypeKind::Int, 1), Value::integral(TypeKind::Int, 3), 0);
  EXPECT_EQ(expression(cmp(CompareOp::Gt, col("st.a"), lit(3))), "max(st.a) > 3L");
  EXPECT_EQ(decide(cmp(CompareOp::Gt, col("st.a"), lit(3)), nested), SKIP);
  EXPECT_EQ(decide(cmp(CompareOp::Gt, col("st.a"), lit(2)), nested), KEEP);
}

TEST_F(BuilderRules, AComparisonWithANullLiteralIsNeverTrue) {
  EXPECT_EQ(decide(cmp(CompareOp::Eq, x, null_lit()), f), SKIP);
  EXPECT_EQ(decide(cmp(CompareOp::Lt, y, null_lit()), f), SKIP);
  EXPECT_EQ(decide(make_not(cmp(CompareOp::Lt, y, null_lit())), f), SKIP);
}

// Spark folds `x = NULL` to NULL before Delta sees it, and Delta then skips every file as a
// literal-only filter. skipsound builds `min(x) <= NULL AND NULL <= max(x)` instead, which
// still skips when x's stats are present but keeps a file that lacks them: sound, less skipping.
TEST_F(BuilderRules, DifferenceFromDeltaOnANullComparisonIsOnTheSafeSide) {
  FileStats no_stats = file(10);
  EXPECT_EQ(decide(cmp(CompareOp::Eq, x, null_lit()), no_stats), KEEP);
}

TEST_F(BuilderRules, ReferencedStatsBringNullCountAndNumRecords) {
  const auto built = build(cmp(CompareOp::Gt, x, lit(1)));
  ASSERT_TRUE(built.has_value());
  const std::set<StatRef> expected{{StatKind::Max, X}, {StatKind::NullCount, X}, {StatKind::NumRecords, -1}};
  EXPECT_EQ(built->referenced, expected);
}

// A timestamp max reads as max + 1 ms, saturating at the largest value (docs/semantics.md §4.5,
// checker/skipping_expr.h read_stat): a max near the top must not wrap round to a negative bound.
TEST_F(BuilderRules, TheTimestampMaxBumpSaturates) {
  constexpr int64_t top = std::numeric_limits<int64_t>::max();
  FileStats high = file(2);
  set(high, T, ts(0), ts(top - 10), 0);
  EXPECT_EQ(decide(cmp(CompareOp::Gt, col("t"), lit(ts(top - 5))), high), KEEP);
  EXPECT_EQ(decide(cmp(CompareOp::Ge, col("t"), lit(ts(top))), high), KEEP);
}

// The gate's coverage table counts a decided skip, and credits the rules that built the
// expression that skipped (docs/semantics.md §5.4's keep rule); a kept file credits nothing.
TEST_F(BuilderRules, ASkipIsCountedAndCreditedToItsRules) {
  using coverage::Probe;
  const auto index = [](Probe p) { return static_cast<size_t>(p); };
  coverage::Counts before = coverage::snapshot();
  EXPECT_EQ(decide(cmp(CompareOp::Gt, x, lit(100)), f), SKIP);
  coverage::Counts after = coverage::snapshot().since(before);
  EXPECT_GE(after.hits[index(Probe::SkipDecided)], 1u);
  EXPECT_GE(after.skips[index(Probe::RuleRange)], 1u);
  EXPECT_EQ(after.skips[index(Probe::RuleEq)], 0u);
  before = coverage::snapshot();
  EXPECT_EQ(decide(cmp(CompareOp::Gt, x, lit(15)), f), KEEP);
  after = coverage::snapshot().since(before);
  EXPECT_EQ(after.hits[index(Probe::SkipDecided)], 0u);
  EXPECT_EQ(after.skips[index(Probe::RuleRange)], 0u);
}

// A trace shows each node's text cut to a screenful (printing every subtree in full made a
// 8,000-term OR take minutes); the whole skipping expression is still printed in full.
TEST_F(BuilderRules, TraceTextsOfALongChainAreCutButTheExpressionIsWhole) {
  ExprPtr chain = cmp(CompareOp::Eq, x, lit(0));
  for (int64_t k = 1; k < 300; ++k) chain = make_or(chain, cmp(CompareOp::Eq, x, lit(k)));
  const auto built = build(chain);
  ASSERT_TRUE(built.has_value());
  const std::string whole = to_string(built->expr, schema);
  EXPECT_NE(whole.find("299"), std::string::npos);
  EXPECT_EQ(whole.find("..."), std::string::npos);

  FileStats f = file(10);
  set(f, X, lng(500), lng(600), 0);
  SkipTrace trace;
  evaluate_skip_traced(*built->expr, StatReadContext{f, schema}, trace);
  EXPECT_LT(trace.text.size(), whole.size());
  EXPECT_LE(trace.text.size(), 403u);
  EXPECT_EQ(trace.text.substr(trace.text.size() - 3), "...");
  EXPECT_EQ(trace.text.substr(0, 200), whole.substr(0, 200));
  // A leaf's text is short enough to stay whole.
  const SkipTrace* leaf = &trace;
  while (!leaf->children.empty()) leaf = &leaf->children.back();
  EXPECT_EQ(leaf->text.find("..."), std::string::npos);
}

// docs/semantics.md §5.3 (builder table, `(a AND b) IS NULL`): the depth counts a junction's right
// side as its left, and NOT (e IS NOT NULL) is e IS NULL expanded from depth 0.
TEST_F(BuilderRules, IsNullDepthCountsBothSidesAndNegatedIsNotNullStartsAtZero) {
  auto chain = [&](int levels, bool right) {
    ExprPtr e = cmp(CompareOp::Gt, x, lit(1));
    for (int i = 0; i < levels; ++i) {
      e = right ? make_and(cmp(CompareOp::Lt, x, lit(i)), e) : make_and(e, cmp(CompareOp::Lt, x, lit(i)));
    }
    return e;
  };
  EXPECT_EQ(decide(make_is_null(chain(9, true)), f), SKIP);
  EXPECT_EQ(decide(make_is_null(chain(10, true)), f), KEEP);
  EXPECT_EQ(decide(make_not(make_is_not_null(chain(9, false))), f), SKIP);
  EXPECT_EQ(decide(make_not(make_is_not_null(chain(10, false))), f), KEEP);
}

// docs/semantics.md §5.3: only a constant operand is folded; a non-deterministic call makes the
// operand non-constant even where the call's value would not be needed.
TEST_F(BuilderRules, ANonDeterministicCallIsNeverFolded) {
  const ExprPtr one_or_rand = make_call("coalesce", {lit(1), make_call("rand", {})});
  EXPECT_EQ(expression(cmp(CompareOp::Lt, x, one_or_rand)), "none");
  EXPECT_EQ(decide(cmp(CompareOp::Lt, x, one_or_rand), f), KEEP);
}

// docs/semantics.md §5.3: the min/max rules need a column operand; a cast of a column compared
// with a literal gets no rule, and the file is kept.
TEST_F(BuilderRules, AComputedOperandVersusALiteralGetsNoRule) {
  const ExprPtr y_as_long = make_cast(y, DataType::of(TypeKind::Long));
  EXPECT_EQ(expression(cmp(CompareOp::Gt, y_as_long, lit(100))), "none");
  EXPECT_EQ(decide(cmp(CompareOp::Gt, y_as_long, lit(100)), f), KEEP);
}

}  // namespace
}  // namespace skipsound::test
