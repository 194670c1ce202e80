// Three `skipsound check` command lines an independent reference oracle (written apart from the
// project, from docs/semantics.md) judged differently, run with the built program as a user would:
// a decimal stat read through a double certified an unsound skip, a decimal(38,0) extreme crashed
// the printer, and a string min of fewer than N code points but N UTF-16 units was read as exact,
// which made the stats impossible and left a skip unjudged.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "common/subprocess.h"
#include "tests/support/temp_files.h"

namespace {

using skipsound::test::temp_file;

struct Outcome {
  int exit_code = -1;  // -1: it did not start, was killed or ended by a signal
  std::string output;  // stdout and stderr
};

// `skipsound check <arguments...>`, run as a program (no shell reads the arguments).
Outcome check(std::vector<std::string> arguments) {
  arguments.insert(arguments.begin(), {SKIPSOUND_BINARY, "check"});
  const skipsound::ProcessOutput run = skipsound::run_process({arguments, 120'000});
  return {run.exit_status().value_or(-1), run.text};
}

std::string schema_of(const std::string& column, const std::string& type) {
  return R"({"type":"struct","fields":[{"name":")" + column + R"(","type":")" + type + R"(","nullable":true,"metadata":{}}]})";
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// 1. The decisions reader read 123456789012345678.91 as the double 123456789012345680 and proved
// the skip; the file's only row is the value itself, so the skip is unsound.
TEST(ReferenceOracleCases, ADecimalStatOfADecisionsLineIsReadExactly) {
  const std::string line =
      R"({"file":"f1","predicate":"x = 123456789012345678.91","schema":)" + schema_of("x", "decimal(20,2)") +
      R"(,"stats":{"numRecords":1,"minValues":{"x":123456789012345678.91},"maxValues":{"x":123456789012345678.91},"nullCount":{"x":0}},"deletedRows":0,"decision":"skipped"})";
  const Outcome o = check({"--decisions", temp_file("decimal.jsonl", line + "\n")});
  EXPECT_EQ(o.exit_code, 1) << o.output;
  EXPECT_TRUE(contains(o.output, "f1: UNSOUND SKIP (witness row {\"x\":123456789012345678.91})")) << o.output;
  EXPECT_FALSE(contains(o.output, "123456789012345680")) << o.output;
}

// A line with a 26-digit decimal, which failed as "got 1e+25", is judged like any other.
TEST(ReferenceOracleCases, ALongDecimalOfADecisionsLineIsJudged) {
  const std::string line =
      R"({"file":"f1","predicate":"x > 10000000000000000000000000","schema":)" + schema_of("x", "decimal(38,10)") +
      R"(,"stats":{"numRecords":2,"minValues":{"x":10000000000000000000000000},"maxValues":{"x":12345678901234567890123456},"nullCount":{"x":0}},"decision":"kept"})";
  const Outcome o = check({"--decisions", temp_file("long_decimal.jsonl", line + "\n")});
  EXPECT_EQ(o.exit_code, 0) << o.output;
  EXPECT_TRUE(contains(o.output, "f1: KEEP (a row may match: {\"x\":12345678901234567890123456")) << o.output;
}

// 2. Printing a decimal(38,0) stat or witness went through a double (1e+38, 39 digits) and ended
// in an internal error.
TEST(ReferenceOracleCases, DecimalExtremesArePrintedFromTheirDigits) {
  const std::string schema = temp_file("decimal38.json", schema_of("x", "decimal(38,0)"));
  const std::string nines = "99999999999999999999999999999999999999";
  for (const std::string& extreme : {nines, "-" + nines}) {
    const std::string stats = R"({"numRecords":1,"minValues":{"x":)" + extreme + R"(},"maxValues":{"x":)" + extreme +
                              R"(},"nullCount":{"x":0}})";
    const Outcome o = check({"--json", "--schema", schema, "--stats", stats, "x = 5"});
    EXPECT_EQ(o.exit_code, 0) << o.output;
    const nlohmann::json report = nlohmann::json::parse(o.output);
    EXPECT_EQ(report.at("files").at(0).at("judgement"), "proved skip") << o.output;
    EXPECT_TRUE(contains(o.output, "\"x\": " + extreme + ".0")) << o.output;
  }
  const Outcome witness = check({"--schema", schema, "--stats", R"({"numRecords":3})", "x > " + nines.substr(1) + "8"});
  EXPECT_EQ(witness.exit_code, 0) << witness.output;
  EXPECT_TRUE(contains(witness.output, "KEEP (a row may match: {\"x\":" + nines + ".0})")) << witness.output;
  const Outcome below = check({"--schema", schema, "--stats", R"({"numRecords":3})", "x < -" + nines.substr(1) + "8"});
  EXPECT_EQ(below.exit_code, 0) << below.output;
  EXPECT_TRUE(contains(below.output, "KEEP (a row may match: {\"x\":-" + nines + ".0})")) << below.output;
}

// 3. A min of 31 code points and 32 UTF-16 units may be a cut one (docs/semantics.md §4.4): the
// row `aaa…😀a` is consistent with these stats, so they are judged, and a skip is unsound.
TEST(ReferenceOracleCases, AStringMinOfNUtf16UnitsMayBeCut) {
  const std::string a30(30, 'a');
  const std::string stats = R"({"numRecords":1,"minValues":{"s":")" + a30 + R"(\ud83d\ude00"},"maxValues":{"s":")" + a30 +
                            R"(\ud83d\ude00\u007f"},"nullCount":{"s":0}})";
  const std::string schema = schema_of("s", "string");
  const Outcome o = check({"--schema", temp_file("string.json", schema), "--stats", stats, "s IS NOT NULL"});
  EXPECT_EQ(o.exit_code, 0) << o.output;
  EXPECT_TRUE(contains(o.output, ": KEEP (a row may match: {\"s\":\"" + a30 + "\xF0\x9F\x98\x80")) << o.output;
  EXPECT_FALSE(contains(o.output, "IMPOSSIBLE STATS")) << o.output;

  const std::string skipped = R"({"file":"f1","predicate":"s IS NOT NULL","schema":)" + schema + R"(,"stats":)" + stats +
                              R"(,"decision":"skipped"})";
  const Outcome judged = check({"--decisions", temp_file("string.jsonl", skipped + "\n")});
  EXPECT_EQ(judged.exit_code, 1) << judged.output;
  EXPECT_TRUE(contains(judged.output, "f1: UNSOUND SKIP")) << judged.output;
}

}  // namespace
