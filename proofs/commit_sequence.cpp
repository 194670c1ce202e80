#include "proofs/commit_sequence.h"

#include "model/values/input_error.h"

namespace skipsound {

namespace {

void validate_order(size_t transactions, const std::vector<size_t>& order) {
  std::vector<bool> seen(transactions, false);
  for (size_t index : order) {
    if (index >= transactions) throw InputError("the commit order names an unknown transaction");
    if (seen[index]) throw InputError("the commit order names a transaction twice");
    seen[index] = true;
  }
}

}  // namespace

ScheduleRun run_schedule(const Table& snapshot, const std::vector<Transaction>& transactions,
                         const std::vector<size_t>& commit_order,
                         const ConflictCheckOptions& options) {
  validate_order(transactions.size(), commit_order);
  ScheduleRun run{{}, snapshot, std::vector<Commit>(transactions.size())};
  std::vector<size_t> committed;  // in version order
  run.attempts.reserve(commit_order.size());
  for (size_t index : commit_order) {
    Transaction loser = transactions[index];
    CommitAttempt attempt{index, committed, run.final_state, Committed{}, {}};
    std::optional<Aborted> abort;
    for (size_t winner : committed) {
      ConflictCheck check = check_conflict(loser, snapshot, run.logged_actions[winner], options);
      if (auto* conflict = std::get_if<Conflict>(&check.outcome)) {
        abort = Aborted{*conflict, winner};
        attempt.checks.push_back({std::string(exception_name(conflict->kind)) + ": " + conflict->reason,
                                  std::move(check.append), std::move(check.reconciled_paths)});
        break;
      }
      if (check.rebased_commit) loser.commit = std::move(*check.rebased_commit);
      if (check.rebased_reads) loser.reads = std::move(*check.rebased_reads);
      attempt.checks.push_back({std::get<NoConflict>(check.outcome).note, std::move(check.append),
                                std::move(check.reconciled_paths)});
    }
    if (abort) {
      attempt.result = *abort;
    } else {
      apply_commit(run.final_state, loser.commit);
      attempt.result = Committed{run.final_state.version()};
      committed.push_back(index);
      run.logged_actions[index] = std::move(loser.commit);
    }
    run.attempts.push_back(std::move(attempt));
  }
  return run;
}

}  // namespace skipsound
