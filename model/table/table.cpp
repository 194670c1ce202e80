#include "model/table/table.h"

#include <algorithm>

#include "model/values/ascii_text.h"
#include "model/values/input_error.h"
#include "model/values/enum_names.h"

namespace skipsound {

namespace {

constexpr EnumNames kIsolationLevelNames{std::to_array<EnumName<IsolationLevel>>({
    {IsolationLevel::Serializable, "Serializable"},
    {IsolationLevel::WriteSerializable, "WriteSerializable"},
    {IsolationLevel::SnapshotIsolation, "SnapshotIsolation"},
})};

}  // namespace

const char* isolation_level_name(IsolationLevel level) { return kIsolationLevelNames.name(level); }

std::optional<IsolationLevel> isolation_level_from_name(std::string_view name) {
  return kIsolationLevelNames.value(name);
}

bool TableFile::is_deleted(uint32_t index) const {
  return std::binary_search(deleted.begin(), deleted.end(), index);
}

std::vector<Row> TableFile::live_rows() const {
  std::vector<Row> live;
  if (!rows) return live;
  live.reserve(rows->size());
  for (uint32_t i = 0; i < rows->size(); ++i) {
    if (!is_deleted(i)) live.push_back((*rows)[i]);
  }
  return live;
}

namespace {

PartitionValues partition_text(const TypedPartitionValues& typed) {
  PartitionValues text;
  for (const auto& [column, value] : typed) {
    text[column] = value.is_null() ? std::nullopt : std::optional<std::string>(to_display(value));
  }
  return text;
}

}  // namespace

std::optional<DeletionVectorDescriptor> inline_descriptor(const DeletedRows& deleted) {
  if (deleted.empty()) return std::nullopt;
  DeletionVectorDescriptor dv;
  dv.storage_type = "i";
  for (uint32_t index : deleted) {
    if (!dv.path_or_inline_dv.empty()) dv.path_or_inline_dv += ",";
    dv.path_or_inline_dv += std::to_string(index);
  }
  dv.cardinality = static_cast<int64_t>(deleted.size());
  return dv;
}

AddFile TableFile::to_add_action(const Schema& schema) const {
  AddFile add;
  add.path = path;
  add.partition_values = partition_text(partition_values);
  add.size = physical_count();
  add.data_change = data_change;
  if (stats) add.set_stats(*stats, schema, StatsNaming::Logical);
  add.deletion_vector = inline_descriptor(deleted);
  return add;
}

RemoveFile FileRemoval::to_remove_action() const {
  RemoveFile remove;
  remove.path = path;
  remove.data_change = data_change;
  remove.partition_values = partition_text(partition_values);
  remove.deletion_vector = inline_descriptor(deleted);
  return remove;
}

Table::Table(Schema schema, TableProperties properties)
    : schema_(std::move(schema)), properties_(std::move(properties)) {
  for (const std::string& column : properties_.partition_columns()) {
    const Leaf* leaf = schema_.find_leaf({column});
    if (!leaf || leaf->path.size() != 1) {
      throw InputError("partition column '" + column + "' is not a top-level column of the schema");
    }
  }
  if (properties_.deletion_vectors) {
    protocol_.min_reader_version = 3;
    protocol_.min_writer_version = 7;
    protocol_.reader_features = std::vector<std::string>{"deletionVectors"};
    protocol_.writer_features = std::vector<std::string>{"deletionVectors"};
  }
}

const TableFile* Table::find_file(const std::string& path) const {
  for (const TableFile& file : files_) {
    if (file.path == path) return &file;
  }
  return nullptr;
}

Metadata Table::metadata() const {
  Metadata metadata;
  metadata.id = "skipsound-table";
  metadata.schema = schema_;
  metadata.schema_string = schema_.to_json().dump();
  metadata.partition_columns = properties_.partition_columns();
  const StatsConfig& stats = properties_.stats;
  metadata.configuration["delta.dataSkippingNumIndexedCols"] =
      std::to_string(stats.num_indexed_cols);
  if (stats.stats_columns) {
    std::string list;
    for (const ColumnPath& path : *stats.stats_columns) {
      if (!list.empty()) list += ",";
      list += path_to_sql(path);
    }
    metadata.configuration["delta.dataSkippingStatsColumns"] = list;
  }
  metadata.configuration["delta.enableDeletionVectors"] =
      properties_.deletion_vectors ? "true" : "false";
  metadata.configuration["delta.isolationLevel"] = isolation_level_name(properties_.isolation);
  metadata.configuration.insert(properties_.other_configuration.begin(), properties_.other_configuration.end());
  return metadata;
}

namespace {

constexpr const char* kDeletionVectorsKey = "delta.enableDeletionVectors";
constexpr const char* kIsolationLevelKey = "delta.isolationLevel";

bool configured_true(const std::string& key, const std::string& value) {
  const std::string v = ascii_lower(trim_whitespace(value));
  if (v == "true") return true;
  if (v == "false") return false;
  throw InputError(key + " must be true or false, got '" + value + "'");
}

// A row padded with NULLs to the schema's width (a file written before ADD COLUMNS).
PhysicalRows widened(const PhysicalRows& rows, const Schema& schema) {
  const size_t width = schema.leaves().size();
  if (!rows || std::all_of(rows->begin(), rows->end(), [&](const Row& r) { return r.size() >= width; })) return rows;
  std::vector<Row> padded = *rows;
  for (Row& row : padded) {
    for (size_t i = row.size(); i < width; ++i) row.push_back(Value::null(schema.leaves()[i].type));
  }
  return std::make_shared<const std::vector<Row>>(std::move(padded));
}

}  // namespace

TableProperties TableProperties::from_metadata(const Metadata& metadata) {
  TableProperties properties;
  properties.stats = StatsConfig::from_configuration(metadata.configuration, metadata.partition_columns);
  for (const auto& [key, value] : metadata.configuration) {
    if (key == kNumIndexedColsKey || key == kStatsColumnsKey) continue;
    if (key == kDeletionVectorsKey) {
      properties.deletion_vectors = configured_true(key, value);
    } else if (key == kIsolationLevelKey) {
      const auto level = isolation_level_from_name(trim_whitespace(value));
      if (!level || *level == IsolationLevel::SnapshotIsolation) {
        throw InputError(std::string(kIsolationLevelKey) + " must be Serializable or WriteSerializable, got '" + value + "'");
      }
      properties.isolation = *level;
    } else {
      properties.other_configuration[key] = value;
    }
  }
  return properties;
}

void Table::apply_metadata(const Metadata& metadata) {
  TableProperties properties = TableProperties::from_metadata(metadata);
  check_stats_columns(metadata.schema, properties.stats);
  schema_ = metadata.schema;
  properties_ = std::move(properties);
  for (TableFile& file : files_) file.rows = widened(file.rows, schema_);
}

TypedPartitionValues Table::partition_values_of(const Row& row) const {
  TypedPartitionValues values;
  for (const std::string& column : properties_.partition_columns()) {
    const Leaf* leaf = schema_.find_leaf({column});
    values.emplace(leaf->path.front(), row.at(static_cast<size_t>(leaf->ordinal)));
  }
  return values;
}

std::vector<TableFile> Table::write_files(const std::vector<Row>& rows,
                                          const std::string& path_prefix, int first_index,
                                          StatsPresence presence) const {
  std::vector<TypedPartitionValues> keys;
  std::vector<std::vector<Row>> groups;
  for (const Row& row : rows) {
    TypedPartitionValues key = partition_values_of(row);
    auto found = std::find(keys.begin(), keys.end(), key);
    if (found == keys.end()) {
      keys.push_back(std::move(key));
      groups.emplace_back();
      groups.back().push_back(row);
    } else {
      groups[static_cast<size_t>(found - keys.begin())].push_back(row);
    }
  }
  std::vector<TableFile> files;
  files.reserve(groups.size());
  for (size_t i = 0; i < groups.size(); ++i) {
    TableFile file;
    file.path = path_prefix + "-" + std::to_string(first_index + static_cast<int>(i));
    if (presence == StatsPresence::Collected) {
      file.stats = collect_stats(groups[i], schema_, properties_.stats, properties_.deletion_vectors);
    }
    file.partition_values = std::move(keys[i]);
    file.rows = std::make_shared<const std::vector<Row>>(std::move(groups[i]));
    files.push_back(std::move(file));
  }
  return files;
}

void Table::add_initial_file(TableFile file) {
  if (find_file(file.path)) throw InputError("duplicate file path '" + file.path + "'");
  if (file.rows) {
    for (const Row& row : *file.rows) {
      if (row.size() != schema_.leaves().size()) {
        throw InputError("file '" + file.path + "' has a row of the wrong width");
      }
      if (partition_values_of(row) != file.partition_values) {
        throw InputError("file '" + file.path + "' mixes rows of different partition values");
      }
    }
  }
  files_.push_back(std::move(file));
}

void Table::replace_initial_file(TableFile file) {
  for (TableFile& existing : files_) {
    if (existing.path == file.path) {
      existing = std::move(file);
      return;
    }
  }
  throw InputError("no file '" + file.path + "' to replace");
}

void Table::apply(const std::vector<FileRemoval>& removes, const std::vector<TableFile>& adds) {
  const auto same_key = [](const std::string& path, const DeletedRows& deleted) {
    return [&path, &deleted](const TableFile& f) { return f.path == path && f.deleted == deleted; };
  };
  for (const FileRemoval& removal : removes) std::erase_if(files_, same_key(removal.path, removal.deleted));
  for (const TableFile& add : adds) {
    std::erase_if(files_, same_key(add.path, add.deleted));
    files_.push_back(add);
    files_.back().rows = widened(add.rows, schema_);
  }
  ++version_;
}

std::vector<Row> Table::live_rows() const {
  std::vector<Row> rows;
  for (const TableFile& file : files_) {
    std::vector<Row> live = file.live_rows();
    rows.insert(rows.end(), std::make_move_iterator(live.begin()),
                std::make_move_iterator(live.end()));
  }
  return rows;
}

}  // namespace skipsound
