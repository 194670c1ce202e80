// smt/interval_decider.h on hand-made files whose answers follow from docs/semantics.md §4.3 and §6.1: the
// corners of the stats (realising min and max, all-NULL columns, deletion vectors, truncated
// strings, the timestamp slack, -0.0 and NaN, the ends of a domain) answered by the procedure
// itself, each answer equal to Z3's; and the constructs outside its fragment left to Z3.
#include <gtest/gtest.h>

#include <map>

#include "model/sql/binder.h"
#include "model/sql/evaluator.h"
#include "model/stats/stats.h"
#include "smt/interval_decider.h"
#include "smt/oracle.h"

namespace skipsound::smt {
namespace {

const Schema& table() {
  static const Schema schema = Schema::from_json_text(R"json({"type":"struct","fields":[
    {"name":"i","type":"long","nullable":true,"metadata":{}},
    {"name":"d","type":"double","nullable":true,"metadata":{}},
    {"name":"m","type":"decimal(5,2)","nullable":true,"metadata":{}},
    {"name":"s","type":"string","nullable":true,"metadata":{}},
    {"name":"b","type":"binary","nullable":true,"metadata":{}},
    {"name":"t","type":"timestamp","nullable":true,"metadata":{}},
    {"name":"dt","type":"date","nullable":true,"metadata":{}},
    {"name":"flag","type":"boolean","nullable":true,"metadata":{}},
    {"name":"j","type":"long","nullable":true,"metadata":{}}]})json");
  return schema;
}

struct File {
  std::string stats_json;
  int64_t deleted = 0;
  int string_prefix_length = kDefaultStringPrefixLength;
  std::map<int, Value> partition_values = {};  // by leaf ordinal
};

// The procedure's verdict; a witness must pass the model's re-check and Z3 must agree.
std::string decided(const File& file, const std::string& predicate) {
  const FileStats stats = stats_from_json_text(file.stats_json, table());
  const FileEvidence evidence{&stats, file.deleted, file.partition_values, file.string_prefix_length};
  const ExprPtr bound = parse_and_bind(predicate, table());
  const RowAllowance allowance = row_allowance(evidence, table());
  const std::optional<OracleResult> answer = decide_by_intervals(bound, table(), allowance);
  if (!answer) return "outside";
  if (const auto* sat = std::get_if<Sat>(&*answer)) {
    EXPECT_EQ(check_row_consistency(sat->witness, allowance).kind, Consistency::Consistent) << predicate;
    EXPECT_EQ(evaluate(*bound, sat->witness, replayed_calls(*sat)), Truth::True) << predicate;
  }
  Oracle z3;
  const OracleResult by_z3 = z3.check(bound, table(), evidence);
  // Z3 over-approximates some functions and may give up where the model's evaluator confirms.
  if (verdict_of(by_z3) == OracleVerdict::Unknown) return std::string(verdict_name(verdict_of(*answer))) + " (Z3 unknown)";
  EXPECT_EQ(verdict_of(by_z3), verdict_of(*answer))
      << predicate << " on " << file.stats_json << ": Z3 " << describe(by_z3, table());
  return verdict_name(verdict_of(*answer));
}

// The procedure's verdict where Z3 may give no answer (floating-point theory).
std::string strip_z3_note(const std::string& verdict) { return verdict.substr(0, verdict.find(" (Z3 unknown)")); }

TEST(IntervalDecider, TwoRowsMustRealiseMinAndMax) {
  const File two{R"({"numRecords":2,"tightBounds":true,"minValues":{"i":5},"maxValues":{"i":7},"nullCount":{"i":0}})"};
  EXPECT_EQ(decided(two, "i = 6"), "UNSAT");
  EXPECT_EQ(decided(two, "i = 7"), "SAT");
  EXPECT_EQ(decided(two, "i BETWEEN 6 AND 100"), "SAT");
  const File three{R"({"numRecords":3,"tightBounds":true,"minValues":{"i":5},"maxValues":{"i":7},"nullCount":{"i":0}})"};
  EXPECT_EQ(decided(three, "i = 6"), "SAT");
  // A deletion vector or wide bounds free the live rows from realising the recorded bounds.
  EXPECT_EQ(decided(File{two.stats_json, 1}, "i = 6"), "SAT");
  const File wide{R"({"numRecords":2,"tightBounds":false,"minValues":{"i":5},"maxValues":{"i":7},"nullCount":{"i":0}})"};
  EXPECT_EQ(decided(wide, "i = 6"), "SAT");
}

TEST(IntervalDecider, NullCountsInThreeValuedLogic) {
  const File all_null{R"({"numRecords":3,"tightBounds":true,"nullCount":{"i":3}})"};
  EXPECT_EQ(decided(all_null, "i IS NOT NULL"), "UNSAT");
  EXPECT_EQ(decided(all_null, "i = 5 OR i IS NULL"), "SAT");
  EXPECT_EQ(decided(all_null, "NOT (i = 5)"), "UNSAT");
  EXPECT_EQ(decided(all_null, "(i = 5) IS NULL"), "SAT");
  EXPECT_EQ(decided(all_null, "i <=> NULL"), "SAT");
  const File none_null{R"({"numRecords":3,"tightBounds":true,"minValues":{"i":1},"maxValues":{"i":9},"nullCount":{"i":0}})"};
  EXPECT_EQ(decided(none_null, "i IS NULL OR i > 9"), "UNSAT");
  EXPECT_EQ(decided(none_null, "i NOT IN (1, 2, NULL)"), "UNSAT");
  EXPECT_EQ(decided(none_null, "i NOT IN (1, 2)"), "SAT");
}

TEST(IntervalDecider, EndsOfTheDomains) {
  const File top{R"({"numRecords":2,"minValues":{"i":9223372036854775806},"maxValues":{"i":9223372036854775807}})"};
  EXPECT_EQ(decided(top, "i > 9223372036854775806"), "SAT");
  EXPECT_EQ(decided(top, "i > 9223372036854775807"), "UNSAT");
  const File bytes{R"({"numRecords":2,"minValues":{"b":""},"maxValues":{"b":"/w=="}})"};
  EXPECT_EQ(decided(bytes, "b < X''"), "UNSAT");
  EXPECT_EQ(decided(bytes, "b > X'FE' AND b < X'FF'"), "SAT");
}

TEST(IntervalDecider, DoublesInSparkOrder) {
  const File zero{R"({"numRecords":1,"tightBounds":true,"minValues":{"d":0.0},"maxValues":{"d":0.0},"nullCount":{"d":0}})"};
  EXPECT_EQ(decided(zero, "d = -0.0D"), "SAT");
  EXPECT_EQ(decided(zero, "d < 0.0D OR d > 0.0D"), "UNSAT");
  const File to_nan{R"({"numRecords":2,"tightBounds":true,"minValues":{"d":1.0},"maxValues":{"d":"NaN"},"nullCount":{"d":0}})"};
  EXPECT_EQ(decided(to_nan, "d > CAST('Infinity' AS DOUBLE)"), "SAT");
  EXPECT_EQ(decided(to_nan, "d > 1.0D AND d < CAST('NaN' AS DOUBLE)"), "UNSAT");
}

TEST(IntervalDecider, DecimalsDatesAndTheTimestampSlack) {
  const File money{R"({"numRecords":3,"tightBounds":true,"minValues":{"m":1.00},"maxValues":{"m":2.00},"nullCount":{"m":0}})"};
  EXPECT_EQ(decided(money, "m > 1.99"), "SAT");
  EXPECT_EQ(decided(money, "m > 2.00"), "UNSAT");
  // Literals of other scales compare exactly: no value of scale 2 lies in [1.001, 1.009].
  EXPECT_EQ(decided(money, "m > 1.995"), "SAT");
  EXPECT_EQ(decided(money, "m BETWEEN 1.001 AND 1.009"), "UNSAT");
  EXPECT_EQ(decided(money, "m BETWEEN -1.001 AND 1.001"), "SAT");
  const File days{R"({"numRecords":2,"tightBounds":true,"minValues":{"dt":"2020-01-01"},"maxValues":{"dt":"2020-01-03"},"nullCount":{"dt":0}})"};
  EXPECT_EQ(decided(days, "dt = DATE '2020-01-02'"), "UNSAT");
  EXPECT_EQ(decided(File{days.stats_json, 1}, "dt = DATE '2020-01-02'"), "SAT");
  // The max is floored to the millisecond: the one row lies up to 999 µs above it.
  const File instant{R"({"numRecords":1,"tightBounds":true,"minValues":{"t":"2020-01-01T00:00:00.000Z"},"maxValues":{"t":"2020-01-01T00:00:00.000Z"},"nullCount":{"t":0}})"};
  EXPECT_EQ(decided(instant, "t = TIMESTAMP '2020-01-01 00:00:00.000999'"), "SAT");
  EXPECT_EQ(decided(instant, "t >= TIMESTAMP '2020-01-01 00:00:00.001'"), "UNSAT");
}

// With prefix length 2, min "ab" may be a cut prefix and max "ab" + U+007F is cut too.
TEST(IntervalDecider, TruncatedStringStats) {
  const File cut{R"({"numRecords":1,"tightBounds":true,"minValues":{"s":"ab"},"maxValues":{"s":"ab\u007f"},"nullCount":{"s":0}})", 0, 2};
  EXPECT_EQ(decided(cut, "s > 'ab'"), "SAT");
  EXPECT_EQ(decided(cut, "s < 'ab'"), "UNSAT");
  EXPECT_EQ(decided(cut, "s LIKE 'ab%'"), "SAT");
  EXPECT_EQ(decided(cut, "s LIKE 'b%' OR s LIKE 'a'"), "UNSAT");
  EXPECT_EQ(decided(cut, "s LIKE 'ab%' AND s NOT LIKE 'ab'"), "SAT");
}

TEST(IntervalDecider, SeveralColumnsAtOnce) {
  const File f{R"({"numRecords":2,"tightBounds":true,"minValues":{"i":5,"s":"k"},"maxValues":{"i":7,"s":"q"},"nullCount":{"i":0,"s":0,"flag":2}})"};
  EXPECT_EQ(decided(f, "i = 6 OR s = 'm'"), "UNSAT");
  EXPECT_EQ(decided(f, "(i = 5 AND s = 'q') OR flag"), "SAT");
  EXPECT_EQ(decided(f, "flag IS NOT NULL OR (i > 7 AND s >= 'k')"), "UNSAT");
}

// Column against column, arithmetic, calls, casts and other LIKE patterns are opaque atoms: a row
// the search cannot rule out is a witness once the model's evaluator confirms it.
TEST(IntervalDecider, ConfirmsWitnessesThroughOpaqueAtoms) {
  const File f{R"({"numRecords":2,"minValues":{"i":5,"s":"k"},"maxValues":{"i":7,"s":"q"}})"};
  for (const char* predicate : {"i = i", "i + 1 > 3", "CAST(i AS DOUBLE) > 0.5", "s RLIKE 'q|z'", "i > 6 AND i * 2 = 14"})
    EXPECT_EQ(decided(f, predicate), "SAT") << predicate;
  EXPECT_EQ(decided(f, "upper(s) = 'K'"), "SAT (Z3 unknown)");
}

// Two columns an opaque atom compares try each other's bounds: i = j holds only at 7, which is
// neither an end point of i's range nor just above one.
TEST(IntervalDecider, ColumnsComparedWithEachOtherMeetWhereTheirRangesDo) {
  const File f{R"({"numRecords":3,"minValues":{"i":5,"j":7},"maxValues":{"i":9,"j":7},"nullCount":{"i":0,"j":0}})"};
  EXPECT_EQ(decided(f, "i = j"), "SAT");
  EXPECT_EQ(decided(f, "j <=> i AND i < 8"), "SAT");
}

// Whatever truth value the opaque atoms take, no consistent row makes these TRUE.
TEST(IntervalDecider, ProvesUnsatWhateverTheOpaqueAtomsGive) {
  const File f{R"({"numRecords":2,"minValues":{"i":5,"s":"k"},"maxValues":{"i":7,"s":"q"}})"};
  for (const char* predicate : {"i > 7 AND i + 1 > 3", "(i < 5 OR s > 'q') AND upper(s) = 'K'",
                                "rand() < 0.5 AND i IS NULL AND i IS NOT NULL", "NOT (i = i) AND i BETWEEN 8 AND 9"})
    EXPECT_EQ(decided(f, predicate), "UNSAT") << predicate;
}

// Patterns with '_' or an inner '%', ESCAPE, LIKE ANY / ALL and the string functions are in the
// fragment (smt/like_cells.h): each answer is the procedure's own, and equal to Z3's.
TEST(IntervalDecider, DecidesEveryLikePatternItself) {
  const File f{R"({"numRecords":2,"tightBounds":true,"minValues":{"s":"k"},"maxValues":{"s":"q"},"nullCount":{"s":0}})"};
  const File wide{R"({"numRecords":3,"minValues":{"s":"k"},"maxValues":{"s":"q"},"nullCount":{"s":0}})"};
  EXPECT_EQ(decided(f, "s LIKE '%q'"), "SAT");
  EXPECT_EQ(decided(f, "s LIKE '_' AND s <> 'k' AND s <> 'q'"), "UNSAT");  // two rows: one is k, one is q
  EXPECT_EQ(decided(wide, "s LIKE '_' AND s <> 'k' AND s <> 'q'"), "SAT");  // a third row, 'l'
  EXPECT_EQ(decided(wide, "s LIKE 'a%b' OR s LIKE '%z' AND s > 'q'"), "UNSAT");
  EXPECT_EQ(decided(wide, "s LIKE '%x%' AND s NOT LIKE 'k%'"), "SAT");
  EXPECT_EQ(decided(wide, "s LIKE 'k#%%' ESCAPE '#' AND s NOT LIKE '%#%%' ESCAPE '#'"), "UNSAT");
  EXPECT_EQ(decided(wide, "s LIKE 'k#%%' ESCAPE '#' AND s NOT LIKE '%#%' ESCAPE '#'"), "SAT");
  EXPECT_EQ(decided(wide, "s LIKE ALL ('%a', 'k%') AND NOT s LIKE ANY ('%aa', 'ka')"), "SAT");
  EXPECT_EQ(decided(wide, "s LIKE ANY ('a%b', 'z_', NULL)"), "UNSAT");
  EXPECT_EQ(decided(wide, "endswith(s, 'zz') AND s < 'k'"), "UNSAT");
  EXPECT_EQ(decided(wide, "contains(s, 'é') AND startswith(s, 'p')"), "SAT (Z3 unknown)");
  EXPECT_EQ(decided(wide, "s RLIKE '^z' OR s RLIKE '^j'"), "UNSAT (Z3 unknown)");
  EXPECT_EQ(decided(wide, "s RLIKE 'zz' AND s RLIKE '^m'"), "SAT (Z3 unknown)");
}

// An opaque atom on a column whose every admitted value is a candidate (a partition value, an
// all-NULL column, a boolean) is decided by the evaluator on each: no Z3, and a refutation too.
TEST(IntervalDecider, OpaqueAtomsOnAColumnOfOneValueAreExact) {
  const File partition{R"({"numRecords":2,"minValues":{"i":5},"maxValues":{"i":7}})", 0, kDefaultStringPrefixLength,
                       {{3, Value::string("aa")}}};
  EXPECT_EQ(decided(partition, "lower(s) NOT LIKE 'a%' AND s <= 'aaa'"), "UNSAT (Z3 unknown)");
  EXPECT_EQ(decided(partition, "upper(s) = 'AA' AND i > 6"), "SAT");
  EXPECT_EQ(decided(partition, "length(s) = 2 OR i + 1 = 0"), "SAT");
  EXPECT_EQ(decided(partition, "upper(s) = 'A' AND i + 1 = 0"), "UNSAT");
  const File null_partition{R"({"numRecords":2})", 0, kDefaultStringPrefixLength, {{0, Value::null()}}};
  EXPECT_EQ(decided(null_partition, "abs(i) = 3 OR coalesce(i, 1) = 2"), "UNSAT (Z3 unknown)");
  EXPECT_EQ(decided(null_partition, "coalesce(i, 1) = 1"), "SAT");
  const File all_null{R"({"numRecords":3,"nullCount":{"i":3}})"};
  EXPECT_EQ(decided(all_null, "i + 1 > 3"), "UNSAT");
  const File no_stats{R"({"numRecords":3})"};
  EXPECT_EQ(decided(no_stats, "CAST(flag AS INT) = 2"), "UNSAT (Z3 unknown)");
  EXPECT_EQ(decided(no_stats, "CAST(flag AS INT) = 1"), "SAT (Z3 unknown)");
  // Not one value: a range of i, a call that is not deterministic, two columns.
  EXPECT_EQ(decided(partition, "i * 2 = 13"), "outside");
  EXPECT_EQ(decided(partition, "upper(s) = 'A' AND rand() < 0.5"), "UNSAT (Z3 unknown)");
  EXPECT_EQ(decided(partition, "rand() < 0.5 AND length(s) = 1"), "UNSAT (Z3 unknown)");
  EXPECT_EQ(decided(partition, "concat(s, CAST(i AS STRING)) = 'aa5' AND s = 'b'"), "UNSAT");
}

// A witness through a non-deterministic call carries the values the call returned, each in the
// range Z3 gives it (rand() in [0, 1)); an opaque `c + k = v` tries v - k.
TEST(IntervalDecider, WitnessesCarryTheValuesOfNonDeterministicCalls) {
  const File f{R"({"numRecords":3,"minValues":{"i":5,"d":-9.5},"maxValues":{"i":7,"d":9.5},"nullCount":{"i":0,"d":0}})"};
  for (const char* predicate : {"rand() < 0.5", "NOT rand() < 0.5", "rand() = 0.25 AND i > 6", "randn() < -0.5 OR i < 5",
                                "rand() > 0.9 AND rand() < 0.1", "monotonically_increasing_id() = 12", "i + 1 = 8",
                                "d + 1.0D = 1.0D", "d - 2.5D <=> -9.0D", "i - 3 > 3 AND i * 2 = 14"})
    EXPECT_EQ(decided(f, predicate), "SAT") << predicate;
  const FileStats stats = stats_from_json_text(f.stats_json, table());
  const ExprPtr bound = parse_and_bind("rand() = 0.25 AND NOT rand() < 0.5", table());
  const std::optional<OracleResult> answer =
      decide_by_intervals(bound, table(), row_allowance(FileEvidence{&stats, 0, {}, kDefaultStringPrefixLength}, table()));
  ASSERT_TRUE(answer && std::holds_alternative<Sat>(*answer));
  EXPECT_EQ(calls_text(std::get<Sat>(*answer)), " with rand() #1 = 0.25, rand() #2 = 0.5");
  // rand() never reaches 1, and a query-time call is one value per query that Z3 chooses.
  EXPECT_EQ(decided(f, "rand() >= 1.0D"), "outside");
  EXPECT_EQ(decided(f, "current_date() > DATE '2020-01-01'"), "outside");
}

// A column compared with itself is TRUE or FALSE by its operator alone, NULL on a NULL: in the
// fragment (Z3 spends its floating-point theory on `d < d`).
TEST(IntervalDecider, AColumnComparedWithItself) {
  const File f{R"({"numRecords":3,"minValues":{"d":-9.5,"s":"k"},"maxValues":{"d":CAST_NAN,"s":"q"},"nullCount":{"d":1,"s":0}})"};
  std::string stats = f.stats_json;
  stats.replace(stats.find("CAST_NAN"), 8, "\"NaN\"");
  const File with_nan{stats};
  for (const char* predicate : {"d < d", "d <> d OR s > s", "NOT d <=> d", "(d = d) IS NULL AND s < s"})
    EXPECT_EQ(strip_z3_note(decided(with_nan, predicate)), "UNSAT") << predicate;
  for (const char* predicate : {"d = d AND d > 9.0D", "(d = d) IS NULL", "s >= s AND NOT d < d", "d <=> d"})
    EXPECT_EQ(strip_z3_note(decided(with_nan, predicate)), "SAT") << predicate;
}

// No witness among the candidates and no refutation by the intervals alone: Z3's to decide.
TEST(IntervalDecider, LeavesWhatItCannotDecideToZ3) {
  const File f{R"({"numRecords":2,"minValues":{"i":5,"s":"k"},"maxValues":{"i":7,"s":"q"}})"};
  for (const char* predicate : {"uuid() = 'x'", "i + i = 11", "i > 5 AND s < 'x' AND i * i = 40"})
    EXPECT_EQ(decided(f, predicate), "outside") << predicate;
}

}  // namespace
}  // namespace skipsound::smt
