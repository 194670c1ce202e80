// Cross-writer worlds (docs/engines.md, "Cross-writer worlds"): real tables are written by several
// engines, so in some trials files reach the engine with another writer's stats. The first
// initial file and every appended file of an unpartitioned world are written by a "foreign
// writer": the driver writes the rows with pyarrow and commits an add carrying the stats Delta
// Spark's rules give them (model/stats/stats_collection.h: millisecond-floored timestamps, 32-char
// string prefixes with the tie-breaker, NaN as the max), and the engine's conflict checker and
// scans read them.
#pragma once
#include <cstdint>

#include <nlohmann/json.hpp>

#include "proofs/scenario/scenario.h"

namespace skipsound::engines {

// Whether the trial with this seed is a cross-writer world, for a share in [0, 1].
bool is_cross_writer_trial(uint64_t trial_seed, double share);

// Adds `foreign_files` (initial file index -> stats text) to the driver's request and turns each
// append into a `foreign_append` carrying its stats text; returns how many files a foreign writer writes (0 for a
// partitioned table, whose appends the engine splits by partition).
size_t add_foreign_writer(nlohmann::json& request, const Scenario& scenario);

}  // namespace skipsound::engines
