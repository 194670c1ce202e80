// Phase blame (docs/mutation.md, "Phase blame"): the schema build's unmutated gate runs once per
// phase (`skipsound gate --phase P`), each recording the mutant sites it reaches. A mutant then
// runs only the phases that reach its site: a phase that never evaluates the site runs exactly as
// without the mutant, so it cannot kill it and leaving it out changes no verdict, only the time.
// A site reached only outside every phase (start-up, the report) runs the whole gate.
#pragma once
#include <map>
#include <set>
#include <string>
#include <vector>

#include "tools/mutate/mutant_run.h"

namespace skipsound::mutation {

// The mutant ids a schema build's processes reached (each appended its list at exit).
std::set<size_t> read_reached(const std::string& path);

struct PhaseBlame {
  std::vector<std::string> phases;                  // in the gate's order; empty: no blame, whole gates
  std::map<std::string, std::set<size_t>> reached;  // the sites each phase reaches

  // The phases that reach `id`, in the gate's order; empty when the whole gate must run (no
  // blame, every phase reaches it, or none does).
  std::vector<std::string> phases_for(size_t id) const;
};

// The phases the gate's JSON report lists as run (the rule proofs aside, which no --phase picks),
// the corpus as its three parts (scenarios, skip-suites, bad-inputs).
std::vector<std::string> phases_run(const std::string& gate_json);

// Runs the schema build's gate, no mutant active, once per phase the unmutated gate at
// `config.gate_json` ran, recording in `work_dir` what each reaches. No blame (whole gates) when
// the gate ran fewer than two phases or a phase alone does not pass.
PhaseBlame blame_phases(const RunConfig& config, const std::string& work_dir);

// `config` with its gate restricted to `phases` (none: unchanged).
RunConfig with_phases(RunConfig config, const std::vector<std::string>& phases);

}  // namespace skipsound::mutation
