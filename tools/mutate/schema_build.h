// The schema build (docs/mutation.md, "Mutant schemata"): a scratch copy of the source tree in
// which every mutated file holds its mutants as run-time choices (tools/mutate/mutant_schema.h),
// configured like the run's build folder and built once. A mutant the compiler rejects as a
// choice (one a constant expression needs) is blamed by the lines of its error messages, left
// out of the schema and rebuilt, until the copy builds; the mutants left out are run one by one
// by the per-mutant build.
//
// The copy sits at SCRATCH/source and builds in SCRATCH/source/build/schema: two folders below
// the sources like the presets' build/<name>, so ccache (with a base_dir) finds the objects of
// the files no mutant touches under the same relative paths.
#pragma once
#include <set>
#include <string>
#include <vector>

#include "tools/mutate/mutation_plan.h"

namespace skipsound::mutation {

struct SchemaBuildConfig {
  std::string source_root;
  std::string reference_build_dir;  // a configured build folder whose generator and flags the copy takes
  std::string scratch_dir;
  std::string target = "skipsound";
  double build_timeout = 3600;
};

struct SchemaBuild {
  std::string binary;            // the built target in the copy's build folder
  std::set<size_t> chosen;       // candidate indices the binary chooses with SKIPSOUND_MUTANT_ID
  std::vector<size_t> left_out;  // the others, for the per-mutant build
  size_t rounds = 0;             // builds it took (one, plus one for each round of blame)
  double seconds = 0;
  std::string failure;           // empty when it built; else why not, with the build's last lines
};

// Copies the source tree (files whose text changed only, so the copy rebuilds incrementally),
// writes the schemata of `candidates` over their files and builds the target.
SchemaBuild build_schema(const SchemaBuildConfig& config, const std::vector<Candidate>& candidates);

// The build folder's CMakeCache.txt entries a copy is configured with (generator, build type,
// compiler, its launcher and flags, the allocator), as cmake arguments.
std::vector<std::string> configure_arguments_like(const std::string& build_dir);

}  // namespace skipsound::mutation
