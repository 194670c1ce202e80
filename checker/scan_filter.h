// Scan-time file filtering (docs/semantics.md §5.6): partition filters decided exactly on partition values,
// then data skipping with the keep rule over the ANDed data filters.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "checker/candidate_file.h"
#include "checker/file_decision.h"
#include "checker/filter_classification.h"
#include "checker/partition_match.h"
#include "checker/stats_eligibility.h"

namespace skipsound {

struct ScanFileOutcome {
  std::string path;
  FileVerdict verdict = FileVerdict::Keep;
  PartitionMatch partition = PartitionMatch::Match;
  FileDecision data;  // the data-skipping decision
  std::string reason;
};

struct ScanResult {
  ClassifiedFilters filters;
  std::optional<SkippingPredicate> skipping;  // built from the data filters; absent = none
  std::vector<ScanFileOutcome> files;         // in input order
};

// `predicate` is bound; absent means the scan reads everything.
ScanResult filter_scan(const ExprPtr& predicate, const std::vector<CandidateFile>& files,
                       const StatsEligibility& eligibility);

}  // namespace skipsound
