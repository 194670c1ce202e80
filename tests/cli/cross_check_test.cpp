// --cross-check: a second solver that answers the other way is a finding with its query on disk;
// one that gives up or fails is counted, not a finding; `check --cross-check cvc5` on the shipped
// decisions agrees with Z3 on every answered query.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "model/sql/binder.h"
#include "cli/check_command.h"
#include "cli/cli.h"
#include "model/values/scratch_directory.h"
#include "proofs/oracles/cross_check.h"
#include "smt/oracle.h"

namespace skipsound {
namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// A solver command that prints `answer` whatever it is asked.
class FakeSolver {
 public:
  explicit FakeSolver(const std::string& answer) : path_(dir_.path() / "solver.sh") {
    std::ofstream(path_) << "#!/bin/sh\necho " << answer << "\n";
    std::filesystem::permissions(path_, std::filesystem::perms::owner_all);
  }
  smt::SecondSolverOptions options() const { return {path_.string(), 5000}; }

 private:
  ScratchDirectory dir_{"test"};
  std::filesystem::path path_;
};

// The oracle's text for a query Z3 proves unsat: x > 30 on a file whose x lies in [1, 20].
std::string unsat_query() {
  const Schema schema({StructField{"x", DataType::of(TypeKind::Long), true, {}}});
  FileStats stats;
  stats.num_records = 3;
  stats.tight_bounds = true;
  stats.columns = {ColumnStats{Value::integral(TypeKind::Long, 1), Value::integral(TypeKind::Long, 20), 0}};
  smt::OracleOptions options;
  options.record_smt2 = true;
  smt::Oracle oracle(options);
  const smt::OracleResult r = oracle.check(parse_and_bind("x > 30", schema), schema, FileEvidence{&stats, 0, {}});
  EXPECT_EQ(smt::verdict_of(r), smt::OracleVerdict::Unsat);
  return oracle.last_smt2();
}

TEST(CrossCheck, ASolverAnsweringTheOtherWayIsADisagreementWrittenToDisk) {
  const FakeSolver says_sat("sat");
  const ScratchDirectory dir("test");
  CrossChecker checker(says_sat.options(), dir.path().string());
  const std::string query = unsat_query();
  checker.check(query, smt::OracleVerdict::Unsat, "x>30");
  const CrossCheckTally tally = checker.finish();
  EXPECT_EQ(tally.disagreements, 1u);
  EXPECT_EQ(tally.agreed, 0u);
  ASSERT_EQ(tally.findings.size(), 1u);
  EXPECT_TRUE(contains(tally.findings[0], "DISAGREEMENT: Z3 UNSAT")) << tally.findings[0];
  const std::string path = tally.findings[0].substr(tally.findings[0].find("query: ") + 7);
  ASSERT_TRUE(std::filesystem::exists(path)) << path;
  std::stringstream written;
  written << std::ifstream(path).rdbuf();
  EXPECT_TRUE(contains(written.str(), query)) << written.str();
}

TEST(CrossCheck, TheSameAnswerAgreesAndARepeatedQueryRunsTheSolverOnce) {
  const FakeSolver says_unsat("unsat");
  CrossChecker checker(says_unsat.options(), "");
  const std::string query = unsat_query();
  checker.check(query, smt::OracleVerdict::Unsat, "a");
  checker.check(query, smt::OracleVerdict::Unsat, "b");
  checker.check(query, smt::OracleVerdict::Unknown, "c");  // no answer to confirm
  const CrossCheckTally tally = checker.finish();
  EXPECT_EQ(tally.asked, 2u);
  EXPECT_EQ(tally.solver_runs, 1u);
  EXPECT_EQ(tally.agreed, 2u);
  EXPECT_EQ(tally.disagreements, 0u);
}

TEST(CrossCheck, UnknownAndErrorAreCountedWithTheirReasonNotFindings) {
  const FakeSolver gives_up("unknown");
  CrossChecker unknown(gives_up.options(), "");
  unknown.check(unsat_query(), smt::OracleVerdict::Unsat, "q");
  const CrossCheckTally gave_up = unknown.finish();
  EXPECT_EQ(gave_up.unknown, 1u);
  EXPECT_EQ(gave_up.disagreements, 0u);

  CrossChecker missing(smt::SecondSolverOptions{"skipsound-no-such-solver", 1000}, "");
  missing.check(unsat_query(), smt::OracleVerdict::Unsat, "q");
  const CrossCheckTally tally = missing.finish();
  EXPECT_EQ(tally.errors, 1u);
  ASSERT_EQ(tally.reasons.size(), 1u);
  EXPECT_TRUE(contains(tally.reasons.begin()->first, "skipsound-no-such-solver")) << tally.reasons.begin()->first;
}

TEST(CrossCheck, OnlyCvc5OrNoneIsAccepted) {
  EXPECT_FALSE(cross_check_solver("none").has_value());
  EXPECT_THROW(cross_check_solver("yices"), InputError);
}

// `skipsound check --decisions tests/corpus/decisions/example.jsonl --cross-check cvc5`.
TEST(CrossCheck, CheckOnTheShippedDecisionsAgreesWithCvc5) {
  if (!smt::SecondSolver().available()) GTEST_SKIP() << "cvc5 not installed";
  cli::CheckArguments args;
  args.decisions_file = std::string(SKIPSOUND_SOURCE_DIR) + "/tests/corpus/decisions/example.jsonl";
  args.json = true;
  args.cross_check = cross_check_solver("cvc5");
  std::ostringstream out, err;
  cli::run_check(args, out, err);
  const nlohmann::json report = nlohmann::json::parse(out.str());
  const nlohmann::json& cross_check = report.at("crossCheck");
  EXPECT_EQ(cross_check.at("queries").get<int>(), 3) << cross_check.dump();
  EXPECT_EQ(cross_check.at("agreed").get<int>(), 3) << cross_check.dump();
  EXPECT_EQ(cross_check.at("disagreements").get<int>(), 0) << cross_check.dump();
}

// The same command with a solver that always answers sat: the proved skip becomes a finding.
TEST(CrossCheck, CheckExitsWithAFindingWhenTheSecondSolverDisagrees) {
  const FakeSolver says_sat("sat");
  const ScratchDirectory dir("test");
  cli::CheckArguments args;
  args.decisions_file = std::string(SKIPSOUND_SOURCE_DIR) + "/tests/corpus/decisions/example.jsonl";
  args.smt_dump_dir = dir.path().string();
  args.cross_check = says_sat.options();
  std::ostringstream out, err;
  EXPECT_EQ(cli::run_check(args, out, err), cli::kExitFinding);
  EXPECT_TRUE(contains(out.str(), "DISAGREEMENT: Z3 UNSAT")) << out.str();
  EXPECT_TRUE(contains(out.str(), "on sound-skip; query: " + dir.path().string())) << out.str();
  EXPECT_TRUE(contains(out.str(), "1 disagreements")) << out.str();
}

}  // namespace
}  // namespace skipsound
