// The baselines of a campaign's session (docs/mutation.md, "Campaigns"): what the unmutated gate
// runs found — the sites the schema build reaches, each phase's sites, the gate's time — kept
// beside the journal once the schema build's verdicts matched the normal build's. A resumed
// session whose binaries and gate arguments are the ones recorded takes them instead of running
// the baselines again (a few minutes a slice on a loaded machine).
#pragma once
#include <optional>
#include <set>
#include <string>

#include "tools/mutate/phase_blame.h"

namespace skipsound::mutation {

struct BaselineRecord {
  std::string key;  // the binaries (path, size, hash of the bytes) and the gate's arguments
  std::set<size_t> reached;
  PhaseBlame blame;
  double build_seconds = 0;
  double gate_seconds = 0;
};

// The key of a session's binaries and gate arguments.
std::string baseline_key(const std::string& normal_binary, const std::string& schema_binary,
                         const std::string& gate_arguments);

void write_baseline_record(const std::string& path, const BaselineRecord& record);
// The record at `path` when its key is `key`; nullopt when there is none, it is unreadable or another's.
std::optional<BaselineRecord> read_baseline_record(const std::string& path, const std::string& key);

}  // namespace skipsound::mutation
