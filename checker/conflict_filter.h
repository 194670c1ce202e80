// Conflict-time data skipping (docs/semantics.md §5.7, the seeds' feature): which of a winner's
// added files the append check must still consider, given the loser's recorded reads.
// The conflict checker raises ConcurrentAppendException iff `any_survivor()`.
#pragma once
#include <string>
#include <vector>

#include "checker/candidate_file.h"
#include "checker/file_decision.h"
#include "checker/filter_classification.h"
#include "checker/stats_eligibility.h"

namespace skipsound {

// Everything the loser recorded: one ReadPredicate per scan (partition part + data part).
struct LoserReads {
  bool whole_table = false;
  std::vector<ReadPredicate> reads;
};

// What the winner did, as far as the append-suppression mutant needs to know.
enum class WinnerOperation { Other, Update, Delete };

struct ConflictFilterOptions {
  bool data_skipping_enabled = true;  // off = Delta's previous, partition-only behaviour
  WinnerOperation winner_operation = WinnerOperation::Other;
  bool value_exact = false;             // docs/semantics.md §10.1; runs only after the stats tier
  bool exclude_no_data_change = false;  // docs/semantics.md §10.4: dataChange=false adds are not candidates
};

enum class CandidateVerdict { Survives, Excluded };

// The step of the append check that decided a file last (docs/semantics.md §10 "Order": Case 3 add filter,
// §5.7 stats tier, value-exact tier, partition step); Default = a whole-filter path (whole-table
// read, skipping off, an error, a mutant's blanket rule) or no step ran.
enum class FilterStep { Default, NoDataChange, DataSkipping, ValueExact, Partition };
const char* filter_step_name(FilterStep step);  // "stats tier", "value-exact tier", ...

struct CandidateOutcome {
  std::string path;
  CandidateVerdict verdict = CandidateVerdict::Survives;
  std::string reason;                  // one line
  std::vector<FileDecision> per_read;  // a survivor's data-skipping decision for each read, for reports
  FilterStep decided_by = FilterStep::Default;
};

struct ConflictFilterResult {
  std::vector<CandidateOutcome> files;  // in input order
  std::string summary;                  // which path was taken, e.g. "whole-table read"
  std::string unexpected_error;         // set when every file was kept for an exception that is
                                        // not a declared input error (a bug the keep would hide)
  bool any_survivor() const;
};

// `eligibility` also names the table's partition columns (empty = unpartitioned). Never throws
// for bad stats or unevaluable filters: any error keeps every file (one that is not an
// InputError is also named in `unexpected_error`).
ConflictFilterResult filter_conflict_candidates(const LoserReads& loser,
                                                const std::vector<CandidateFile>& added,
                                                const StatsEligibility& eligibility,
                                                const ConflictFilterOptions& options = {});

}  // namespace skipsound
