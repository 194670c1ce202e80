// How long Z3 may work on one query. Its resource limit ("rlimit", counted in solver steps) bounds
// a query deterministically: the same query gives the same answer on an idle machine and on a
// loaded one, so a seed replays exactly and a proof's verdict does not depend on CI load.
// A wall-clock timeout is off unless asked for: Debian's Z3 4.8.12 arms a timer thread per check
// when one is set, and that timer crashed the process (SIGSEGV inside libz3) in long runs on a
// loaded machine; without it no timer thread exists.
#pragma once
#include <string>

namespace z3 {
class solver;  // declared only: code outside smt/ sees the limits, never Z3
}

namespace skipsound::smt {

struct SolverLimits {
  unsigned resource_limit = 0;  // Z3 rlimit per check
  unsigned timeout_ms = 0;      // wall-clock ceiling per check; 0 = none
};

void apply_limits(z3::solver& solver, const SolverLimits& limits);

// Why a check came back unknown. Z3 4.8 says "canceled" (or "timeout") for both limits; the
// elapsed time tells them apart.
std::string unknown_reason(const z3::solver& solver, const SolverLimits& limits, double elapsed_ms);

}  // namespace skipsound::smt
