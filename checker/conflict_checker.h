// The conflict checker (docs/semantics.md §7.1, Delta's order): a loser is checked against one winning commit
// at a time; the first failing check aborts it with Delta's exception.
#pragma once
#include <optional>
#include <string>
#include <variant>

#include "checker/conflict_filter.h"
#include "checker/dv_union.h"
#include "model/table/commit.h"
#include "model/table/table.h"
#include "model/table/transaction.h"

namespace skipsound {

enum class ConflictKind {
  ProtocolChanged,         // ProtocolChangedException
  MetadataChanged,         // MetadataChangedException
  ConcurrentTransaction,   // ConcurrentTransactionException (domain metadata, app txn)
  ConcurrentAppend,        // ConcurrentAppendException
  ConcurrentDeleteRead,    // ConcurrentDeleteReadException
  ConcurrentDeleteDelete,  // ConcurrentDeleteDeleteException
};
const char* exception_name(ConflictKind kind);  // "ConcurrentAppendException", ...
std::optional<ConflictKind> conflict_kind_from_exception_name(std::string_view name);

struct Conflict {
  ConflictKind kind = ConflictKind::ConcurrentAppend;
  std::string reason;  // one line: the path or action that conflicts
  std::string file;    // the path the exception names (append, delete checks); empty otherwise
};

struct NoConflict {
  std::string note;  // e.g. how the append check decided
};

using ConflictOutcome = std::variant<NoConflict, Conflict>;

// docs/semantics.md §10 "Flags" (Delta's names in the comments); off = the behaviour before each tier.
struct ConflictCheckOptions {
  bool conflict_data_skipping = true;  // the seeds' flag; off = partition-only append check
  bool value_exact = true;              // conflictDetection.dataSkipping.valueExact.enabled (§10.1)
  bool row_level_concurrency = true;    // rowLevelConcurrency.enabled: Case 2 DV union (§10.2)
  bool removed_rows = false;            // conflictDetection.removedRows.enabled: Case 1b (§10.3)
  bool exclude_no_data_change = false;  // conflictDetection.excludeNoDataChangeFiles.enabled: Case 3 (§10.4)
};

// Delta's isolation for a commit: the table's level, or SnapshotIsolation when every action is a
// file action without dataChange (and, under WriteSerializable, the operation changes no data);
// an empty commit drops too.
// Under snapshot-ignores-datachange (docs/semantics.md §8) the dataChange condition is dropped.
IsolationLevel isolation_to_use(const Commit& commit, IsolationLevel table_level);

// What the append check looked at: the winner's added files and the conflict filter's verdict on
// each, so that every exclusion can be put to an oracle without re-running the filter.
struct AppendCheck {
  std::vector<CandidateFile> added;
  ConflictFilterResult filtered;  // files[i] judges added[i]
};

struct ConflictCheck {
  ConflictOutcome outcome;
  std::optional<AppendCheck> append;  // set when the append check ran the conflict filter
  // Case 2 (docs/semantics.md §10.2): the paths reconciled with this winner and the loser's actions and reads
  // after the rewrite; the next winner is checked against them, and they are what commits.
  std::vector<std::string> reconciled_paths = {};
  std::optional<Commit> rebased_commit = {};
  std::optional<ReadSet> rebased_reads = {};
  std::optional<Case2Refusal> case2_refusal = {};  // a path was shared and Case 2 rewrote nothing
  std::vector<std::string> tier_notes = {};  // one line per §10.1–§10.4 tier that decided something
};

// Checks `loser` (which started at `loser_snapshot`) against one `winner` committed since, in
// Delta's phase order (docs/semantics.md §10 "Order"): protocol, metadata, domain metadata, app txn,
// Case 2, append check, delete/read, delete/delete. With several winners, pass the loser as the
// previous check rebased it.
ConflictCheck check_conflict(const Transaction& loser, const Table& loser_snapshot,
                               const Commit& winner, const ConflictCheckOptions& options = {});

}  // namespace skipsound
