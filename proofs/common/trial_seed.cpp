#include "proofs/common/trial_seed.h"

namespace skipsound {

namespace {

uint64_t splitmix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

}  // namespace

uint64_t trial_seed(uint64_t master_seed, generators::WorldCategory category, size_t global_index) {
  return stream_seed(master_seed, static_cast<uint64_t>(category) + 1, global_index);
}

uint64_t stream_seed(uint64_t master_seed, uint64_t stream, size_t index) {
  return splitmix(splitmix(master_seed ^ splitmix(stream)) + index);
}

}  // namespace skipsound
