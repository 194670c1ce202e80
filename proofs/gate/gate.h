// `skipsound gate`: the CI correctness gate. It runs the scenario corpus, the per-file soundness
// properties, the interleaving explorer over every category, the symbolic rule proofs and the
// mutant matrix (every docs/semantics.md §8 mutant must be killed), and passes only when nothing is unsound
// and no mutant survives. With a cross-check solver (the CLI's default: cvc5), Z3's answers are
// re-asked there too (proofs/oracles/cross_check.h), and a disagreement fails the gate.
//
// Here: the phases in order (proofs/gate/gate.cpp). The per-file phase is proofs/perfile/per_file_hunt.h, the
// mutant matrix's policy proofs/gate/mutant_hunt.h, the reports proofs/gate/gate_report.h and
// proofs/gate/junit_report.h.
//
// CI matrix example (GitHub Actions): four runners share the explorer's trial space; together
// they run exactly what one runner with --budget 4x would.
//
//   jobs:
//     gate:
//       runs-on: ubuntu-latest
//       strategy:
//         matrix: { shard: [0, 1, 2, 3] }
//       steps:
//         - uses: actions/checkout@v4
//         - run: scripts/run gate --seed ${{ github.run_id }} --shard ${{ matrix.shard }}/4
//                  --junit gate-${{ matrix.shard }}.xml --out findings-${{ matrix.shard }}
//         - uses: actions/upload-artifact@v4
//           if: always()
//           with: { name: gate-${{ matrix.shard }}, path: "gate-*.xml\nfindings-*" }
//     tests:
//       strategy:
//         matrix: { shard: [0, 1] }
//       env: { GTEST_SHARD_INDEX: "${{ matrix.shard }}", GTEST_TOTAL_SHARDS: "2" }
//       steps:
//         - uses: actions/checkout@v4
//         - run: scripts/run test
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/mutants/mutant.h"
#include "proofs/oracles/exhaustive_cross_check.h"
#include "proofs/common/gate_progress.h"
#include "proofs/explorer/explorer.h"
#include "proofs/gate/gate_coverage.h"
#include "proofs/perfile/per_file_hunt.h"
#include "proofs/rules/prove_all.h"

namespace skipsound {

inline constexpr size_t kDefaultTrialsPerCategory = 2000;
// `skipsound gate` without --seed.
inline constexpr uint64_t kDefaultGateSeed = 20240607;
// The bounded exhaustive cross-check's slice in the gate: a few seconds.
inline constexpr size_t kGateExhaustiveComparisons = 3000;

// --fail-fast: Phase stops each phase at its first finding (a per-file case, an explorer trial, a
// corpus file, an exhaustive universe, a surviving mutant); Gate also skips the phases after the
// first one that found something (the symbolic proofs, running beside them, still finish).
enum class FailFast { Off, Phase, Gate };

// The corpus phase's parts, in the order they run; `--phase` picks each on its own as well.
inline constexpr const char* kCorpusParts[] = {"scenarios", "skip-suites", "bad-inputs"};

struct GateOptions {
  uint64_t seed = 1;
  size_t trials_per_category = kDefaultTrialsPerCategory;
  std::optional<double> seconds;  // total time budget; overrides the trial count when set
  std::vector<generators::WorldCategory> categories;  // empty = all
  std::vector<Mutant> mutants;                        // empty = every mutant of the catalogue
  // The explorer hunts a mutant in rounds of this many trials per category, every category once
  // per round: a larger budget re-runs the default one's trials first, so it kills a mutant as
  // soon as the default budget would instead of first exhausting the categories where it hides.
  size_t hunt_round = kDefaultTrialsPerCategory;
  bool skip_mutants = false;                          // --mutant none
  unsigned threads = 1;
  Shard shard;
  std::string corpus_dir;  // tests/corpus/scenarios; empty = skip the corpus
  // Folders of skip-expectation cases (proofs/gate/delta_skipping_suite.h) judged with the corpus:
  // tests/corpus/delta-skipping (Delta's own suite) and tests/corpus/rule-skips (one case per §5.3 rule family)
  std::vector<std::string> skip_suite_dirs;
  // The bad-input corpus (proofs/gate/bad_input_corpus.h), run with the corpus, and the skipsound
  // binary its command lines run; either empty = skip it.
  std::string bad_input_dir;
  std::string skipsound_binary;
  bool proofs = true;
  size_t exhaustive_comparisons = kGateExhaustiveComparisons;  // --exhaustive N; 0 skips the phase
  // A second solver re-asks every conflict-time skip query of the explorer phase and every query
  // of one per-file case in kCrossCheckCaseStride; nullopt = no cross-check.
  std::optional<smt::SecondSolverOptions> cross_check;
  std::string cross_check_dir;  // where disagreeing queries go; empty = a temporary folder
  // The per-file oracle tries smt/interval_decider.h before Z3 (--oracle-engine); false: Z3 only.
  bool interval_oracle = true;
  FailFast fail_fast = FailFast::Off;
  // --phase: only these of the corpus, per-file, exhaustive, explorer, cross-check and mutants
  // phases run (empty = all), or of the corpus's parts (kCorpusParts); the others are listed as
  // skipped. skipsound-mutate runs a mutant only in the phases that reach its site
  // (docs/mutation.md, "Phase blame").
  std::vector<std::string> phases;
  // A full run (the CLI's defaults): a coverage row never reached fails the gate.
  bool require_coverage = false;
};

// What a corpus file or case found (problem_text prints it as the gate reports it).
enum class CorpusProblemKind {
  Mismatch,         // a scenario finding the file does not expect: its headline
  DoesNotLoad,      // the file or case does not load: the error, naming where
  UnsoundSkip,      // a skip-expectation case's file skipped although a row matches
  LostSkip,         // a file Delta skips that the checker keeps
  SkipBeyondDelta,  // in an "exact" case, a file Delta reads that the checker skips
  BadEntry,         // a predicate whose "needs" mark is missing or stale
  BadInputRun,      // a bad-input command line whose exit status or output differs
};

struct CorpusProblem {
  CorpusProblemKind kind = CorpusProblemKind::Mismatch;
  std::string detail;
  bool operator==(const CorpusProblem&) const = default;
};

std::string problem_text(const CorpusProblem& problem);

struct CorpusFileResult {
  std::string file;
  std::vector<CorpusProblem> problems;  // empty: as the file expects
  // For a reader, when something differs: the Elle-style report of a scenario, the command line
  // and output of a bad input, the problems of a skip-expectation case.
  std::string report;
  double seconds = 0;

  bool failed() const { return !problems.empty(); }
};

// The rule theorems the gate proves beside its phases.
struct ProofGroupResult {
  std::string group;  // "rule theorems"
  ProveSummary summary;
  double seconds = 0;

  bool failed() const { return summary.outcome() != ProveOutcome::AsExpected; }
};

// The phase that killed a mutant (docs/semantics.md §8), in the order the hunt tries them.
enum class MutantKill {
  Survived,
  PerFileProperties,  // a generated per-file case failed
  SymbolicProofs,     // a rule theorem has a counterexample
  Explorer,           // an interleaving trial failed (in MutantResult::explorer_category)
  FalseConflictRate,  // a liveness mutant: the same trials abort more often than the sound checker's
};

struct MutantResult {
  Mutant mutant = Mutant::None;
  MutantKill killed_by = MutantKill::Survived;
  generators::WorldCategory explorer_category = generators::WorldCategory::Mixed;  // when killed_by == Explorer
  size_t trials = 0;      // trials (or cases) run until the kill, or in all when it survived
  double seconds = 0;
  std::string headline;   // of the shrunk counterexample
  std::string report;
  std::string replay_file;     // the file's name under --out
  std::string replay_content;  // a scenario or per-file corpus case
  // The counterexample as data, for the HTML report: an explorer kill's shrunk run, a per-file
  // kill's decision finding.
  std::shared_ptr<const JudgedRun> shrunk = {};
  std::optional<DecisionFinding> decision = {};

  bool killed() const { return killed_by != MutantKill::Survived; }
};

// "per-file properties", "symbolic proofs", "explorer (value-moving)"; empty when it survived.
std::string killed_by_text(const MutantResult& result);

enum class GateOutcome { Pass, Fail };

// One phase's wall time and, when it found something, the time from its start to its first
// finding (before any shrinking): "killed within 30 s" is read here, not inferred.
struct PhaseTiming {
  std::string phase;      // "corpus", "per-file", "exhaustive", "explorer", "cross-check", "mutants", "proofs"
  double started = 0;     // seconds into the gate
  double seconds = 0;
  std::optional<double> first_finding;  // seconds into the phase
};

struct GateReport {
  uint64_t seed = 0;
  std::string command;  // the command line that replays this run, when the caller knows it
  Shard shard;
  std::vector<CorpusFileResult> corpus;
  PerFileResult per_file;
  std::vector<CategoryResult> categories;
  std::vector<ProofGroupResult> proofs;
  std::vector<MutantResult> mutants;
  std::optional<ExhaustiveReport> exhaustive;  // the bounded exhaustive cross-check, when run
  std::optional<CrossCheckTally> cross_check;
  std::vector<PhaseTiming> phases;          // in the order they ran
  std::vector<std::string> skipped_phases;  // by --fail-fast gate, after the first finding, or by --phase
  GateCoverage coverage;  // what this run reached (proofs/gate/gate_coverage.h)
  double seconds = 0;

  GateOutcome outcome() const;
  std::vector<std::string> failures() const;  // one headline per failure
};

GateReport run_gate(const GateOptions& options, const GateProgress& progress = {});

// How the options' budget divides between the phases.
struct GateBudget {
  size_t trials_per_category;
  std::optional<double> seconds_per_category;
  size_t file_cases;
  std::optional<double> file_seconds;
};
GateBudget gate_budget(const GateOptions& options);

}  // namespace skipsound
