// The table operations a transaction runs (docs/semantics.md §7 "Operations"): each scans its snapshot as
// Delta does, records what it read, and produces the actions it would commit.
#pragma once
#include <string>
#include <vector>

#include "model/table/commit.h"
#include "model/sql/expr.h"
#include "model/mutants/mutant.h"
#include "model/table/table.h"

namespace skipsound {

enum class OperationKind {
  Insert,    // blind append of new rows
  InsertSelect,  // INSERT INTO t SELECT <assignments applied> FROM t WHERE c: appends images of the rows it reads
  Select,    // a read only: records its scan, commits nothing
  Delete,
  Update,
  Merge,     // upsert on a key column: matched target rows are replaced, others inserted
  Optimize,  // compaction or clustering, dataChange=false
  Restore,   // back to an earlier version's files (docs/semantics.md §10.8): DVs may shrink
};
const char* operation_kind_name(OperationKind kind);  // "INSERT", "SELECT", ...

enum class OptimizeMode { Compaction, Clustering };

struct Assignment {
  int leaf = -1;  // the assigned column
  ExprPtr value;  // bound against the table's schema, evaluated on the old row
};

struct Operation {
  OperationKind kind = OperationKind::Insert;
  std::string text;                     // as written, for reports
  ExprPtr condition;                    // SELECT/DELETE/UPDATE WHERE, bound; nullptr = none
  std::vector<Assignment> assignments;  // UPDATE SET, INSERT SELECT's projection (unassigned columns copied)
  std::vector<Row> rows;                // INSERT rows, MERGE source rows
  int key_leaf = -1;                    // MERGE key, OPTIMIZE clustering key
  OptimizeMode optimize_mode = OptimizeMode::Compaction;
  int rows_per_file = 0;                // clustering output file size; 0 = one file
  std::vector<TableFile> restore_to;    // RESTORE: the earlier version's live files, (path, DV) each
};

// Decides which files a scan reads. The production planner (checker/scan_planner.h) applies
// partition filters and scan-time data skipping; the model only needs the answer.
class ScanPlanner {
 public:
  virtual ~ScanPlanner() = default;
  // Indexes into snapshot.files() of the files a scan with this condition (nullptr = none) reads.
  virtual std::vector<size_t> files_to_read(const Table& snapshot,
                                            const ExprPtr& condition) const = 0;
};

// Reads every live file whatever the condition: no partition pruning, no data skipping. The
// serial-order oracle's ground truth (docs/semantics.md §6 "Independence"): the operation then sees every row
// and the model's evaluator alone decides which rows match.
class EveryFilePlanner final : public ScanPlanner {
 public:
  std::vector<size_t> files_to_read(const Table& snapshot, const ExprPtr& condition) const override;
};

// How a transaction writes, beyond the operation itself.
struct WriterSettings {
  std::string path_prefix;  // unique per transaction: new files are <prefix>-<n>
  StatsPresence stats = StatsPresence::Collected;
  bool reads_whole_table = false;     // records a whole-table read besides the scans
  bool force_not_blind = false;       // commit info says isBlindAppend=false whatever happened
  Mutant writer_mutant = Mutant::None;  // a writer-side mutant (string-max-plain-prefix) its stats take
};

struct OperationResult {
  ReadSet reads;
  Commit commit;
};

// Runs the operations of one transaction on its snapshot, in order, each scanning the snapshot.
// At most one of them may write (throws InputError otherwise). Throws InputError when a
// condition or assignment cannot be evaluated on a row, or a MERGE source repeats a key.
OperationResult execute(const Table& snapshot, const std::vector<Operation>& operations,
                        const ScanPlanner& planner, const WriterSettings& settings);

// Applies a commit's file actions to a table (the model's log replay).
void apply_commit(Table& table, const Commit& commit);

}  // namespace skipsound
