// The per-file soundness properties (docs/semantics.md §6.1) on random worlds, their decision budget, and the
// six per-file mutants each found by them.
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "generators/file_case.h"
#include "generators/predicate_gen.h"
#include "proofs/perfile/corpus.h"
#include "proofs/perfile/per_file_properties.h"
#include "proofs/common/oracle_config.h"

namespace skipsound {
namespace {

using generators::FileCase;

// The gate's per-file oracle: the interval procedure first, Z3 outside its fragment and on one
// interval answer in kIntervalCrossCheckStride (interval_decider_agreement_test compares the two).
smt::Oracle& shared_oracle() {
  static smt::Oracle oracle([] {
    smt::OracleOptions options;
    options.intervals_first = true;
    options.interval_cross_check_stride = kIntervalCrossCheckStride;
    return options;
  }());
  return oracle;
}

// Classifies a case by its first decision, so that the printed distribution stays readable.
void tag_decision(const FileCase& c, const ExprPtr& p, const DecisionCheck& d) {
  if (p != c.predicates.front()) return;
  RC_TAG(generators::predicate_form(*p), outcome_name(d.outcome));
  RC_CLASSIFY(c.file.stats.wide(), "wide stats");
  RC_CLASSIFY(!c.file.dropped.empty(), "stats fields missing");
}

RC_GTEST_PROP(PerFileSoundness, NoLiveRowOfASkippedFileMatches, (const FileCase& c)) {
  for (const ExprPtr& p : c.predicates) {
    const DecisionCheck d = check_decision(c.table, c.file, p, nullptr, PerFileOptions{Mutant::None, OracleUse::Never});
    tag_decision(c, p, d);
    if (d.outcome == DecisionOutcome::UnsoundSkip) RC_FAIL(render_finding(c.table, c.file, p, d, {}));
  }
}

RC_GTEST_PROP(PerFileSoundness, ProductionSkipImpliesZ3Unsat, (const FileCase& c)) {
  for (const ExprPtr& p : c.predicates) {
    const DecisionCheck d =
        check_decision(c.table, c.file, p, &shared_oracle(), PerFileOptions{Mutant::None, OracleUse::SkipsOnly});
    tag_decision(c, p, d);
    if (is_finding(d.outcome)) RC_FAIL(render_finding(c.table, c.file, p, d, {}));
  }
}

RC_GTEST_PROP(PerFileSoundness, EveryZ3WitnessIsRevalidatedByTheModel, (const FileCase& c)) {
  for (const ExprPtr& p : c.predicates) {
    const DecisionCheck d =
        check_decision(c.table, c.file, p, &shared_oracle(), PerFileOptions{Mutant::None, OracleUse::Always});
    if (p == c.predicates.front()) {
      RC_TAG(d.oracle ? smt::verdict_name(smt::verdict_of(*d.oracle)) : "not asked");
      RC_CLASSIFY(d.outcome == DecisionOutcome::MissedSkip, "missed skip");
    }
    if (d.outcome == DecisionOutcome::WitnessRejected || d.outcome == DecisionOutcome::OracleError) {
      RC_FAIL(render_finding(c.table, c.file, p, d, {}));
    }
  }
}

RC_GTEST_PROP(PerFileSoundness, CollectedStatsAreConsistentWithTheirRows, (const FileCase& c)) {
  RC_TAG(generators::stats_history_name(c.file.history), string_min_cut_name(c.file.string_min_cut));
  const StatsAudit audit = audit_stats(c.table.schema, c.file);
  if (audit.verdict == Consistency::Inconsistent) {
    std::ostringstream os;
    generators::print_file_case(c, os);
    RC_FAIL(audit.render() + os.str());
  }
}

// ---- runs with a seed, a case count and a mutant (budget and mutant kills) ----

uint64_t seed_from_env(uint64_t fallback) {
  const char* text = std::getenv("SKIPSOUND_SEED");
  return text ? std::strtoull(text, nullptr, 10) : fallback;
}

int count_from_env(const char* name, int fallback) {
  const char* text = std::getenv(name);
  return text ? std::atoi(text) : fallback;
}

struct HuntResult {
  rc::detail::TestResult result = rc::detail::Error("not run");
  long decisions = 0;
  double seconds = 0;
  std::optional<CorpusCase> minimal;  // the shrunk counterexample, as a corpus case
  std::string report;
};

HuntResult run_properties(Mutant mutant, uint64_t seed, int cases) {
  HuntResult hunt;
  smt::Oracle& oracle = shared_oracle();
  const auto property = [&] {
    const FileCase c = *generators::file_case(mutant);
    const CaseCheck check = check_case(c, &oracle, PerFileOptions{mutant, OracleUse::Sampled});
    hunt.decisions += static_cast<long>(check.decisions.size());
    if (!check.failed()) return;
    hunt.report = render_case_failure(c, check, FindingOrigin{seed, mutant, ""});
    const size_t i = check.first_finding.value_or(0);
    hunt.minimal = CorpusCase{"", c.table, c.file, c.predicates[i], mutant, seed,
                              check.first_finding ? check.decisions[i].outcome : DecisionOutcome::Kept};
    RC_FAIL("per-file counterexample");
  };
  rc::detail::TestParams params;
  params.seed = seed;
  params.maxSuccess = cases;
  params.maxSize = 100;
  const auto start = std::chrono::steady_clock::now();
  hunt.result = rc::detail::checkTestable(property, rc::detail::TestMetadata{}, params);
  hunt.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return hunt;
}

constexpr uint64_t kDefaultSeed = 20260501;

// Runs chunks of cases (seed, seed+1, ...) until the decision budget is spent; deterministic for
// a given seed. SKIPSOUND_PER_FILE_DECISIONS raises the budget.
TEST(PerFileBudget, TwentyThousandDecisionsFindNothing) {
  constexpr int kCasesPerChunk = 1000;
  const uint64_t seed = seed_from_env(kDefaultSeed);
  const long budget = count_from_env("SKIPSOUND_PER_FILE_DECISIONS", 20000);
  long decisions = 0;
  double seconds = 0;
  for (uint64_t chunk_seed = seed; decisions < budget; ++chunk_seed) {
    const HuntResult hunt = run_properties(Mutant::None, chunk_seed, kCasesPerChunk);
    decisions += hunt.decisions;
    seconds += hunt.seconds;
    ASSERT_TRUE(hunt.result.is<rc::detail::SuccessResult>())
        << hunt.report << "(rerun: SKIPSOUND_SEED=" << chunk_seed << ")";
  }
  std::cout << "seed " << seed << ": " << decisions << " decisions in " << seconds << " s ("
            << static_cast<long>(decisions / std::max(seconds, 1e-9)) << "/s)\n";
  EXPECT_GE(decisions, budget);
}

class MutantKill : public ::testing::TestWithParam<Mutant> {};

TEST_P(MutantKill, PropertiesFindACounterexample) {
  const Mutant mutant = GetParam();
  const uint64_t seed = seed_from_env(kDefaultSeed);
  const int budget = count_from_env("SKIPSOUND_MUTANT_CASES", 3000);
  const HuntResult hunt = run_properties(mutant, seed, budget);
  ASSERT_TRUE(hunt.result.is<rc::detail::FailureResult>()) << "mutant " << mutant_name(mutant) << " survived " << budget
                              << " cases (seed " << seed << ")";
  std::cout << "mutant " << mutant_name(mutant) << " killed after " << hunt.result.get<rc::detail::FailureResult>().numSuccess + 1
            << " trials (seed " << seed << ", " << hunt.seconds << " s)\n";
  if (hunt.minimal) {
    // Kept for the replay below: in the test's working folder (the build tree), not under the
    // shared temporary folder, where a fixed name collides with another run's.
    const auto dir = std::filesystem::absolute("per-file-findings");
    std::filesystem::create_directories(dir);
    const auto path = (dir / (std::string(mutant_name(mutant)) + ".json")).string();
    save_corpus_case(*hunt.minimal, path);
    std::cout << hunt.report << "Replay: skipsound replay " << path << "\n";
  }
}

INSTANTIATE_TEST_SUITE_P(PerFileMutants, MutantKill,
                         ::testing::Values(Mutant::SkipMissingStats, Mutant::TrustWideNullcount,
                                           Mutant::NoTimestampMaxBump, Mutant::StringMaxPlainPrefix,
                                           Mutant::IeeeNanOrder, Mutant::LeAsLt),
                         [](const auto& info) {
                           std::string name = mutant_name(info.param);
                           std::erase(name, '-');
                           return name;
                         });

}  // namespace
}  // namespace skipsound
