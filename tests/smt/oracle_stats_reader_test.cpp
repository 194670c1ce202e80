// The oracle's own reading of stats text (smt/oracle_stats_reader.h): it reads what the
// production reader reads, digit for digit, and names every stat a misreading reader changed.
#include <gtest/gtest.h>

#include <string>

#include "model/mutants/fault_injection.h"
#include "model/stats/stats.h"
#include "smt/oracle_stats_reader.h"

namespace skipsound::smt {
namespace {

StructField field(std::string name, DataType type, std::string physical = "") {
  return StructField{std::move(name), std::move(type), true, std::move(physical)};
}

Schema wide_schema() {
  DataType s = DataType::of(TypeKind::Struct);
  s.fields = {field("b", DataType::of(TypeKind::Long))};
  return Schema({field("d", DataType::decimal(18, 0)), field("w", DataType::decimal(38, 10)),
                 field("l", DataType::of(TypeKind::Long)), field("f", DataType::of(TypeKind::Double)),
                 field("ts", DataType::of(TypeKind::Timestamp)), field("str", DataType::of(TypeKind::String)),
                 field("dt", DataType::of(TypeKind::Date)), field("flag", DataType::of(TypeKind::Boolean)),
                 field("s", s)});
}

// Every kind of stat, at the edges the readers must keep exactly.
const char* const kStats =
    R"({"numRecords":3,"tightBounds":false,)"
    R"("minValues":{"d":-999999999999999999,"w":"-9999999999999999999999999999.9999999999","l":-9223372036854775808,)"
    R"("f":0.10000000000000002,"ts":"2024-03-10T01:59:59.999-08:00","str":"a\u00e9","dt":"2024-02-29","s":{"b":-1}},)"
    R"("maxValues":{"d":123456789012345678,"w":1234567890123456789012345678.0123456789,"l":9223372036854775807,)"
    R"("f":"NaN","ts":"2024-03-10T10:00:00.000Z","str":"b","dt":"2024-03-01","s":{"b":7}},)"
    R"("nullCount":{"d":0,"w":1,"l":0,"f":0,"ts":0,"str":0,"dt":0,"flag":3,"s":{"b":0}}})";

TEST(OracleStatsReader, ReadsWhatTheProductionReaderReads) {
  const Schema schema = wide_schema();
  const FileStats production = stats_from_json_text(kStats, schema);
  const OracleStatsRead own = read_stats_for_oracle(kStats, schema, StatsNaming::Logical, production);
  for (const DecodeDifference& d : own.differences) ADD_FAILURE() << describe_difference(d, schema);
  EXPECT_EQ(own.stats, production);
  // numRecords and tightBounds, a nullCount for each of the 9 leaves, min and max for 8 of them.
  EXPECT_EQ(own.stats_read, 2u + 9u + 2u * 8u);
}

// The production reader as a named input-path mutant has it.
FileStats read_under(Mutant mutant, const char* text, const Schema& schema, StatsNaming naming) {
  const FaultScope reader(mutant);
  return stats_from_json_text(text, schema, naming);
}

TEST(OracleStatsReader, ADecimalReadThroughADoubleIsADecodeDifference) {
  const Schema schema({field("d", DataType::decimal(18, 0))});
  const char* text = R"({"numRecords":1,"minValues":{"d":123456789012345678},"maxValues":{"d":123456789012345678}})";
  const FileStats misread = read_under(Mutant::DecimalStatsAsDouble, text, schema, StatsNaming::Logical);
  const OracleStatsRead own = read_stats_for_oracle(text, schema, StatsNaming::Logical, misread);
  ASSERT_EQ(own.differences.size(), 2u);
  EXPECT_EQ(describe_difference(own.differences[1], schema),
            "maxValues.d: written 123456789012345678, the oracle reads 123456789012345678, the production reader "
            "123456789012345680");
  EXPECT_EQ(to_display(*own.stats.column(0).max), "123456789012345678");  // the oracle judges its own reading
}

TEST(OracleStatsReader, ATimestampOffsetDroppedIsADecodeDifference) {
  const Schema schema({field("ts", DataType::of(TypeKind::Timestamp))});
  const char* text = R"({"maxValues":{"ts":"2024-03-10T10:00:00.000-08:00"}})";
  const FileStats misread = read_under(Mutant::TimestampOffsetAsUtc, text, schema, StatsNaming::Logical);
  const OracleStatsRead own = read_stats_for_oracle(text, schema, StatsNaming::Logical, misread);
  ASSERT_EQ(own.differences.size(), 1u);
  EXPECT_EQ(own.differences[0].field, StatField::Max);
  EXPECT_EQ(stat_name(own.differences[0], schema), "maxValues.ts");
}

TEST(OracleStatsReader, PhysicalNamesAreReadUnderColumnMapping) {
  const Schema schema({field("renamed", DataType::of(TypeKind::Long), "col-1")});
  const char* text = R"({"minValues":{"col-1":4,"renamed":9},"nullCount":{"col-1":0}})";
  const FileStats production = stats_from_json_text(text, schema, StatsNaming::Physical);
  const OracleStatsRead own = read_stats_for_oracle(text, schema, StatsNaming::Physical, production);
  EXPECT_TRUE(own.decoded_alike());
  EXPECT_EQ(own.stats.column(0).min->as_int(), 4);
  // Read by logical names, the production reader misses the stat the oracle finds.
  const FileStats by_logical = read_under(Mutant::StatsByLogicalName, text, schema, StatsNaming::Physical);
  EXPECT_FALSE(read_stats_for_oracle(text, schema, StatsNaming::Physical, by_logical).decoded_alike());
}

TEST(OracleStatsReader, AStatTheOracleCannotReadIsADifferenceToo) {
  const Schema schema({field("d", DataType::decimal(5, 2))});
  FileStats production;
  production.column_mut(0).max = Value::decimal(Decimal{150, 2}, 5);
  // 1.505 does not fit decimal(5,2): the oracle reads no value where the production reader has one.
  const OracleStatsRead own = read_stats_for_oracle(R"({"maxValues":{"d":1.505}})", schema, StatsNaming::Logical, production);
  ASSERT_EQ(own.differences.size(), 1u);
  EXPECT_EQ(own.differences[0].oracle, std::nullopt);
  EXPECT_EQ(own.differences[0].text, "1.505");
}

TEST(OracleStatsReader, TextThatIsNoObjectReadsAsNoStats) {
  const Schema schema({field("l", DataType::of(TypeKind::Long))});
  const OracleStatsRead own = read_stats_for_oracle("[1, 2]", schema, StatsNaming::Logical, FileStats{});
  EXPECT_TRUE(own.decoded_alike());
  EXPECT_EQ(own.stats, FileStats{});
}

}  // namespace
}  // namespace skipsound::smt
