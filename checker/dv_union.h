// Case 2 (docs/semantics.md §10.2: Delta's proposal plus two guards): when a winner and the loser
// both changed the deletion vector of the same file P from the same base, the loser's actions are
// rebased onto the winner's instead of aborting. All-or-nothing per winner: every shared path
// must reconcile, or nothing is rewritten and the file-level checks judge the unchanged actions.
#pragma once
#include <string>
#include <vector>

#include "model/table/commit.h"
#include "model/table/transaction.h"

namespace skipsound {

struct DvReconciliation {
  std::vector<std::string> reconciled_paths;  // empty: nothing rewritten (no shared path, or one failed)
  std::string note;                           // one line: what was reconciled, or which path failed and why
  Commit loser_commit;                        // the loser's actions, rewritten (= the input when nothing was)
  ReadSet loser_reads;                        // the reconciled paths left its read files
  Commit winner_view;                         // the winner without the reconciled paths' add and remove
};

// The loser is row-local (§10.2(c)): no whole-table read, and its only read is the deterministic
// condition of its own DELETE or UPDATE. (A MERGE is neither, so it never is.)
bool is_row_local(const Transaction& loser);

DvReconciliation reconcile_deletion_vectors(const Transaction& loser, const Commit& winner);

}  // namespace skipsound
