#include "proofs/rules/prove_all.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <optional>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "checker/skipping_builder.h"
#include "proofs/rules/composition_sweep.h"
#include "proofs/common/parallel_trials.h"
#include "proofs/rules/rule_catalogue.h"

namespace skipsound {


bool RuleProof::as_expected() const {
  return result.verdict == (expect_counterexample ? TheoremVerdict::Counterexample : TheoremVerdict::Proved);
}

ProveOutcome ProveSummary::outcome() const {
  for (const RuleProof& r : rules)
    if (!r.as_expected()) return ProveOutcome::TheoremFailed;
  for (const RuleProof& r : composition) {
    // Under a mutant the sweep only reports: a composed rule may break with its atoms.
    const bool fine = mutant == Mutant::None ? r.as_expected() : r.result.verdict != TheoremVerdict::Unknown;
    if (!fine) return ProveOutcome::TheoremFailed;
  }
  return ProveOutcome::AsExpected;
}

namespace {

bool soundness_covers(const PredicateTemplate& t, TypeCoverage types) {
  return types == TypeCoverage::All || t.schema->leaves().at(0).type.kind != TypeKind::Float;
}

bool exactness_covers(const PredicateTemplate& t, TypeCoverage types) {
  const TypeKind kind = t.schema->leaves().at(0).type.kind;
  const bool quick = is_int64_backed(kind) || kind == TypeKind::Decimal;
  return t.single_comparison && (types == TypeCoverage::All || quick);
}

// A rule that never skips misses every skip: the converse says nothing about it.
bool ever_skips(const PredicateTemplate& t) {
  return build_skipping_predicate(t.predicate, StatsEligibility(*t.schema, StatsConfig{})).has_value();
}

}  // namespace

RuleTheoremJobs::RuleTheoremJobs(const ProveOptions& options) : options_(options), templates_(rule_templates()) {
  if (options.mutant != Mutant::None && !is_per_file_mutant(options.mutant)) {
    throw std::invalid_argument(std::string("mutant ") + mutant_name(options.mutant) +
                                " acts at conflict time, not on one rule; prove takes per-file mutants only");
  }
  for (size_t i = 0; i < templates_.size(); ++i) {
    const PredicateTemplate& t = templates_[i];
    if (!soundness_covers(t, options.types)) continue;
    jobs_.push_back({i, false, expected_to_break(t, options.mutant)});
    if (options.exactness && options.mutant == Mutant::None && exactness_covers(t, options.types) && ever_skips(t))
      jobs_.push_back({i, true, false});
  }
  results_.resize(jobs_.size());
}

void RuleTheoremJobs::work() {
  std::optional<RuleProver> prover;
  for (size_t j = next_++; j < jobs_.size(); j = next_++) {
    if (!prover) prover.emplace(options_.limits);
    const Job& job = jobs_[j];
    const PredicateTemplate& t = templates_[job.template_index];
    results_[j] = job.exactness ? prover->prove_exact(t) : prover->prove_sound(t, options_.mutant);
  }
}

void RuleTheoremJobs::collect(ProveSummary& summary) const {
  summary.mutant = options_.mutant;
  for (size_t j = 0; j < jobs_.size(); ++j) {
    if (jobs_[j].exactness) {
      summary.exactness.push_back(results_[j]);
    } else {
      summary.rules.push_back(RuleProof{results_[j], jobs_[j].expect_counterexample});
    }
  }
}

ProveSummary prove_all(const ProveOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  ProveSummary summary;
  RuleTheoremJobs jobs(options);
  parallel::run_on_threads(std::max(1u, options.threads), [&](size_t) { jobs.work(); });
  jobs.collect(summary);
  if (options.composition) {
    const std::vector<PredicateTemplate> templates = composition_templates(options.max_connectives);
    summary.composition_templates = templates.size();
    const size_t stride = std::max<size_t>(options.composition_stride, 1);
    std::vector<PredicateTemplate> selected;
    for (size_t i = 0; i < templates.size(); i += stride) selected.push_back(templates[i]);
    for (TheoremResult& r :
         prove_compositions(selected, options.mutant, options.limits, options.threads, options.on_composition))
      summary.composition.push_back(RuleProof{std::move(r), false});
  }
  summary.total_millis =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return summary;
}

namespace {

nlohmann::json result_to_json(const TheoremResult& r) {
  nlohmann::json j{{"rule", r.rule}, {"type", r.type}, {"verdict", theorem_verdict_name(r.verdict)},
                   {"millis", r.millis}};
  if (!r.note.empty()) j["note"] = r.note;
  if (r.counterexample) {
    const TheoremCounterexample& c = *r.counterexample;
    j["counterexample"] = {{"predicate", c.predicate},
                           {"literals", c.literals_text},
                           {"stats", c.stats_text},
                           {"skipping_expression", c.skipping_expression}};
    if (c.row) j["counterexample"]["row"] = c.row_text;
  }
  return j;
}

nlohmann::json proofs_to_json(const std::vector<RuleProof>& proofs) {
  nlohmann::json out = nlohmann::json::array();
  for (const RuleProof& p : proofs) {
    nlohmann::json j = result_to_json(p.result);
    j["expected"] = p.expect_counterexample ? "COUNTEREXAMPLE" : "PROVED";
    out.push_back(std::move(j));
  }
  return out;
}

std::string padded(std::string text, size_t width) {
  if (text.size() < width) text.resize(width, ' ');
  return text;
}

std::string line_for(const TheoremResult& r, const char* expectation) {
  // A composition has no type of its own: its (long) predicate takes the first two columns.
  const std::string subject = r.type.empty() ? r.rule : padded(r.rule, 30) + " " + r.type;
  char tail[64];
  std::snprintf(tail, sizeof tail, " %-15s %9.1f ms", theorem_verdict_name(r.verdict), r.millis);
  std::string line = padded(subject, 45) + tail;
  if (expectation) line += std::string("  (expected ") + expectation + ")";
  if (r.verdict == TheoremVerdict::Unknown && !r.note.empty()) line += "  " + r.note;
  if (r.counterexample) {
    const TheoremCounterexample& c = *r.counterexample;
    line += "\n      predicate: " + c.predicate + "\n      stats: " + c.stats_text;
    if (c.row) line += "\n      row: " + c.row_text;
    line += "\n      skipping expression: " + c.skipping_expression;
  }
  return line + "\n";
}

}  // namespace

std::string theorem_line(const TheoremResult& r) { return line_for(r, nullptr); }

nlohmann::json summary_to_json(const ProveSummary& s) {
  nlohmann::json j{{"mutant", mutant_name(s.mutant)},
                   {"outcome", s.outcome() == ProveOutcome::AsExpected ? "as-expected" : "theorem-failed"},
                   {"total_millis", s.total_millis},
                   {"rules", proofs_to_json(s.rules)}};
  nlohmann::json exact = nlohmann::json::array();
  for (const TheoremResult& r : s.exactness) exact.push_back(result_to_json(r));
  j["exactness"] = std::move(exact);
  if (s.composition_templates > 0) {
    j["composition"] = {{"templates", s.composition_templates}, {"proved", proofs_to_json(s.composition)}};
  }
  return j;
}

std::string summary_to_text(const ProveSummary& s) {
  std::ostringstream out;
  out << "rule theorems (mutant: " << mutant_name(s.mutant) << ")\n";
  size_t unexpected = 0;
  for (const RuleProof& p : s.rules) {
    const bool surprising = !p.as_expected();
    unexpected += surprising;
    out << line_for(p.result, surprising ? (p.expect_counterexample ? "COUNTEREXAMPLE" : "PROVED") : nullptr);
  }
  if (!s.exactness.empty()) {
    out << "\nexactness on tight stats (COUNTEREXAMPLE = a skip the rule misses)\n";
    for (const TheoremResult& r : s.exactness) out << line_for(r, nullptr);
  }
  if (s.composition_templates > 0) {
    size_t proved = 0;
    double millis = 0;
    for (const RuleProof& p : s.composition) {
      proved += p.result.verdict == TheoremVerdict::Proved;
      millis += p.result.millis;
      if (p.result.verdict != TheoremVerdict::Proved) out << line_for(p.result, nullptr);
    }
    out << "\ncomposition: " << s.composition.size() << " of " << s.composition_templates
        << " templates proved-checked, " << proved << " PROVED, " << millis << " ms\n";
  }
  out << "\n" << s.rules.size() << " rule theorems, " << unexpected << " not as expected; total "
      << s.total_millis << " ms\n";
  return out.str();
}

}  // namespace skipsound
