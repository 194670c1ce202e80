#include "model/mutants/fault_injection.h"

namespace skipsound {

namespace {
thread_local Mutant active_fault = Mutant::None;
}  // namespace

bool fault_active(Mutant mutant) { return active_fault == mutant; }

FaultScope::FaultScope(Mutant mutant) : previous_(active_fault) { active_fault = mutant; }

FaultScope::~FaultScope() { active_fault = previous_; }

}  // namespace skipsound
