// The serial-order oracle (docs/semantics.md §6.3): each committed transaction's outcome — its actions, computed
// on its snapshot, applied after the winners' — must equal an allowed serial execution:
// re-running it after them, or (WriteSerializable, blind-append winners) running those winners,
// and the winners that read or removed their files, after it, or (a commit Delta drops to SnapshotIsolation: empty or dataChange-free) running
// every winner after it. Its actions must also be what its operations give on its own snapshot.
// An aborted transaction is a false conflict when its actions rebased onto the winners' state
// (docs/semantics.md §10.8: a path both changed with DVs gets the union, its remove the winners' DV) would
// have matched an allowed order.
//
// Independence (docs/semantics.md §6.5): this oracle shares no code with the code under test (checker/). Every
// re-run reads every row of every live file with the model's evaluator, and which serial orders
// an isolation level allows is derived here from docs/semantics.md §7.2, not asked of the checker. The attempts
// it judges carry no checker type; proofs/scenario/schedule_verdict.h adapts the commit driver's run.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/table/table.h"
#include "model/table/transaction.h"

namespace skipsound {

enum class VerdictKind {
  SerializableCommit,  // committed, and a serial order explains the outcome
  WrongResult,         // committed actions differ from its operations run on its own snapshot
  MissedConflict,      // committed, and no allowed serial order explains it (a soundness bug)
  Abort,               // aborted, and committing would not have been serializable
  FalseConflict,       // aborted, although committing would have been serializable
};
const char* verdict_kind_name(VerdictKind kind);  // "commit", "wrong-result", ...
std::optional<VerdictKind> verdict_kind_from_name(std::string_view name);
// A soundness bug: a commit whose effect no correct, serial execution gives.
bool is_unsound(VerdictKind kind);

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

// One commit attempt as the oracle sees it: who committed before it, and whether it committed.
struct OracleAttempt {
  size_t transaction = 0;       // index into the transactions
  Table snapshot;               // the table it started from
  std::vector<size_t> winners;  // transactions committed since its snapshot, in version order
  Table state_before;           // the table when it tried to commit
  bool committed = false;
  // The actions that went into the log when they differ from the transaction's own (a Case 2
  // reconciliation, docs/semantics.md §10.2): judged exactly like a commit of the transaction's actions.
  std::optional<Commit> committed_actions = {};
};

// docs/semantics.md §6.4, §10.6: a missed conflict whose state some serial order of the same transactions gives,
// only not one the isolation level allows, is `history-order`; one no order gives is `cycle`.
enum class MissedConflictLabel { None, HistoryOrder, Cycle };
const char* missed_conflict_label_name(MissedConflictLabel label);  // "history-order", "cycle", ""

struct SerialVerdict {
  size_t transaction = 0;
  VerdictKind kind = VerdictKind::SerializableCommit;
  // Canonical live rows after its actions: on state_before, or, for a wrong result, on its own
  // snapshot (what it committed, next to what its operations give there).
  std::vector<Row> outcome;
  std::vector<SerialOutcome> allowed;  // the executions it was compared with
  RowDiff diff;                        // against the first of them when none matched
  MissedConflictLabel label = MissedConflictLabel::None;  // set for MissedConflict
  std::string matching_order;  // for history-order: an order (not allowed) that gives the outcome
};

// One verdict per attempt, in the order given.
std::vector<SerialVerdict> judge_attempts(const std::vector<Transaction>& transactions,
                                          const std::vector<OracleAttempt>& attempts);

}  // namespace skipsound
