// `skipsound check`: the shipped decisions example (one sound skip, one keep, one unsound skip),
// live files of a real Delta table, skipsound's own decisions with and without a mutant, line
// numbers in errors, and the SMT-LIB dump.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "model/values/input_error.h"
#include "cli/check_command.h"
#include "cli/cli.h"
#include "tests/support/temp_files.h"

namespace skipsound::cli {
namespace {

const std::string kDecisions = std::string(SKIPSOUND_SOURCE_DIR) + "/tests/corpus/decisions/";

struct CheckRun {
  int exit_code = -1;
  std::string out;
  std::string err;
};

CheckRun run(const CheckArguments& args) {
  std::ostringstream out, err;
  CheckRun r;
  r.exit_code = run_check(args, out, err);
  r.out = out.str();
  r.err = err.str();
  return r;
}

CheckArguments decisions(const std::string& file, bool json = false) {
  CheckArguments args;
  args.decisions_file = kDecisions + file;
  args.json = json;
  return args;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// Each file's judgement by name, from the JSON report.
std::map<std::string, std::string> judgements(const std::string& json_text) {
  std::map<std::string, std::string> by_file;
  const nlohmann::json report = nlohmann::json::parse(json_text);
  for (const auto& f : report.at("files")) by_file[f.at("file").get<std::string>()] = f.at("judgement").get<std::string>();
  return by_file;
}

TEST(CheckDecisions, ExampleHasOneSoundSkipOneKeepOneUnsoundSkip) {
  const CheckRun text = run(decisions("example.jsonl"));
  EXPECT_EQ(text.exit_code, kExitFinding);
  EXPECT_TRUE(contains(text.out, "sound-skip: SKIP, proved (")) << text.out;
  EXPECT_TRUE(contains(text.out, "stats.x.max = 20")) << text.out;
  EXPECT_TRUE(contains(text.out, "keep: KEEP (a row may match: {")) << text.out;
  EXPECT_TRUE(contains(text.out, "unsound-skip: UNSOUND SKIP (witness row {\"s\"")) << text.out;
  // The Alive2-style report: predicate, stats, witness (x must be 20: the only value >= 20), the
  // skipping expression, and the summary.
  EXPECT_TRUE(contains(text.out, "predicate:   x >= 20")) << text.out;
  EXPECT_TRUE(contains(text.out, "file stats:  {")) << text.out;
  EXPECT_TRUE(contains(text.out, "\"x\":20}")) << text.out;
  EXPECT_TRUE(contains(text.out, "skipping expression")) << text.out;
  EXPECT_TRUE(contains(text.out, "Summary: 3 files: 1 proved skip, 1 keep, 0 missed skip, 1 UNSOUND SKIP, 0 unknown"))
      << text.out;

  const CheckRun json = run(decisions("example.jsonl", true));
  EXPECT_EQ(json.exit_code, kExitFinding);
  const auto by_file = judgements(json.out);
  EXPECT_EQ(by_file.at("sound-skip"), "proved skip");
  EXPECT_EQ(by_file.at("keep"), "keep");
  EXPECT_EQ(by_file.at("unsound-skip"), "UNSOUND SKIP");
}

TEST(CheckDecisions, LiveFilesOfARealTable) {
  // COVID-19_NYT's first file: cases <= 198114, date <= '2020-05-19', 1746 NULL fips.
  const CheckRun json = run(decisions("live_files.jsonl", true));
  EXPECT_EQ(json.exit_code, kExitFinding);
  const auto files = nlohmann::json::parse(json.out).at("files");
  ASSERT_EQ(files.size(), 3u);
  EXPECT_EQ(files[0].at("judgement"), "proved skip");
  EXPECT_EQ(files[1].at("judgement"), "UNSOUND SKIP");
  EXPECT_EQ(files[2].at("judgement"), "keep");
}

using test::temp_file;

// A bad line is reported with the file and its line, and the lines around it are still judged;
// the run exits 2 (bad input).
TEST(CheckDecisions, ErrorsNameTheLineAndTheOtherLinesAreJudged) {
  const std::string good = R"({"predicate":"x > 1","schema":{"type":"struct","fields":[{"name":"x","type":"long","nullable":true,"metadata":{}}]},"stats":{"numRecords":1},"decision":"kept"})";
  const std::vector<std::pair<std::string, std::string>> bad_lines = {
      {"{not json", "not valid JSON"},
      {R"({"predicate":"x > 1","decision":"kept"})", "exactly one of"},
      {R"({"predicate":"y > 1","schema":{"type":"struct","fields":[{"name":"x","type":"long","nullable":true,"metadata":{}}]},"stats":{},"decision":"kept"})", "y"},
      {R"({"predicate":"x > 1","schema":{"type":"struct","fields":[]},"stats":{},"decision":"maybe"})", "\"decision\""},
      {R"({"predicate":"x > 1","table":"no-such-table","path":"a","decision":"kept"})", "no-such-table"},
      {R"({"predicate":"x > 1","schema":{"type":"struct","fields":[{"name":"x","type":"long","nullable":true,"metadata":{}}]},"stats":{"minValues":{"x":1e+25}},"decision":"kept"})", "1e+25"},
  };
  for (const auto& [line, message] : bad_lines) {
    CheckArguments args;
    args.decisions_file = temp_file("bad_decisions.jsonl", good + "\n\n" + line + "\n" + good + "\n");
    args.json = true;
    const CheckRun r = run(args);
    EXPECT_EQ(r.exit_code, kExitUsage) << line;
    EXPECT_TRUE(contains(r.err, "bad_decisions.jsonl:3: ")) << r.err;
    EXPECT_TRUE(contains(r.err, message)) << r.err;
    const nlohmann::json report = nlohmann::json::parse(r.out);
    EXPECT_EQ(report.at("files").size(), 2u) << r.out;
    ASSERT_EQ(report.at("badLines").size(), 1u) << r.out;
    EXPECT_EQ(report.at("badLines")[0].at("line"), 3);
  }
}

// A bad line makes the run's input bad (exit 2), and the report still shows an unsound skip on
// another line.
TEST(CheckDecisions, ABadLineBesideAnUnsoundSkipIsStillBadInput) {
  const std::string unsound = R"({"predicate":"x > 1","schema":{"type":"struct","fields":[{"name":"x","type":"long","nullable":true,"metadata":{}}]},"stats":{"numRecords":1},"decision":"skipped"})";
  CheckArguments args;
  args.decisions_file = temp_file("unsound_and_bad.jsonl", unsound + "\n{not json\n");
  const CheckRun r = run(args);
  EXPECT_EQ(r.exit_code, kExitUsage) << r.out;
  EXPECT_TRUE(contains(r.out, "UNSOUND SKIP")) << r.out;
  EXPECT_TRUE(contains(r.out, "1 bad line not judged")) << r.out;
  EXPECT_TRUE(contains(r.err, "unsound_and_bad.jsonl:2: not valid JSON")) << r.err;
}

CheckArguments own(const std::string& predicate, const std::string& mutant = "none") {
  CheckArguments args;
  args.predicate = predicate;
  args.inputs.schema_file = temp_file(
      "schema.json",
      R"({"type":"struct","fields":[{"name":"x","type":"long","nullable":true,"metadata":{}}]})");
  args.inputs.stats_json = R"({"numRecords":3,"minValues":{"x":1},"maxValues":{"x":20},"nullCount":{"x":0}})";
  args.mutant = mutant;
  return args;
}

TEST(CheckOwnDecisions, SoundLogicPassesAndTheLeAsLtMutantIsCaught) {
  const CheckRun skip = run(own("x > 20"));
  EXPECT_EQ(skip.exit_code, kExitOk);
  EXPECT_TRUE(contains(skip.out, "<stats>: SKIP, proved (")) << skip.out;
  const CheckRun keep = run(own("x >= 20"));
  EXPECT_EQ(keep.exit_code, kExitOk);
  EXPECT_TRUE(contains(keep.out, "<stats>: KEEP (a row may match: {\"x\":20})")) << keep.out;
  // le-as-lt builds max(x) > 20 for x >= 20 and so skips a file whose max is 20.
  const CheckRun mutant = run(own("x >= 20", "le-as-lt"));
  EXPECT_EQ(mutant.exit_code, kExitFinding);
  EXPECT_TRUE(contains(mutant.out, "UNSOUND SKIP (witness row {\"x\":20})")) << mutant.out;
  EXPECT_TRUE(contains(mutant.out, "SKIP by skipsound (mutant le-as-lt)")) << mutant.out;
  // A predicate the stats rule out that the production logic keeps: x = 1 AND x = 2.
  const CheckRun missed = run(own("x = 1 AND x = 2"));
  EXPECT_TRUE(contains(missed.out, "KEEP, missed skip (no row can match")) << missed.out;
}

// The oracle reads the stats text itself (docs/semantics.md §6.7): a reader that takes a decimal
// through a double skips the file for d = 123456789012345678, and the judgement is DECODE.
CheckArguments large_decimal(const std::string& mutant) {
  CheckArguments args;
  args.predicate = "d = 123456789012345678";
  args.inputs.schema_file = temp_file(
      "decimal-schema.json",
      R"json({"type":"struct","fields":[{"name":"d","type":"decimal(18,0)","nullable":true,"metadata":{}}]})json");
  args.inputs.stats_json =
      R"({"numRecords":1,"minValues":{"d":123456789012345678},"maxValues":{"d":123456789012345678},"nullCount":{"d":0}})";
  args.mutant = mutant;
  return args;
}

TEST(CheckOwnDecisions, AStatsReaderThatMisreadsTheTextIsADecodeFinding) {
  const CheckRun sound = run(large_decimal("none"));
  EXPECT_EQ(sound.exit_code, kExitOk);
  EXPECT_TRUE(contains(sound.out, "<stats>: KEEP (a row may match: {\"d\":123456789012345678.0})")) << sound.out;
  const CheckRun misread = run(large_decimal("decimal-stats-as-double"));
  EXPECT_EQ(misread.exit_code, kExitFinding);
  EXPECT_TRUE(contains(misread.out, "<stats>: DECODE (minValues.d: written 123456789012345678, the oracle reads "
                                    "123456789012345678, the production reader 123456789012345680; maxValues.d: "))
      << misread.out;
  // Z3 judges the oracle's own reading: the skip the misread stats gave is unsound.
  EXPECT_TRUE(contains(misread.out, "on the oracle's reading: UNSOUND SKIP (witness row {\"d\":123456789012345678.0})"))
      << misread.out;
  EXPECT_TRUE(contains(misread.out, "1 DECODE")) << misread.out;
  CheckArguments as_json = large_decimal("decimal-stats-as-double");
  as_json.json = true;
  const nlohmann::json report = nlohmann::json::parse(run(as_json).out);
  EXPECT_EQ(report.at("files").at(0).at("judgement"), "DECODE");
  EXPECT_EQ(report.at("files").at(0).at("decode").at(1).at("stat"), "maxValues.d");
}

TEST(CheckDecisions, AnEnginesStatsAreReadByTheOracleItself) {
  // The judged engine's stats text holds 38 digits; both readers keep every one.
  const std::string line =
      R"({"predicate":"d > 12345678901234567890123456789012345677","decision":"kept","schema":{"type":"struct","fields":[)"
      R"json({"name":"d","type":"decimal(38,0)","nullable":true,"metadata":{}}]},"stats":{"numRecords":1,)json"
      R"("minValues":{"d":12345678901234567890123456789012345678},"maxValues":{"d":12345678901234567890123456789012345678}}})";
  CheckArguments args;
  args.decisions_file = temp_file("decode.jsonl", line + "\n");
  const CheckRun r = run(args);
  EXPECT_EQ(r.exit_code, kExitOk) << r.out;
  EXPECT_TRUE(contains(r.out, "KEEP (a row may match")) << r.out;
}

TEST(CheckOwnDecisions, SmtDumpWritesOneQueryPerFile) {
  CheckArguments args = own("x > 20");
  const ScratchDirectory scratch("test");
  const auto dir = scratch.path() / "dump";
  args.smt_dump_dir = dir.string();
  run(args);
  int dumped = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    ++dumped;
    std::ifstream in(entry.path());
    std::stringstream text;
    text << in.rdbuf();
    EXPECT_TRUE(contains(text.str(), "(check-sat)")) << text.str();
  }
  EXPECT_EQ(dumped, 1);
}


// ---- the string prefix length (docs/semantics.md §4.4) ----

const std::string kPredicatesSchema = std::string(SKIPSOUND_SOURCE_DIR) + "/tests/corpus/schemas/predicates.json";

// With N = 2 the writer stores the row "aba" as min "ab", max "ab" + U+007F; the oracle must read
// them with the same N and find the row.
TEST(CheckOwnDecisions, RowsAreWrittenAndJudgedWithOnePrefixLength) {
  CheckArguments args;
  args.predicate = "s > 'ab'";
  args.inputs.schema_file = kPredicatesSchema;
  args.inputs.rows_file = temp_file("aba.jsonl", "{\"s\":\"aba\"}\n");
  args.inputs.string_prefix_length = 2;
  const CheckRun r = run(args);
  EXPECT_EQ(r.exit_code, kExitOk);
  EXPECT_FALSE(contains(r.out, "KEEP, missed skip")) << r.out;
  EXPECT_TRUE(contains(r.out, "KEEP (a row may match: {")) << r.out;
}

std::string skipped_decision(const std::string& stats) {
  const std::string schema = read_text_file(kPredicatesSchema);
  nlohmann::json line{{"predicate", "s > 'ab'"},
                      {"schema", nlohmann::json::parse(schema)},
                      {"stats", stats},
                      {"decision", "skipped"},
                      {"file", "f"}};
  return line.dump() + "\n";
}

TEST(CheckDecisions, PrefixLengthOptionAppliesToJudgedStats) {
  CheckArguments args;
  args.decisions_file = temp_file(
      "prefix_decisions.jsonl",
      skipped_decision(R"({"numRecords":1,"minValues":{"s":"ab"},"maxValues":{"s":"ab\u007f"},"nullCount":{"s":0}})"));
  args.inputs.string_prefix_length = 2;
  const CheckRun unsound = run(args);
  EXPECT_EQ(unsound.exit_code, kExitFinding) << unsound.out;
  EXPECT_TRUE(contains(unsound.out, "f: UNSOUND SKIP (witness row {\"s\":\"ab")) << unsound.out;
  // At the default N = 32 the same stats name two values for one row: no writer stores them.
  args.inputs.string_prefix_length.reset();
  const CheckRun impossible = run(args);
  EXPECT_EQ(impossible.exit_code, kExitOk) << impossible.out;
  EXPECT_TRUE(contains(impossible.out, "f: IMPOSSIBLE STATS (SKIP not judged")) << impossible.out;
  EXPECT_TRUE(contains(impossible.out, "1 impossible stats")) << impossible.out;
}

// "A" + U+007F is shorter than N units, so it is an exact max: a one-row file cannot also have min "A".
TEST(CheckDecisions, ExactMaxEndingInATieBreakerIsNotJudgedUnsound) {
  CheckArguments args;
  args.decisions_file = temp_file(
      "exact_max_decisions.jsonl",
      skipped_decision(R"({"numRecords":1,"minValues":{"s":"A"},"maxValues":{"s":"A\u007f"},"nullCount":{"s":0}})"));
  const CheckRun r = run(args);
  EXPECT_EQ(r.exit_code, kExitOk) << r.out;
  EXPECT_FALSE(contains(r.out, "UNSOUND SKIP (")) << r.out;
  EXPECT_TRUE(contains(r.out, "IMPOSSIBLE STATS")) << r.out;
}

// Issue 13: an untyped NULL where a truth value is expected is decided, not a Z3 sort error.
TEST(CheckOwnDecisions, UntypedNullInABooleanPositionIsDecided) {
  CheckArguments args;
  args.inputs.schema_file = kPredicatesSchema;
  args.inputs.stats_json = R"({"numRecords":1,"minValues":{"i":1},"maxValues":{"i":1},"nullCount":{"i":0}})";
  for (const char* predicate : {"i > 1 AND NULL", "NULL", "NOT NULL", "NULL OR i > 1"}) {
    args.predicate = predicate;
    const CheckRun r = run(args);
    EXPECT_FALSE(contains(r.out, "UNKNOWN")) << predicate << "\n" << r.out;
    EXPECT_TRUE(contains(r.out, "SKIP, proved (") || contains(r.out, "missed skip")) << predicate << "\n" << r.out;
  }
}


// Issue 13: a skip of a file for a predicate on rand() is unsound, and the witness says what rand()
// returned.
TEST(CheckDecisions, SkipOnANonDeterministicFilterIsUnsoundWithTheCallsValue) {
  CheckArguments args;
  const std::string schema = read_text_file(kPredicatesSchema);
  const nlohmann::json line{{"predicate", "rand() < 0.5"},
                            {"schema", nlohmann::json::parse(schema)},
                            {"stats", R"({"numRecords":1,"minValues":{"i":1},"maxValues":{"i":1},"nullCount":{"i":0}})"},
                            {"decision", "skipped"},
                            {"file", "r"}};
  args.decisions_file = temp_file("rand_decisions.jsonl", line.dump() + "\n");
  const CheckRun r = run(args);
  EXPECT_EQ(r.exit_code, kExitFinding) << r.out;
  EXPECT_TRUE(contains(r.out, "r: UNSOUND SKIP (witness row {")) << r.out;
  EXPECT_TRUE(contains(r.out, " with rand() #1 = ")) << r.out;
}

}  // namespace
}  // namespace skipsound::cli
