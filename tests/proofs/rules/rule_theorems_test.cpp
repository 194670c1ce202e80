#include <gtest/gtest.h>

#include <algorithm>

#include "checker/file_decision.h"
#include "checker/skipping_builder.h"
#include "model/mutants/fault_injection.h"
#include "model/sql/evaluator.h"
#include "model/stats/stats_consistency.h"
#include "proofs/rules/composition_sweep.h"
#include "proofs/common/parallel_trials.h"
#include "proofs/rules/prove_all.h"
#include "proofs/rules/rule_catalogue.h"
#include "proofs/rules/rule_theorems.h"

namespace skipsound {
namespace {


const PredicateTemplate& find_template(const std::vector<PredicateTemplate>& all, const std::string& rule,
                                       const std::string& type) {
  const auto it = std::find_if(all.begin(), all.end(),
                               [&](const PredicateTemplate& t) { return t.rule == rule && t.type == type; });
  if (it == all.end()) throw std::runtime_error("no template " + rule + " on " + type);
  return *it;
}

const std::vector<PredicateTemplate>& catalogue() {
  static const std::vector<PredicateTemplate> all = rule_templates();
  return all;
}

// Replays a soundness counterexample through the concrete code: the production logic skips the
// stats it names, and the model evaluator finds the predicate TRUE on its row.
void expect_replayable(const PredicateTemplate& t, const TheoremResult& r, Mutant mutant) {
  ASSERT_EQ(r.verdict, TheoremVerdict::Counterexample) << r.rule << " " << r.type << ": " << r.note;
  ASSERT_TRUE(r.counterexample && r.counterexample->row);
  const TheoremCounterexample& c = *r.counterexample;
  const ExprPtr predicate = instantiate(t, c.literals);
  EXPECT_EQ(evaluate(*predicate, *c.row), Truth::True) << c.predicate;
  const StatsEligibility eligibility(*t.schema, StatsConfig{});
  {
    const FaultScope fault(mutant);
    const auto built = build_skipping_predicate(predicate, eligibility);
    ASSERT_TRUE(built);
    EXPECT_EQ(decide_verdict(*built, FileView{&c.stats, c.dv_cardinality}, *t.schema), FileVerdict::Skip)
        << c.stats_text;
  }
  // Without the mutant the same file is kept: the counterexample is the mutant's doing.
  const auto sound = build_skipping_predicate(predicate, eligibility);
  if (sound && mutant != Mutant::StringMaxPlainPrefix) {
    EXPECT_EQ(decide_verdict(*sound, FileView{&c.stats, c.dv_cardinality}, *t.schema), FileVerdict::Keep)
        << c.stats_text;
  }
}

TEST(RuleTheorems, CoreRulesAreProvedOnEveryType) {
  RuleProver prover;
  for (const std::string rule : {"c = v", "c > v", "c >= v", "c <> v", "c IS NOT NULL", "c IN (v1, v2)",
                                 "NOT (c <=> v)", "c BETWEEN v AND w"}) {
    for (const std::string type : {"int", "double", "decimal(10,2)", "date", "timestamp", "string"}) {
      const TheoremResult r = prover.prove_sound(find_template(catalogue(), rule, type));
      EXPECT_EQ(r.verdict, TheoremVerdict::Proved) << rule << " on " << type << ": " << r.note
                                                   << (r.counterexample ? r.counterexample->stats_text : "");
    }
  }
}

TEST(RuleTheorems, StartsWithIsProved) {
  RuleProver prover;
  for (const std::string rule : {"c LIKE 'p%'", "c LIKE 'pp%'"}) {
    const TheoremResult r = prover.prove_sound(find_template(catalogue(), rule, "string"));
    EXPECT_EQ(r.verdict, TheoremVerdict::Proved) << rule << ": " << r.note;
  }
}

struct MutantCase {
  Mutant mutant;
  const char* rule;
  const char* type;
};

TEST(RuleTheorems, EachPerFileMutantYieldsAReplayableCounterexample) {
  RuleProver prover;
  for (const MutantCase& m : {MutantCase{Mutant::SkipMissingStats, "c > v", "int"},
                              MutantCase{Mutant::TrustWideNullcount, "c IS NOT NULL", "bigint"},
                              MutantCase{Mutant::NoTimestampMaxBump, "c > v", "timestamp"},
                              MutantCase{Mutant::StringMaxPlainPrefix, "c = v", "string"},
                              MutantCase{Mutant::IeeeNanOrder, "c < v", "double"},
                              MutantCase{Mutant::LeAsLt, "c >= v", "int"}}) {
    const PredicateTemplate& t = find_template(catalogue(), m.rule, m.type);
    ASSERT_TRUE(expected_to_break(t, m.mutant)) << mutant_name(m.mutant);
    SCOPED_TRACE(mutant_name(m.mutant));
    expect_replayable(t, prover.prove_sound(t, m.mutant), m.mutant);
  }
}

// Two counterexamples that once came back UNKNOWN: on binary, Z3 hit the resource limit when
// its solver had proved 340 theorems before (each theorem now gets a fresh one); on decimal, Z3
// proposed wide stats with min above max, which hold no row (stored bounds are now ordered).
TEST(RuleTheorems, MutantCounterexamplesOnceUnknownAreFound) {
  RuleProver prover;
  for (const MutantCase& m : {MutantCase{Mutant::SkipMissingStats, "(c > v AND c < w) IS NULL", "binary"},
                              MutantCase{Mutant::TrustWideNullcount, "c <> v", "decimal(10,2)"}}) {
    SCOPED_TRACE(mutant_name(m.mutant));
    const PredicateTemplate& t = find_template(catalogue(), m.rule, m.type);
    expect_replayable(t, prover.prove_sound(t, m.mutant), m.mutant);
  }
}

// The gate shares the theorems between threads: shared by three here, every result still stands
// in catalogue order (float's theorems are on request only) and is the one its rule expects.
TEST(RuleTheorems, SkipMissingStatsBreaksEveryRuleInOneRunSharedByThreeThreads) {
  ProveOptions options;
  options.mutant = Mutant::SkipMissingStats;
  options.exactness = false;
  RuleTheoremJobs jobs(options);
  parallel::run_on_threads(3, [&](size_t) { jobs.work(); });
  ProveSummary summary;
  jobs.collect(summary);
  std::vector<std::string> expected_order, order;
  for (const PredicateTemplate& t : catalogue()) {
    if (t.schema->leaves().at(0).type.kind != TypeKind::Float) expected_order.push_back(t.rule + " / " + t.type);
  }
  for (const RuleProof& p : summary.rules) order.push_back(p.result.rule + " / " + p.result.type);
  EXPECT_EQ(order, expected_order);
  size_t counterexamples = 0;
  for (const RuleProof& p : summary.rules) {
    EXPECT_TRUE(p.as_expected()) << p.result.rule << " " << p.result.type << ": "
                                 << theorem_verdict_name(p.result.verdict) << " " << p.result.note;
    counterexamples += p.result.verdict == TheoremVerdict::Counterexample;
  }
  EXPECT_EQ(summary.outcome(), ProveOutcome::AsExpected);
  EXPECT_GT(counterexamples, summary.rules.size() / 2);
}

TEST(RuleTheorems, MutantsLeaveOtherRulesProved) {
  RuleProver prover;
  const PredicateTemplate& is_null = find_template(catalogue(), "c IS NULL", "timestamp");
  EXPECT_FALSE(expected_to_break(is_null, Mutant::NoTimestampMaxBump));
  EXPECT_EQ(prover.prove_sound(is_null, Mutant::NoTimestampMaxBump).verdict, TheoremVerdict::Proved);
  const PredicateTemplate& lt = find_template(catalogue(), "c < v", "int");
  EXPECT_EQ(prover.prove_sound(lt, Mutant::LeAsLt).verdict, TheoremVerdict::Proved);
}

TEST(RuleTheorems, AWrongHandMadeRuleIsRefuted) {
  // Claims max(c) > v for c >= v: a file whose max equals v is skipped though a row equals v.
  const PredicateTemplate& t = find_template(catalogue(), "c >= v", "int");
  const SkipExprPtr wrong = skip_compare(CompareOp::Gt, skip_stat(StatKind::Max, 0), skip_literal(t.slots[0].sentinel));
  RuleProver prover;
  const TheoremResult r = prover.prove_claim_sound(t, SkippingPredicate{wrong, referenced_stats(wrong)});
  ASSERT_EQ(r.verdict, TheoremVerdict::Counterexample) << r.note;
  const TheoremCounterexample& c = *r.counterexample;
  EXPECT_EQ(evaluate(*instantiate(t, c.literals), *c.row), Truth::True);
  const FileEvidence evidence{&c.stats, c.dv_cardinality, {}};
  EXPECT_EQ(check_row_consistency(*c.row, row_allowance(evidence, *t.schema)).kind, Consistency::Consistent);
  // The right claim is proved by the same machinery.
  const SkipExprPtr right = skip_compare(CompareOp::Ge, skip_stat(StatKind::Max, 0), skip_literal(t.slots[0].sentinel));
  EXPECT_EQ(prover.prove_claim_sound(t, SkippingPredicate{right, referenced_stats(right)}).verdict,
            TheoremVerdict::Proved);
}

TEST(RuleTheorems, ExactnessHoldsForIntComparisonsAndFailsForInRanges) {
  RuleProver prover;
  for (const std::string rule : {"c = v", "c < v", "c >= v", "c IS NULL", "c IS NOT NULL"}) {
    const TheoremResult r = prover.prove_exact(find_template(catalogue(), rule, "int"));
    EXPECT_EQ(r.verdict, TheoremVerdict::Proved) << rule << ": " << r.note
                                                 << (r.counterexample ? r.counterexample->stats_text : "");
  }
  const TheoremResult in = prover.prove_exact(find_template(catalogue(), "c IN (v1, v2)", "int"));
  ASSERT_EQ(in.verdict, TheoremVerdict::Counterexample) << in.note;
  // The missed skip: both items lie outside [min, max] though the range overlaps.
  const ColumnStats& s = in.counterexample->stats.column(0);
  const int64_t low = in.counterexample->literals[0].as_int();
  const int64_t high = in.counterexample->literals[1].as_int();
  EXPECT_TRUE(low < s.min->as_int() || low > s.max->as_int());
  EXPECT_TRUE(high < s.min->as_int() || high > s.max->as_int());
}

TEST(RuleTheorems, EqualityMissesSkipsOnFilesWithTooFewRows) {
  // The rules never count rows: with at most two non-null values nothing lies strictly inside.
  RuleProver prover;
  const TheoremResult r =
      prover.prove_exact(find_template(catalogue(), "c = v", "int"), ExactnessScope::AnyRowCount);
  ASSERT_EQ(r.verdict, TheoremVerdict::Counterexample) << r.note;
  const TheoremCounterexample& c = *r.counterexample;
  const ColumnStats& s = c.stats.column(0);
  const int64_t v = c.literals[0].as_int();
  EXPECT_TRUE(s.min->as_int() < v && v < s.max->as_int()) << c.stats_text;
  EXPECT_LT(*c.stats.num_records - *s.null_count, kExactnessNonNullRows) << c.stats_text;
}

TEST(RuleTheorems, CompositionSubsetIsProvedOnTwoThreadsInTemplateOrder) {
  const std::vector<PredicateTemplate> all = composition_templates(3);
  std::vector<PredicateTemplate> subset;
  for (size_t i = 0; i < all.size(); i += 401) subset.push_back(all[i]);
  ASSERT_GT(subset.size(), 20u);
  std::vector<size_t> reported;
  const std::vector<TheoremResult> results = prove_compositions(
      subset, Mutant::None, kProverLimits, 2,
      [&](size_t index, size_t count, const TheoremResult&) {
        EXPECT_EQ(count, subset.size());
        reported.push_back(index);
      });
  ASSERT_EQ(results.size(), subset.size());
  for (size_t i = 0; i < subset.size(); ++i) {
    EXPECT_EQ(reported.at(i), i);
    EXPECT_EQ(results[i].rule, subset[i].rule);
    EXPECT_EQ(results[i].verdict, TheoremVerdict::Proved) << subset[i].rule << ": " << results[i].note;
  }
}

TEST(RuleTheorems, UnknownIsNeverCountedAsProved) {
  RuleProof unknown{TheoremResult{"c > v", "int", TheoremVerdict::Unknown, "timeout", std::nullopt, 0}, false};
  EXPECT_FALSE(unknown.as_expected());
  ProveSummary summary;
  summary.rules.push_back(unknown);
  EXPECT_EQ(summary.outcome(), ProveOutcome::TheoremFailed);
}

}  // namespace
}  // namespace skipsound
