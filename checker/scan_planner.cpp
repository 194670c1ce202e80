#include "checker/scan_planner.h"

#include "checker/scan_filter.h"
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
  const StatsEligibility eligibility(snapshot.schema(), snapshot.properties().stats);
  const ScanResult scan = filter_scan(condition, candidate_files(snapshot.files(), snapshot.schema()),
                                      eligibility, mutant_);
  std::vector<size_t> read;
  for (size_t i = 0; i < scan.files.size(); ++i) {
    if (scan.files[i].verdict == FileVerdict::Keep) read.push_back(i);
  }
  return read;
}

}  // namespace skipsound
