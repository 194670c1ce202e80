// A transaction: the snapshot it started from, the operations it ran there, and what it read
// and would commit (docs/semantics.md §6.3, §7.3).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "model/table/commit.h"
#include "model/table/operations.h"
#include "model/table/table.h"

namespace skipsound {

struct Transaction {
  std::string name;  // "T1", shown in reports
  int64_t snapshot_version = 0;
  std::vector<Operation> operations;
  WriterSettings settings;
  ReadSet reads;
  Commit commit;

  // "DELETE WHERE x > 10; SELECT WHERE id < 5": the operations as written.
  std::string describe() const;
};

// Runs the operations on `snapshot` and records the reads and the commit.
Transaction run_transaction(std::string name, const Table& snapshot,
                            std::vector<Operation> operations, WriterSettings settings,
                            const ScanPlanner& planner);

// The same operations re-run on another state (the serial order the oracle compares with).
OperationResult rerun(const Transaction& txn, const Table& state, const ScanPlanner& planner);

}  // namespace skipsound
