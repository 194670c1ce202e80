// The bad-input corpus (tests/corpus/bad-inputs/cases.txt): every malformed input of every kind
// ends with its exit status and a message that names where the input is wrong; never a crash,
// a hang or an internal error.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "model/values/scratch_directory.h"
#include "proofs/gate/bad_input_corpus.h"

namespace skipsound {

// Names a case in a failing test's parameter by its command line, not its bytes.
void PrintTo(const BadInputCase& c, std::ostream* out) { *out << bad_input_command_line(c); }

namespace {

const std::filesystem::path kCorpus = std::filesystem::path(SKIPSOUND_SOURCE_DIR) / "tests/corpus/bad-inputs";

std::vector<BadInputCase> load_cases() { return load_bad_input_cases(kCorpus); }

class BadInput : public ::testing::TestWithParam<BadInputCase> {};

// The limit catches hangs; it does not time anything. Sanitizer builds run every case many times
// slower (the 8,000-term OR takes about 1 s in a release build and 55 s under ThreadSanitizer).
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
constexpr int kHangLimitSeconds = 600;
#else
constexpr int kHangLimitSeconds = 60;
#endif

TEST_P(BadInput, ExitsWithItsStatusAndNamesTheLocation) {
  const BadInputCase& c = GetParam();
  const BadInputRun run = run_bad_input_case(c, kCorpus, SKIPSOUND_BINARY, kHangLimitSeconds);
  EXPECT_EQ(run.problems, std::vector<std::string>{}) << bad_input_command_line(c) << "\n" << run.output;
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

// A case folder may come from anyone: shell syntax in a case is text skipsound gets, never a
// command. Each case expects skipsound to refuse its predicate and to show it as written; a shell
// anywhere on the way would have made a marker file instead.
TEST(BadInputCorpus, ShellSyntaxInACaseRunsNothingButSkipsound) {
  const ScratchDirectory dir("test");
  const std::string schema = (kCorpus / "schemas/simple.json").string();
  const std::vector<std::string> predicates{"i > 1; touch marker-semicolon", "i > $(touch marker-substitution)",
                                            "i > `touch marker-backquote`", "i > 1 && touch marker-and | sh"};
  std::ofstream cases(dir.path() / "cases.txt");
  for (size_t n = 0; n < predicates.size(); ++n) {
    cases << nlohmann::json{{"name", "predicate-injection-" + std::to_string(n)},
                            {"args", {"parse", "--schema", schema, predicates[n]}},
                            {"exit", 2},
                            {"message", predicates[n]}}
                 .dump()
          << "\n";
  }
  std::ofstream(dir.path() / "predicate.txt") << "i > $(touch marker-contents)";
  cases << nlohmann::json{{"name", "predicate-injection-from-a-file"},
                          {"args", {"parse", "--schema", schema, {{"contents", "predicate.txt"}}}},
                          {"exit", 2},
                          {"message", "i > $(touch marker-contents)"}}
               .dump()
        << "\n";
  cases.close();

  const std::vector<BadInputCase> loaded = load_bad_input_cases(dir.path());
  ASSERT_EQ(loaded.size(), predicates.size() + 1);
  for (const BadInputCase& c : loaded) {
    const BadInputRun run = run_bad_input_case(c, dir.path(), SKIPSOUND_BINARY, kHangLimitSeconds);
    EXPECT_EQ(run.problems, std::vector<std::string>{}) << bad_input_command_line(c) << "\n" << run.output;
  }
  std::set<std::string> left;
  for (const auto& entry : std::filesystem::directory_iterator(dir.path())) left.insert(entry.path().filename().string());
  EXPECT_EQ(left, (std::set<std::string>{"cases.txt", "predicate.txt"}));
  for (const char* marker : {"marker-semicolon", "marker-substitution", "marker-backquote", "marker-and", "marker-contents"}) {
    EXPECT_FALSE(std::filesystem::exists(marker)) << marker << " made in the test's own folder";
  }
}

}  // namespace
}  // namespace skipsound
