// Every reader of stats text keeps a number's exact value, and every writer prints a decimal's
// own digits: a decimal(38) value, a long next to 2^63 and a 17-digit double go through the stats
// reader (text and parsed document), the Delta log, a decisions line, a scenario, a corpus case
// and a rows file, and come back unchanged. A double carries about 17 significant digits, so a
// reader that took any of them through one would change the decimal.
#include <gtest/gtest.h>

#include <cstdlib>

#include <nlohmann/json.hpp>

#include "model/log/delta_log.h"
#include "model/sql/row.h"
#include "model/values/exact_json.h"
#include "cli/external_decisions.h"
#include "cli/file_inputs.h"
#include "proofs/perfile/corpus.h"
#include "proofs/scenario/scenario.h"
#include "tests/support/temp_files.h"

namespace skipsound {
namespace {

// Numbers written as JSON numbers; a double holds none of the first three.
const std::string kDecimal38 = "12345678901234567890123456789012345678";           // decimal(38,0)
const std::string kDecimal38Scaled = "12345678901234567890.123456789012345678";    // decimal(38,18)
const std::string kNegativeExtreme = "-99999999999999999999999999999999999999";    // -(10^38 - 1)
const std::string kLong = "9223372036854775806";                                   // 2^63 - 2
const std::string kDouble = "0.30000000000000004";                                 // 17 significant digits

const std::string kSchemaText =
    R"({"type":"struct","fields":[)"
    R"json({"name":"d","type":"decimal(38,0)","nullable":true,"metadata":{}},)json"
    R"json({"name":"e","type":"decimal(38,18)","nullable":true,"metadata":{}},)json"
    R"json({"name":"n","type":"decimal(38,0)","nullable":true,"metadata":{}},)json"
    R"({"name":"l","type":"long","nullable":true,"metadata":{}},)"
    R"({"name":"f","type":"double","nullable":true,"metadata":{}}]})";

Schema schema() { return Schema::from_json_text(kSchemaText); }

// One row, or one stats section, holding every number as written.
std::string values_object() {
  return R"({"d":)" + kDecimal38 + R"(,"e":)" + kDecimal38Scaled + R"(,"n":)" + kNegativeExtreme + R"(,"l":)" + kLong +
         R"(,"f":)" + kDouble + "}";
}

std::string stats_text() {
  return R"({"numRecords":1,"minValues":)" + values_object() + R"(,"maxValues":)" + values_object() +
         R"(,"nullCount":{"d":0,"e":0,"n":0,"l":0,"f":0}})";
}

// The exact values, by leaf ordinal.
Row expected_row() {
  return {Value::decimal(parse_decimal(kDecimal38), 38), Value::decimal(*rescale_decimal(parse_decimal(kDecimal38Scaled), 18), 38),
          Value::decimal(parse_decimal(kNegativeExtreme), 38), Value::integral(TypeKind::Long, 9223372036854775806LL),
          Value::floating(TypeKind::Double, std::strtod(kDouble.c_str(), nullptr))};
}

void expect_exact_row(const Row& row, const std::string& reader) {
  const Row expected = expected_row();
  ASSERT_EQ(row.size(), expected.size()) << reader;
  for (size_t i = 0; i < expected.size(); ++i) EXPECT_EQ(row[i], expected[i]) << reader << ", leaf " << i << ": " << to_display(row[i]);
}

void expect_exact_stats(const FileStats& stats, const std::string& reader) {
  Row mins, maxes;
  for (size_t i = 0; i < expected_row().size(); ++i) {
    const ColumnStats& c = stats.column(static_cast<int>(i));
    ASSERT_TRUE(c.min && c.max) << reader << ", leaf " << i;
    mins.push_back(*c.min);
    maxes.push_back(*c.max);
  }
  expect_exact_row(mins, reader + " (min)");
  expect_exact_row(maxes, reader + " (max)");
}

using test::temp_file;

TEST(ExactNumbers, TheStatsReaderKeepsEveryDigitFromTextAndFromAParsedDocument) {
  expect_exact_stats(stats_from_json_text(stats_text(), schema()), "stats text");
  expect_exact_stats(stats_from_json(parse_json_exact(stats_text()), schema()), "stats document");
}

TEST(ExactNumbers, TheDeltaLogReaderKeepsEveryDigit) {
  const nlohmann::json protocol{{"protocol", {{"minReaderVersion", 1}, {"minWriterVersion", 2}}}};
  const nlohmann::json metadata{{"metaData", {{"id", "t"}, {"schemaString", kSchemaText}, {"partitionColumns", nlohmann::json::array()}, {"configuration", nlohmann::json::object()}}}};
  const nlohmann::json add{{"add", {{"path", "f1"}, {"partitionValues", nlohmann::json::object()}, {"size", 1}, {"modificationTime", 0}, {"dataChange", true}, {"stats", stats_text()}}}};
  const DeltaTable table = replay_delta_log({{commit_file_name(0), protocol.dump() + "\n" + metadata.dump() + "\n" + add.dump() + "\n"}});
  ASSERT_EQ(table.files.size(), 1u);
  ASSERT_TRUE(table.files.front().stats);
  expect_exact_stats(*table.files.front().stats, "Delta log");
}

TEST(ExactNumbers, TheDecisionsReaderKeepsEveryDigitInStatsObjectsAndStrings) {
  const nlohmann::json as_string{{"stats", stats_text()}};
  const std::string head = R"({"predicate":"d = 1","schema":)" + kSchemaText + R"(,"decision":"kept","stats":)";
  const std::string path = temp_file("decisions.jsonl", head + stats_text() + "}\n" + head + as_string.at("stats").dump() + "}\n");
  const cli::ExternalDecisions read = cli::read_external_decisions(path);
  EXPECT_TRUE(read.bad_lines.empty()) << read.bad_lines.front().error.what();
  ASSERT_EQ(read.decisions.size(), 2u);
  expect_exact_stats(read.decisions[0].file.stats.front(), "decisions line, stats object");
  expect_exact_stats(read.decisions[1].file.stats.front(), "decisions line, stats string");
}

TEST(ExactNumbers, TheScenarioReaderKeepsEveryDigitInRowsAndStats) {
  const Scenario scenario = parse_scenario("schema: d decimal(38,0), e decimal(38,18), n decimal(38,0), l long, f double\n"
                                           "file f0: [" + values_object() + "]\n"
                                           "stats f0: " + stats_text() + "\n"
                                           "T1: DELETE WHERE l = 1\ncommit: T1\n",
                                           "exact.scn");
  const TableFile& file = scenario.table.files().front();
  ASSERT_TRUE(file.rows && file.stats);
  expect_exact_row(file.rows->front(), "scenario rows");
  expect_exact_stats(*file.stats, "scenario stats");
}

TEST(ExactNumbers, TheCorpusReaderKeepsEveryDigitInRowsAndStats) {
  const std::string text = R"({"schema":)" + kSchemaText + R"(,"statsConfig":{"numIndexedCols":32,"partitionColumns":[]},)" +
                           R"("rows":[{"values":)" + values_object() + R"(}],"stats":)" + stats_text() +
                           R"(,"predicate":"d = 1","mutant":"none","expected":"kept"})";
  const std::string path = temp_file("case.json", text);
  const CorpusCase c = load_corpus_case(path);
  expect_exact_row(c.file.rows.front(), "corpus rows");
  expect_exact_stats(c.file.stats, "corpus stats");
  // Saved and loaded again: the writer prints the same digits.
  const std::string saved = temp_file("saved.json", "");
  save_corpus_case(c, saved);
  const CorpusCase again = load_corpus_case(saved);
  expect_exact_row(again.file.rows.front(), "corpus rows written back");
  expect_exact_stats(again.file.stats, "corpus stats written back");
}

TEST(ExactNumbers, TheRowsReaderKeepsEveryDigit) {
  cli::FileInputOptions options;
  options.schema_file = temp_file("schema.json", kSchemaText);
  options.rows_file = temp_file("rows.jsonl", values_object() + "\n");
  std::vector<std::string> warnings;
  const cli::LoadedFiles files = cli::load_files(options, warnings);
  expect_exact_stats(files.stats.front(), "rows file");
}

// The writers: a row and stats print each decimal's digits (no double: 10^38 - 1 is no 1e+38),
// the zeros that end the fraction dropped and one fraction digit kept, and the text reads back to
// the same values.
TEST(ExactNumbers, DecimalsArePrintedFromTheirDigits) {
  const Schema s = Schema::from_json_text(R"json({"type":"struct","fields":[{"name":"x","type":"decimal(38,0)","nullable":true,"metadata":{}}]})json");
  for (const char* text : {"99999999999999999999999999999999999999", "-99999999999999999999999999999999999999"}) {
    const Row row{Value::decimal(parse_decimal(text), 38)};
    const std::string printed = dump_json(row_to_json(row, s));
    EXPECT_EQ(printed, std::string(R"({"x":)") + text + ".0}");
    EXPECT_EQ(row_from_json(parse_json_exact(printed), s), row);
    FileStats stats;
    stats.num_records = 1;
    stats.column_mut(0).min = stats.column_mut(0).max = row.front();
    EXPECT_EQ(stats_from_json_text(dump_json(stats_to_json(stats, s)), s), stats);
  }
  EXPECT_EQ(dump_json(value_to_json(Value::decimal(parse_decimal("1.50"), 3))), "1.5");
  EXPECT_EQ(dump_json(value_to_json(Value::decimal(parse_decimal("0.00"), 3))), "0.0");
  EXPECT_EQ(dump_json(value_to_json(Value::decimal(parse_decimal("-0.05"), 3))), "-0.05");
  const DataType decimal_3_2 = DataType::decimal(3, 2);
  for (const char* text : {"1.5000000000000000000000000000000000000000", "1.5E0", "15.0E-1", "\"1.50\""}) {
    EXPECT_EQ(value_from_json(parse_json_exact(text), decimal_3_2), Value::decimal(parse_decimal("1.50"), 3)) << text;
  }
}

TEST(ExactNumbers, TheWriterKeepsNlohmannsLayout) {
  const nlohmann::json j = parse_json_exact(R"({"a":[1,2.50,{"b":"é\u0001"}],"c":{},"d":[],"e":-0.0})");
  const nlohmann::json plain = nlohmann::json::parse(R"({"a":[1,2.5,{"b":"é\u0001"}],"c":{},"d":[],"e":-0.0})");
  EXPECT_EQ(dump_json(j), R"({"a":[1,2.50,{"b":"é\u0001"}],"c":{},"d":[],"e":-0.0})");
  for (int indent : {0, 2}) {
    std::string expected = plain.dump(indent);
    expected.replace(expected.find("2.5"), 3, "2.50");
    EXPECT_EQ(dump_json(j, indent), expected);
  }
  EXPECT_EQ(dump_json(nlohmann::json("é"), -1, true), R"("\u00e9")");
}

}  // namespace
}  // namespace skipsound
