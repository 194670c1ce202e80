// The mutant matrix's policy (docs/semantics.md §8): how the gate hunts one mutant. A conflict
// mutant goes to the explorer, value-moving and mixed worlds first. A per-file mutant goes to the
// per-file properties, then (when the gate runs them) the symbolic proofs, and last the explorer;
// the first phase that kills it names the kill.
#pragma once
#include "model/mutants/mutant.h"
#include "proofs/gate/gate.h"
#include "proofs/rules/prove_all.h"

namespace skipsound {

MutantResult hunt_mutant(Mutant mutant, const GateOptions& options, const GateBudget& budget,
                         const GateProgress& progress);

// The rule theorems under `mutant` (none: the production rules), without the exactness converse.
ProveOptions rule_theorem_options(Mutant mutant);
ProveSummary prove_rule_theorems(Mutant mutant);

}  // namespace skipsound
