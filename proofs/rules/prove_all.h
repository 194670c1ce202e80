// `skipsound prove` as a library (also called by `skipsound gate`): every rule theorem, the
// exactness converse and optionally the composition sweep, with one overall outcome.
#pragma once
#include <atomic>
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "proofs/rules/predicate_template.h"
#include "proofs/rules/rule_theorems.h"

namespace skipsound {

// Which column types the theorems cover. float's binary32 values are widened to binary64 for
// comparison, and Z3 bit-blasts every widening: its soundness theorems take ~80 s together (every
// other type ~15 s), so they run on request. The exactness converse is a quantified formula that
// Z3 decides quickly over integers but times out on over strings and floating point (~3 s per
// rule at the gate's timeout): by default it covers the integer-backed types and decimal only.
enum class TypeCoverage { Default, All };

struct ProveOptions {
  Mutant mutant = Mutant::None;  // per-file mutants only
  TypeCoverage types = TypeCoverage::Default;
  bool exactness = true;
  bool composition = false;
  int max_connectives = 3;
  size_t composition_stride = 1;  // prove every n-th composition template (1 = all)
  unsigned threads = 1;           // the theorems and composition templates are proved on this many threads
  // Each composition result as soon as it and every earlier one are in (index among the
  // templates proved, their count).
  std::function<void(size_t index, size_t count, const TheoremResult&)> on_composition;
  smt::SolverLimits limits = kProverLimits;
};

struct RuleProof {
  TheoremResult result;
  // Under a mutant: the rule is one the mutant breaks, so COUNTEREXAMPLE is the expected verdict.
  bool expect_counterexample = false;
  bool as_expected() const;
};

enum class ProveOutcome { AsExpected, TheoremFailed };

struct ProveSummary {
  Mutant mutant = Mutant::None;
  std::vector<RuleProof> rules;
  std::vector<TheoremResult> exactness;   // informational: COUNTEREXAMPLE = a missed skip
  std::vector<RuleProof> composition;
  size_t composition_templates = 0;       // before the stride
  double total_millis = 0;
  ProveOutcome outcome() const;
};

// The rule theorems of `options` (soundness and, when asked, the exactness converse; no
// composition sweep) as jobs that several threads can share: each thread that calls work()
// proves the theorems not yet claimed, one at a time, with a prover (a Z3 context) of its own,
// until none is left. The gate runs them beside its other phases and joins in once those end.
// Results keep the catalogue's order whichever thread proved them, and a theorem's verdict does
// not depend on the prover (a resource limit per theorem, no state carried between theorems).
class RuleTheoremJobs {
 public:
  // Throws std::invalid_argument for a conflict-time mutant (not a per-rule property).
  explicit RuleTheoremJobs(const ProveOptions& options);
  void work();  // thread-safe
  // Once every work() has returned: the rules and exactness results, in catalogue order.
  void collect(ProveSummary& summary) const;

 private:
  struct Job {
    size_t template_index;
    bool exactness;          // the converse, else soundness
    bool expect_counterexample;
  };
  ProveOptions options_;
  std::vector<PredicateTemplate> templates_;
  std::vector<Job> jobs_;
  std::vector<TheoremResult> results_;  // by job
  std::atomic<size_t> next_{0};
};

// Throws std::invalid_argument for a conflict-time mutant (not a per-rule property).
ProveSummary prove_all(const ProveOptions& options);

nlohmann::json summary_to_json(const ProveSummary& s);
// One table line: rule, type, verdict, time; a counterexample or UNKNOWN's reason below it.
std::string theorem_line(const TheoremResult& r);
std::string summary_to_text(const ProveSummary& s);

}  // namespace skipsound
