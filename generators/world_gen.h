// RapidCheck generator for interleaving worlds: a small table (partitioned or not, deletion
// vectors on or off, clustered or not, stats complete or missing) and 2-4 concurrent
// transactions drawn from INSERT, DELETE, UPDATE, MERGE and OPTIMIZE, with predicates whose
// literals sit on the table's value boundaries; in one world in eight, one or two of them commit
// an ALTER TABLE (properties or protocol features) instead, or a SET TXN or SET DOMAIN besides.
// Each named category biases the draw towards one shape of conflict (see world_category_name).
// Operations are written in the scenario syntax (proofs/scenario/scenario.h), so a world is replayed,
// shrunk and saved as plain text.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <rapidcheck.h>

#include "generators/x_column.h"

namespace skipsound::generators {

enum class WorldCategory {
  Disjoint,      // transactions write disjoint x bands of a clustered table
  Overlapping,   // predicates over the same x range
  MissingStats,  // files or writers without stats, or x not indexed
  WideDv,        // deletion vectors on: DML winners re-add files with wide stats
  Partitioned,   // partition column p, predicates mixing p and x
  WholeTable,    // a transaction reads the whole table
  EmptyReads,    // a non-blind INSERT that records no read predicate
  ValueMoving,   // an UPDATE moves a row into (or out of) another transaction's predicate
  Mixed,         // anything above, several scans per transaction
  // Two DELETE/UPDATE writers on the same file with deletion vectors, by id (docs/semantics.md
  // §10.2's Case 2): the rows they change are disjoint, or share at least one row.
  SameFileDisjoint,
  SameFileOverlap,
  // An UPDATE or MERGE rewrites rows of a DV'd file that another writer changes too: Case 2
  // reconciles the DVs, the new image files stay for the append check (docs/semantics.md §10.2).
  ImageFiles,
  // An OPTIMIZE (dataChange=false) against readers and writers, Case 3 on (docs/semantics.md §10.4).
  NoDataChange,
  // Committed history deletes rows of the first file and restores earlier versions; then a
  // RESTORE (its DV may shrink) races writers and readers of that file (docs/semantics.md §10.2, §10.3).
  Restore,
};
const char* world_category_name(WorldCategory c);  // "disjoint", "value-moving", ...
std::optional<WorldCategory> world_category_from_name(std::string_view name);
const std::vector<WorldCategory>& all_world_categories();

// Columns are fixed: id long (unique), x (nullable; its type is the world's, an int rank here,
// see generators/x_column.h), p string (the partition column when the table is partitioned,
// else an ordinary column).
struct WorldRow {
  int64_t id = 0;
  std::optional<int> x;  // a rank, rendered in the world's x type
  std::string p;
};

struct WorldFile {
  std::vector<WorldRow> rows;
  bool has_stats = true;
  std::vector<int> deleted;  // rows an earlier DV delete marked (tables with deletion vectors)
};

struct WorldTransaction {
  // Scenario syntax; at most the last one is a data or ALTER write (SET TXN and SET DOMAIN,
  // which commit non-file actions, come before it).
  std::vector<std::string> operations;
  bool whole_table_read = false;
  bool not_blind = false;
  bool no_stats = false;
  bool blind_unknown = false;  // its commit info carries no isBlindAppend (another engine wrote it)
};

// The tier flags (docs/semantics.md §10 "Flags") a world's conflict checks run with; every category draws
// each of them on and off (Case 2 acts only on tables with deletion vectors).
struct WorldFlags {
  bool value_exact = true;              // flag valueExact
  bool row_level_concurrency = true;    // flag rowLevelConcurrency (Case 2)
  bool removed_rows = false;            // flag removedRows (Case 1b)
  bool exclude_no_data_change = false;  // flag excludeNoDataChangeFiles (Case 3)
};

enum class Tier { ValueExact, Case2, Case1b, Case3 };
inline constexpr size_t kTierCount = 4;
const std::vector<Tier>& all_tiers();
const char* tier_name(Tier t);             // "value-exact", "case2-dv-union", ...
const char* tier_flag_name(Tier t);        // the scenario flag: "valueExact", ...
bool tier_on(const WorldFlags& flags, Tier t);

// Whether a world's commits are also written as a Delta log and replayed before the checker sees
// them (proofs/scenario/log_mirror.h), from the log's text or from a table directory on disk.
enum class WorldLog { ModelOnly, Replayed, Directory };

struct World {
  WorldCategory category = WorldCategory::Mixed;
  WorldFlags flags;
  bool partitioned = false;
  bool deletion_vectors = false;
  bool clustered = false;
  int num_indexed_cols = 32;  // 1 = only id has stats
  bool write_serializable = false;  // the table's isolation level; else Serializable
  XType x_type = XType::Int;
  WorldLog log = WorldLog::ModelOnly;
  std::vector<WorldFile> files;
  std::vector<std::string> history;  // operations committed one after another before the transactions start
  std::vector<WorldTransaction> transactions;  // named T1, T2, ... in this order
  std::vector<size_t> commit_order;
  // A transaction that starts only after the first commit of commit_order (its snapshot holds
  // it); never the first to commit.
  std::optional<size_t> late_start;
};

rc::Gen<World> world(WorldCategory category);

std::string world_row_json(const WorldRow& row, XType x_type);  // {"id": 1, "x": 5, "p": "a"}

}  // namespace skipsound::generators
