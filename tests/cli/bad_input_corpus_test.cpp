// The bad-input corpus (tests/corpus/bad-inputs/cases.txt): every malformed input of every kind
// ends with its exit status and a message that names where the input is wrong; never a crash,
// a hang or an internal error.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "model/values/ascii_text.h"

namespace skipsound {
namespace {

const std::filesystem::path kCorpus = std::filesystem::path(SKIPSOUND_SOURCE_DIR) / "tests/corpus/bad-inputs";

struct BadInputCase {
  std::string name;
  std::string command;
  int exit_status = 0;
  std::string message;
};

std::vector<std::string> split_fields(const std::string& line) {
  std::vector<std::string> fields;
  size_t start = 0;
  for (size_t bar; (bar = line.find(" | ", start)) != std::string::npos; start = bar + 3) {
    fields.push_back(trim_whitespace(line.substr(start, bar - start)));
  }
  fields.push_back(trim_whitespace(line.substr(start)));
  return fields;
}

std::vector<BadInputCase> load_cases() {
  std::vector<BadInputCase> cases;
  std::ifstream in(kCorpus / "cases.txt");
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const std::vector<std::string> fields = split_fields(line);
    if (fields.size() != 4) throw std::runtime_error("cases.txt: expected 4 fields in: " + line);
    cases.push_back({fields[0], fields[1], std::stoi(fields[2]), fields[3]});
  }
  return cases;
}

std::string with_binary(std::string command) {
  const std::string placeholder = "{skipsound}";
  command.replace(command.find(placeholder), placeholder.size(), SKIPSOUND_BINARY);
  return command;
}

class BadInput : public ::testing::TestWithParam<BadInputCase> {};

// The limit catches hangs; it does not time anything. Sanitizer builds run every case many times
// slower (the 8,000-term OR takes about 1 s in a release build and 55 s under ThreadSanitizer).
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
constexpr const char* kHangLimit = "timeout 600 ";
#else
constexpr const char* kHangLimit = "timeout 60 ";
#endif

TEST_P(BadInput, ExitsWithItsStatusAndNamesTheLocation) {
  const BadInputCase& c = GetParam();
  const std::filesystem::path output = std::filesystem::temp_directory_path() / ("skipsound-bad-input-" + c.name + ".txt");
  // `timeout` turns a hang into a failure (exit 124) instead of a stuck test run.
  const std::string shell = "cd '" + kCorpus.string() + "' && " + kHangLimit + with_binary(c.command) + " > '" +
                            output.string() + "' 2>&1";
  const int raw = std::system(shell.c_str());
  ASSERT_TRUE(WIFEXITED(raw)) << c.command;
  std::ifstream in(output);
  std::stringstream text;
  text << in.rdbuf();
  std::filesystem::remove(output);
  EXPECT_EQ(WEXITSTATUS(raw), c.exit_status) << c.command << "\n" << text.str();
  EXPECT_NE(text.str().find(c.message), std::string::npos)
      << "expected the message to contain: " << c.message << "\ngot: " << text.str();
  EXPECT_EQ(text.str().find("internal error"), std::string::npos) << text.str();
}

INSTANTIATE_TEST_SUITE_P(Corpus, BadInput, ::testing::ValuesIn(load_cases()),
                         [](const ::testing::TestParamInfo<BadInputCase>& info) {
                           std::string name = info.param.name;
                           for (char& ch : name) {
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           }
                           return name;
                         });

TEST(BadInputCorpus, CoversEveryInputKind) {
  std::set<std::string> kinds;
  for (const BadInputCase& c : load_cases()) kinds.insert(c.name.substr(0, c.name.find('-')));
  EXPECT_EQ(kinds, (std::set<std::string>{"predicate", "schema", "stats", "rows", "decisions", "scenario", "log", "option"}));
}

}  // namespace
}  // namespace skipsound
