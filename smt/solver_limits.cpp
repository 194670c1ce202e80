#include "smt/solver_limits.h"

#include <z3++.h>

namespace skipsound::smt {

void apply_limits(z3::solver& solver, const SolverLimits& limits) {
  z3::params params(solver.ctx());
  params.set("rlimit", limits.resource_limit);
  if (limits.timeout_ms > 0) params.set("timeout", limits.timeout_ms);
  solver.set(params);
}

std::string unknown_reason(const z3::solver& solver, const SolverLimits& limits, double elapsed_ms) {
  const std::string reason = solver.reason_unknown();
  if (reason != "canceled" && reason != "timeout") return reason;
  if (limits.timeout_ms > 0 && elapsed_ms >= limits.timeout_ms) return "timeout (" + std::to_string(limits.timeout_ms) + " ms)";
  return "resource limit (rlimit " + std::to_string(limits.resource_limit) + ")";
}

}  // namespace skipsound::smt
