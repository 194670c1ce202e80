// README.md's command examples run as written, from the repository root, with the built binary.
//
// The convention: an example is a line inside a ``` block that starts with `skipsound ` or
// `build/default/skipsound ` (after an optional `$ ` prompt), with the lines after it while each
// ends in `\`. It must exit 0 unless its last line ends in a shell comment `# exit N`; one ending
// in `# not run by the tests: <why>` is listed here as skipped. `scripts/run ...` lines (which
// install packages and run the whole gate or suite) are not skipsound lines and never run here.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <optional>
#include <regex>
#include <sstream>

namespace {

struct Example {
  int line = 0;  // of README.md, 1-based
  std::string command;
  int expected_exit = 0;
  std::optional<std::string> not_run_because;
};

// How GoogleTest names a failing example.
void PrintTo(const Example& example, std::ostream* out) { *out << "README.md:" << example.line; }

std::optional<std::string> program_removed(const std::string& line) {
  for (const char* program : {"skipsound ", "build/default/skipsound "}) {
    const std::string prefix(program);
    if (line.rfind(prefix, 0) == 0) return line.substr(prefix.size());
  }
  return std::nullopt;
}

void read_annotation(Example& example) {
  static const std::regex exit_comment(R"(#\s*exit\s+(\d+)\s*$)");
  static const std::regex not_run_comment(R"(#\s*not run by the tests:\s*(.*?)\s*$)");
  std::smatch match;
  if (std::regex_search(example.command, match, exit_comment)) example.expected_exit = std::stoi(match[1]);
  if (std::regex_search(example.command, match, not_run_comment)) example.not_run_because = match[1];
}

// The examples of a Markdown text by the convention above; `command` holds the arguments after
// the program name, continuation lines joined.
std::vector<Example> examples_in(const std::string& markdown) {
  std::vector<Example> examples;
  std::istringstream lines(markdown);
  bool in_block = false;
  int number = 0;
  for (std::string line; std::getline(lines, line);) {
    ++number;
    if (line.rfind("```", 0) == 0) {
      in_block = !in_block;
      continue;
    }
    if (!in_block) continue;
    const std::optional<std::string> arguments = program_removed(line.rfind("$ ", 0) == 0 ? line.substr(2) : line);
    if (!arguments) continue;
    Example example{number, *arguments, 0, std::nullopt};
    while (!example.command.empty() && example.command.back() == '\\' && std::getline(lines, line)) {
      ++number;
      example.command += "\n" + line;
    }
    read_annotation(example);
    examples.push_back(std::move(example));
  }
  return examples;
}

std::vector<Example> readme_examples() {
  std::ifstream in(std::string(SKIPSOUND_SOURCE_DIR) + "/README.md");
  std::ostringstream text;
  text << in.rdbuf();
  return examples_in(text.str());
}

struct Outcome {
  int exit_code = -1;
  std::string output;
};

// Runs `skipsound <arguments>` through sh: the README's globs and quotes mean what they mean in a
// shell, and a trailing `# exit N` is a comment. The script's status is the command's.
Outcome run_from_repository_root(const std::string& arguments) {
  const std::string script = "exec 2>&1\ncd '" + std::string(SKIPSOUND_SOURCE_DIR) + "' || exit 99\n'" +
                             SKIPSOUND_BINARY + "' " + arguments + "\n";
  Outcome outcome;
  FILE* pipe = ::popen(script.c_str(), "r");
  if (!pipe) return outcome;
  std::array<char, 4096> buffer{};
  for (size_t n; (n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0;) outcome.output.append(buffer.data(), n);
  const int status = ::pclose(pipe);
  outcome.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return outcome;
}

class ReadmeExample : public testing::TestWithParam<Example> {};

TEST_P(ReadmeExample, RunsWithItsExpectedExit) {
  const Example& example = GetParam();
  if (example.not_run_because) GTEST_SKIP() << *example.not_run_because;
  const Outcome outcome = run_from_repository_root(example.command);
  EXPECT_EQ(outcome.exit_code, example.expected_exit)
      << "README.md:" << example.line << ": skipsound " << example.command << "\n" << outcome.output;
}

INSTANTIATE_TEST_SUITE_P(Readme, ReadmeExample, testing::ValuesIn(readme_examples()),
                         [](const testing::TestParamInfo<Example>& info) {
                           return "line_" + std::to_string(info.param.line);
                         });

TEST(ReadmeExamples, TheConventionPicksCommandLinesInBlocksOnly) {
  const std::vector<Example> found = examples_in(
      "`skipsound parse` in text is not an example\n"
      "```\n"
      "scripts/run gate\n"
      "$ skipsound parse 'x > 1' \\\n"
      "  --schema s.json   # exit 2\n"
      "build/default/skipsound gate --budget 1000   # not run by the tests: minutes long\n"
      "```\n"
      "skipsound eval outside a block\n");
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].line, 4);
  EXPECT_EQ(found[0].command, "parse 'x > 1' \\\n  --schema s.json   # exit 2");
  EXPECT_EQ(found[0].expected_exit, 2);
  EXPECT_FALSE(found[0].not_run_because);
  EXPECT_EQ(found[1].line, 6);
  EXPECT_EQ(found[1].expected_exit, 0);
  EXPECT_EQ(found[1].not_run_because, "minutes long");
}

TEST(ReadmeExamples, TheReadmeHasItsExamples) {
  EXPECT_GE(readme_examples().size(), 4u) << "README.md's examples no longer follow the convention";
}

TEST(ReadmeExamples, AFailingCommandIsSeen) {
  EXPECT_EQ(run_from_repository_root("skip 'x > 30' --schema tests/corpus/schemas/predicates.json --stats '{}'").exit_code, 2);
  EXPECT_EQ(run_from_repository_root("--help").exit_code, 0);
}

size_t occurrences(const std::string& text, const std::string& part) {
  size_t count = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++count;
  return count;
}

// CLI11 copies a parent's footer into each command: the exit codes must still be said once.
TEST(ReadmeExamples, EveryHelpStatesTheExitCodesOnce) {
  for (const char* command : {"", "parse ", "eval ", "check ", "skip ", "prove ", "scenario ", "gate ", "replay ",
                              "explore "}) {
    const Outcome outcome = run_from_repository_root(std::string(command) + "--help");
    EXPECT_EQ(outcome.exit_code, 0) << command;
    EXPECT_EQ(occurrences(outcome.output, "Exit codes:"), 1u) << "skipsound " << command << "--help\n" << outcome.output;
  }
}

}  // namespace
