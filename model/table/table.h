// The modelled table state (docs/semantics.md §4.7, §7.3): schema, properties, and the live files with their
// physical rows, deletion vectors, writer-collected stats and partition values.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/log/actions.h"
#include "model/sql/row.h"
#include "model/sql/schema.h"
#include "model/stats/stats.h"
#include "model/stats/stats_collection.h"
#include "model/table/deletion_vector.h"

namespace skipsound {

// Chosen by the committing transaction (docs/semantics.md §7.2). Serializable is Delta OSS's default.
enum class IsolationLevel { Serializable, WriteSerializable, SnapshotIsolation };
const char* isolation_level_name(IsolationLevel level);  // "Serializable", ...
std::optional<IsolationLevel> isolation_level_from_name(std::string_view name);

struct TableProperties {
  StatsConfig stats;  // numIndexedCols, statsColumns and the partition columns
  bool deletion_vectors = false;
  IsolationLevel isolation = IsolationLevel::Serializable;
  // Other metaData.configuration entries (ALTER TABLE SET TBLPROPERTIES), kept so the metadata
  // action round-trips and the conflict checker sees every change.
  std::map<std::string, std::string> other_configuration;

  // The properties a metaData action's configuration gives (Delta's keys); throws InputError.
  static TableProperties from_metadata(const Metadata& metadata);

  const std::vector<std::string>& partition_columns() const { return stats.partition_columns; }
  bool partitioned() const { return !stats.partition_columns.empty(); }
};

// Physical rows indexed by their position in the file; shared by every DV version of one path.
using PhysicalRows = std::shared_ptr<const std::vector<Row>>;
// Typed partition values by logical partition column name.
using TypedPartitionValues = std::map<std::string, Value>;

// The model keeps a DV's content; the log only needs an identity and a cardinality: an inline
// descriptor listing the rows. nullopt for an empty DV.
std::optional<DeletionVectorDescriptor> inline_descriptor(const DeletedRows& deleted);

// One live file as an add action carries it, plus the rows the model knows it holds.
struct TableFile {
  std::string path;
  PhysicalRows rows;
  DeletedRows deleted;
  std::optional<FileStats> stats;  // nullopt: the writer recorded no stats
  TypedPartitionValues partition_values;
  bool data_change = true;

  int64_t physical_count() const { return rows ? static_cast<int64_t>(rows->size()) : 0; }
  int64_t live_count() const { return physical_count() - static_cast<int64_t>(deleted.size()); }
  bool is_deleted(uint32_t index) const;
  std::vector<Row> live_rows() const;
  // The add action Delta would log (stats as JSON, the DV as an inline descriptor).
  AddFile to_add_action(const Schema& schema) const;
};

// A remove action: the path and the DV it removed (paths are compared without it).
struct FileRemoval {
  std::string path;
  DeletedRows deleted;
  TypedPartitionValues partition_values;
  bool data_change = true;

  RemoveFile to_remove_action() const;
};

// Whether the writer records stats for the files it writes (other engines may not).
enum class StatsPresence { Collected, Missing };

class Table {
 public:
  Table() = default;
  Table(Schema schema, TableProperties properties);

  const Schema& schema() const { return schema_; }
  const TableProperties& properties() const { return properties_; }
  int64_t version() const { return version_; }
  const std::vector<TableFile>& files() const { return files_; }
  const TableFile* find_file(const std::string& path) const;  // the first live file with this path
  // The metaData action describing this table (identity, schema, partitioning, configuration).
  Metadata metadata() const;
  const Protocol& protocol() const { return protocol_; }

  // Files a writer produces for `rows`: one per distinct partition value tuple (first-seen order),
  // named `<path_prefix>-<n>`, starting at n = first_index. Stats follow the writer rules, or
  // an injected writer-side mutant's deviation from them.
  std::vector<TableFile> write_files(const std::vector<Row>& rows, const std::string& path_prefix,
                                     int first_index, StatsPresence presence) const;
  TypedPartitionValues partition_values_of(const Row& row) const;

  // Adds a file to the initial state (version stays unchanged). Throws InputError on a
  // duplicate path or rows of mixed partition values.
  void add_initial_file(TableFile file);
  // Replaces the initial file of the same path (a scenario's raw stats). Throws when absent.
  void replace_initial_file(TableFile file);
  // Applies a commit's file actions (removes, then adds) and advances the version. Live files are
  // keyed by (path, DV) as in Delta's log replay (docs/semantics.md §4.7): remove(P,dv) cancels
  // only add(P,dv), so a stale remove cancels nothing and the file it meant stays live; an add
  // replaces a live file with the same (path, DV). Rows narrower than the schema (written before
  // a column was added) read the new columns as NULL.
  void apply(const std::vector<FileRemoval>& removes, const std::vector<TableFile>& adds);
  // A committed metaData action: the new schema (columns only added at the end: every file's rows
  // gain NULLs) and properties. A committed protocol action.
  void apply_metadata(const Metadata& metadata);
  void apply_protocol(const Protocol& protocol) { protocol_ = protocol; }

  // Every live row of every live file, in file then row order.
  std::vector<Row> live_rows() const;

 private:
  Schema schema_;
  TableProperties properties_;
  Protocol protocol_;
  int64_t version_ = 0;
  std::vector<TableFile> files_;
};

}  // namespace skipsound
