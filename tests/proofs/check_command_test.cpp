// `skipsound check`: the shipped decisions example (one sound skip, one keep, one unsound skip),
// live files of a real Delta table, skipsound's own decisions with and without a mutant, line
// numbers in errors, and the SMT-LIB dump.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "model/input_error.h"
#include "proofs/check_command.h"
#include "proofs/cli.h"

namespace skipsound::cli {
namespace {

const std::string kDecisions = std::string(SKIPSOUND_SOURCE_DIR) + "/tests/corpus/decisions/";

struct CheckRun {
  int exit_code = -1;
  std::string out;
};

CheckRun run(const CheckArguments& args) {
  std::ostringstream out, err;
  CheckRun r;
  r.exit_code = run_check(args, out, err);
  r.out = out.str();
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

std::string write_temp(const std::string& name, const std::string& text) {
  const auto path = std::filesystem::temp_directory_path() / name;
  std::ofstream(path) << text;
  return path.string();
}

TEST(CheckDecisions, ErrorsNameTheLine) {
  const std::string good = R"({"predicate":"x > 1","schema":{"type":"struct","fields":[{"name":"x","type":"long","nullable":true,"metadata":{}}]},"stats":{"numRecords":1},"decision":"kept"})";
  const std::vector<std::pair<std::string, std::string>> bad_lines = {
      {"{not json", ""},
      {R"({"predicate":"x > 1","decision":"kept"})", "exactly one of"},
      {R"({"predicate":"y > 1","schema":{"type":"struct","fields":[{"name":"x","type":"long","nullable":true,"metadata":{}}]},"stats":{},"decision":"kept"})", ""},
      {R"({"predicate":"x > 1","schema":{"type":"struct","fields":[]},"stats":{},"decision":"maybe"})", "\"decision\""},
      {R"({"predicate":"x > 1","table":"no-such-table","path":"a","decision":"kept"})", ""},
  };
  for (const auto& [line, message] : bad_lines) {
    CheckArguments args;
    args.decisions_file = write_temp("skipsound_bad_decisions.jsonl", good + "\n\n" + line + "\n");
    try {
      run(args);
      ADD_FAILURE() << "accepted: " << line;
    } catch (const InputError& e) {
      EXPECT_TRUE(contains(e.message(), "skipsound_bad_decisions.jsonl:3: ")) << e.message();
      EXPECT_TRUE(contains(e.message(), message)) << e.message();
    }
  }
}

CheckArguments own(const std::string& predicate, const std::string& mutant = "none") {
  CheckArguments args;
  args.predicate = predicate;
  args.inputs.schema_file = write_temp(
      "skipsound_check_schema.json",
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

TEST(CheckOwnDecisions, SmtDumpWritesOneQueryPerFile) {
  CheckArguments args = own("x > 20");
  const auto dir = std::filesystem::temp_directory_path() / "skipsound_check_dump";
  std::filesystem::remove_all(dir);
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
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace skipsound::cli
