// The command examples of README.md and of every guide in docs/ run as written, from the repository
// root, with the built binary; and every relative Markdown link among them leads to a file (and, with
// a `#fragment`, to a heading) that exists.
//
// The convention: an example is a line inside a ``` block that starts with `skipsound ` or
// `build/default/skipsound ` (after an optional `$ ` prompt), with the lines after it while each
// ends in `\`. It must exit 0 unless its last line ends in a shell comment `# exit N`; one ending
// in `# not run by the tests: <why>` is listed here as skipped. `scripts/run ...` lines (which
// install packages and run the whole gate or suite) are not skipsound lines and never run here.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <set>
#include <fstream>
#include <optional>
#include <regex>
#include <sstream>

#include "tests/support/skipsound_process.h"

namespace {

struct Example {
  std::string file;  // relative to the repository root
  int line = 0;      // 1-based
  std::string command;
  int expected_exit = 0;
  std::optional<std::string> not_run_because;
};

// How GoogleTest names a failing example.
void PrintTo(const Example& example, std::ostream* out) { *out << example.file << ":" << example.line; }

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
    Example example{"", number, *arguments, 0, std::nullopt};
    while (!example.command.empty() && example.command.back() == '\\' && std::getline(lines, line)) {
      ++number;
      example.command += "\n" + line;
    }
    read_annotation(example);
    examples.push_back(std::move(example));
  }
  return examples;
}

const std::filesystem::path source_root{SKIPSOUND_SOURCE_DIR};

std::string text_of(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// README.md and every guide in docs/, as paths relative to the repository root.
std::vector<std::string> documents() {
  std::vector<std::string> found{"README.md"};
  for (const auto& entry : std::filesystem::directory_iterator(source_root / "docs"))
    if (entry.path().extension() == ".md") found.push_back("docs/" + entry.path().filename().string());
  std::sort(found.begin() + 1, found.end());
  return found;
}

std::vector<Example> examples_of(const std::string& document) {
  std::vector<Example> examples = examples_in(text_of(source_root / document));
  for (Example& example : examples) example.file = document;
  return examples;
}

std::vector<Example> documented_examples() {
  std::vector<Example> all;
  for (const std::string& document : documents()) {
    std::vector<Example> examples = examples_of(document);
    all.insert(all.end(), examples.begin(), examples.end());
  }
  return all;
}

// A GoogleTest name for an example: its file's name in letters and digits, then its line.
std::string test_name(const Example& example) {
  std::string name;
  for (const char c : std::filesystem::path(example.file).stem().string())
    name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return name + "_line_" + std::to_string(example.line);
}

// Runs `skipsound <arguments>` from the repository root: the README's examples are written for it.
skipsound::test::ProcessOutcome run_from_repository_root(const std::string& arguments) {
  return skipsound::test::run_skipsound(arguments, SKIPSOUND_SOURCE_DIR);
}

class ReadmeExample : public testing::TestWithParam<Example> {};

TEST_P(ReadmeExample, RunsWithItsExpectedExit) {
  const Example& example = GetParam();
  if (example.not_run_because) GTEST_SKIP() << *example.not_run_because;
  const skipsound::test::ProcessOutcome outcome = run_from_repository_root(example.command);
  EXPECT_EQ(outcome.exit_code, example.expected_exit)
      << example.file << ":" << example.line << ": skipsound " << example.command << "\n" << outcome.output;
}

INSTANTIATE_TEST_SUITE_P(Readme, ReadmeExample, testing::ValuesIn(documented_examples()),
                         [](const testing::TestParamInfo<Example>& info) { return test_name(info.param); });

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

TEST(ReadmeExamples, TheReadmeAndTheCommandGuidesHaveTheirExamples) {
  for (const char* document : {"README.md", "docs/cli.md", "docs/scenario-language.md"})
    EXPECT_GE(examples_of(document).size(), 3u) << document << "'s examples no longer follow the convention";
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
    const skipsound::test::ProcessOutcome outcome = run_from_repository_root(std::string(command) + "--help");
    EXPECT_EQ(outcome.exit_code, 0) << command;
    EXPECT_EQ(occurrences(outcome.output, "Exit codes:"), 1u) << "skipsound " << command << "--help\n" << outcome.output;
  }
}

struct Link {
  std::string document;  // where it is written
  int line = 0;
  std::string target;    // as written
};

// The Markdown links of a document outside fenced blocks that lead into the repository.
std::vector<Link> relative_links_of(const std::string& document) {
  static const std::regex link(R"(\[[^\]]*\]\(([^)\s]+)\))");
  std::vector<Link> links;
  std::istringstream lines(text_of(source_root / document));
  bool in_block = false;
  int number = 0;
  for (std::string line; std::getline(lines, line);) {
    ++number;
    if (line.rfind("```", 0) == 0) in_block = !in_block;
    if (in_block) continue;
    for (std::sregex_iterator at(line.begin(), line.end(), link), end; at != end; ++at) {
      const std::string target = (*at)[1];
      if (target.find("://") == std::string::npos && target.rfind("mailto:", 0) != 0)
        links.push_back({document, number, target});
    }
  }
  return links;
}

// GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens.
std::string anchor_of(const std::string& heading) {
  std::string anchor;
  for (const char c : heading) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == ' ') anchor += '-';
    else if (std::isalnum(byte) || c == '-' || c == '_' || byte >= 0x80) anchor += static_cast<char>(std::tolower(byte));
  }
  return anchor;
}

std::set<std::string> anchors_of(const std::filesystem::path& markdown) {
  std::set<std::string> anchors;
  std::istringstream lines(text_of(markdown));
  bool in_block = false;
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("```", 0) == 0) in_block = !in_block;
    if (in_block || line.rfind('#', 0) != 0) continue;
    const size_t text = line.find_first_not_of('#');
    if (text != std::string::npos) anchors.insert(anchor_of(line.substr(line.find_first_not_of(' ', text))));
  }
  return anchors;
}

// The file a link leads to, relative to the repository root.
std::filesystem::path target_file(const Link& link) {
  const std::string path = link.target.substr(0, link.target.find('#'));
  if (path.empty()) return link.document;
  return (std::filesystem::path(link.document).parent_path() / path).lexically_normal();
}

// Why a link is broken, or nothing when it is not.
std::optional<std::string> broken(const Link& link) {
  const std::filesystem::path file = target_file(link);
  if (!std::filesystem::exists(source_root / file)) return file.string() + " does not exist";
  const size_t hash = link.target.find('#');
  if (hash == std::string::npos) return std::nullopt;
  if (!anchors_of(source_root / file).count(link.target.substr(hash + 1)))
    return file.string() + " has no heading with the anchor #" + link.target.substr(hash + 1);
  return std::nullopt;
}

TEST(DocumentLinks, EveryRelativeLinkLeadsToAnExistingFileAndHeading) {
  size_t checked = 0;
  for (const std::string& document : documents())
    for (const Link& link : relative_links_of(document)) {
      ++checked;
      const std::optional<std::string> why = broken(link);
      EXPECT_FALSE(why) << link.document << ":" << link.line << ": (" << link.target << "): " << why.value_or("");
    }
  EXPECT_GE(checked, 10u) << "the documents' links are no longer found";
}

TEST(DocumentLinks, ABrokenLinkIsSeen) {
  EXPECT_TRUE(broken({"README.md", 1, "docs/no-such-guide.md"}));
  EXPECT_TRUE(broken({"README.md", 1, "docs/cli.md#no-such-heading"}));
  EXPECT_FALSE(broken({"docs/cli.md", 1, "semantics.md"}));
  EXPECT_FALSE(broken({"docs/gate.md", 1, "../README.md#a-60-second-tour"}));
  EXPECT_EQ(anchor_of("Decision files (`check --decisions`)"), "decision-files-check---decisions");
}

// Every guide is reached from README.md, directly or through other guides.
TEST(DocumentLinks, EveryGuideIsReachableFromTheReadme) {
  std::set<std::string> reached{"README.md"};
  std::vector<std::string> to_visit{"README.md"};
  while (!to_visit.empty()) {
    const std::string document = to_visit.back();
    to_visit.pop_back();
    for (const Link& link : relative_links_of(document)) {
      const std::string file = target_file(link).generic_string();
      if (file.size() > 3 && file.substr(file.size() - 3) == ".md" && reached.insert(file).second &&
          std::filesystem::exists(source_root / file))
        to_visit.push_back(file);
    }
  }
  for (const std::string& document : documents()) EXPECT_TRUE(reached.count(document)) << document << " is not reachable from README.md";
}

}  // namespace
