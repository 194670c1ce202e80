#include "proofs/scenario/commit_sequence.h"

#include <optional>

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

CommitDriver::CommitDriver(Table initial, ConflictCheckOptions options, LogReplay log)
    : options_(options), first_version_(initial.version()) {
  if (log != LogReplay::Off) log_.emplace(initial, log);
  run_.versions.push_back(std::move(initial));
}

int64_t CommitDriver::latest_version() const {
  return first_version_ + static_cast<int64_t>(run_.versions.size()) - 1;
}

const Table& CommitDriver::at_version(int64_t version) const {
  if (version < first_version_ || version > latest_version()) {
    throw InputError("the table has no version " + std::to_string(version) + " (it has " +
                     std::to_string(first_version_) + " to " + std::to_string(latest_version()) + ")");
  }
  return run_.versions[static_cast<size_t>(version - first_version_)];
}

const CommitAttempt& CommitDriver::commit(size_t index, const std::vector<Transaction>& transactions) {
  Transaction loser = transactions[index];
  const Table& snapshot = at_version(loser.snapshot_version);
  std::vector<size_t> winners(committed_.begin() + static_cast<std::ptrdiff_t>(loser.snapshot_version - first_version_),
                              committed_.end());
  CommitAttempt attempt{index, winners, run_.versions.back(), Committed{}, {}};
  std::optional<Aborted> abort;
  for (size_t winner : winners) {
    ConflictCheck check = check_conflict(loser, snapshot, run_.logged_actions.at(winner), options_);
    if (auto* conflict = std::get_if<Conflict>(&check.outcome)) {
      abort = Aborted{*conflict, winner};
      attempt.checks.push_back({std::string(exception_name(conflict->kind)) + ": " + conflict->reason,
                                std::move(check.append), std::move(check.reconciled_paths),
                                std::move(check.case2_refusal)});
      break;
    }
    if (check.rebased_commit) loser.commit = std::move(*check.rebased_commit);
    if (check.rebased_reads) loser.reads = std::move(*check.rebased_reads);
    attempt.checks.push_back({std::get<NoConflict>(check.outcome).note, std::move(check.append),
                              std::move(check.reconciled_paths), std::move(check.case2_refusal)});
  }
  if (abort) {
    attempt.result = *abort;
  } else {
    Table next = run_.versions.back();
    apply_commit(next, loser.commit);
    run_.versions.push_back(std::move(next));
    attempt.result = Committed{latest_version()};
    committed_.push_back(index);
    run_.logged_actions[index] = log_ ? log_->log(loser.commit, run_.versions.back()) : std::move(loser.commit);
  }
  run_.attempts.push_back(std::move(attempt));
  return run_.attempts.back();
}

ScheduleRun CommitDriver::finish() && {
  if (log_) run_.log_problems = log_->problems();
  return std::move(run_);
}

ScheduleRun run_schedule(const Table& snapshot, const std::vector<Transaction>& transactions,
                         const std::vector<size_t>& commit_order,
                         const ConflictCheckOptions& options) {
  validate_order(transactions.size(), commit_order);
  CommitDriver driver(snapshot, options);
  for (size_t index : commit_order) driver.commit(index, transactions);
  return std::move(driver).finish();
}

}  // namespace skipsound
