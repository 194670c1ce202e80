// Which mutations a skipsound-mutate run makes, in which order: every mutation of the files,
// filtered by operator, line range and changed lines, split into shards, shuffled by a seed and
// capped (a uniform sample when --sample caps it).
// A shard is taken before the shuffle, so the shards of one enumeration never overlap whatever
// the seed, and the same seed gives the same order.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tools/mutate/changed_lines.h"
#include "tools/mutate/mutations.h"

namespace skipsound::mutation {

struct Candidate {
  std::string file;  // relative to the source root
  size_t index = 0;  // in the whole enumeration of the run's files
  Mutation mutation;
  MutationText text;
};

struct PlanOptions {
  std::vector<Operator> operators;                    // empty = all
  std::optional<std::pair<size_t, size_t>> lines;     // inclusive
  std::optional<ChangedLines> changed;                // --changed-since: only mutations starting on these
  size_t shard_index = 0;
  size_t shard_count = 1;
  uint64_t seed = 1;
  size_t max_mutants = SIZE_MAX;
};

// The files the patterns name under `root` (glob(3): *, ?, [...]), sorted, relative to root.
// Throws std::invalid_argument naming a pattern that matches no file.
std::vector<std::string> expand_patterns(const std::string& root, const std::vector<std::string>& patterns);

// Every mutation of `files` (read from under root), in file order then source order, numbered.
// Throws std::runtime_error naming a file that cannot be read.
std::vector<Candidate> enumerate_candidates(const std::string& root, const std::vector<std::string>& files);

// The candidates a run makes, in the order it makes them.
std::vector<Candidate> plan_run(const std::vector<Candidate>& all, const PlanOptions& options);

// Reads a whole file; throws std::runtime_error naming it when it cannot.
std::string read_text_file(const std::string& path);

}  // namespace skipsound::mutation
