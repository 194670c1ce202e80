// The tool's defaults keep its output out of the source tree: a report goes to the build folder
// (--build-dir/reports) and the triage is read from tools/mutate/triage.json beside the tool.
// Checked through the program itself, rendering a recorded run again (--report-from), which
// needs no configured build folder.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include <nlohmann/json.hpp>

#include "tools/mutate/mutant_run.h"
#include "tools/mutate/mutation_report.h"

namespace skipsound::mutation {
namespace {

namespace fs = std::filesystem;

// A scratch source root named for this process (CTest may run the suite's tests side by side).
class MutateDefaults : public ::testing::Test {
 protected:
  void SetUp() override {
    fs::remove_all(root_);
    fs::create_directories(root_);
  }
  void TearDown() override { fs::remove_all(root_); }

  // A recorded run of one survivor, checker/x.cpp:7 `a < b` -> `a <= b`.
  std::string recorded_run() const {
    MutantRecord survivor;
    survivor.candidate.file = "checker/x.cpp";
    survivor.candidate.mutation.op = Operator::Relational;
    survivor.candidate.mutation.line = 7;
    survivor.candidate.text = {"a < b", "a <= b"};
    survivor.outcome.status = Status::Survived;
    RunSummary run;
    run.command = "skipsound-mutate checker/x.cpp";
    run.files = {"checker/x.cpp"};
    const fs::path path = root_ / "recorded.json";
    std::ofstream(path) << report_json(run, {survivor}, {}).dump(2);
    return path.string();
  }

  void write_default_triage() const {
    fs::create_directories(root_ / "tools/mutate");
    std::ofstream(root_ / "tools/mutate/triage.json") << nlohmann::json::array(
        {{{"file", "checker/x.cpp"}, {"operator", "relational"}, {"before", "a < b"}, {"after", "a <= b"},
          {"verdict", "equivalent"}, {"reason", "a never equals b here"}}});
  }

  // Exit code of --report-from with only --source-root and --build-dir given.
  std::optional<int> render_again(const std::string& report) const {
    return run_process({SKIPSOUND_MUTATE_BINARY, "--source-root", root_.string(), "--build-dir",
                        (root_ / "build").string(), "--report-from", report},
                       60, (root_ / "output.log").string())
        .exit_code;
  }

  std::string output() const {
    std::ifstream in(root_ / "output.log");
    return {std::istreambuf_iterator<char>(in), {}};
  }

  const fs::path root_ = fs::temp_directory_path() / ("skipsound_mutate_" + std::to_string(::getpid()));
};

TEST_F(MutateDefaults, TheReportGoesToTheBuildFolder) {
  const std::string report = recorded_run();
  EXPECT_EQ(render_again(report), 1) << output();  // the survivor is not triaged
  EXPECT_TRUE(fs::is_regular_file(root_ / "build/reports/mutation-report.md")) << output();
  EXPECT_TRUE(fs::is_regular_file(root_ / "build/reports/mutation-report.json")) << output();
  size_t entries = 0;
  for (const auto& entry : fs::directory_iterator(root_)) entries += entry.path().filename() != "build";
  EXPECT_EQ(entries, 2u) << "only the recorded run and the output log, nothing else in the source root";
}

TEST_F(MutateDefaults, TheTriageBesideTheToolIsRead) {
  const std::string report = recorded_run();
  write_default_triage();
  EXPECT_EQ(render_again(report), 0) << output();  // its one survivor is triaged equivalent
  std::ifstream markdown(root_ / "build/reports/mutation-report.md");
  const std::string text{std::istreambuf_iterator<char>(markdown), {}};
  EXPECT_NE(text.find("**equivalent** — a never equals b here"), std::string::npos) << text;
}

}  // namespace
}  // namespace skipsound::mutation
