// What a transaction read and what it commits (docs/semantics.md §7.4): the inputs of the conflict checker.
#pragma once
#include <set>
#include <string>
#include <vector>

#include "model/log/actions.h"
#include "model/sql/expr.h"
#include "model/table/table.h"

namespace skipsound {

// Delta records each scan's condition split into a partition part and a data part; the split is
// a function of the condition and the table (checker/filter_classification.h), so the model keeps
// the bound condition itself and the checker classifies it.
struct ReadSet {
  std::vector<ExprPtr> predicates;        // one entry per scan; nullptr = no condition (TRUE)
  std::vector<std::string> files;         // paths read, after scan-time skipping
  bool whole_table = false;
  std::set<std::string> app_ids;          // txn app ids the transaction read

  bool empty() const { return predicates.empty() && files.empty() && !whole_table; }
};

// The actions a transaction commits. File actions keep the model's rows; the other actions
// (metadata, protocol, txn, domain metadata) are Delta's own.
struct Commit {
  std::vector<FileRemoval> removes;
  std::vector<TableFile> adds;
  std::vector<Action> other_actions;
  CommitInfo info;              // operation name and isBlindAppend
  bool changes_data = true;     // Delta's Operation.changesData (false for OPTIMIZE)

  // Blind only when the commit info says so; unknown counts as not blind (docs/semantics.md §7.2).
  bool is_blind_append() const { return info.is_blind_append.value_or(false); }
  bool has_metadata() const;
  bool has_protocol() const;
  // The Delta log text of this commit, one action per line (commitInfo first).
  std::vector<Action> to_actions(const Schema& schema) const;
};

}  // namespace skipsound
