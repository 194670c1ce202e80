#include "model/stats/stats_collection.h"

#include <cmath>

#include <gtest/gtest.h>

#include "model/mutants/fault_injection.h"
#include "model/values/input_error.h"

namespace skipsound {
namespace {

StructField field(const std::string& name, TypeKind kind) { return {name, DataType::of(kind), true, ""}; }

StructField struct_field(const std::string& name, std::vector<StructField> fields) {
  DataType t = DataType::of(TypeKind::Struct);
  t.fields = std::move(fields);
  return {name, t, true, ""};
}

Value i(int64_t v) { return Value::integral(TypeKind::Int, v); }
Value nul() { return Value::null(); }

bool has_no_stats(const ColumnStats& c) { return !c.min && !c.max && !c.null_count; }

StatsConfig config_with(int num_indexed_cols) {
  StatsConfig c;
  c.num_indexed_cols = num_indexed_cols;
  return c;
}

TEST(StatsCollection, CountsRowsNullsAndBounds) {
  const Schema schema({field("a", TypeKind::Int)});
  const FileStats s = collect_stats({{i(5)}, {nul()}, {i(-3)}, {i(9)}}, schema, StatsConfig{});
  EXPECT_EQ(s.num_records, 4);
  EXPECT_EQ(s.column(0).null_count, 1);
  EXPECT_EQ(s.column(0).min, i(-3));
  EXPECT_EQ(s.column(0).max, i(9));
  EXPECT_FALSE(s.tight_bounds.has_value());
  EXPECT_EQ(collect_stats({{i(1)}}, schema, StatsConfig{}, true).tight_bounds, true);
}

TEST(StatsCollection, OnlyTheFirstNumIndexedColsLeavesGetStats) {
  const Schema schema({field("a", TypeKind::Int), field("b", TypeKind::Int), field("c", TypeKind::Int)});
  const std::vector<Row> rows = {{i(1), i(2), i(3)}};
  const FileStats two = collect_stats(rows, schema, config_with(2));
  EXPECT_EQ(two.column(1).max, i(2));
  EXPECT_TRUE(has_no_stats(two.column(2)));
  const FileStats none = collect_stats(rows, schema, config_with(0));
  EXPECT_EQ(none.num_records, 1);
  for (int leaf = 0; leaf < 3; ++leaf) EXPECT_TRUE(has_no_stats(none.column(leaf)));
  const FileStats all = collect_stats(rows, schema, config_with(-1));
  EXPECT_EQ(all.column(2).min, i(3));
}

TEST(StatsCollection, PartitionColumnsAreNeitherInStatsNorCounted) {
  const Schema schema({field("p", TypeKind::Int), field("a", TypeKind::Int), field("b", TypeKind::Int)});
  StatsConfig config = config_with(1);
  config.partition_columns = {"P"};  // names resolve case-insensitively, as in Spark
  const FileStats s = collect_stats({{i(0), i(1), i(2)}}, schema, config);
  EXPECT_TRUE(has_no_stats(s.column(0)));
  EXPECT_EQ(s.column(1).min, i(1));
  EXPECT_TRUE(has_no_stats(s.column(2)));
}

TEST(StatsCollection, NestedLeavesCountOneByOneAndIneligibleTypesStillCount) {
  // Leaves: flag(bool) s.x s.y.z t
  const Schema schema({field("flag", TypeKind::Boolean),
                       struct_field("s", {field("x", TypeKind::Long),
                                          struct_field("y", {field("z", TypeKind::String)})}),
                       field("t", TypeKind::Int)});
  const Row row = {Value::boolean(true), Value::integral(TypeKind::Long, 7), Value::string("q"), i(1)};
  const FileStats s = collect_stats({row}, schema, config_with(3));
  EXPECT_EQ(s.column(0).null_count, 0);
  EXPECT_FALSE(s.column(0).min);  // booleans: nullCount only
  EXPECT_EQ(s.column(1).max, Value::integral(TypeKind::Long, 7));
  EXPECT_EQ(s.column(2).min, Value::string("q"));
  EXPECT_TRUE(has_no_stats(s.column(3)));
}

TEST(StatsCollection, StatsColumnsOverrideTheCount) {
  const Schema schema({field("a", TypeKind::Int),
                       struct_field("s", {field("x", TypeKind::Int), field("y", TypeKind::Int)}),
                       field("my col", TypeKind::Int)});
  const StatsConfig config = StatsConfig::from_configuration(
      {{"delta.dataSkippingStatsColumns", "s, `my col`"}, {"delta.dataSkippingNumIndexedCols", "1"}}, {});
  const FileStats s = collect_stats({{i(1), i(2), i(3), i(4)}}, schema, config);
  EXPECT_TRUE(has_no_stats(s.column(0)));
  EXPECT_EQ(s.column(1).min, i(2));
  EXPECT_EQ(s.column(2).min, i(3));
  EXPECT_EQ(s.column(3).min, i(4));
}

TEST(StatsCollection, ConfigurationIsParsedAndValidated) {
  const StatsConfig c = StatsConfig::from_configuration(
      {{"delta.dataSkippingNumIndexedCols", "5"}, {"delta.dataSkippingStatsColumns", "a.b, c"}},
      {"p"});
  EXPECT_EQ(c.num_indexed_cols, 5);
  ASSERT_TRUE(c.stats_columns);
  EXPECT_EQ(*c.stats_columns, (std::vector<ColumnPath>{{"a", "b"}, {"c"}}));
  EXPECT_EQ(c.partition_columns, std::vector<std::string>{"p"});
  EXPECT_EQ(StatsConfig::from_configuration({}, {}).num_indexed_cols, 32);
  EXPECT_THROW(StatsConfig::from_configuration({{"delta.dataSkippingNumIndexedCols", "x"}}, {}), InputError);
  EXPECT_THROW(StatsConfig::from_configuration({{"delta.dataSkippingNumIndexedCols", "-2"}}, {}), InputError);
  EXPECT_THROW(StatsConfig::from_configuration({{"delta.dataSkippingStatsColumns", "`a"}}, {}), InputError);
}

// delta.dataSkippingStatsColumns in Delta's syntax (Spark's multipartIdentifierList).
TEST(StatsColumnsSyntax, WhitespaceAroundNamesAndSeparatorsIsIgnored) {
  EXPECT_EQ(parse_stats_columns("b.c.e, b.c.f.h"), (std::vector<ColumnPath>{{"b", "c", "e"}, {"b", "c", "f", "h"}}));
  EXPECT_EQ(parse_stats_columns(" a ,\tb . c\n"), (std::vector<ColumnPath>{{"a"}, {"b", "c"}}));
  EXPECT_EQ(parse_stats_columns("a,b"), (std::vector<ColumnPath>{{"a"}, {"b"}}));
}

TEST(StatsColumnsSyntax, BackquotedNamesKeepDotsCommasSpacesAndDoubledBackquotes) {
  EXPECT_EQ(parse_stats_columns("`b.c`"), (std::vector<ColumnPath>{{"b.c"}}));
  EXPECT_EQ(parse_stats_columns("`b`.`d`"), (std::vector<ColumnPath>{{"b", "d"}}));
  EXPECT_EQ(parse_stats_columns("`a,b` , ` x ` . y"), (std::vector<ColumnPath>{{"a,b"}, {" x ", "y"}}));
  EXPECT_EQ(parse_stats_columns("`it``s`"), (std::vector<ColumnPath>{{"it`s"}}));
  EXPECT_EQ(parse_stats_columns("s.`a.b`.c"), (std::vector<ColumnPath>{{"s", "a.b", "c"}}));
}

TEST(StatsColumnsSyntax, BlankTextIsTheEmptyList) {
  EXPECT_TRUE(parse_stats_columns("").empty());
  EXPECT_TRUE(parse_stats_columns("  \t").empty());
}

// The column of each fault, 1-based, for the caret under the property's text.
int fault_column(const std::string& text) {
  try {
    parse_stats_columns(text);
  } catch (const InputError& e) {
    EXPECT_EQ(e.source(), text);
    return e.column();
  }
  ADD_FAILURE() << "no error for '" << text << "'";
  return 0;
}

TEST(StatsColumnsSyntax, MalformedListsAreRefusedAtTheFault) {
  EXPECT_EQ(fault_column("a, `b.c"), 4);   // unbalanced backquote: at the opening one
  EXPECT_EQ(fault_column("a,,b"), 3);      // empty name
  EXPECT_EQ(fault_column("a, b."), 6);
  EXPECT_EQ(fault_column(".a"), 1);
  EXPECT_EQ(fault_column("a, ``"), 4);     // an empty backquoted name
  EXPECT_EQ(fault_column("my col"), 4);    // two names without a separator
  EXPECT_EQ(fault_column("a-b"), 2);       // not a character of an unquoted name
  EXPECT_EQ(fault_column("a`b`"), 2);
}

TEST(StatsColumnsSyntax, ConfigurationErrorsNameTheSetting) {
  try {
    StatsConfig::from_configuration({{"delta.dataSkippingStatsColumns", "a, `b"}}, {});
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.message(), "delta.dataSkippingStatsColumns: unbalanced backquote");
    EXPECT_EQ(e.column(), 4);
  }
}

TEST(StatsCollection, NestedAndDottedStatsColumnsSelectTheirLeaves) {
  const Schema schema({field("id", TypeKind::Long),
                       struct_field("b", {struct_field("c", {field("e", TypeKind::Int), field("g", TypeKind::Int)}),
                                          field("d", TypeKind::Int)}),
                       field("b.c", TypeKind::Int)});
  const auto indexed = [&](const std::string& columns) {
    return indexed_leaves(schema, StatsConfig::from_configuration({{kStatsColumnsKey, columns}}, {}));
  };
  // Leaves in order: id, b.c.e, b.c.g, b.d, `b.c`.
  EXPECT_EQ(indexed("b.c.e, `b.c`"), (std::vector<bool>{false, true, false, false, true}));
  EXPECT_EQ(indexed("B.C"), (std::vector<bool>{false, true, true, false, false}));  // a struct: all its leaves
  EXPECT_EQ(indexed("`b`.`d`"), (std::vector<bool>{false, false, false, true, false}));
  EXPECT_EQ(indexed(""), (std::vector<bool>(5, false)));
}

TEST(StatsCollection, NumIndexedColsIsIgnoredWhenStatsColumnsAreSet) {
  const Schema schema({field("a", TypeKind::Int), field("b", TypeKind::Int)});
  for (const char* count : {"0", "1", "-1"}) {
    const StatsConfig config =
        StatsConfig::from_configuration({{kNumIndexedColsKey, count}, {kStatsColumnsKey, "b"}}, {});
    EXPECT_EQ(indexed_leaves(schema, config), (std::vector<bool>{false, true})) << count;
  }
}

std::string check_error(const std::string& columns, std::vector<std::string> partitions = {}) {
  const Schema schema({field("p", TypeKind::Int), struct_field("s", {field("x", TypeKind::Int), field("y", TypeKind::Int)}),
                       field("a.b", TypeKind::Int)});
  try {
    check_stats_columns(schema, StatsConfig::from_configuration({{kStatsColumnsKey, columns}}, partitions));
  } catch (const InputError& e) {
    return e.message();
  }
  return "accepted";
}

TEST(StatsColumnsCheck, ListedColumnsMustExistOnceAndNotBePartitionColumns) {
  EXPECT_EQ(check_error("s.x, `a.b`, S.Y"), "accepted");
  EXPECT_EQ(check_error("s"), "accepted");
  EXPECT_EQ(check_error("s.z"), "no column s.z in the schema");
  EXPECT_EQ(check_error("a.b"), "no column a.b in the schema");  // unquoted: a struct a with a field b
  EXPECT_EQ(check_error("s, s.x"), "s.x is listed twice");
  EXPECT_EQ(check_error("p", {"p"}), "p is a partition column: partition columns have no stats");
}

TEST(StatsCollection, BinaryHasNullCountOnly) {
  const Schema schema({field("bin", TypeKind::Binary)});
  const FileStats s = collect_stats({{Value::binary("\x01")}, {nul()}}, schema, StatsConfig{});
  EXPECT_EQ(s.column(0).null_count, 1);
  EXPECT_FALSE(s.column(0).min);
  EXPECT_FALSE(s.column(0).max);
}

TEST(StatsCollection, TimestampsAreFlooredToTheMillisecond) {
  const Schema schema({field("ts", TypeKind::Timestamp), field("ntz", TypeKind::TimestampNtz)});
  auto ts = [](TypeKind k, int64_t us) { return Value::integral(k, us); };
  const std::vector<Row> rows = {
      {ts(TypeKind::Timestamp, 1'000'123'456), ts(TypeKind::TimestampNtz, -1)},
      {ts(TypeKind::Timestamp, 999), ts(TypeKind::TimestampNtz, 2'001)}};
  const FileStats s = collect_stats(rows, schema, StatsConfig{});
  EXPECT_EQ(s.column(0).min->as_int(), 0);
  EXPECT_EQ(s.column(0).max->as_int(), 1'000'123'000);
  EXPECT_EQ(s.column(1).min->as_int(), -1'000);  // floor, not truncation toward zero
  EXPECT_EQ(s.column(1).max->as_int(), 2'000);
}

TEST(StatsCollection, NanMakesTheMaxNan) {
  const Schema schema({field("d", TypeKind::Double)});
  auto d = [](double v) { return Value::floating(TypeKind::Double, v); };
  const FileStats s = collect_stats({{d(1.0)}, {d(std::nan(""))}, {d(-2.0)}}, schema, StatsConfig{});
  EXPECT_TRUE(std::isnan(s.column(0).max->as_double()));
  EXPECT_EQ(s.column(0).min->as_double(), -2.0);
}

TEST(StatsCollection, ColumnsAbsentFromEveryRowAreAllNull) {
  const Schema schema({field("a", TypeKind::Int), field("b", TypeKind::String)});
  const FileStats nulls = collect_stats({{i(1), nul()}, {i(2), nul()}}, schema, StatsConfig{});
  EXPECT_EQ(nulls.column(1).null_count, 2);
  EXPECT_FALSE(nulls.column(1).min);
  EXPECT_FALSE(nulls.column(1).max);
  // Rows written before `b` existed are shorter than the schema.
  const FileStats short_rows = collect_stats({{i(1)}, {i(2)}, {i(3)}}, schema, StatsConfig{});
  EXPECT_EQ(short_rows.column(1).null_count, 3);
  EXPECT_FALSE(short_rows.column(1).max);
}

TEST(StatsCollection, StringsAreTruncatedToThePrefixLength) {
  const Schema schema({field("s", TypeKind::String)});
  StatsConfig config;
  config.string_prefix_length = 3;
  const FileStats s = collect_stats({{Value::string("abcdef")}, {Value::string("abz")}}, schema, config);
  EXPECT_EQ(s.column(0).min, Value::string("abc"));
  EXPECT_EQ(s.column(0).max, Value::string("abz"));
  const FileStats long_max = collect_stats({{Value::string("zzzz")}}, schema, config);
  EXPECT_EQ(long_max.column(0).max, Value::string("zzz\x7F"));
  const FaultScope fault(Mutant::StringMaxPlainPrefix);
  const FileStats mutated = collect_stats({{Value::string("zzzz")}}, schema, config);
  EXPECT_EQ(mutated.column(0).max, Value::string("zzz"));
}

TEST(StatsCollection, DecimalBoundsAreExact) {
  const Schema schema({{"d", DataType::decimal(38, 36), true, ""}});
  auto dec = [](const char* text) { return Value::decimal(parse_decimal(text), 38); };
  const FileStats s = collect_stats({{dec("0.000000000000000000000000000000000002")},
                                     {dec("0.000000000000000000000000000000000001")}},
                                    schema, StatsConfig{});
  EXPECT_EQ(compare_decimals(s.column(0).min->as_decimal(), parse_decimal("1E-36")),
            std::strong_ordering::equal);
  EXPECT_EQ(compare_decimals(s.column(0).max->as_decimal(), parse_decimal("2E-36")),
            std::strong_ordering::equal);
}

}  // namespace
}  // namespace skipsound
