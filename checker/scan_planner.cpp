#include "checker/scan_planner.h"

#include "checker/file_decision.h"
#include "checker/filter_classification.h"
#include "checker/partition_match.h"
#include "checker/skipping_builder.h"
#include "checker/stats_eligibility.h"

namespace skipsound {

std::vector<CandidateFile> candidate_files(const std::vector<TableFile>& files,
                                           const Schema& schema) {
  std::vector<CandidateFile> candidates;
  candidates.reserve(files.size());
  for (const TableFile& file : files) {
    candidates.push_back(CandidateFile{file.path, file.stats ? &*file.stats : nullptr,
                                       partition_row(file.partition_values, schema),
                                       static_cast<int64_t>(file.deleted.size()),
                                       file.rows.get(), &file.deleted, file.data_change});
  }
  return candidates;
}

std::vector<size_t> ProductionScanPlanner::files_to_read(const Table& snapshot,
                                                         const ExprPtr& condition) const {
  // filter_scan's verdicts without its explanation text: every scan of every operation runs this.
  const StatsEligibility eligibility(snapshot.schema(), snapshot.properties().stats);
  const ClassifiedFilters filters = classify_filters(condition, eligibility);
  const std::optional<SkippingPredicate> skipping = build_conjunction(filters.read.data_filters, eligibility);
  const std::vector<CandidateFile> files = candidate_files(snapshot.files(), snapshot.schema());
  std::vector<size_t> read;
  for (size_t i = 0; i < files.size(); ++i) {
    if (match_partition(filters.read.partition_filters, files[i].partition_values) == PartitionMatch::NoMatch) continue;
    const FileView view{files[i].stats, files[i].dv_cardinality};
    if (!skipping || decide_verdict(*skipping, view, eligibility.schema()) == FileVerdict::Keep) read.push_back(i);
  }
  return read;
}

}  // namespace skipsound
