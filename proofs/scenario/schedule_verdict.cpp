#include "proofs/scenario/schedule_verdict.h"

namespace skipsound {

std::vector<TransactionVerdict> judge_schedule(const std::vector<Transaction>& transactions,
                                               const ScheduleRun& run) {
  std::vector<OracleAttempt> attempts;
  attempts.reserve(run.attempts.size());
  for (const CommitAttempt& a : run.attempts) {
    const bool committed = std::holds_alternative<Committed>(a.result);
    attempts.push_back({a.transaction, run.at_version(transactions[a.transaction].snapshot_version), a.winners,
                        a.state_before, committed,
                        committed ? std::optional<Commit>(run.logged_actions.at(a.transaction)) : std::nullopt});
  }
  std::vector<SerialVerdict> judged = judge_attempts(transactions, attempts);
  std::vector<TransactionVerdict> verdicts;
  verdicts.reserve(judged.size());
  for (size_t i = 0; i < judged.size(); ++i) {
    TransactionVerdict verdict{std::move(judged[i]), std::nullopt};
    if (const auto* aborted = std::get_if<Aborted>(&run.attempts[i].result)) verdict.exception = aborted->conflict.kind;
    verdicts.push_back(std::move(verdict));
  }
  return verdicts;
}

}  // namespace skipsound
