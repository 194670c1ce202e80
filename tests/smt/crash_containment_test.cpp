// Crash containment (smt/crash_containment.h): a query that kills its forked copy is reported,
// not fatal; a query that returns is left to the process, and the oracle's answers do not change.
#include <atomic>
#include <csignal>
#include <stdexcept>
#include <thread>

#include <gtest/gtest.h>

#include "model/sql/binder.h"
#include "smt/crash_containment.h"
#include "smt/oracle.h"

namespace skipsound::smt {
namespace {

TEST(CrashContainment, ACrashInTheCopyIsReportedAndTheProcessGoesOn) {
  const std::optional<std::string> crash = crash_in_copy([] { std::raise(SIGSEGV); });
  ASSERT_TRUE(crash.has_value());
  // Plain builds see the signal; a sanitizer's handler turns the SIGSEGV into its own exit status
  // (AddressSanitizer 1, ThreadSanitizer 66).
  EXPECT_TRUE(*crash == "killed by signal 11 (Segmentation fault)" || *crash == "exit status 1" ||
              *crash == "exit status 66")
      << *crash;
  EXPECT_EQ(crash_in_copy([] { std::raise(SIGABRT); }).has_value(), true);
}

TEST(CrashContainment, AReturnOrAnExceptionIsNoCrash) {
  EXPECT_EQ(crash_in_copy([] {}), std::nullopt);
  EXPECT_EQ(crash_in_copy([] { throw std::runtime_error("the process meets it again itself"); }), std::nullopt);
}

TEST(CrashContainment, RefusedWhileOtherThreadsRun) {
  std::atomic<bool> stop{false};
  std::thread other([&] {
    while (!stop) std::this_thread::yield();
  });
  EXPECT_THROW(crash_in_copy([] {}), std::logic_error);
  stop = true;
  other.join();
}

TEST(CrashContainment, TheOracleAnswersAlikeWithAndWithoutIt) {
  const Schema schema({StructField{"x", DataType::of(TypeKind::Long), true, {}}});
  FileStats stats;
  stats.num_records = 3;
  stats.tight_bounds = true;
  stats.columns = {ColumnStats{Value::integral(TypeKind::Long, 1), Value::integral(TypeKind::Long, 20), 0}};
  const FileEvidence file{&stats, 0, {}, kDefaultStringPrefixLength};
  OracleOptions contained;
  contained.contain_crashes = true;
  Oracle plain, isolated(contained);
  for (const char* predicate : {"x > 30", "x = 5", "x IS NULL", "x > 1 AND x < 20"}) {
    const ExprPtr bound = parse_and_bind(predicate, schema);
    const OracleResult expected = plain.check(bound, schema, file);
    const OracleResult got = isolated.check(bound, schema, file);
    EXPECT_EQ(verdict_of(got), verdict_of(expected)) << predicate;
    EXPECT_EQ(describe(got, schema), describe(expected, schema)) << predicate;
  }
  EXPECT_EQ(isolated.counters().crashes, 0u);
  EXPECT_EQ(isolated.counters().by_z3, 4u);
}

}  // namespace
}  // namespace skipsound::smt
