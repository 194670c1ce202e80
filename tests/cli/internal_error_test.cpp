// Errors inside the code under test are findings: a conflict check whose conflict
// filter kept every file because of an unexpected exception is reported by the scenario run and
// fails the gate; skipsound's own internal errors exit 3, bad input still exits 2.
#include <stdexcept>

#include <gtest/gtest.h>

#include "model/values/input_error.h"
#include "cli/cli.h"
#include "proofs/gate/gate_report.h"
#include "proofs/scenario/scenario.h"

namespace skipsound {
namespace {

Transaction named(const std::string& name) {
  Transaction t;
  t.name = name;
  return t;
}

ScheduleRun one_check(std::string unexpected_error) {
  AppendCheck append;
  append.filtered.unexpected_error = std::move(unexpected_error);
  CommitAttempt attempt{1, {0}, Table(), Committed{}, {}};
  attempt.checks.push_back(WinnerCheck{"append check", std::move(append)});
  ScheduleRun run;
  run.attempts.push_back(std::move(attempt));
  return run;
}

TEST(InternalErrors, AnUnexpectedExceptionBehindAKeepIsNamedWithItsCheck) {
  const std::vector<Transaction> txns{named("T1"), named("T2")};
  EXPECT_EQ(unexpected_errors(one_check("vector::at"), txns), std::vector<std::string>{"T2 vs T1: vector::at"});
  EXPECT_TRUE(unexpected_errors(one_check(""), txns).empty());
}

TEST(InternalErrors, TheGateFailsOnAnUnexpectedErrorAndPrintsIt) {
  GateReport report;
  CategoryResult category;
  category.stats.unexpected_errors = 2;
  category.stats.first_unexpected_error = "T2 vs T1: vector::at";
  report.categories.push_back(category);
  EXPECT_EQ(report.outcome(), GateOutcome::Fail);
  const std::string text = gate_summary_text(report);
  EXPECT_NE(text.find("2 conflict checks kept every file after an unexpected exception, first: T2 vs T1: vector::at"),
            std::string::npos)
      << text;
  report.categories.front().stats.unexpected_errors = 0;
  EXPECT_EQ(report.outcome(), GateOutcome::Pass);
}

TEST(InternalErrors, DeclaredInputErrorsExit2AndEveryOtherExceptionExits3) {
  EXPECT_EQ(cli::exit_code_for(InputError("no such column")), cli::kExitUsage);
  EXPECT_EQ(cli::exit_code_for(SchemaError("not a StructType")), cli::kExitUsage);
  EXPECT_EQ(cli::exit_code_for(std::out_of_range("vector::at")), cli::kExitInternal);
  EXPECT_EQ(cli::exit_code_for(std::logic_error("unreachable")), cli::kExitInternal);
  EXPECT_EQ(cli::kExitInternal, 3);
  EXPECT_EQ(cli::kExitUsage, 2);
}

}  // namespace
}  // namespace skipsound
