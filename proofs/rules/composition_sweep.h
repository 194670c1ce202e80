// The composition sweep (docs/semantics.md §6.6): thousands of independent theorems spread over threads. Each
// theorem gets a fresh Z3 context under a deterministic resource limit, so its verdict never
// depends on the thread count, the order of work or machine load; results are reported in
// template order as soon as every earlier template is done, so a sweep prints the same verdicts
// in the same order on 1 thread or many.
#pragma once
#include <cstddef>
#include <functional>
#include <vector>

#include "model/mutants/mutant.h"
#include "proofs/rules/predicate_template.h"
#include "proofs/rules/rule_theorems.h"
#include "smt/solver_limits.h"

namespace skipsound {

// Called once per template, in template order, from whichever thread finished the last gap.
using CompositionListener = std::function<void(size_t index, size_t count, const TheoremResult&)>;

std::vector<TheoremResult> prove_compositions(const std::vector<PredicateTemplate>& templates,
                                                   Mutant mutant, const smt::SolverLimits& limits,
                                                   unsigned threads, const CompositionListener& listener);

}  // namespace skipsound
