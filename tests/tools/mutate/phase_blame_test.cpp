// Phase blame below the program: which phases a mutant runs in, read from each phase's reached
// sites, and the gate command restricted to them.
#include <gtest/gtest.h>

#include <fstream>

#include "model/values/scratch_directory.h"
#include "tools/mutate/phase_blame.h"

namespace skipsound::mutation {
namespace {

PhaseBlame blame_of_three_phases() {
  PhaseBlame blame;
  blame.phases = {"corpus", "per-file", "explorer"};
  blame.reached = {{"corpus", {1, 2}}, {"per-file", {2, 3}}, {"explorer", {2, 4, 5}}};
  return blame;
}

TEST(PhaseBlame, AMutantRunsOnlyThePhasesThatReachItInTheGatesOrder) {
  const PhaseBlame blame = blame_of_three_phases();
  EXPECT_EQ(blame.phases_for(1), (std::vector<std::string>{"corpus"}));
  EXPECT_EQ(blame.phases_for(3), (std::vector<std::string>{"per-file"}));
  EXPECT_EQ(blame.phases_for(4), (std::vector<std::string>{"explorer"}));
  EXPECT_TRUE(blame.phases_for(2).empty()) << "every phase reaches it: the whole gate";
  EXPECT_TRUE(blame.phases_for(9).empty()) << "reached outside the phases only: the whole gate";
  EXPECT_TRUE(PhaseBlame{}.phases_for(1).empty()) << "no blame: the whole gate";
}

TEST(PhaseBlame, TheGateCommandNamesEachChosenPhase) {
  RunConfig config;
  config.gate_command = {"skipsound", "gate", "--json", "g.json"};
  EXPECT_EQ(with_phases(config, {}).gate_command, config.gate_command);
  EXPECT_EQ(with_phases(config, {"corpus", "explorer"}).gate_command,
            (std::vector<std::string>{"skipsound", "gate", "--json", "g.json", "--phase", "corpus", "--phase", "explorer"}));
}

TEST(PhaseBlame, ThePhasesAreReadFromTheGatesReportTheCorpusByItsPartsWithoutTheProofs) {
  const ScratchDirectory scratch("phase-blame");
  const std::string report = (scratch.path() / "gate.json").string();
  std::ofstream(report) << R"({"phases": [{"phase": "corpus"}, {"phase": "per-file"}, {"phase": "explorer"},
                                         {"phase": "proofs"}]})";
  EXPECT_EQ(phases_run(report),
            (std::vector<std::string>{"scenarios", "skip-suites", "bad-inputs", "per-file", "explorer"}));
  std::ofstream(report) << R"({"failures": []})";
  EXPECT_TRUE(phases_run(report).empty()) << "a gate without phases: no blame";
  EXPECT_TRUE(phases_run((scratch.path() / "missing.json").string()).empty());
}

TEST(PhaseBlame, ReachedIdsAreReadOneALineAcrossProcesses) {
  const ScratchDirectory scratch("phase-blame-reached");
  const std::string file = (scratch.path() / "reached.txt").string();
  std::ofstream(file) << "3\n7\n3\n12\n";
  EXPECT_EQ(read_reached(file), (std::set<size_t>{3, 7, 12}));
}

}  // namespace
}  // namespace skipsound::mutation
