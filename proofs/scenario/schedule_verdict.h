// The serial-order oracle's verdicts on a run of the commit driver: the run's attempts handed to
// the oracle without any checker type (proofs/oracles/serial_oracle.h stays independent of checker/),
// and each verdict paired with the exception the checker aborted with.
#pragma once
#include <optional>
#include <vector>

#include "checker/conflict_checker.h"
#include "proofs/scenario/commit_sequence.h"
#include "proofs/oracles/serial_oracle.h"

namespace skipsound {

struct TransactionVerdict : SerialVerdict {
  std::optional<ConflictKind> exception;  // set for Abort and FalseConflict
};

// One verdict per commit attempt, in commit order.
std::vector<TransactionVerdict> judge_schedule(const std::vector<Transaction>& transactions,
                                               const ScheduleRun& run);

}  // namespace skipsound
