// The seed of one generated input, derived from the run's master seed and the input's place in
// the run, so that a trial or a case is the same whatever the thread count or shard that runs it.
#pragma once
#include <cstddef>
#include <cstdint>

#include "generators/world_gen.h"

namespace skipsound {

uint64_t trial_seed(uint64_t master_seed, generators::WorldCategory category, size_t global_index);

// The seed of input `index` of a run that draws one kind of input outside the explorer's
// categories (the engine gate's conformance tables): `stream` names the kind.
uint64_t stream_seed(uint64_t master_seed, uint64_t stream, size_t index);

}  // namespace skipsound
