// The serial-order oracle (SPEC §6): each loser's committed outcome — its actions, computed on its
// snapshot, applied after the winners' — must equal an allowed serial execution: re-running it
// after them, or (WriteSerializable, blind-append winners) running those winners after it, or
// (a commit Delta drops to SnapshotIsolation: empty or dataChange-free) running every winner
// after it.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "checker/conflict_checker.h"
#include "model/operations.h"
#include "proofs/commit_sequence.h"

namespace skipsound {

enum class VerdictKind {
  SerializableCommit,  // committed, and a serial order explains the outcome
  MissedConflict,      // committed, and no allowed serial order explains it (a soundness bug)
  Abort,               // aborted, and committing would not have been serializable
  FalseConflict,       // aborted, although committing would have been serializable
};
const char* verdict_kind_name(VerdictKind kind);  // "commit", "missed-conflict", ...
std::optional<VerdictKind> verdict_kind_from_name(std::string_view name);

// Live rows as a sorted multiset, so that equal tables compare equal.
std::vector<Row> canonical_rows(std::vector<Row> rows);
bool row_less(const Row& a, const Row& b);

struct SerialOutcome {
  std::string order;      // "T1 -> T2"
  std::vector<Row> rows;  // canonical
};

struct RowDiff {
  std::vector<Row> only_in_outcome;  // rows the commit left that the serial order does not have
  std::vector<Row> only_in_serial;   // rows the serial order has that the commit lacks
  bool empty() const { return only_in_outcome.empty() && only_in_serial.empty(); }
};

struct TransactionVerdict {
  size_t transaction = 0;
  VerdictKind kind = VerdictKind::SerializableCommit;
  std::optional<ConflictKind> exception;  // set for Abort and FalseConflict
  std::vector<Row> outcome;               // canonical live rows after its actions (if committed)
  std::vector<SerialOutcome> allowed;     // the serial orders it was compared with
  RowDiff diff;                           // against the first allowed order when none matched
};

// One verdict per commit attempt, in commit order. `planner` re-runs the operations.
std::vector<TransactionVerdict> judge_schedule(const Table& snapshot,
                                               const std::vector<Transaction>& transactions,
                                               const ScheduleRun& run, const ScanPlanner& planner);

}  // namespace skipsound
