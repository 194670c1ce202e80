// Running mutants with stand-in build and gate commands (sh): the classification by exit status
// and timeout, the gate seeing the mutated file, and the source restored after every mutant, on
// a build failure, and from the journal a killed run leaves.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "model/values/scratch_directory.h"
#include "tools/mutate/mutant_run.h"

namespace skipsound::mutation {
namespace {

std::string read(const std::filesystem::path& p) { return read_text_file(p.string()); }

class MutantRun : public ::testing::Test {
 protected:
  void SetUp() override {
    std::ofstream(root_ / "code.cpp") << kSource;
    config_.source_root = root_.string();
    config_.work_dir = (root_ / "work").string();
    config_.build_command = {"true"};
    config_.gate_timeout = 5;
  }
  // The mutant of `code.cpp` that turns `<` into `<=`.
  Candidate relational() const {
    for (const Mutation& m : enumerate_mutations(kSource)) {
      if (m.op == Operator::Relational) return Candidate{"code.cpp", 0, m, describe_mutation(kSource, m)};
    }
    ADD_FAILURE() << "no relational mutation";
    return {};
  }
  // A gate that fails (exit 1) when it sees the mutant and passes otherwise.
  std::vector<std::string> gate_detecting_the_mutant() const {
    // The file reaches the script as its argument, never as part of its text.
    return {"sh", "-c", "grep -q '<=' \"$1\" && exit 1; exit 0", "gate", (root_ / "code.cpp").string()};
  }

  static constexpr const char* kSource = "bool f(int a, int b) { return a < b; }\n";
  const ScratchDirectory scratch_{"test"};
  const std::filesystem::path root_ = scratch_.path();
  RunConfig config_;
};

TEST_F(MutantRun, ExitStatusesAndTimeoutsAreClassified) {
  const std::string log = (root_ / "log").string();
  EXPECT_EQ(classify_gate_exit(run_process({"false"}, 5, log)), Status::Killed);
  EXPECT_EQ(classify_gate_exit(run_process({"true"}, 5, log)), Status::Survived);
  EXPECT_EQ(classify_gate_exit(run_process({"sh", "-c", "exit 3"}, 5, log)), Status::Crashed);
  EXPECT_EQ(classify_gate_exit(run_process({"sh", "-c", "kill -SEGV $$"}, 5, log)), Status::Crashed);
  const ProcessResult slow = run_process({"sleep", "30"}, 0.3, log);
  EXPECT_TRUE(slow.timed_out);
  EXPECT_LT(slow.seconds, 10);
  EXPECT_EQ(classify_gate_exit(slow), Status::Timeout);
}

TEST_F(MutantRun, TheLogKeepsTheOutputAndItsTailIsTheLastLines) {
  const std::string log = (root_ / "log").string();
  run_process({"sh", "-c", "for i in 1 2 3 4 5; do echo line$i; done; echo oops >&2"}, 5, log);
  EXPECT_EQ(file_tail(log, 2), "line5\noops\n");
}

TEST_F(MutantRun, TheGateSeesTheMutantAndTheSourceIsRestoredAfterwards) {
  config_.gate_command = gate_detecting_the_mutant();
  const MutantOutcome killed = run_mutant(config_, relational(), kSource);
  EXPECT_EQ(killed.status, Status::Killed);
  EXPECT_EQ(read(root_ / "code.cpp"), kSource);
  EXPECT_FALSE(std::filesystem::exists(journal_path(config_)));
  EXPECT_EQ(run_unmutated(config_).status, Status::Survived);
}

TEST_F(MutantRun, ABuildFailureIsNotRunAndStillRestores) {
  config_.build_command = {"sh", "-c", "echo compile error >&2; exit 2"};
  config_.gate_command = {"false"};
  const MutantOutcome outcome = run_mutant(config_, relational(), kSource);
  EXPECT_EQ(outcome.status, Status::BuildFailure);
  EXPECT_EQ(outcome.output_tail, "compile error\n");
  EXPECT_EQ(read(root_ / "code.cpp"), kSource);
}

TEST_F(MutantRun, ASlowGateIsATimeout) {
  config_.gate_command = {"sleep", "30"};
  config_.gate_timeout = 0.3;
  EXPECT_EQ(run_mutant(config_, relational(), kSource).status, Status::Timeout);
  EXPECT_EQ(read(root_ / "code.cpp"), kSource);
}

TEST_F(MutantRun, AKilledRunIsRepairedFromItsJournal) {
  std::filesystem::create_directories(config_.work_dir);
  const std::string path = (root_ / "code.cpp").string();
  std::ofstream(path) << "mutated\n";
  std::ofstream(journal_path(config_)) << std::filesystem::absolute(path).string() << "\n" << kSource;
  EXPECT_EQ(restore_interrupted(journal_path(config_)), std::filesystem::absolute(path).string());
  EXPECT_EQ(read(path), kSource);
  EXPECT_FALSE(restore_interrupted(journal_path(config_)));
}

// The gate starts processes in other folders (the bad inputs): the reached-sites file they
// append to is named whatever their working folder.
TEST_F(MutantRun, TheReachedSitesFileIsNamedFromAnyFolder) {
  config_.gate_command = {"sh", "-c", "cd / && echo $SKIPSOUND_MUTANT_ID >> \"$SKIPSOUND_MUTANT_REACHED\""};
  const std::filesystem::path reached = root_ / "reached.txt";
  const MutantOutcome outcome = run_schema_mutant(config_, 7, std::filesystem::relative(reached).string());
  EXPECT_EQ(outcome.status, Status::Survived) << outcome.output_tail;
  EXPECT_EQ(read(reached), "7\n");
}

TEST_F(MutantRun, OnePatchAtATime) {
  std::filesystem::create_directories(config_.work_dir);
  const std::string path = (root_ / "code.cpp").string();
  const SourcePatch first(path, kSource, "first\n", journal_path(config_));
  EXPECT_EQ(read(path), "first\n");
  EXPECT_THROW(SourcePatch(path, kSource, "second\n", journal_path(config_) + "2"), std::logic_error);
}

}  // namespace
}  // namespace skipsound::mutation
