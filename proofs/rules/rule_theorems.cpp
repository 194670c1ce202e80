#include "proofs/rules/rule_theorems.h"

#include <chrono>

#include <nlohmann/json.hpp>

#include "checker/file_decision.h"
#include "checker/skipping_builder.h"
#include "model/mutants/fault_injection.h"
#include "model/sql/evaluator.h"
#include "model/sql/printer.h"
#include "model/stats/stats_consistency.h"
#include "model/stats/string_truncation.h"
#include "smt/symbolic/rule_query.h"
#include "model/values/exact_json.h"

namespace skipsound {

using smt::DecodedFile;
using smt::RuleQuery;
using smt::SolverAnswer;
using smt::TheoremWitness;

const char* theorem_verdict_name(TheoremVerdict v) {
  switch (v) {
    case TheoremVerdict::Proved: return "PROVED";
    case TheoremVerdict::Counterexample: return "COUNTEREXAMPLE";
    case TheoremVerdict::Unknown: return "UNKNOWN";
  }
  return "?";
}

namespace {

SkipExprPtr substitute_literals(const SkipExprPtr& e, const PredicateTemplate& t,
                                const std::vector<Value>& values) {
  if (e->kind == SkipKind::Literal) {
    for (size_t i = 0; i < t.slots.size(); ++i)
      if (e->literal == t.slots[i].sentinel) return skip_literal(values.at(i));
    return e;
  }
  if (e->children.empty()) return e;
  auto copy = std::make_shared<SkipExpr>(*e);
  for (SkipExprPtr& child : copy->children) child = substitute_literals(child, t, values);
  return copy;
}

TheoremCounterexample counterexample(const DecodedFile& file, const std::vector<Value>& literals,
                                     const std::optional<Row>& row, const ExprPtr& predicate,
                                     const SkipExprPtr& skipping, const Schema& schema) {
  TheoremCounterexample cex;
  cex.stats = file.stats;
  cex.dv_cardinality = file.dv_cardinality;
  cex.literals = literals;
  cex.row = row;
  cex.predicate = to_sql(predicate);
  cex.skipping_expression = to_string(skipping, schema);
  cex.stats_text = dump_json(stats_to_json(cex.stats, schema));
  if (cex.dv_cardinality > 0) cex.stats_text += " dv=" + std::to_string(cex.dv_cardinality);
  if (cex.row) cex.row_text = dump_json(row_to_json(*cex.row, schema));
  for (const Value& v : cex.literals)
    cex.literals_text += (cex.literals_text.empty() ? "" : ", ") + to_sql_literal(v);
  return cex;
}

double millis_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

// Why the file holding this row could not have been written with these stats, or nullopt. The
// string-max-plain-prefix mutant is a writer: its stats are checked against the writer itself.
std::optional<std::string> inconsistency(const DecodedFile& d, const Row& row,
                                         const Schema& schema, Mutant mutant, int string_prefix_length) {
  if (mutant != Mutant::StringMaxPlainPrefix) {
    const FileEvidence evidence{&d.stats, d.dv_cardinality, {}, string_prefix_length};
    const ConsistencyVerdict v = check_row_consistency(row, row_allowance(evidence, schema));
    if (v.kind == Consistency::Consistent) return std::nullopt;
    return "the row is not consistent with the stats: " + v.reason;
  }
  for (const auto& [leaf, truth] : d.truth) {
    const Value& value = row.at(leaf);
    if (value.is_null()) continue;
    if (truth.min.is_null() || *spark_compare(value, truth.min) < 0 || *spark_compare(truth.max, value) < 0)
      return "the row lies outside its file's true range";
    const std::optional<Value>& stored = d.stats.column(leaf).max;
    if (stored && truth.max.type.kind == TypeKind::String && !d.stats.wide() && d.dv_cardinality == 0 &&
        truncate_string_max(truth.max.as_string(), string_prefix_length) != stored->as_string())
      return "the mutant writer would not store this string max";
  }
  return std::nullopt;
}

// query.check(); a model that does not decode to real values is retried once with every string
// restricted to the decodable alphabet. On sat, `witness` holds the decoded model or `problem`
// says why there is none.
SolverAnswer solve(RuleQuery& query, bool with_row, std::optional<TheoremWitness>& witness, std::string& problem) {
  SolverAnswer r = query.check();
  if (r != SolverAnswer::Sat) return r;
  witness = query.witness(with_row, problem);
  if (witness) return r;
  query.restrict_to_alphabet();
  r = query.check();
  if (r == SolverAnswer::Sat) witness = query.witness(with_row, problem);
  return r;
}

// Z3 sometimes spends its whole budget on a theorem whose counterexample is trivial (a file
// without stats, a NULL row) because long strings give it room to wander. When it gives up, the
// search is repeated with every string and binary symbol short: a model found there is a real
// counterexample (and is replayed like any other); "none there" proves nothing, so the answer
// stays unknown.
inline constexpr int kShortStringLength = 2;

// One theorem: `state(query)` states it in a fresh query (smt/symbolic/rule_query.h), unsat proves it, and
// `judge(witness, result)` replays a model concretely before it may count as a counterexample.
// An error in Z3 or in encoding leaves the verdict UNKNOWN with the reason.
template <typename State, typename Judge>
TheoremResult run_theorem(const PredicateTemplate& t, Mutant mutant, const smt::SolverLimits& limits,
                          int string_prefix_length, bool with_row, const char* proved_note, State state,
                          Judge judge) {
  const auto start = std::chrono::steady_clock::now();
  TheoremResult result{t.rule, t.type, TheoremVerdict::Unknown, "", std::nullopt, 0};
  std::optional<TheoremWitness> witness;
  std::string problem;
  std::string unknown_why;
  // One search in a fresh solver, the second with every string short (unknown when the theorem
  // has no strings to shorten).
  auto search = [&](bool short_strings) {
    RuleQuery query(t.symbolic(), mutant, string_prefix_length, limits);
    state(query);
    if (short_strings && !query.restrict_to_short_strings(kShortStringLength)) return SolverAnswer::Unknown;
    const SolverAnswer answer = solve(query, with_row, witness, problem);
    if (answer == SolverAnswer::Unknown && !short_strings)
      unknown_why = "z3: " + query.unknown_reason(millis_since(start));
    return answer;
  };
  try {
    SolverAnswer answer = search(false);
    // Among short strings only a model counts: "none there" proves nothing.
    if (answer == SolverAnswer::Unknown && search(true) == SolverAnswer::Sat) {
      answer = SolverAnswer::Sat;
      result.note = "found on short strings; the full search: " + unknown_why;
    }
    switch (answer) {
      case SolverAnswer::Unsat:
        result.verdict = TheoremVerdict::Proved;
        result.note = proved_note;
        break;
      case SolverAnswer::Unknown: result.note = unknown_why; break;
      case SolverAnswer::Sat:
        if (witness) judge(*witness, result);
        else result.note = "cannot decode the model: " + problem;
        break;
    }
  } catch (const smt::SolverError& e) {
    result.note = std::string("z3 error: ") + e.what();
  } catch (const std::exception& e) {
    result.note = std::string("unsupported: ") + e.what();
  }
  result.millis = millis_since(start);
  return result;
}

// Replays a soundness witness through the concrete code under `mutant`: COUNTEREXAMPLE only when
// the concrete logic skips, the model evaluator finds the predicate TRUE and the row fits the stats
// (the string-max-plain-prefix writer's, under that mutant).
void judge_witness(const PredicateTemplate& t, const SkippingPredicate& claimed, Mutant mutant,
                   int string_prefix_length, const TheoremWitness& w, TheoremResult& result) {
  const FaultScope fault(mutant);
  const ExprPtr instantiated = instantiate(t, w.literals);
  const SkippingPredicate concrete{substitute_literals(claimed.expr, t, w.literals), claimed.referenced};
  TheoremCounterexample cex = counterexample(w.file, w.literals, w.row, instantiated, concrete.expr, *t.schema);
  const FileView view{&w.file.stats, w.file.dv_cardinality};
  if (decide_verdict(concrete, view, *t.schema) != FileVerdict::Skip) {
    result.note = "witness not confirmed: the concrete logic keeps the file";
  } else if (evaluate(*instantiated, *w.row) != Truth::True) {
    result.note = "witness not confirmed: the model evaluator does not find the predicate TRUE";
  } else if (const auto why = inconsistency(w.file, *w.row, *t.schema, mutant, string_prefix_length)) {
    result.note = "witness not confirmed: " + *why;
  } else {
    result.verdict = TheoremVerdict::Counterexample;
  }
  result.counterexample = std::move(cex);
}

}  // namespace

RuleProver::RuleProver(smt::SolverLimits limits, int string_prefix_length)
    : limits_(limits), string_prefix_length_(string_prefix_length) {}

TheoremResult RuleProver::prove_sound(const PredicateTemplate& t, Mutant mutant) {
  const StatsEligibility eligibility(*t.schema, StatsConfig{});
  const std::optional<SkippingPredicate> built = [&] {
    const FaultScope fault(mutant);
    return build_skipping_predicate(t.predicate, eligibility);
  }();
  if (!built) {
    return TheoremResult{t.rule, t.type, TheoremVerdict::Proved, "no skipping expression: every file is kept",
                         std::nullopt, 0};
  }
  return prove_claim_sound(t, *built, mutant);
}

TheoremResult RuleProver::prove_claim_sound(const PredicateTemplate& t, const SkippingPredicate& claimed,
                                            Mutant mutant) {
  return run_theorem(
      t, mutant, limits_, string_prefix_length_, true, "unsat",
      [&](RuleQuery& query) { query.assert_matching_row_skipped(claimed); },
      [&](const TheoremWitness& w, TheoremResult& result) {
        judge_witness(t, claimed, mutant, string_prefix_length_, w, result);
      });
}

TheoremResult RuleProver::prove_exact(const PredicateTemplate& t, ExactnessScope scope) {
  const StatsEligibility eligibility(*t.schema, StatsConfig{});
  const std::optional<SkippingPredicate> built = build_skipping_predicate(t.predicate, eligibility);
  if (!built) {
    return TheoremResult{t.rule, t.type, TheoremVerdict::Unknown, "no skipping expression: never skips",
                         std::nullopt, 0};
  }
  const std::optional<int> min_non_null_rows =
      scope == ExactnessScope::ManyRows ? std::optional<int>(kExactnessNonNullRows) : std::nullopt;
  auto judge = [&](const TheoremWitness& w, TheoremResult& result) {
    const ExprPtr instantiated = instantiate(t, w.literals);
    const auto concrete = build_skipping_predicate(instantiated, eligibility);
    const FileView view{&w.file.stats, w.file.dv_cardinality};
    result.counterexample = counterexample(w.file, w.literals, std::nullopt, instantiated,
                                           concrete ? concrete->expr : nullptr, *t.schema);
    if (concrete && decide_verdict(*concrete, view, *t.schema) == FileVerdict::Keep) {
      result.verdict = TheoremVerdict::Counterexample;
      result.note = "missed skip: kept, yet no row consistent with the stats matches";
    } else {
      result.note = "example not confirmed: the concrete logic skips the file";
    }
  };
  return run_theorem(
      t, Mutant::None, limits_, string_prefix_length_, false, "exact: every kept file holds a matching row",
      [&](RuleQuery& query) { query.assert_kept_without_match(*built, min_non_null_rows); }, judge);
}

}  // namespace skipsound
