#include <cmath>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "model/stats/stats.h"
#include "model/values/temporal.h"
#include "model/values/exact_json.h"

namespace skipsound {
namespace {

StructField field(std::string name, DataType t, std::string physical = {}) {
  return StructField{std::move(name), std::move(t), true, std::move(physical)};
}

const Schema& all_types() {
  // data-skipping-basic-stats-all-types
  static const Schema s = Schema::from_json_text(
      R"j({"type":"struct","fields":[{"name":"as_int","type":"integer","nullable":true,"metadata":{}},{"name":"as_long","type":"long","nullable":true,"metadata":{}},{"name":"as_byte","type":"byte","nullable":true,"metadata":{}},{"name":"as_short","type":"short","nullable":true,"metadata":{}},{"name":"as_float","type":"float","nullable":true,"metadata":{}},{"name":"as_double","type":"double","nullable":true,"metadata":{}},{"name":"as_string","type":"string","nullable":true,"metadata":{}},{"name":"as_date","type":"date","nullable":true,"metadata":{}},{"name":"as_timestamp","type":"timestamp","nullable":true,"metadata":{}},{"name":"as_big_decimal","type":"decimal(1,0)","nullable":true,"metadata":{}}]})j");
  return s;
}

TEST(StatsJson, FixtureAllTypesWithOffsetTimestamp) {
  const FileStats s = stats_from_json_text(
      R"({"numRecords":1,"minValues":{"as_int":0,"as_long":0,"as_byte":0,"as_short":0,"as_float":0.0,"as_double":0.0,"as_string":"0","as_date":"2000-01-01","as_timestamp":"2000-01-01T00:00:00.000-08:00","as_big_decimal":0},"maxValues":{"as_int":0,"as_long":0,"as_byte":0,"as_short":0,"as_float":0.0,"as_double":0.0,"as_string":"0","as_date":"2000-01-01","as_timestamp":"2000-01-01T00:00:00.000-08:00","as_big_decimal":0},"nullCount":{"as_int":0,"as_long":0,"as_byte":0,"as_short":0,"as_float":0,"as_double":0,"as_string":0,"as_date":0,"as_timestamp":0,"as_big_decimal":0}})",
      all_types());
  EXPECT_EQ(s.num_records, 1);
  EXPECT_FALSE(s.tight_bounds.has_value());
  // 2000-01-01 is day 10957; -08:00 means 08:00 UTC.
  EXPECT_EQ(s.column(8).min->as_int(), (10957LL * 86400 + 8 * 3600) * 1'000'000);
  EXPECT_EQ(s.column(7).max->as_int(), 10957);
  EXPECT_EQ(s.column(6).min->as_string(), "0");
  EXPECT_EQ(s.column(9).max->type, DataType::decimal(1, 0));
  EXPECT_EQ(s.column(4).min->type.kind, TypeKind::Float);
  for (int i = 0; i < 10; ++i) EXPECT_EQ(s.column(i).null_count, 0) << i;
  EXPECT_EQ(stats_from_json(stats_to_json(s, all_types()), all_types()), s);
  EXPECT_EQ(stats_to_json(s, all_types())["minValues"]["as_timestamp"], "2000-01-01T08:00:00.000Z");
}

TEST(StatsJson, DecimalsExactFromNumberText) {
  const Schema schema({field("d25_12", DataType::decimal(25, 12)), field("d38_36", DataType::decimal(38, 36)),
                       field("d35_24", DataType::decimal(35, 24))});
  const FileStats s = stats_from_json_text(
      R"({"numRecords":3,"minValues":{"d25_12":-3.1661E-8,"d38_36":-2.9546424000000000000E-17,"d35_24":-22827907.000000000000000000000000},"maxValues":{"d25_12":0.1}})",
      schema);
  EXPECT_EQ(decimal_to_string(s.column(0).min->as_decimal()), "-0.000000031661");
  EXPECT_EQ(decimal_to_string(s.column(1).min->as_decimal()), "-0.000000000000000029546424000000000000");
  EXPECT_EQ(decimal_to_string(s.column(2).min->as_decimal()), "-22827907.000000000000000000000000");
  EXPECT_EQ(decimal_to_string(s.column(0).max->as_decimal()), "0.100000000000");
  // Round trip keeps every digit, even the ones a double cannot hold.
  const std::string text = dump_json(stats_to_json(s, schema));
  EXPECT_EQ(stats_from_json_text(text, schema), s);
}

TEST(StatsJson, NestedStructAndFlatArrayMapNullCounts) {
  DataType inner = DataType::of(TypeKind::Struct);
  inner.fields = {field("l", DataType::of(TypeKind::Long)), field("b", DataType::of(TypeKind::Boolean))};
  const Schema schema({field("s", inner), field("arr", DataType::array(DataType::of(TypeKind::String))),
                       field("m", DataType::map(DataType::of(TypeKind::String), DataType::of(TypeKind::String)))});
  const FileStats s = stats_from_json_text(
      R"({"numRecords":1,"minValues":{"s":{"l":10}},"maxValues":{"s":{"l":20}},"nullCount":{"s":{"l":0,"b":1},"arr":2,"m":3},"tightBounds":false,"unknownKey":{"x":1}})",
      schema);
  EXPECT_EQ(s.column(0).min->as_int(), 10);
  EXPECT_EQ(s.column(0).max->as_int(), 20);
  EXPECT_EQ(s.column(1).null_count, 1);
  EXPECT_FALSE(s.column(1).min.has_value());
  EXPECT_EQ(s.column(2).null_count, 2);
  EXPECT_EQ(s.column(3).null_count, 3);
  EXPECT_TRUE(s.wide());
  EXPECT_EQ(stats_from_json(stats_to_json(s, schema), schema), s);
}

// Found by fuzz_stats: a key the schema does not have (a dropped column's stats, say) before the
// known keys of an object shifted every later key onto the wrong column; inside a struct, onto a
// sibling column (here st.a's min became x's).
TEST(StatsJson, AnUnknownKeyFirstLeavesLaterKeysOnTheirColumns) {
  DataType st = DataType::of(TypeKind::Struct);
  st.fields = {field("a", DataType::of(TypeKind::Long)), field("b", DataType::of(TypeKind::Long))};
  const Schema schema({field("st", st), field("x", DataType::of(TypeKind::Long))});
  const FileStats s = stats_from_json_text(
      R"({"numRecords":2,"minValues":{"x":1,"st":{"dropped":0,"a":100}},"maxValues":{"dropped":9,"x":5},"nullCount":{"dropped":0,"st":{"a":0,"b":2},"x":0}})",
      schema);
  EXPECT_EQ(s.column(0).min->as_int(), 100);  // st.a
  EXPECT_EQ(s.column(2).min->as_int(), 1);    // x
  EXPECT_EQ(s.column(2).max->as_int(), 5);
  EXPECT_EQ(s.column(1).null_count, 2);       // st.b
  EXPECT_EQ(s.column(2).null_count, 0);
  EXPECT_EQ(s.columns.size(), 3u);
}

TEST(StatsJson, WrongTypesNameThePath) {
  DataType inner = DataType::of(TypeKind::Struct);
  inner.fields = {field("l", DataType::of(TypeKind::Long))};
  const Schema schema({field("s", inner), field("i", DataType::of(TypeKind::Int))});
  const auto message = [&](const std::string& text) {
    try {
      stats_from_json_text(text, schema);
    } catch (const InputError& e) {
      return e.message();
    }
    return std::string("accepted");
  };
  EXPECT_NE(message(R"({"maxValues":{"s":{"l":"x"}}})").find("maxValues.s.l"), std::string::npos);
  EXPECT_NE(message(R"({"minValues":{"i":3000000000}})").find("minValues.i"), std::string::npos);
  EXPECT_NE(message(R"({"nullCount":{"s":5}})").find("nullCount.s"), std::string::npos);
  EXPECT_NE(message(R"({"numRecords":"1"})").find("numRecords"), std::string::npos);
  EXPECT_NE(message(R"({"tightBounds":1})").find("tightBounds"), std::string::npos);
  EXPECT_NE(message(R"({"numRecords":1,)").find("not valid JSON"), std::string::npos);
  EXPECT_EQ(message(R"({})"), "accepted");
  EXPECT_EQ(message(R"({"minValues":{"gone":1}})"), "accepted");
}

TEST(StatsJson, FloatingSpellingsAndNtzAndPhysicalNames) {
  const Schema schema({field("d", DataType::of(TypeKind::Double), "col-1"),
                       field("ts", DataType::of(TypeKind::TimestampNtz), "col-2")});
  const FileStats s = stats_from_json_text(
      R"({"minValues":{"col-1":"-Infinity","col-2":"2021-11-18T02:30:00.123"},"maxValues":{"col-1":"NaN"}})",
      schema, StatsNaming::Physical);
  EXPECT_TRUE(std::isinf(s.column(0).min->as_double()));
  EXPECT_TRUE(std::isnan(s.column(0).max->as_double()));
  EXPECT_EQ(s.column(1).min->as_int(), *parse_timestamp("2021-11-18 02:30:00.123", ZonePolicy::Reject));
  EXPECT_THROW(stats_from_json_text(R"({"minValues":{"col-2":"2021-11-18T02:30:00Z"}})", schema,
                                    StatsNaming::Physical),
               InputError);
  const nlohmann::json out = stats_to_json(s, schema, StatsNaming::Physical);
  EXPECT_EQ(out["maxValues"]["col-1"], "NaN");
  EXPECT_EQ(out["minValues"]["col-2"], "2021-11-18T02:30:00.123");
  EXPECT_EQ(stats_from_json(out, schema, StatsNaming::Physical), s);
}

}  // namespace
}  // namespace skipsound
