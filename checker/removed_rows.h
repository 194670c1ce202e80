// Case 1b (docs/semantics.md §10.3, the removed side of Delta's row-level-concurrency umbrella 7360): a file
// the winner removed and the loser only read conflicts only when a row the winner removed from it
// matches one of the loser's reads, judged on the row's values before the winner changed it.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "model/table/commit.h"
#include "model/table/table.h"
#include "model/table/transaction.h"

namespace skipsound {

enum class RemovedRowsVerdict { NoMatch, Match };

struct RemovedRowsResult {
  RemovedRowsVerdict verdict = RemovedRowsVerdict::Match;
  std::string reason;  // one line
};

// `removal` is one of the winner's removes, of a path the loser read and did not write; `snapshot`
// is the loser's, which holds the file's physical rows. The loser's whole-table read is the
// caller's (it conflicts as today).
RemovedRowsResult judge_removed_rows(const Transaction& loser, const Table& snapshot, const Commit& winner,
                                     const FileRemoval& removal);

}  // namespace skipsound
