// Focused tests for mutants of model/stats/ that short gate runs left alive: edges of the stats
// reader and writer, of string truncation and of its inverse that generated inputs rarely reach.
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "model/mutants/fault_injection.h"
#include "model/stats/stats.h"
#include "model/stats/stats_collection.h"
#include "model/stats/string_truncation.h"
#include "model/values/temporal.h"

namespace skipsound {
namespace {

const std::string kDel = "\x7F";  // U+007F, the writer's ASCII tie-breaker
const std::string kMaxCodePoint = "\xF4\x8F\xBF\xBF";  // U+10FFFF

StructField field(std::string name, DataType t) { return StructField{std::move(name), std::move(t), true, {}}; }

const Schema& one_long() {
  static const Schema s({field("x", DataType::of(TypeKind::Long))});
  return s;
}

// docs/semantics.md §4.1: another writer's extra keys (arrays included) are skipped with their
// contents, and the keys after them still count, on the text path and on the DOM path alike.
TEST(StatsReaderGaps, AnArrayUnderAnUnknownKeyIsSkippedAndLaterKeysStillCount) {
  // "aaa" sorts first, so a DOM (whose object keys are ordered) also replays it before the rest.
  const std::string text =
      R"({"aaa":[1,[2,3],{"k":4},null],"numRecords":4,"minValues":{"x":1,"extra":[5]},"maxValues":{"x":9},"tightBounds":true})";
  for (const FileStats& s : {stats_from_json_text(text, one_long()), stats_from_json(nlohmann::json::parse(text), one_long())}) {
    EXPECT_EQ(s.num_records, 4);
    ASSERT_TRUE(s.column(0).min);
    EXPECT_EQ(s.column(0).min->as_int(), 1);
    ASSERT_TRUE(s.column(0).max);
    EXPECT_EQ(s.column(0).max->as_int(), 9);
    EXPECT_EQ(s.tight_bounds, true);
  }
}

// docs/semantics.md §4.1: any field may be missing, and a JSON null reads as a missing field
// (never as a malformed count), on both paths.
TEST(StatsReaderGaps, NullFieldsReadAsAbsent) {
  const std::string text =
      R"({"numRecords":null,"tightBounds":null,"minValues":{"x":null},"maxValues":null,"nullCount":{"x":null}})";
  for (const FileStats& s : {stats_from_json_text(text, one_long()), stats_from_json(nlohmann::json::parse(text), one_long())}) {
    EXPECT_FALSE(s.num_records);
    EXPECT_FALSE(s.tight_bounds);
    EXPECT_EQ(s.column(0), ColumnStats{});
  }
}

// docs/semantics.md §4.1: the writer leaves out what it has not got; a file whose only stats are
// numRecords and a nullCount (a boolean column) has no minValues or maxValues sections.
TEST(StatsWriterGaps, EmptySectionsAreLeftOut) {
  const Schema schema({field("b", DataType::of(TypeKind::Boolean))});
  FileStats s;
  s.num_records = 3;
  s.column_mut(0).null_count = 1;
  const nlohmann::json out = stats_to_json(s, schema);
  EXPECT_EQ(out, nlohmann::json::parse(R"({"numRecords":3,"nullCount":{"b":1}})"));
  EXPECT_EQ(stats_to_json(FileStats{}, schema), nlohmann::json::object());
}

// docs/semantics.md §8, decimal-stats-unscaled: the stat's digits become the unscaled value at
// the column's scale, so "1.5" in a decimal(5,2) column reads 0.15 (the sound reader: 1.50).
TEST(StatsReaderMutantGaps, DecimalStatsUnscaledPutsTheDigitsAtTheColumnsScale) {
  const Schema schema({field("d", DataType::decimal(5, 2))});
  const auto max_of = [&](const char* text, Mutant m) {
    const FaultScope fault(m);
    return to_display(*stats_from_json_text(text, schema).column(0).max);
  };
  EXPECT_EQ(max_of(R"({"maxValues":{"d":"1.5"}})", Mutant::None), "1.50");
  EXPECT_EQ(max_of(R"({"maxValues":{"d":"1.5"}})", Mutant::DecimalStatsUnscaled), "0.15");
  EXPECT_EQ(max_of(R"({"maxValues":{"d":12.5}})", Mutant::DecimalStatsUnscaled), "1.25");
}

// docs/semantics.md §8, decimal-stats-as-double: a decimal written as a JSON number goes through
// the nearest double; one written as a string, or one a double holds, reads as the sound reader
// reads it.
TEST(StatsReaderMutantGaps, DecimalStatsAsDoubleRoundsJsonNumbersOnly) {
  const Schema schema({field("d", DataType::decimal(18, 0)), field("e", DataType::decimal(5, 2))});
  const auto max_of = [&](const char* text, int leaf, Mutant m) {
    const FaultScope fault(m);
    return to_display(*stats_from_json_text(text, schema, StatsNaming::Logical).column(leaf).max);
  };
  const char* number = R"({"maxValues":{"d":123456789012345678,"e":1.25}})";
  EXPECT_EQ(max_of(number, 0, Mutant::None), "123456789012345678");
  EXPECT_EQ(max_of(number, 0, Mutant::DecimalStatsAsDouble), "123456789012345680");
  EXPECT_EQ(max_of(number, 1, Mutant::DecimalStatsAsDouble), "1.25");
  EXPECT_EQ(max_of(R"({"maxValues":{"d":"123456789012345678"}})", 0, Mutant::DecimalStatsAsDouble), "123456789012345678");
  EXPECT_EQ(max_of(R"({"maxValues":{"d":123456789012345678.0}})", 0, Mutant::DecimalStatsAsDouble), "123456789012345680");
}

// docs/semantics.md §8, timestamp-offset-as-utc: the wall-clock time before the offset is read as
// UTC; a text without an offset (or with Z, in either case) reads as the sound reader reads it.
TEST(StatsReaderMutantGaps, TimestampOffsetAsUtcDropsOnlyTheOffset) {
  const Schema schema({field("ts", DataType::of(TypeKind::Timestamp))});
  const auto min_of = [&](const std::string& ts, Mutant m) {
    const FaultScope fault(m);
    return stats_from_json_text(R"({"minValues":{"ts":")" + ts + R"("}})", schema)
        .column(0)
        .min->as_int();
  };
  const int64_t ten_utc = *parse_timestamp("2000-01-01T10:00:00Z", ZonePolicy::ConvertToUtc);
  EXPECT_EQ(min_of("2000-01-01T10:00:00.000-08:00", Mutant::TimestampOffsetAsUtc), ten_utc);
  EXPECT_EQ(min_of("2000-01-01T10:00:00.000-08:00", Mutant::None), ten_utc + 8LL * 3600 * 1'000'000);
  EXPECT_EQ(min_of("2000-01-01T10:00:00.000+01:00", Mutant::TimestampOffsetAsUtc), ten_utc);
  for (const char* utc : {"2000-01-01T10:00:00.000", "2000-01-01T10:00:00.000Z", "2000-01-01T10:00:00.000z"}) {
    EXPECT_EQ(min_of(utc, Mutant::TimestampOffsetAsUtc), ten_utc) << utc;
  }
}

// docs/semantics.md §4.2: delta.dataSkippingStatsColumns names leaves or structs; a name that goes
// on past a leaf (s.x.z, p.q) names no column, so it is refused and selects no leaf. (A mutant that
// compares such a name past the end of the leaf's path reads out of bounds: AddressSanitizer
// reports it even where the garbage happens to compare unequal.)
TEST(StatsColumnsGaps, ANamePastALeafNamesNoColumn) {
  DataType s = DataType::of(TypeKind::Struct);
  s.fields = {field("x", DataType::of(TypeKind::Int)), field("y", DataType::of(TypeKind::Int))};
  const Schema schema({field("p", DataType::of(TypeKind::Int)), field("s", s)});
  for (const char* columns : {"s.x.z", "p.q", "P.q.r", "S.X.x"}) {
    const StatsConfig config = StatsConfig::from_configuration({{kStatsColumnsKey, columns}}, {});
    EXPECT_THROW(check_stats_columns(schema, config), InputError) << columns;
    EXPECT_EQ(indexed_leaves(schema, config), std::vector<bool>(3, false)) << columns;
  }
}

// docs/semantics.md §4.4 with N = 0 (the functions clamp N below 0 to 0): no code point is kept,
// so every min is stored as "" and every non-empty max has no bound, while "" stays "".
TEST(StringTruncationGaps, ZeroPrefixLengthKeepsNothing) {
  EXPECT_EQ(truncate_string_min("abc", 0), "");
  EXPECT_EQ(truncate_string_min("abc", -1), "");
  EXPECT_EQ(truncate_string_min("", 0), "");
  EXPECT_EQ(truncate_string_max("", 0), "");
  EXPECT_EQ(truncate_string_max("", -3), "");
  EXPECT_EQ(truncate_string_max("a", 0), std::nullopt);
}

// The reader's inverse of the writer above: with N = 0 the writer stores "" for every min, so a
// stored "" may be cut from anything and anything else is no writer's output.
TEST(StringTruncationGaps, ZeroPrefixLengthMinReadsBack) {
  EXPECT_EQ(read_stored_min("", 0).kind, StoredString::MayBeTruncated);
  EXPECT_EQ(read_stored_min("a", 0).kind, StoredString::Impossible);
  EXPECT_EQ(read_stored_min("", -2).kind, StoredString::MayBeTruncated);
}

// docs/semantics.md §4.4: a max whose tail after the cut is U+10FFFF and ends within 2N units is
// stored unchanged (the scan reaches the end of the string).
TEST(StringTruncationGaps, AMaxCodePointTailEndingWithinTwiceNIsStoredAsIs) {
  EXPECT_EQ(truncate_string_max("ab" + kMaxCodePoint, 2), "ab" + kMaxCodePoint);
  EXPECT_EQ(truncate_string_max("a" + kMaxCodePoint, 1), std::nullopt);  // 3 units > 2N
}

// docs/semantics.md §4.4: P + U+007F stands for a true max P + d with d < U+007F, U+0000 included
// (the writer stores "a\x7F" for "a\0" with N = 1), so the reading's next character starts at 0.
TEST(StoredStringGaps, AnAsciiTieBreakerAllowsEveryNextCharacterBelowIt) {
  ASSERT_EQ(truncate_string_max(std::string("a\0", 2), 1), "a" + kDel);
  const StoredMax read = read_stored_max("a" + kDel, 1);
  EXPECT_EQ(read.kind, StoredString::Truncated);
  EXPECT_EQ(read.kept, "a");
  EXPECT_EQ(read.next_low, 0u);
  EXPECT_EQ(read.next_high, 0x7Eu);
}

// docs/semantics.md §4.4: after the cut P the writer appends only U+10FFFF characters before the
// tie-breaker, so "ab\x7F" with N = 1 (a 'b' after the cut) is no writer's output, nor is "ab".
TEST(StoredStringGaps, ATieBreakerAfterAnOrdinaryCharacterPastTheCutIsImpossible) {
  EXPECT_EQ(read_stored_max("ab" + kDel, 1).kind, StoredString::Impossible);
  EXPECT_EQ(read_stored_max("ab" + kMaxCodePoint, 1).kind, StoredString::Impossible);
  EXPECT_EQ(read_stored_max("ab", 1).kind, StoredString::Impossible);
}

}  // namespace
}  // namespace skipsound
