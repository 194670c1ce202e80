// The production scan planner: an operation reads the files checker/scan_filter.h keeps
// (partition filters exactly, data filters by stats), as Delta's scans do.
#pragma once
#include "checker/candidate_file.h"
#include "model/table/operations.h"

namespace skipsound {

// Files as the filters see them; the `stats` pointers point into `files`, which must outlive them.
std::vector<CandidateFile> candidate_files(const std::vector<TableFile>& files, const Schema& schema);

class ProductionScanPlanner final : public ScanPlanner {
 public:
  std::vector<size_t> files_to_read(const Table& snapshot, const ExprPtr& condition) const override;
};

}  // namespace skipsound
