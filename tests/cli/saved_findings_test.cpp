// A saved finding reproduces from the file alone. Each finding kind the gate reports is produced
// with a named runtime mutant (a broken build, simulated) and saved by `gate --out`; then
// `skipsound replay FILE` must fail (exit 1) printing the finding's headline, and
// `skipsound replay --mutant none FILE` (the fixed build) must pass.
//
// No named mutant brings two kinds to the gate's --out: a WRONG RESULT and a LOG READ-BACK of the
// explorer. The matrix hunts every per-file and input-path mutant (the ones that break a scan or
// the log reader) with per-file cases first, which kill them all, and the explorer phase runs the
// sound checker. Those two come from the explorer under such a mutant, written by the gate's own
// --out writer (write_gate_findings). No mutant makes the conflict filter throw, so an INTERNAL
// ERROR finding has no case here.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "proofs/explorer/explorer.h"
#include "proofs/gate/gate_report.h"
#include "tests/support/skipsound_process.h"

namespace skipsound {
namespace {

namespace fs = std::filesystem;

// A folder of this test process's own, removed at the end.
class ScratchFolder {
 public:
  explicit ScratchFolder(const std::string& name)
      : path_(fs::temp_directory_path() / (name + "-" + std::to_string(::getpid()))) {
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~ScratchFolder() { fs::remove_all(path_); }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

// The headline a saved file carries: a scenario's first comment, a per-file case's description.
std::string saved_headline(const fs::path& file) {
  std::ifstream in(file);
  if (file.extension() == ".scn") {
    std::string first;
    std::getline(in, first);
    return first.rfind("# ", 0) == 0 ? first.substr(2) : "";
  }
  return nlohmann::json::parse(in).value("description", "");
}

bool has_line(const std::string& text, const std::string& line) {
  std::istringstream lines(text);
  for (std::string l; std::getline(lines, l);) {
    if (l == line) return true;
  }
  return false;
}

// The line a replay prints for the finding it reproduces: a scenario lists it among the
// expectations not met, a per-file case re-derives the gate's report, headline first.
std::string reproduced_line(const fs::path& file, const std::string& headline) {
  return file.extension() == ".scn" ? "UNEXPECTED " + headline : headline;
}

void expect_replays_while_the_bug_is_there(const fs::path& file, const std::string& kind) {
  SCOPED_TRACE(file.filename().string());
  ASSERT_TRUE(fs::exists(file));
  const std::string headline = saved_headline(file);
  EXPECT_EQ(headline.rfind(kind, 0), 0u) << headline;
  // Appended piece by piece: GCC 12 warns (-Wrestrict, a false positive) on "'" + string.
  std::string quoted = "'";
  quoted += file.string();
  quoted += "'";
  const test::ProcessOutcome replayed = test::run_skipsound("replay " + quoted, file.parent_path().string());
  EXPECT_EQ(replayed.exit_code, 1) << replayed.output;
  EXPECT_TRUE(has_line(replayed.output, reproduced_line(file, headline))) << replayed.output;
  const test::ProcessOutcome fixed = test::run_skipsound("replay --mutant none " + quoted, file.parent_path().string());
  EXPECT_EQ(fixed.exit_code, 0) << fixed.output;
  EXPECT_FALSE(has_line(fixed.output, reproduced_line(file, headline))) << fixed.output;
}

TEST(SavedFindings, EveryKindTheGateWritesFailsUnderItsMutantAndPassesWithout) {
  const ScratchFolder scratch("skipsound-saved-findings");
  const fs::path corpus = scratch.path() / "no-corpus";
  const fs::path out = scratch.path() / "out";
  fs::create_directories(corpus);
  const test::ProcessOutcome gate = test::run_skipsound(
      test::small_gate_arguments(corpus.string()) + " --out '" + out.string() + "'"
      " --mutant append-suppression --mutant snapshot-ignores-datachange --mutant le-as-lt"
      " --mutant skip-missing-stats --mutant absent-leaf-nullcount-zero --mutant string-max-plain-prefix"
      " --mutant remove-ignores-dv",
      scratch.path().string());
  ASSERT_EQ(gate.exit_code, 0) << "every mutant is killed\n" << gate.output;
  const std::vector<std::pair<const char*, const char*>> saved = {
      {"mutant-append-suppression.scn", "UNJUSTIFIED SKIP: "},
      {"mutant-snapshot-ignores-datachange.scn", "MISSED CONFLICT: "},
      // le-as-lt's first case is a skip Z3 refutes with a consistent row (the generators' draw
      // order decides which kind comes first; tests/corpus/files/mutant-le-as-lt.json keeps an
      // unsound skip with a live row, which the README's tour replays).
      {"mutant-le-as-lt.json", "ERROR: skip not justified by the stats"},
      {"mutant-skip-missing-stats.json", "ERROR: skip not justified by the stats"},
      // A stats audit: the writer's nullCount.
      {"mutant-absent-leaf-nullcount-zero.json", "ERROR: the stats do not describe the rows"},
      // Wide stats whose plain-prefix string max lies below a deleted row (a surrogate pair at the
      // cut): the audit holds bounds against live rows only, and the oracle finds the stats
      // impossible for the file's physical rows.
      {"mutant-string-max-plain-prefix.json", "ERROR: the oracle disagrees with itself"},
      {"mutant-remove-ignores-dv.json", "ERROR: the file's Delta log does not read back as it was written"},
  };
  for (const auto& [file, kind] : saved) expect_replays_while_the_bug_is_there(out / file, kind);
}

// The explorer's first finding under `mutant` in `category`, written as the gate's --out writes it.
fs::path explorer_finding(Mutant mutant, generators::WorldCategory category, const fs::path& out) {
  ExploreOptions options;
  options.seed = kDefaultGateSeed;
  options.mutant = mutant;
  options.categories = {category};
  options.trials_per_category = kDefaultTrialsPerCategory;
  options.stop_at_first_finding = true;
  GateReport report;
  report.categories = explore(options);
  const std::vector<std::string> written = write_gate_findings(report, out.string());
  return written.empty() ? fs::path() : fs::path(written.front());
}

TEST(SavedFindings, TheExplorersWrongResultAndLogReadBackFailUnderTheirMutantAndPassWithout) {
  const ScratchFolder scratch("skipsound-saved-explorer-findings");
  expect_replays_while_the_bug_is_there(
      explorer_finding(Mutant::LeAsLt, generators::WorldCategory::Overlapping, scratch.path() / "scan"),
      "WRONG RESULT: ");
  expect_replays_while_the_bug_is_there(
      explorer_finding(Mutant::RemoveIgnoresDv, generators::WorldCategory::WideDv, scratch.path() / "log"),
      "LOG READ-BACK: ");
}

// What `replay` cannot read exits 2 naming the file and where, never nlohmann's exception text.
TEST(SavedFindings, AFileReplayCannotReadIsNamedWithWhereItIsWrong) {
  const ScratchFolder scratch("skipsound-replay-bad-files");
  const auto write = [&](const char* name, const char* text) { std::ofstream(scratch.path() / name) << text; };
  write("scenario-named-json.json", "# a scenario\nschema: id long\n");
  write("late-syntax-error.json", "{\n  \"schema\": 1,\n  \"rows\": tru\n}\n");
  write("wrong-type.json",
        R"({"schema": {"type": "struct", "fields": []}, "statsConfig": {"numIndexedCols": "x", "partitionColumns": []}})");
  write("directive.scn", "schema: id long\nexpect findings: some\n");
  const std::vector<std::pair<const char*, const char*>> cases = {
      {"scenario-named-json.json",
       "scenario-named-json.json:1:1: not valid JSON: syntax error while parsing value - invalid literal; last read: "
       "'#' (a per-file case is JSON; a scenario file is read when its name ends in .scn)"},
      {"late-syntax-error.json", "late-syntax-error.json:3:"},
      {"wrong-type.json", "wrong-type.json: corpus case: \"numIndexedCols\": type must be number, but is string"},
      {"directive.scn", "directive.scn:2: expected 'expect findings: none', got 'some'"},
  };
  for (const auto& [file, message] : cases) {
    SCOPED_TRACE(file);
    const test::ProcessOutcome replayed = test::run_skipsound(std::string("replay ") + file, scratch.path().string());
    EXPECT_EQ(replayed.exit_code, 2) << replayed.output;
    EXPECT_NE(replayed.output.find(message), std::string::npos) << replayed.output;
    EXPECT_EQ(replayed.output.find("json.exception"), std::string::npos) << replayed.output;
  }
}

}  // namespace
}  // namespace skipsound
