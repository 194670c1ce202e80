// The second solver (cvc5 as a subprocess) answers the oracle's own SMT-LIB 2 text like Z3 does,
// and its failures come back as Unknown or Error with a reason, never as an answer.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "model/sql/binder.h"
#include "model/values/scratch_directory.h"
#include "smt/oracle.h"
#include "smt/second_solver.h"

namespace skipsound::smt {
namespace {

bool cvc5_installed() { return SecondSolver().available(); }

Schema long_and_string() {
  return Schema({StructField{"x", DataType::of(TypeKind::Long), true, {}},
                 StructField{"s", DataType::of(TypeKind::String), true, {}}});
}

FileStats x_from_1_to_20() {
  FileStats stats;
  stats.num_records = 3;
  stats.tight_bounds = true;
  stats.columns = {ColumnStats{Value::integral(TypeKind::Long, 1), Value::integral(TypeKind::Long, 20), 0},
                   ColumnStats{Value::string("apple"), Value::string("pear"), 0}};
  return stats;
}

// Z3's verdict and the oracle's SMT-LIB text for `predicate` on x_from_1_to_20().
std::pair<OracleVerdict, std::string> z3_query(const std::string& predicate) {
  const Schema schema = long_and_string();
  const FileStats stats = x_from_1_to_20();
  OracleOptions options;
  options.record_smt2 = true;
  Oracle oracle(options);
  const OracleResult r = oracle.check(parse_and_bind(predicate, schema), schema, FileEvidence{&stats, 0, {}});
  return {verdict_of(r), oracle.last_smt2()};
}

TEST(SecondSolver, Cvc5AgreesWithZ3OnASatAndAnUnsatQuery) {
  if (!cvc5_installed()) GTEST_SKIP() << "cvc5 not installed";
  const SecondSolver cvc5;
  const auto [unsat_verdict, unsat_text] = z3_query("x > 30 AND s LIKE 'b%'");
  ASSERT_EQ(unsat_verdict, OracleVerdict::Unsat);
  const SecondAnswer unsat = cvc5.ask(unsat_text);
  EXPECT_EQ(unsat.verdict, SecondVerdict::Unsat) << unsat.reason << "\n" << cvc5_smt2(unsat_text);

  const auto [sat_verdict, sat_text] = z3_query("x = 20 AND s < 'b'");
  ASSERT_EQ(sat_verdict, OracleVerdict::Sat);
  const SecondAnswer sat = cvc5.ask(sat_text);
  EXPECT_EQ(sat.verdict, SecondVerdict::Sat) << sat.reason << "\n" << cvc5_smt2(sat_text);
  EXPECT_GT(sat.seconds, 0);
}

TEST(SecondSolver, AnAlteredQueryGetsTheOtherAnswer) {
  if (!cvc5_installed()) GTEST_SKIP() << "cvc5 not installed";
  const auto [verdict, text] = z3_query("x = 20");
  ASSERT_EQ(verdict, OracleVerdict::Sat);
  const std::string altered = text.substr(0, text.rfind("(check-sat)")) + "(assert false)\n(check-sat)\n";
  EXPECT_EQ(SecondSolver().ask(altered).verdict, SecondVerdict::Unsat);
}

// One process for many queries; a refused query in the middle ends cvc5's run, and the queries
// after it are still answered (alone).
TEST(SecondSolver, ABatchAnswersEachQueryInOrderEvenAfterARefusedOne) {
  if (!cvc5_installed()) GTEST_SKIP() << "cvc5 not installed";
  const std::string unsat = z3_query("x > 30").second;
  const std::string sat = z3_query("x = 20").second;
  const std::vector<SecondAnswer> answers =
      SecondSolver().ask_all({unsat, sat, "(assert (undeclared-symbol))\n(check-sat)\n", sat, unsat});
  ASSERT_EQ(answers.size(), 5u);
  EXPECT_EQ(answers[0].verdict, SecondVerdict::Unsat);
  EXPECT_EQ(answers[1].verdict, SecondVerdict::Sat);
  EXPECT_EQ(answers[2].verdict, SecondVerdict::Error);
  EXPECT_EQ(answers[3].verdict, SecondVerdict::Sat);
  EXPECT_EQ(answers[4].verdict, SecondVerdict::Unsat);
}

TEST(SecondSolver, RefusedTextIsAnErrorWithTheSolversMessage) {
  if (!cvc5_installed()) GTEST_SKIP() << "cvc5 not installed";
  const SecondAnswer a = SecondSolver().ask("(assert (undeclared-symbol))\n(check-sat)\n");
  EXPECT_EQ(a.verdict, SecondVerdict::Error);
  EXPECT_NE(a.reason.find("error"), std::string::npos) << a.reason;
}

TEST(SecondSolver, AMissingCommandIsAnErrorNotAnAnswer) {
  const SecondSolver missing(SecondSolverOptions{"skipsound-no-such-solver", 1000});
  EXPECT_FALSE(missing.available());
  const SecondAnswer a = missing.ask("(check-sat)\n");
  EXPECT_EQ(a.verdict, SecondVerdict::Error);
  EXPECT_NE(a.reason.find("skipsound-no-such-solver"), std::string::npos) << a.reason;
}

TEST(SecondSolver, AHangingSolverIsKilledAndCountsAsUnknown) {
  const ScratchDirectory dir("test");
  const std::filesystem::path script = dir.path() / "hanging-solver.sh";
  std::ofstream(script) << "#!/bin/sh\nexec sleep 30\n";
  std::filesystem::permissions(script, std::filesystem::perms::owner_all);
  const SecondAnswer a = SecondSolver(SecondSolverOptions{script.string(), 100}).ask("(check-sat)\n");
  EXPECT_EQ(a.verdict, SecondVerdict::Unknown);
  EXPECT_NE(a.reason.find("killed"), std::string::npos) << a.reason;
  EXPECT_LT(a.seconds, 10);
}

TEST(SecondSolver, Cvc5TextStartsWithALogicAndDropsZ3sStatus) {
  const std::string text = cvc5_smt2("(set-info :status unknown)\n(declare-fun x () Int)\n(check-sat)\n");
  EXPECT_EQ(text.rfind("(set-logic ALL)\n", 0), 0u) << text;
  EXPECT_EQ(text.find(":status"), std::string::npos) << text;
  EXPECT_NE(text.find("(declare-fun x () Int)\n(check-sat)\n"), std::string::npos) << text;
}

}  // namespace
}  // namespace skipsound::smt
