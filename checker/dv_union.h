// Case 2 (docs/semantics.md §10.2: Delta's proposal plus two guards): when a winner and the loser
// both changed the deletion vector of the same file P from the same base, the loser's actions are
// rebased onto the winner's instead of aborting. All-or-nothing per winner: every shared path
// must reconcile, or nothing is rewritten and the file-level checks judge the unchanged actions.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "model/table/commit.h"
#include "model/table/transaction.h"

namespace skipsound {

// §10.2's conditions, by their letters there.
enum class Case2Condition {
  SameBase,       // (a) the winner's remove names the loser's base DV
  Disjoint,       // (b) no position newly deleted by both
  RowLocalLoser,  // (c) the loser decides each row from that row alone
  MonotoneDvs,    // (d) neither DV lost a position of the base
  AllOrNothing,   // (e) another shared path of the winner failed, so this one is not rewritten
};
const char* case2_condition_name(Case2Condition condition);    // "disjoint", for JSON
const char* case2_condition_letter(Case2Condition condition);  // "b"

// Why Case 2 rewrote nothing against a winner that shares paths with the loser: the first
// condition that failed, on which path, and the shared paths that passed (a), (b) and (d) but
// are held back by (e).
struct Case2Refusal {
  Case2Condition condition = Case2Condition::SameBase;
  std::string path;                    // empty for (c), which is the loser's, not a path's
  std::vector<std::string> held_back;  // refused by (e) only
};
// "f0-0 fails (b) disjoint: both deleted the same new position; held back by (e): f1-0".
std::string case2_refusal_text(const Case2Refusal& refusal);

struct DvReconciliation {
  std::vector<std::string> reconciled_paths;  // empty: nothing rewritten (no shared path, or one failed)
  std::optional<Case2Refusal> refusal;        // set when a path was shared and nothing was rewritten
  std::string note;                           // one line: what was reconciled, or the refusal's text
  Commit loser_commit;                        // the loser's actions, rewritten (= the input when nothing was)
  ReadSet loser_reads;                        // the reconciled paths left its read files
  Commit winner_view;                         // the winner without the reconciled paths' add and remove
};

// The loser is row-local (§10.2(c)): no whole-table read, and its only read is the deterministic
// condition of its own DELETE or UPDATE, or of a MERGE with WHEN MATCHED clauses only.
bool is_row_local(const Transaction& loser);

DvReconciliation reconcile_deletion_vectors(const Transaction& loser, const Commit& winner);

}  // namespace skipsound
