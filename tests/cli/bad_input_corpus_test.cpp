// The bad-input corpus (tests/corpus/bad-inputs/cases.txt): every malformed input of every kind
// ends with its exit status and a message that names where the input is wrong; never a crash,
// a hang or an internal error.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "proofs/gate/bad_input_corpus.h"

namespace skipsound {
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
  EXPECT_EQ(run.problems, std::vector<std::string>{}) << c.command << "\n" << run.output;
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
