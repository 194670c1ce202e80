// The table operations a transaction runs (docs/semantics.md §7.3): each scans its snapshot as
// Delta does, records what it read, and produces the actions it would commit.
#pragma once
#include <string>
#include <vector>

#include "model/table/commit.h"
#include "model/sql/expr.h"
#include "model/table/table.h"

namespace skipsound {

enum class OperationKind {
  Insert,    // blind append of new rows
  InsertSelect,  // INSERT INTO t SELECT <assignments applied> FROM t WHERE c: appends images of the rows it reads
  Select,    // a read only: records its scan, commits nothing
  Delete,
  Update,
  Merge,     // MERGE INTO the table USING source rows ON a condition, with WHEN clauses
  Optimize,  // compaction or clustering, dataChange=false
  Restore,   // back to an earlier version's files (docs/semantics.md §10.8): DVs may shrink
  Alter,     // ALTER TABLE: properties, added columns, protocol features (docs/semantics.md §7.3)
  // Explicit actions, as Delta's own tests hand-build them; any number besides one of the above.
  AddFile,     // add one named file with the given rows (possibly none), stats or not
  RemoveFile,  // remove one named file, without reading it
  SetTxn,      // read an app id's transaction version and commit txn(app id, version)
  SetDomain,   // commit domainMetadata(domain, configuration)
};
const char* operation_kind_name(OperationKind kind);  // "INSERT", "SELECT", ...

enum class OptimizeMode { Compaction, Clustering };

// What an ALTER TABLE changes. Property keys and values as Delta writes them; `delta.feature.<f>`
// = supported adds a protocol feature, `delta.minReaderVersion`/`delta.minWriterVersion` raise
// the protocol, `delta.enableDeletionVectors` = true also adds the deletionVectors feature.
struct TableChange {
  std::vector<std::pair<std::string, std::string>> properties;  // SET TBLPROPERTIES
  std::vector<StructField> added_columns;                        // ADD COLUMNS, at the end
  std::vector<std::string> dropped_features;                     // DROP FEATURE
};

struct Assignment {
  int leaf = -1;  // the assigned column
  ExprPtr value;  // bound against the table's schema, evaluated on the old row
};

// MERGE's expressions are bound against merge_schema(table): the target's columns under `t`,
// the source's under `s` (the source rows have the table's columns), so that a joined row is
// the target row followed by the source row, and `t.<column>` has the table's leaf ordinal.
Schema merge_schema(const Schema& table);

enum class MergeAction {
  Update,  // WHEN MATCHED THEN UPDATE SET t.c = <expr>, ... (or SET *: every column from s)
  Delete,  // WHEN MATCHED THEN DELETE
  Insert,  // WHEN NOT MATCHED THEN INSERT * or INSERT (c, ...) VALUES (<expr>, ...)
};

struct MergeClause {
  MergeAction action = MergeAction::Update;
  ExprPtr condition;                    // the clause's AND condition, bound jointly; nullptr = none
  std::vector<Assignment> assignments;  // Update/Insert: table leaf <- joint expression
};

struct MergeSpec {
  ExprPtr on;                              // bound against merge_schema
  std::vector<MergeClause> matched;        // tried in order; the first whose condition holds acts
  std::vector<MergeClause> not_matched;    // likewise for source rows no target row matched
  bool matched_only() const { return !matched.empty() && not_matched.empty(); }
  bool insert_only() const { return matched.empty() && !not_matched.empty(); }
};

// The upsert `ON t.k = s.k WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *`.
MergeSpec upsert_on_key(const Schema& table, int key_leaf);

// The read predicate a MERGE records, as Delta's MergeIntoCommandBase.getTargetOnlyPredicates
// builds it (docs/semantics.md §7.3): the conjuncts of ON over target columns only and, when the
// MERGE has only MATCHED clauses, the OR over those clauses of their own target-only conjuncts
// (TRUE for a clause without one). nullptr when nothing is recorded: every winner file is kept.
ExprPtr merge_target_read(const MergeSpec& merge, const Schema& table);

struct Operation {
  OperationKind kind = OperationKind::Insert;
  std::string text;                     // as written, for reports
  ExprPtr condition;                    // SELECT/DELETE/UPDATE WHERE, bound; nullptr = none
  std::vector<Assignment> assignments;  // UPDATE SET, INSERT SELECT's projection (unassigned columns copied)
  std::vector<Row> rows;                // INSERT rows, MERGE source rows
  MergeSpec merge;                      // MERGE
  TableChange change;                   // ALTER TABLE
  std::string name;                     // ADD/REMOVE FILE path, SET TXN app id, SET DOMAIN domain
  int64_t txn_version = 0;              // SET TXN
  std::string domain_configuration;     // SET DOMAIN (JSON text)
  StatsPresence file_stats = StatsPresence::Collected;  // ADD FILE
  std::vector<std::string> optimize_files;  // OPTIMIZE FILES: the subset compacted; empty = all
  int key_leaf = -1;                    // OPTIMIZE clustering key
  OptimizeMode optimize_mode = OptimizeMode::Compaction;
  int rows_per_file = 0;                // INSERT/clustering output file size; 0 = one file per partition
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
// serial-order oracle's ground truth (docs/semantics.md §6.5): the operation then sees every row
// and the model's evaluator alone decides which rows match.
class EveryFilePlanner final : public ScanPlanner {
 public:
  std::vector<size_t> files_to_read(const Table& snapshot, const ExprPtr& condition) const override;
};

// What a MERGE records as its read (docs/semantics.md §7.3).
enum class MergeRead {
  TargetConjuncts,  // Delta's: merge_target_read (an ON over the join key alone records TRUE)
  SourceKeys,       // tighter, not Delta's: also `t.k IN (source values of s.j)` for every ON
                    // conjunct t.k = s.j, so a winner file outside the source's keys is skipped
};

// How a transaction writes, beyond the operation itself.
struct WriterSettings {
  std::string path_prefix;  // unique per transaction: new files are <prefix>-<n>
  StatsPresence stats = StatsPresence::Collected;
  bool reads_whole_table = false;     // records a whole-table read besides the scans
  bool force_not_blind = false;       // commit info says isBlindAppend=false whatever happened
  MergeRead merge_read = MergeRead::TargetConjuncts;
  bool blind_flag_unknown = false;    // commit info carries no isBlindAppend (engines that omit it)
  // Every file action says dataChange=false, whatever it does to the rows: a writer breaking the
  // precondition of docs/semantics.md §10.4 (Case 3).
  bool declares_no_data_change = false;
  uint64_t random_seed = 0;           // rand() without a seed of its own (model/table/random_draws.h)
};

struct OperationResult {
  ReadSet reads;
  Commit commit;
};

// Runs the operations of one transaction on its snapshot, in order, each scanning the snapshot.
// At most one of them may write (throws InputError otherwise). Throws InputError when a
// condition or assignment cannot be evaluated on a row, or several MERGE source rows match one
// target row (Delta's MERGE fails then too).
OperationResult execute(const Table& snapshot, const std::vector<Operation>& operations,
                        const ScanPlanner& planner, const WriterSettings& settings);

// Whether the operation is one of the data or table operations a transaction runs at most one of.
bool is_main_write(OperationKind kind);

// Applies a commit to a table (the model's log replay): its metaData and protocol actions, then
// its file actions.
void apply_commit(Table& table, const Commit& commit);

}  // namespace skipsound
