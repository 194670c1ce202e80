#include "model/stats/stats_collection.h"

#include <cmath>

#include <gtest/gtest.h>

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
  EXPECT_EQ(collect_stats({{i(1)}}, schema, StatsConfig{}, Mutant::None, true).tight_bounds, true);
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
  const FileStats mutated = collect_stats({{Value::string("zzzz")}}, schema, config,
                                          Mutant::StringMaxPlainPrefix);
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
