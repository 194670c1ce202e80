// The live stats audit (docs/semantics.md §6.8): after every commit of a scenario run, every live
// file's stats are held against its live rows (proofs/oracles/stats_audit.h), tight and wide
// alike. A claim the rows refute is UNSOUND STATS: a reader trusting it may skip a file a live
// row of which matches, as a wrong nullCount after DV widening does.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "proofs/oracles/stats_audit.h"
#include "proofs/scenario/commit_sequence.h"

namespace skipsound {

struct LiveStatsFinding {
  int64_t version = 0;  // the table version whose live file it is
  std::string path;     // the file's path
  size_t dv_cardinality = 0;
  StatsClaimFinding claim;
  // For reports, rendered while the rows are at hand:
  // "v2 T1-0 (DV of 1 row): nullCount(x) = 2 (all live rows NULL): 1 live rows are not NULL"
  std::string text;
};

// Every version's live files, the initial table's included. A file (path and DV) live in several
// versions is audited once, where it first appears: its stats and rows do not change.
std::vector<LiveStatsFinding> audit_live_stats(const ScheduleRun& run);

}  // namespace skipsound
