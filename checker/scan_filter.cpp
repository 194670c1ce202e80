#include "checker/scan_filter.h"

#include "checker/skipping_builder.h"

namespace skipsound {

ScanResult filter_scan(const ExprPtr& predicate, const std::vector<CandidateFile>& files,
                       const StatsEligibility& eligibility) {
  ScanResult result;
  result.filters = classify_filters(predicate, eligibility);
  result.skipping = build_conjunction(result.filters.read.data_filters, eligibility);
  result.files.reserve(files.size());
  for (const CandidateFile& file : files) {
    ScanFileOutcome outcome;
    outcome.path = file.path;
    outcome.partition = match_partition(result.filters.read.partition_filters, file.partition_values);
    outcome.data = decide_file(result.skipping, FileView{file.stats, file.dv_cardinality},
                               eligibility.schema());
    if (outcome.partition == PartitionMatch::NoMatch) {
      outcome.verdict = FileVerdict::Skip;
      outcome.reason = "skipped: the partition filters are not TRUE on its partition values";
    } else {
      outcome.verdict = outcome.data.verdict;
      outcome.reason = outcome.data.reason;
    }
    result.files.push_back(std::move(outcome));
  }
  return result;
}

}  // namespace skipsound
