// Delta log actions (one JSON object per line of a commit file), read and written (docs/semantics.md §4.7, §7.1).
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/sql/schema.h"
#include "model/stats/stats.h"

namespace skipsound {

// partitionValues: partition column (physical name under column mapping) -> text or JSON null.
using PartitionValues = std::map<std::string, std::optional<std::string>>;

struct DeletionVectorDescriptor {
  std::string storage_type;  // "u" (relative, Z85 uuid), "p" (absolute path), "i" (inline)
  std::string path_or_inline_dv;
  std::optional<int64_t> offset;
  int64_t size_in_bytes = 0;
  int64_t cardinality = 0;  // rows the vector deletes

  // storageType + pathOrInlineDv + "@" + offset: one file can hold several vectors at offsets.
  std::string id() const;
  bool operator==(const DeletionVectorDescriptor& o) const = default;
};

// The DV part of a live-file key: empty when the file has no deletion vector.
std::string dv_id(const std::optional<DeletionVectorDescriptor>& dv);

struct AddFile {
  std::string path;
  PartitionValues partition_values;
  int64_t size = 0;
  int64_t modification_time = 0;
  bool data_change = true;
  std::optional<std::string> stats;  // the raw stats JSON text, parsed on demand
  std::optional<DeletionVectorDescriptor> deletion_vector;

  // Parses `stats` against the schema; nullopt when the add carries no stats. Throws InputError.
  std::optional<FileStats> parse_stats(const Schema& schema, StatsNaming naming) const;
  void set_stats(const FileStats& s, const Schema& schema, StatsNaming naming);
  int64_t dv_cardinality() const { return deletion_vector ? deletion_vector->cardinality : 0; }
  bool operator==(const AddFile& o) const = default;
};

struct RemoveFile {
  std::string path;
  std::optional<int64_t> deletion_timestamp;
  bool data_change = true;
  std::optional<PartitionValues> partition_values;
  std::optional<int64_t> size;
  std::optional<std::string> stats;
  std::optional<DeletionVectorDescriptor> deletion_vector;
  bool operator==(const RemoveFile& o) const = default;
};

enum class ColumnMappingMode { None, Name, Id };

struct Metadata {
  std::string id;
  std::string schema_string;  // kept verbatim so writing back is lossless
  Schema schema;              // parsed from schema_string
  std::vector<std::string> partition_columns;  // logical names
  std::map<std::string, std::string> configuration;

  ColumnMappingMode column_mapping_mode() const;  // delta.columnMapping.mode, default none
  StatsNaming stats_naming() const;  // Physical when column mapping is on
  std::optional<std::string> config(const std::string& key) const;
  bool operator==(const Metadata& o) const = default;
};

struct Protocol {
  int min_reader_version = 1;
  int min_writer_version = 2;
  std::optional<std::vector<std::string>> reader_features;
  std::optional<std::vector<std::string>> writer_features;
  bool operator==(const Protocol& o) const = default;
};

struct Txn {
  std::string app_id;
  int64_t version = 0;
  std::optional<int64_t> last_updated;
  bool operator==(const Txn& o) const = default;
};

struct CommitInfo {
  std::optional<std::string> operation;          // "WRITE", "DELETE", ...
  std::optional<bool> is_blind_append;           // absent: unknown, counts as not blind
  nlohmann::json operation_parameters = nlohmann::json::object();
  std::optional<std::string> isolation_level;
  std::optional<int64_t> read_version;
  bool operator==(const CommitInfo& o) const = default;
};

struct DomainMetadata {
  std::string domain;
  std::string configuration;  // JSON text, opaque to skipsound
  bool removed = false;
  bool operator==(const DomainMetadata& o) const = default;
};

// Change-data files: recognised so a commit round-trips, never part of the live set.
struct AddCdcFile {
  std::string path;
  PartitionValues partition_values;
  int64_t size = 0;
  bool data_change = false;
  bool operator==(const AddCdcFile& o) const = default;
};

using Action = std::variant<AddFile, RemoveFile, Metadata, Protocol, Txn, CommitInfo,
                            DomainMetadata, AddCdcFile>;

// Parses one line. nullopt for an action type skipsound does not know (ignored, as Delta
// readers ignore unknown fields). Throws InputError "<file>:<line>: ..." on malformed input.
std::optional<Action> parse_action(std::string_view line, const std::string& file, int line_number);
// Every action of a commit file's text, in order; blank lines are skipped.
std::vector<Action> parse_commit(std::string_view text, const std::string& file);

// One action as a single-line JSON object {"add":{...}}, keys in Delta's customary order.
std::string action_to_json_line(const Action& a);
// A whole commit: one line per action, each ending in '\n'.
std::string commit_to_json(const std::vector<Action>& actions);

}  // namespace skipsound
