// The bad-input corpus's case format (proofs/gate/bad_input_corpus.h): a line that is not a case — a
// shell command line of the old format among them — is refused with its cases.txt:line, and a case
// runs as its arguments, its stdin and its hang limit say, with /bin/sh standing in for skipsound
// so that a case's arguments are a script.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "model/values/input_error.h"
#include "model/values/scratch_directory.h"
#include "proofs/gate/bad_input_corpus.h"

namespace skipsound {
namespace {

// The message load_bad_input_cases refuses `cases` with, or "loaded".
std::string refusal_of(const ScratchDirectory& dir, const std::string& cases) {
  std::ofstream(dir.path() / "cases.txt") << cases;
  try {
    load_bad_input_cases(dir.path());
  } catch (const InputError& e) {
    return e.message();
  }
  return "loaded";
}

constexpr const char* kGoodCase = R"({"name": "ok", "args": ["x"], "exit": 2, "message": "y"})";

TEST(BadInputCases, ALineThatIsNotACaseIsRefusedWithItsLine) {
  const ScratchDirectory dir("test");
  std::ofstream(dir.path() / "input.txt") << "i > 1";
  const std::string at = (dir.path() / "cases.txt").string() + ":3: ";
  const std::vector<std::pair<std::string, std::string>> refused{
      {"ok | {skipsound} parse x; touch marker | 2 | y", "not a JSON object (one case per line"},
      {R"(["parse", "x"])", "expected a JSON object, got array"},
      {R"({"name": "a", "args": "parse x; touch marker", "exit": 2, "message": "y"})", "args: expected a list of arguments"},
      {R"({"name": "a", "command": "sh -c 'touch marker'", "args": [], "exit": 2, "message": "y"})", "unknown key \"command\""},
      {R"({"name": "a", "args": [], "exit": 2})", "no \"message\""},
      {R"({"name": "a", "args": [{"contents": "../cases.txt"}], "exit": 2, "message": "y"})",
       R"(args[0]: "../cases.txt" is not a file name inside the case folder)"},
      {R"({"name": "a", "args": [{"contents": "/etc/passwd"}], "exit": 2, "message": "y"})",
       R"(args[0]: "/etc/passwd" is not a file name inside the case folder)"},
      {R"({"name": "a", "args": [{"contents": "missing.txt"}], "exit": 2, "message": "y"})", "args[0]: no file missing.txt in the case folder"},
      {R"({"name": "a", "args": ["x", {"run": "touch marker"}], "exit": 2, "message": "y"})",
       R"(args[1]: expected a string, {"contents": FILE} or {"generated": NAME}, got {"run":"touch marker"})"},
      {R"({"name": "a", "args": [{"generated": "rm -rf"}], "exit": 2, "message": "y"})", "args[0]: no generated input \"rm -rf\" (there are: "},
      {R"({"name": "a", "args": [], "stdin": {"contents": "input.txt"}, "exit": 2, "message": "y"})",
       R"(stdin: expected {"file": FILE} or {"generated": NAME})"},
      {R"({"name": "a", "args": ["a\u0000b"], "exit": 2, "message": "y"})", "args[0]: holds a NUL byte"},
      {R"({"name": "a", "args": [], "exit": 300, "message": "y"})", "exit: expected an exit status 0..255, got 300"},
      {R"({"name": "", "args": [], "exit": 2, "message": "y"})", "name: empty"},
  };
  for (const auto& [line, why] : refused) {
    const std::string refusal = refusal_of(dir, std::string(kGoodCase) + "\n# a comment\n" + line + "\n");
    EXPECT_EQ(refusal.rfind(at + why, 0), 0u) << line << "\n" << refusal;
  }
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "marker"));
}

TEST(BadInputCases, ArgumentsStdinAndGeneratedInputsAreData) {
  const ScratchDirectory dir("test");
  std::ofstream(dir.path() / "cases.txt")
      << kGoodCase << "\n\n"
      << R"({"name": "log-big", "args": ["-c", "echo \"$0\"; ls \"$0/_delta_log\"; wc -l", {"generated": "table-of-100001-live-files"}],)"
         R"( "stdin": {"file": "rows.jsonl"}, "exit": 0, "message": "00000000000000000000.json\n2\n"})" "\n";
  std::ofstream(dir.path() / "rows.jsonl") << "{}\n{}\n";
  const std::vector<BadInputCase> cases = load_bad_input_cases(dir.path());
  ASSERT_EQ(cases.size(), 2u);
  EXPECT_EQ(cases[0].line, 1u);
  EXPECT_EQ(cases[1].line, 3u);
  const BadInputCase& c = cases[1];
  ASSERT_EQ(c.arguments.size(), 3u);
  EXPECT_EQ(c.arguments[0].kind, BadInputSource::Kind::Text);
  EXPECT_EQ(c.arguments[2].kind, BadInputSource::Kind::Generated);
  ASSERT_TRUE(c.standard_input.has_value());
  EXPECT_EQ(c.standard_input->kind, BadInputSource::Kind::File);
  EXPECT_EQ(bad_input_command_line(c),
            R"(skipsound -c "echo \"$0\"; ls \"$0/_delta_log\"; wc -l" <generated table-of-100001-live-files> < rows.jsonl)");

  // $0 is the generated table's folder, made for the run and gone after it; stdin's two lines are counted.
  const BadInputRun run = run_bad_input_case(c, dir.path(), "/bin/sh", 60);
  EXPECT_EQ(run.problems, std::vector<std::string>{}) << run.output;
  const std::filesystem::path generated = run.output.substr(0, run.output.find('\n'));
  EXPECT_EQ(generated.filename(), "table-of-100001-live-files");
  EXPECT_FALSE(std::filesystem::exists(generated.parent_path())) << generated;
}

TEST(BadInputCases, AHangIsKilledAtTheLimitAndNamed) {
  const ScratchDirectory dir("test");
  std::ofstream(dir.path() / "cases.txt") << R"({"name": "a", "args": ["-c", "exec sleep 30"], "exit": 2, "message": "y"})" "\n";
  const BadInputRun run = run_bad_input_case(load_bad_input_cases(dir.path()).front(), dir.path(), "/bin/sh", 1);
  EXPECT_EQ(run.exit_status, -1);
  EXPECT_EQ(run.problems, (std::vector<std::string>{"a hang: killed after 1 s, expected exit status 2", "the output lacks: y"}));
  EXPECT_LT(run.seconds, 10);
}

TEST(BadInputCases, ACrashIsNamedByItsSignal) {
  const ScratchDirectory dir("test");
  std::ofstream(dir.path() / "cases.txt") << R"({"name": "a", "args": ["-c", "kill -SEGV $$"], "exit": 2, "message": ""})" "\n";
  const BadInputRun run = run_bad_input_case(load_bad_input_cases(dir.path()).front(), dir.path(), "/bin/sh", 60);
  EXPECT_EQ(run.problems, (std::vector<std::string>{"killed by signal 11, expected exit status 2"}));
}

}  // namespace
}  // namespace skipsound
