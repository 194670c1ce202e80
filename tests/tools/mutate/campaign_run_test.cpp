// The program end to end on a small CMake project of its own, whose `skipsound gate` checks one
// function and logs each run's SKIPSOUND_MUTANT_ID: the schema build judges every mutant without
// a rebuild and reports what the normal build reports with no mutant active; a mutant in code no
// gate run reaches is not covered and not run; --resume runs only what the journal lacks; --jobs judges several at once alike; --sample and --changed-since choose what their options say.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include "model/values/scratch_directory.h"
#include "tools/mutate/mutant_run.h"

namespace skipsound::mutation {
namespace {

namespace fs = std::filesystem;

constexpr const char* kCMakeLists = R"(cmake_minimum_required(VERSION 3.16)
project(mutation_campaign CXX)
option(SKIPSOUND_TESTS "unused" ON)
option(SKIPSOUND_BENCH "unused" ON)
add_executable(skipsound main.cpp lib/calc.cpp)
target_include_directories(skipsound PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
target_compile_features(skipsound PRIVATE cxx_std_20)
)";

// Line 4's literal 0 compares with a comparison category, which only a literal 0 does: its
// mutant compiles neither as a choice nor on its own, and only it leaves the schema.
constexpr const char* kCalc = R"(#include "lib/calc.h"
#include <compare>
int calc(int a, int b) {
  if ((a <=> b) < 0)
    return b - a;
  return a * 2 + 1;
}

int unused(int a) {
  if (a > 2)
    return 1;
  return 0;
}
)";

// `skipsound gate --log FILE --json FILE [--tell]`: exit 1 when calc is wrong, 0 when right; with
// --tell its report says whether SKIPSOUND_MUTANT_ID is set (a build the schema changed).
constexpr const char* kMain = R"(#include <cstdlib>
#include <fstream>
#include <string>

#include "lib/calc.h"

int main(int argc, char** argv) {
  std::string json, log;
  bool tell = false;
  for (int i = 1; i < argc; ++i) tell = tell || std::string(argv[i]) == "--tell";
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::string(argv[i]) == "--json") json = argv[i + 1];
    if (std::string(argv[i]) == "--log") log = argv[i + 1];
  }
  const char* id = std::getenv("SKIPSOUND_MUTANT_ID");
  std::ofstream(log, std::ios::app) << (id ? id : "none") << "\n";
  const bool right = calc(1, 3) == 2 && calc(5, 2) == 11 && calc(3, 3) == 7;
  std::ofstream(json) << "{\"failures\": [" << (right ? "" : "\"calc\"") << "], \"seconds\": 0.5, \"checks\": 3"
                       << (tell && id ? ", \"schema\": true}" : "}");
  return right ? 0 : 1;
}
)";

class Campaign : public ::testing::Test {
 protected:
  void SetUp() override {
    fs::create_directories(root_ / "lib");
    fs::create_directories(root_ / "tools/mutate");
    std::ofstream(root_ / "CMakeLists.txt") << kCMakeLists;
    std::ofstream(root_ / "lib/calc.h") << "int calc(int a, int b);\n";
    std::ofstream(root_ / "lib/calc.cpp") << kCalc;
    std::ofstream(root_ / "main.cpp") << kMain;
    fs::copy_file(fs::path(SKIPSOUND_SOURCE_DIR) / "tools/mutate/mutant_schema_runtime.h",
                  root_ / "tools/mutate/mutant_schema_runtime.h");
  }

  // The tool's exit code, with its output in output().
  std::optional<int> mutate(std::vector<std::string> arguments, const std::string& gate_options = "") const {
    std::vector<std::string> argv = {SKIPSOUND_MUTATE_BINARY, "--source-root", root_.string(), "--build-dir",
                                     build_.string(), "--gate-args", "gate --log " + gate_log_.string() + gate_options};
    argv.insert(argv.end(), arguments.begin(), arguments.end());
    return run_process(argv, 300, (scratch_.path() / "output.log").string()).exit_code;
  }
  std::string output() const { return read_text_file((scratch_.path() / "output.log").string()); }

  void configure() const {
    ASSERT_EQ(run_process({"cmake", "-S", root_.string(), "-B", build_.string()}, 120,
                          (scratch_.path() / "configure.log").string())
                  .exit_code,
              0)
        << read_text_file((scratch_.path() / "configure.log").string());
  }

  std::vector<std::string> gate_runs() const {
    std::vector<std::string> runs;
    std::ifstream in(gate_log_);
    for (std::string line; std::getline(in, line);) runs.push_back(line);
    return runs;
  }

  nlohmann::json report() const {
    return nlohmann::json::parse(read_text_file((build_ / "reports/mutation-report.json").string()));
  }

  std::vector<std::string> listed(const std::string& output) const {
    std::vector<std::string> lines;
    std::istringstream in(output);
    for (std::string line; std::getline(in, line);) {
      if (line.rfind("lib/calc.cpp:", 0) == 0) lines.push_back(line);
    }
    return lines;
  }

  const ScratchDirectory scratch_{"campaign"};
  const fs::path root_ = scratch_.path() / "project";
  const fs::path build_ = root_ / "build" / "mutation";
  const fs::path gate_log_ = scratch_.path() / "gates.log";
};

TEST_F(Campaign, TheSchemaBuildJudgesEveryMutantAndAResumedRunOnlyTheRest) {
  configure();
  const auto exit_code = mutate({"lib/calc.cpp"});
  const nlohmann::json first = report();
  const size_t mutants = first.at("run").get<size_t>();
  ASSERT_GE(mutants, 8u) << output();
  EXPECT_EQ(first.at("planned").get<size_t>(), mutants);
  EXPECT_EQ(first.at("scope"), "whole");
  EXPECT_EQ(first.at("schemaLeftOut"), 1) << output();
  for (const nlohmann::json& m : first.at("mutants")) {
    const bool the_literal = m.at("operator") == "constant" && m.at("line") == 4;
    EXPECT_EQ(m.value("ownBuild", false), the_literal) << m.dump();
    if (the_literal) {
      EXPECT_EQ(m.at("status"), "build-failure");
    }
  }
  // unused() is never called: its mutants are not covered, and not run.
  const size_t not_covered = first.at("notCovered").get<size_t>();
  EXPECT_GE(not_covered, 4u) << output();
  for (const nlohmann::json& m : first.at("mutants")) {
    EXPECT_EQ(m.at("status") == "not-covered", m.at("line").get<size_t>() >= 9) << m.dump();
  }
  EXPECT_GE(first.at("detected").get<size_t>(), mutants - not_covered - 3) << output();
  EXPECT_EQ(exit_code, 1) << "a mutant not covered counts against the score";
  // The normal build's baseline, the schema build's (no mutant: -1), then one gate per covered mutant.
  std::vector<std::string> runs = gate_runs();
  ASSERT_EQ(runs.size(), mutants - not_covered + 2 - 1) << output();  // the build failure runs no gate
  EXPECT_EQ(runs[0], "none");
  EXPECT_EQ(runs[1], "-1");
  std::sort(runs.begin() + 2, runs.end());
  EXPECT_EQ(std::adjacent_find(runs.begin() + 2, runs.end()), runs.end()) << "every id once";

  // A run stopped after three mutants, killed while writing the fourth's record.
  const fs::path journal = build_ / "reports/mutation-journal.jsonl";
  std::vector<std::string> lines;
  {
    std::ifstream in(journal);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
  }
  ASSERT_EQ(lines.size(), mutants);
  {
    std::ofstream out(journal, std::ios::trunc);
    for (size_t i = 0; i < 3; ++i) out << lines[i] << "\n";
    out << lines[3].substr(0, lines[3].size() / 2);
  }
  fs::remove(gate_log_);
  const auto resumed_exit = mutate({"lib/calc.cpp", "--resume"});
  EXPECT_EQ(resumed_exit, exit_code) << output();
  EXPECT_NE(output().find(", 3 of them done by earlier sessions"), std::string::npos) << output();
  size_t run_again = 0;
  for (size_t i = 3; i < mutants; ++i) {
    const std::string status = nlohmann::json::parse(lines[i]).at("mutant").at("status");
    run_again += status != "not-covered" && status != "build-failure";
  }
  EXPECT_EQ(gate_runs().size(), run_again)
      << "the covered mutants not in the journal; the baselines of the same binaries are the first session's";
  EXPECT_NE(output().find("baselines: those of the same binaries, recorded by an earlier session"), std::string::npos)
      << output();
  const nlohmann::json resumed = report();
  EXPECT_EQ(resumed.at("run"), mutants);
  EXPECT_EQ(resumed.at("detected"), first.at("detected"));
  EXPECT_EQ(resumed.at("survived"), first.at("survived"));
  EXPECT_EQ(resumed.at("notCovered"), first.at("notCovered"));
}

// Mutants judged side by side (--jobs) get the verdicts they get one at a time, each id once.
TEST_F(Campaign, ParallelJobsJudgeEachMutantOnceWithTheSameVerdicts) {
  configure();
  const auto statuses = [&] {
    std::map<std::string, std::string> by_mutant;
    for (const nlohmann::json& m : report().at("mutants")) {
      by_mutant[m.at("operator").get<std::string>() + ":" + std::to_string(m.at("line").get<size_t>()) + ":" +
                m.at("after").get<std::string>()] = m.at("status");
    }
    return by_mutant;
  };
  const auto one_at_a_time = mutate({"lib/calc.cpp"});
  const std::map<std::string, std::string> sequential = statuses();
  fs::remove(gate_log_);
  EXPECT_EQ(mutate({"lib/calc.cpp", "--jobs", "3"}), one_at_a_time) << output();
  EXPECT_EQ(statuses(), sequential) << output();
  EXPECT_EQ(report().at("run"), report().at("planned"));
  std::vector<std::string> runs = gate_runs();
  std::sort(runs.begin(), runs.end());
  EXPECT_EQ(std::adjacent_find(runs.begin(), runs.end()), runs.end()) << "every id once";
  EXPECT_EQ(mutate({"lib/calc.cpp", "--jobs", "0"}), 2) << output();
}

TEST_F(Campaign, ASliceEndsAtItsTimeLimitWithItsReportAndTheNextOneContinues) {
  configure();
  EXPECT_EQ(mutate({"lib/calc.cpp", "--time-limit", "0"}), 0) << output();  // nothing run, nothing against it
  const nlohmann::json slice = report();
  EXPECT_EQ(slice.at("run"), 0);
  EXPECT_EQ(slice.at("stoppedByTimeLimit"), true);
  EXPECT_NE(read_text_file((build_ / "reports/mutation-report.md").string()).find("(stopped by --time-limit)"),
            std::string::npos);
  mutate({"lib/calc.cpp", "--resume"});
  EXPECT_EQ(report().at("run"), report().at("planned")) << output();
  EXPECT_EQ(report().at("stoppedByTimeLimit"), false);
}

TEST_F(Campaign, ASchemaBuildThatReportsOtherwiseStopsTheRun) {
  configure();
  EXPECT_EQ(mutate({"lib/calc.cpp"}, " --tell"), 3) << output();
  EXPECT_NE(output().find("the schema build with no mutant active does not report what the normal build reports: "
                          "/schema: absent in the normal build, true in the schema build"),
            std::string::npos)
      << output();
  EXPECT_EQ(gate_runs().size(), 2u) << "no mutant runs";
}

TEST_F(Campaign, ASampleIsDrawnBySeedAndTheReportSaysSo) {
  const auto list = [&](const std::string& seed) {
    EXPECT_EQ(mutate({"lib/calc.cpp", "--list", "--sample", "3", "--seed", seed}), 0) << output();
    return listed(output());
  };
  const std::vector<std::string> first = list("7");
  EXPECT_EQ(first.size(), 3u);
  EXPECT_EQ(list("7"), first) << "the same seed draws the same sample";
  EXPECT_NE(output().find("3 planned"), std::string::npos) << output();
  std::set<std::vector<std::string>> samples;
  for (const char* seed : {"1", "2", "3", "4", "5"}) samples.insert(list(seed));
  EXPECT_GT(samples.size(), 1u) << "other seeds draw other samples";
}

TEST_F(Campaign, ChangedSinceMutatesOnlyTheChangedLines) {
  const auto git = [&](std::vector<std::string> arguments) {
    arguments.insert(arguments.begin(), {"git", "-C", root_.string(), "-c", "user.name=test", "-c",
                                         "user.email=test@example.com"});
    return run_process(arguments, 60, (scratch_.path() / "git.log").string()).exit_code;
  };
  ASSERT_EQ(git({"init", "-q"}), 0) << read_text_file((scratch_.path() / "git.log").string());
  ASSERT_EQ(git({"add", "."}), 0);
  ASSERT_EQ(git({"commit", "-q", "-m", "calc"}), 0) << read_text_file((scratch_.path() / "git.log").string());
  std::string changed = kCalc;
  changed.replace(changed.find("a * 2 + 1"), 9, "a * 2 + 3");
  std::ofstream(root_ / "lib/calc.cpp") << changed;

  ASSERT_EQ(mutate({"lib/calc.cpp", "--list", "--changed-since", "HEAD"}), 0) << output();
  const std::vector<std::string> mutants = listed(output());
  ASSERT_FALSE(mutants.empty()) << output();
  for (const std::string& m : mutants) EXPECT_EQ(m.rfind("lib/calc.cpp:6 ", 0), 0u) << m;
  ASSERT_EQ(mutate({"lib/calc.cpp", "--list"}), 0);
  EXPECT_GT(listed(output()).size(), mutants.size() + 4) << "the other lines' mutants are left out";

  EXPECT_EQ(mutate({"lib/calc.cpp", "--list", "--changed-since", "no-such-revision"}), 2);
  EXPECT_NE(output().find("--changed-since no-such-revision: git diff failed"), std::string::npos) << output();
}

}  // namespace
}  // namespace skipsound::mutation
