// The bounded exhaustive cross-check of the per-file Z3 oracle: for every stats question over the
// small domains of proofs/oracles/bounded_exhaustive.h and predicates from a grammar slice, the oracle's
// answer (smt::Oracle::check, the witness restricted to the domain) against the brute force's.
//   oracle UNSAT, brute force finds a row  -> an unsound skip (the oracle licenses it)
//   oracle SAT,   brute force finds none   -> a false alarm (the oracle is too generous)
//   oracle UNKNOWN                         -> counted apart, never a proof
//   oracle IMPOSSIBLE STATS                -> a disagreement: a writer wrote these stats
// Wide stats are judged against docs/semantics.md §4.6's reading (every live value within [min, max]): the
// oracle may not skip what the writer truth allows, and may allow what the bounds allow; a SAT
// that only the bounds explain is counted as the documented wide over-approximation.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "proofs/oracles/bounded_exhaustive.h"

namespace skipsound {

inline constexpr size_t kDefaultExhaustiveComparisons = 120'000;

struct ExhaustiveOptions {
  uint64_t seed = 1;  // which (stats, predicate) pairs are sampled when a universe has more
  size_t comparisons = kDefaultExhaustiveComparisons;  // shared equally; a small universe's unused share goes to the rest
  unsigned threads = 2;                                // one Oracle per thread
  exhaustive::WriterBreak writer_break = exhaustive::WriterBreak::None;  // on the brute-force side only
  size_t examples_per_class = 1;        // disagreements kept (and printed) per class
  std::vector<exhaustive::Universe> universes;  // empty = exhaustive::standard_universes()
  bool stop_at_first_disagreement = false;      // after the universe holding it (the gate's --fail-fast)
};

enum class DisagreementKind {
  UnsoundSkip,
  FalseAlarm,
  InternalError,
  WrittenStatsCalledImpossible,  // every question's stats were written by the writer for some file
};
// "unsound skip", "false alarm", "internal error", "written stats called impossible"
const char* disagreement_name(DisagreementKind k);

struct Disagreement {
  DisagreementKind kind = DisagreementKind::UnsoundSkip;
  std::string universe;
  std::string stats_json;
  int64_t deleted_rows = 0;
  std::string predicate;
  std::string brute_force;  // the witness row as JSON, or "no row"
  std::string oracle;       // the oracle's answer with its reason or witness
};

struct UniverseTally {
  std::string name;
  size_t questions = 0;   // distinct (stats, DV cardinality)
  size_t predicates = 0;  // distinct
  size_t comparisons = 0;
  size_t unsat = 0;
  size_t sat = 0;
  size_t unknown = 0;
  size_t wide_over_approximations = 0;
  size_t disagreements = 0;
};

struct ExhaustiveReport {
  uint64_t seed = 0;
  std::vector<UniverseTally> universes;
  // "<kind> / <universe> / <tightness>" -> count, and the first examples of each (pair order).
  std::map<std::string, size_t> disagreement_classes;
  std::map<std::string, std::vector<Disagreement>> examples;
  std::map<std::string, size_t> unknown_reasons;
  std::optional<double> first_disagreement_seconds;  // at the end of the universe holding the first
  double seconds = 0;

  size_t comparisons() const;
  size_t disagreements() const;
  size_t unknowns() const;
  size_t wide_over_approximations() const;
};

ExhaustiveReport run_exhaustive_cross_check(const ExhaustiveOptions& options);

// One line per universe, every disagreement class with its first example, the unknown reasons.
std::string exhaustive_summary_text(const ExhaustiveReport& report);

}  // namespace skipsound
