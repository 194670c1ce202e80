// The one way a named mutant (model/mutants/mutant.h) reaches the code under test: the harness
// opens a FaultScope for the mutant it hunts around the code it runs, and each mutant's site asks
// `if (fault_active(Mutant::X))`. The fault is held per thread, so every worker of a parallel hunt
// opens its own scope and one trial's mutant never leaks into another's; the signatures of the
// code under test carry no mutant. Adding a mutant is one enum entry and one check at its site.
#pragma once
#include "model/mutants/mutant.h"

namespace skipsound {

// Whether `mutant` is the fault injected on this thread (never, outside every FaultScope).
bool fault_active(Mutant mutant);

// Injects `mutant` (Mutant::None: none) on this thread until the scope ends, then restores the
// fault that was active before, so scopes nest.
class FaultScope {
 public:
  explicit FaultScope(Mutant mutant);
  ~FaultScope();
  FaultScope(const FaultScope&) = delete;
  FaultScope& operator=(const FaultScope&) = delete;

 private:
  Mutant previous_;
};

}  // namespace skipsound
