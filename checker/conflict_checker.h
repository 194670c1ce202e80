// The conflict checker (docs/semantics.md §7, Delta's order): a loser is checked against one winning commit
// at a time; the first failing check aborts it with Delta's exception.
#pragma once
#include <optional>
#include <string>
#include <variant>

#include "checker/conflict_filter.h"
#include "model/table/commit.h"
#include "model/mutants/mutant.h"
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

struct ConflictCheckOptions {
  bool conflict_data_skipping = true;  // the seeds' flag; off = partition-only append check
  Mutant mutant = Mutant::None;
};

// Delta's isolation for a commit: the table's level, or SnapshotIsolation when every action is a
// file action without dataChange (and, under WriteSerializable, the operation changes no data);
// an empty commit drops too.
// Under snapshot-ignores-datachange (docs/semantics.md §8) the dataChange condition is dropped.
IsolationLevel isolation_to_use(const Commit& commit, IsolationLevel table_level, Mutant mutant = Mutant::None);

// What the append check looked at: the winner's added files and the conflict filter's verdict on
// each, so that every exclusion can be put to an oracle without re-running the filter.
struct AppendCheck {
  std::vector<CandidateFile> added;
  ConflictFilterResult filtered;  // files[i] judges added[i]
};

struct ConflictCheck {
  ConflictOutcome outcome;
  std::optional<AppendCheck> append;  // set when the append check ran the conflict filter
};

// Checks `loser` (which started at `loser_snapshot`) against one `winner` committed since.
ConflictCheck check_conflict(const Transaction& loser, const Table& loser_snapshot,
                               const Commit& winner, const ConflictCheckOptions& options = {});

}  // namespace skipsound
