// The SMT-LIB 2 dump of each oracle query is self-contained: the `z3` command, when installed,
// gives the same sat/unsat answer as the oracle.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "model/sql/binder.h"
#include "model/values/scratch_directory.h"
#include "smt/oracle.h"
#include "common/subprocess.h"

namespace skipsound::smt {
namespace {

bool z3_installed() { return run_process({{"z3", "--version"}}).exit_status() == 0; }

// The first line z3 prints for `path`.
std::string z3_answer(const std::filesystem::path& path) {
  const ProcessOutput z3 = run_process({{"z3", "-T:20", path.string()}, 30'000});
  std::string answer = z3.spawn_error.empty() ? z3.text.substr(0, z3.text.find('\n')) : z3.spawn_error;
  while (!answer.empty() && answer.back() == '\r') answer.pop_back();
  return answer;
}

const char* expected_answer(OracleVerdict v) {
  switch (v) {
    case OracleVerdict::Unsat: return "unsat";
    case OracleVerdict::Sat: return "sat";
    default: return "";
  }
}

TEST(SmtDump, Z3CommandReproducesEveryAnswer) {
  if (!z3_installed()) GTEST_SKIP() << "z3 command not installed";
  const Schema schema({StructField{"x", DataType::of(TypeKind::Long), true, {}},
                       StructField{"s", DataType::of(TypeKind::String), true, {}},
                       StructField{"d", DataType::of(TypeKind::Double), true, {}}});
  FileStats stats;
  stats.num_records = 4;
  stats.tight_bounds = true;
  stats.columns = {ColumnStats{Value::integral(TypeKind::Long, 20), Value::integral(TypeKind::Long, 30), 1},
                   ColumnStats{Value::string("ab"), Value::string("b\xF0\x9F\x98\x80"), 0},
                   ColumnStats{Value::floating(TypeKind::Double, -1.5), Value::floating(TypeKind::Double, 2.0), 0}};
  const FileEvidence file{&stats, 0, {}};
  OracleOptions options;
  options.record_smt2 = true;
  Oracle oracle(options);
  const ScratchDirectory scratch("test");
  const std::filesystem::path& dir = scratch.path();
  const std::vector<std::string> predicates = {
      "x > 30", "x >= 30", "x IS NULL", "x IN (1, 2, 25)", "s LIKE 'b%'", "s LIKE 'c%'", "s > 'b\xF0\x9F\x98\x80'",
      "s < 'ab'", "d > 2.0D", "d = 0.25D OR x = 21", "NOT (x <=> 25) AND s = 'abc'"};
  int answered = 0;
  for (size_t i = 0; i < predicates.size(); ++i) {
    const OracleResult r = oracle.check(parse_and_bind(predicates[i], schema), schema, file);
    const std::string expected = expected_answer(verdict_of(r));
    if (expected.empty()) continue;  // Unknown: nothing to reproduce
    ++answered;
    const std::filesystem::path path = dir / ("query" + std::to_string(i) + ".smt2");
    std::ofstream(path) << oracle.last_smt2();
    EXPECT_EQ(z3_answer(path), expected) << predicates[i] << "\n" << oracle.last_smt2();
  }
  EXPECT_GE(answered, 9);
}

}  // namespace
}  // namespace skipsound::smt
