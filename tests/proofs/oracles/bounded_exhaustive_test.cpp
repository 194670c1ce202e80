// The bounded exhaustive cross-check: its brute force stays independent of smt/ and
// checker/, explains every file it enumerates, agrees with the Z3 oracle on every sampled
// comparison, and finds disagreements once a writer rule is broken on its side.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <iostream>
#include <regex>
#include <sstream>

#include "model/sql/binder.h"
#include "proofs/oracles/bounded_exhaustive.h"
#include "proofs/oracles/exhaustive_cross_check.h"
#include "proofs/gate/gate_report.h"
#include "model/values/utf8.h"
#include "smt/oracle.h"

namespace skipsound {
namespace {

using exhaustive::BruteForce;
using exhaustive::StatsQuestion;
using exhaustive::StatsVariant;
using exhaustive::Tightness;
using exhaustive::Universe;

std::string read_source(const std::string& relative) {
  std::ifstream in(std::string(SKIPSOUND_SOURCE_DIR) + "/" + relative);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

const Universe& universe_named(const std::string& name) {
  static const std::vector<Universe> all = exhaustive::standard_universes();
  for (const Universe& u : all) {
    if (u.name == name) return u;
  }
  throw std::invalid_argument("no universe " + name);
}

TEST(BoundedExhaustive, TheBruteForceIncludesNothingFromSmtOrChecker) {
  const std::regex project_include(R"(#include\s+"([^"]+)\")");
  for (const char* file : {"proofs/oracles/bounded_exhaustive.h", "proofs/oracles/bounded_exhaustive.cpp"}) {
    const std::string text = read_source(file);
    ASSERT_FALSE(text.empty()) << file;
    size_t includes = 0;
    for (std::sregex_iterator it(text.begin(), text.end(), project_include), end; it != end; ++it) {
      const std::string header = (*it)[1];
      ++includes;
      EXPECT_TRUE(header.rfind("model/", 0) == 0 || header == "proofs/oracles/bounded_exhaustive.h")
          << file << " includes " << header << ": the brute force may use model/ only";
    }
    EXPECT_GT(includes, 0u) << file;
  }
}

// The first-row equality predicate: TRUE exactly on `row`'s values (<=> also matches NULL).
ExprPtr row_equals(const Row& row, const Universe& u) {
  ExprPtr all;
  for (size_t c = 0; c < row.size(); ++c) {
    const ExprPtr eq = make_compare(CompareOp::NullSafeEq, make_column({u.columns[c].name}), make_literal(row[c]));
    all = all ? make_and(all, eq) : eq;
  }
  return skipsound::bind(all, u.schema());
}

// Every file's own live rows are consistent with the stats written for it, in every variant.
TEST(BoundedExhaustive, EveryWrittenFileExplainsItsOwnRows) {
  for (const std::string name : {"tinyint+boolean", "string@1"}) {
    const Universe& u = universe_named(name);
    const BruteForce brute(u);
    const std::vector<Row> file = name == "string@1"
                                      ? std::vector<Row>{{Value::string("aa")}, {Value::null()}}
                                      : std::vector<Row>{{Value::integral(TypeKind::Byte, -1), Value::boolean(true)},
                                                         {Value::null(), Value::boolean(false)}};
    for (Tightness t : {Tightness::Marked, Tightness::Unmarked, Tightness::Wide}) {
      for (int mask = 0; mask < 16; ++mask) {
        const StatsVariant v{t, t == Tightness::Wide ? 1 : 0, bool(mask & 8), bool(mask & 1), bool(mask & 2), bool(mask & 4)};
        const StatsQuestion q{exhaustive::written_stats(file, u, v), v.deleted_rows};
        for (const Row& row : file) {
          EXPECT_TRUE(brute.find_row(q, row_equals(row, u))) << name << " " << exhaustive::tightness_name(t) << " mask " << mask;
        }
      }
    }
  }
}

// The string case a reference oracle found, at N = 2: a cut by UTF-16 units leaves the min U+10FFFF
// (one code point, two units) and the max is cut after it. The row is consistent with the stats,
// and the oracle must say so; it read such a min as exact and called the stats impossible.
TEST(BoundedExhaustive, AMinCutByUtf16UnitsIsConsistentWithItsRow) {
  const Universe& u = universe_named("pairs@2");
  const std::vector<Row> file = {{Value::string(encode_utf8({0x10FFFF, U'a'}))}};
  StatsVariant units_cut;
  units_cut.string_min_cut = StringMinCut::Utf16Units;
  const StatsQuestion q{exhaustive::written_stats(file, u, units_cut), 0};
  ASSERT_EQ(q.stats.column(0).min, Value::string(encode_utf8({0x10FFFF})));
  ASSERT_EQ(q.stats.column(0).max, Value::string(encode_utf8({0x10FFFF, 0x7F})));
  const ExprPtr same_row = row_equals(file.front(), u);
  EXPECT_TRUE(BruteForce(u).find_row(q, same_row));
  smt::Oracle oracle;
  const FileEvidence evidence{&q.stats, 0, {}, u.string_prefix_length};
  EXPECT_EQ(smt::verdict_of(oracle.check(same_row, u.schema(), evidence)), smt::OracleVerdict::Sat);
}

// Exactness, not only soundness: a single-row tinyint file of 1 and nothing else holds only 1.
TEST(BoundedExhaustive, TightStatsOfOneRowAllowThatRowOnly) {
  const Universe& u = universe_named("tinyint");
  const BruteForce brute(u);
  const StatsQuestion q{exhaustive::written_stats({{Value::integral(TypeKind::Byte, 1)}}, u, {}), 0};
  EXPECT_TRUE(brute.find_row(q, parse_and_bind("x = 1", u.schema())));
  EXPECT_FALSE(brute.find_row(q, parse_and_bind("x <> 1 OR x IS NULL", u.schema())));
  // Rows {-1, 1}: nothing in between; a DV deleting one keeps both candidates, and docs/semantics.md §4.6's
  // bounds reading adds the domain values between them.
  const std::vector<Row> two = {{Value::integral(TypeKind::Byte, -1)}, {Value::integral(TypeKind::Byte, 1)}};
  const StatsQuestion tight{exhaustive::written_stats(two, u, {}), 0};
  const StatsQuestion wide{exhaustive::written_stats(two, u, {Tightness::Wide, 1}), 1};
  const ExprPtr zero = parse_and_bind("x = 0", u.schema());
  EXPECT_FALSE(brute.find_row(tight, zero));
  EXPECT_FALSE(brute.find_row(wide, zero));
  EXPECT_TRUE(brute.find_row(wide, zero, exhaustive::WideReading::Bounds));
  EXPECT_TRUE(brute.find_row(wide, parse_and_bind("x = -1", u.schema())));
}

// The default run: 120,000 comparisons over the standard universes, seed 13.
TEST(BoundedExhaustive, TheOracleAgreesOnEverySampledComparison) {
  ExhaustiveOptions o;
  o.seed = 13;
  const ExhaustiveReport report = run_exhaustive_cross_check(o);
  std::cout << exhaustive_summary_text(report);
  EXPECT_EQ(report.comparisons(), kDefaultExhaustiveComparisons);
  EXPECT_GE(report.comparisons(), 100'000u);
  EXPECT_EQ(report.disagreements(), 0u) << exhaustive_summary_text(report);
}

ExhaustiveReport broken_writer_run(const std::string& universe, exhaustive::WriterBreak writer_break) {
  ExhaustiveOptions o;
  o.seed = 13;
  o.comparisons = 6000;
  o.writer_break = writer_break;
  o.universes = {universe_named(universe)};
  return run_exhaustive_cross_check(o);
}

// Teeth: a writer that forgets to count nulls writes nullCount 0 for files holding NULLs; the
// oracle, trusting nullCount, skips them for `x IS NULL`-like predicates: unsound skips. (The
// same universe agrees with the oracle when the writer is right, in the test above.)
TEST(BoundedExhaustive, AWriterThatForgetsNullsIsFound) {
  const ExhaustiveReport report = broken_writer_run("tinyint", exhaustive::WriterBreak::NullsUncounted);
  EXPECT_GT(report.disagreements(), 0u);
  for (const auto& [key, n] : report.disagreement_classes) {
    EXPECT_EQ(key.rfind("unsound skip / tinyint", 0), 0u) << exhaustive_summary_text(report);
  }
}

// Teeth for strings: a writer that stores the plain prefix as the string max (not an upper bound)
// writes stats under which real rows lie above the max.
TEST(BoundedExhaustive, AWriterWhoseStringMaxIsAPlainPrefixIsFound) {
  const ExhaustiveReport report = broken_writer_run("string@1", exhaustive::WriterBreak::StringMaxPlainPrefix);
  EXPECT_GT(report.disagreement_classes.count("unsound skip / string@1 / tight"), 0u) << exhaustive_summary_text(report);
  EXPECT_EQ(broken_writer_run("string@1", exhaustive::WriterBreak::None).disagreements(), 0u);
}

// The gate runs a slice of the cross-check and fails on any disagreement.
TEST(BoundedExhaustive, TheGateRunsASliceAndFailsOnADisagreement) {
  GateOptions o;
  o.seed = 5;
  o.trials_per_category = 1;
  o.categories = {generators::WorldCategory::Disjoint};
  o.skip_mutants = true;
  o.proofs = false;
  o.threads = 2;
  o.exhaustive_comparisons = 500;
  GateReport report = run_gate(o);
  ASSERT_TRUE(report.exhaustive);
  EXPECT_EQ(report.exhaustive->comparisons(), 500u);
  EXPECT_EQ(report.outcome(), GateOutcome::Pass) << gate_summary_text(report);
  EXPECT_NE(gate_summary_text(report).find("bounded exhaustive cross-check"), std::string::npos);

  report.exhaustive->universes.front().disagreements = 1;
  EXPECT_EQ(report.outcome(), GateOutcome::Fail);
  const std::vector<std::string> failures = report.failures();
  EXPECT_TRUE(std::any_of(failures.begin(), failures.end(),
                          [](const std::string& f) { return f.find("bounded exhaustive") != std::string::npos; }));
}

}  // namespace
}  // namespace skipsound
