// The gate's per-file phase: generated per-file cases (generators/file_case.h) checked against both
// oracles (proofs/perfile/per_file_properties.h), in parallel, with the lowest failing case shrunk to a
// replayable corpus file. The mutant matrix hunts per-file mutants with it too.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "generators/file_case.h"
#include "model/mutants/mutant.h"
#include "proofs/oracles/cross_check.h"
#include "proofs/common/gate_progress.h"
#include "proofs/perfile/per_file_properties.h"
#include "smt/oracle.h"

namespace skipsound {

// Case i of a hunt under `mutant` is generated from this seed, whatever the threads.
uint64_t case_seed(uint64_t master, Mutant mutant, size_t index);
// The case a hunt draws as case i (generation only: on the calling thread).
generators::FileCase hunt_file_case(uint64_t master, Mutant mutant, size_t index);

struct PerFileResult {
  size_t cases = 0;
  size_t decisions = 0;
  size_t failing_cases = 0;
  std::string first_failure;  // Alive2-style report of the first failing case
  std::string first_failure_case;  // its replayable corpus case (proofs/perfile/corpus.h), for --out
  std::optional<DecisionFinding> first_failure_decision;  // its decision finding, when it has one
  double seconds = 0;
  std::optional<double> first_failure_seconds;  // from the phase's start to the chunk holding the first failing case
  smt::OracleCounters oracle;  // who answered the per-file queries
  std::map<std::string, size_t> outcomes;  // decisions by outcome_name ("kept", "missed-skip", ...)
};

struct PerFileHunt {
  PerFileResult result;
  std::optional<size_t> first_failing;  // the lowest failing case index
};

struct PerFileHuntOptions {
  uint64_t seed = 1;
  Mutant mutant = Mutant::None;
  size_t cases = 0;
  std::optional<double> seconds;  // stops early once spent
  unsigned threads = 1;
  bool stop_at_first = false;       // after the chunk holding the first failing case
  CrossChecker* cross_check = nullptr;  // re-asks one case in kCrossCheckCaseStride
  bool intervals = true;                // the interval procedure before Z3 (GateOptions::interval_oracle)
};

PerFileHunt hunt_per_file(const PerFileHuntOptions& options, const GateProgress& progress);

// The failing case shrunk, rendered Alive2-style, with its replayable corpus file.
struct PerFileCounterexample {
  std::string headline;
  std::string report;
  std::string corpus_json;
  std::optional<DecisionFinding> decision;  // the shrunk case's decision finding, when it has one
};

PerFileCounterexample shrink_file_case(uint64_t seed, Mutant mutant, bool intervals);

}  // namespace skipsound
