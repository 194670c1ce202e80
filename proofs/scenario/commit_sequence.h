// The commit driver (docs/semantics.md §6.3): transactions, each started from some version of the
// table, try to commit in a given order; each is checked against every commit since its
// snapshot, in version order, and either commits (the table advances) or aborts with the first
// conflict. A check that reconciles (Case 2, docs/semantics.md §10.2) rebases the loser: the next
// winner is checked against the rebased actions, and they are what commits and what later
// transactions see as that winner's commit.
#pragma once
#include <map>
#include <optional>
#include <vector>

#include "checker/conflict_checker.h"
#include "proofs/scenario/log_mirror.h"
#include "model/table/table.h"
#include "model/table/transaction.h"

namespace skipsound {

struct Committed {
  int64_t version = 0;
};

struct Aborted {
  Conflict conflict;
  size_t winner = 0;  // index (into the transactions) of the commit it conflicted with
};

using CommitResult = std::variant<Committed, Aborted>;

// How the check against one winner decided.
struct WinnerCheck {
  std::string line;                   // one line: the exception and its reason, or how it passed
  std::optional<AppendCheck> append;  // the conflict filter's verdicts, when it ran
  std::vector<std::string> reconciled_paths = {};  // Case 2 (docs/semantics.md §10.2) against this winner
  std::optional<Case2Refusal> case2_refusal = {};  // why Case 2 rewrote none of the paths both changed
};

// One commit attempt, in commit order.
struct CommitAttempt {
  size_t transaction = 0;       // index into the transactions
  std::vector<size_t> winners;  // transactions committed since its snapshot, in version order
  Table state_before;           // the table when it tried to commit
  CommitResult result;
  std::vector<WinnerCheck> checks;  // one per winner checked, in version order
};

struct ScheduleRun {
  std::vector<CommitAttempt> attempts;  // in commit order
  std::vector<Table> versions;          // the table at each version from the initial one's on
  // By transaction index: what it put into the log, its own actions or as Case 2 rebased them
  // (docs/semantics.md §10.2); absent for one that aborted or has not committed. The append
  // checks' candidate files point here (a map: its entries never move).
  std::map<size_t, Commit> logged_actions;
  // With a replayed log (CommitDriver's `log`): how the replay differed from the model.
  std::vector<std::string> log_problems;

  const Table& final_state() const { return versions.back(); }
  const Table& at_version(int64_t version) const {
    return versions.at(static_cast<size_t>(version - versions.front().version()));
  }
};

// Commits one transaction at a time. A transaction is run (run_transaction) on
// at_version(its snapshot_version) before it commits.
class CommitDriver {
 public:
  // log: unless Off, every commit is written as Delta log text and the log replayed, from memory
  // or from a table directory (proofs/scenario/log_mirror.h); the winners the checker sees carry the
  // replayed stats, and differences go to log_problems.
  CommitDriver(Table initial, ConflictCheckOptions options, LogReplay log = LogReplay::Off);

  // Throws InputError when the table has not reached version v.
  const Table& at_version(int64_t version) const;
  int64_t latest_version() const;
  // Checks transactions[index] against every commit after its snapshot and commits it or not.
  const CommitAttempt& commit(size_t index, const std::vector<Transaction>& transactions);
  ScheduleRun finish() &&;

 private:
  ScheduleRun run_;
  ConflictCheckOptions options_;
  std::optional<LogMirror> log_;
  int64_t first_version_ = 0;  // the initial table's
  std::vector<size_t> committed_;  // transaction indexes, in version order: committed_[v - 1] made v
};

// `transactions` all started at `snapshot`; `commit_order` lists each index once.
// Throws InputError for a malformed order.
ScheduleRun run_schedule(const Table& snapshot, const std::vector<Transaction>& transactions,
                         const std::vector<size_t>& commit_order,
                         const ConflictCheckOptions& options = {});

}  // namespace skipsound
