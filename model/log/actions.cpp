#include "model/log/actions.h"

#include "model/values/input_error.h"
#include "model/values/exact_json.h"

namespace skipsound {
namespace {

using nlohmann::json;
using ordered = nlohmann::ordered_json;

// Where a line came from, so every error names the file and line.
struct LineContext {
  const std::string& file;
  int line;

  [[noreturn]] void fail(const std::string& what) const {
    throw InputError(file + ":" + std::to_string(line) + ": " + what);
  }
};

const json* find(const json& object, const char* key) {
  const auto it = object.find(key);
  return it == object.end() || it->is_null() ? nullptr : &*it;
}

std::string require_string(const json& o, const char* key, const LineContext& at, const char* action) {
  const json* v = find(o, key);
  if (!v) at.fail(std::string(action) + " has no '" + key + "'");
  if (!v->is_string()) at.fail(std::string(action) + "." + key + " is not a string");
  return v->get<std::string>();
}

std::optional<std::string> optional_string(const json& o, const char* key, const LineContext& at,
                                           const char* action) {
  const json* v = find(o, key);
  if (!v) return std::nullopt;
  if (!v->is_string()) at.fail(std::string(action) + "." + key + " is not a string");
  return v->get<std::string>();
}

std::optional<int64_t> optional_int(const json& o, const char* key, const LineContext& at,
                                    const char* action) {
  const json* v = find(o, key);
  if (!v) return std::nullopt;
  if (!v->is_number_integer()) at.fail(std::string(action) + "." + key + " is not an integer");
  return v->get<int64_t>();
}

int64_t require_int(const json& o, const char* key, const LineContext& at, const char* action) {
  auto v = optional_int(o, key, at, action);
  if (!v) at.fail(std::string(action) + " has no '" + key + "'");
  return *v;
}

std::optional<bool> optional_bool(const json& o, const char* key, const LineContext& at,
                                  const char* action) {
  const json* v = find(o, key);
  if (!v) return std::nullopt;
  if (!v->is_boolean()) at.fail(std::string(action) + "." + key + " is not a boolean");
  return v->get<bool>();
}

std::optional<std::vector<std::string>> optional_string_list(const json& o, const char* key,
                                                             const LineContext& at,
                                                             const char* action) {
  const json* v = find(o, key);
  if (!v) return std::nullopt;
  if (!v->is_array()) at.fail(std::string(action) + "." + key + " is not an array");
  std::vector<std::string> out;
  for (const json& item : *v) {
    if (!item.is_string()) at.fail(std::string(action) + "." + key + " holds a non-string");
    out.push_back(item.get<std::string>());
  }
  return out;
}

PartitionValues parse_partition_values(const json& v, const LineContext& at, const char* action) {
  if (!v.is_object()) at.fail(std::string(action) + ".partitionValues is not an object");
  PartitionValues out;
  for (const auto& [name, value] : v.items()) {
    if (value.is_null()) {
      out[name] = std::nullopt;
    } else if (value.is_string()) {
      out[name] = value.get<std::string>();
    } else {
      at.fail(std::string(action) + ".partitionValues." + name + " is not a string or null");
    }
  }
  return out;
}

std::optional<PartitionValues> optional_partition_values(const json& o, const LineContext& at,
                                                         const char* action) {
  const json* v = find(o, "partitionValues");
  if (!v) return std::nullopt;
  return parse_partition_values(*v, at, action);
}

std::optional<DeletionVectorDescriptor> parse_dv(const json& o, const LineContext& at,
                                                 const char* action) {
  const json* v = find(o, "deletionVector");
  if (!v) return std::nullopt;
  if (!v->is_object()) at.fail(std::string(action) + ".deletionVector is not an object");
  const std::string where = std::string(action) + ".deletionVector";
  DeletionVectorDescriptor dv;
  dv.storage_type = require_string(*v, "storageType", at, where.c_str());
  dv.path_or_inline_dv = require_string(*v, "pathOrInlineDv", at, where.c_str());
  dv.offset = optional_int(*v, "offset", at, where.c_str());
  dv.size_in_bytes = require_int(*v, "sizeInBytes", at, where.c_str());
  dv.cardinality = require_int(*v, "cardinality", at, where.c_str());
  return dv;
}

AddFile parse_add(const json& o, const LineContext& at) {
  AddFile add;
  add.path = require_string(o, "path", at, "add");
  const json* pv = find(o, "partitionValues");
  if (pv) add.partition_values = parse_partition_values(*pv, at, "add");
  add.size = optional_int(o, "size", at, "add").value_or(0);
  add.modification_time = optional_int(o, "modificationTime", at, "add").value_or(0);
  add.data_change = optional_bool(o, "dataChange", at, "add").value_or(true);
  add.stats = optional_string(o, "stats", at, "add");
  add.deletion_vector = parse_dv(o, at, "add");
  return add;
}

RemoveFile parse_remove(const json& o, const LineContext& at) {
  RemoveFile remove;
  remove.path = require_string(o, "path", at, "remove");
  remove.deletion_timestamp = optional_int(o, "deletionTimestamp", at, "remove");
  remove.data_change = optional_bool(o, "dataChange", at, "remove").value_or(true);
  remove.partition_values = optional_partition_values(o, at, "remove");
  remove.size = optional_int(o, "size", at, "remove");
  remove.stats = optional_string(o, "stats", at, "remove");
  remove.deletion_vector = parse_dv(o, at, "remove");
  return remove;
}

Metadata parse_metadata(const json& o, const LineContext& at) {
  Metadata m;
  m.id = optional_string(o, "id", at, "metaData").value_or("");
  m.schema_string = require_string(o, "schemaString", at, "metaData");
  try {
    m.schema = Schema::from_json_text(m.schema_string);
  } catch (const std::exception& e) {
    at.fail(std::string("metaData.schemaString: ") + e.what());
  }
  m.partition_columns = optional_string_list(o, "partitionColumns", at, "metaData").value_or(
      std::vector<std::string>{});
  if (const json* conf = find(o, "configuration")) {
    if (!conf->is_object()) at.fail("metaData.configuration is not an object");
    for (const auto& [key, value] : conf->items()) {
      if (!value.is_string()) at.fail("metaData.configuration." + key + " is not a string");
      m.configuration[key] = value.get<std::string>();
    }
  }
  return m;
}

Protocol parse_protocol(const json& o, const LineContext& at) {
  Protocol p;
  p.min_reader_version = static_cast<int>(require_int(o, "minReaderVersion", at, "protocol"));
  p.min_writer_version = static_cast<int>(require_int(o, "minWriterVersion", at, "protocol"));
  p.reader_features = optional_string_list(o, "readerFeatures", at, "protocol");
  p.writer_features = optional_string_list(o, "writerFeatures", at, "protocol");
  return p;
}

Txn parse_txn(const json& o, const LineContext& at) {
  Txn t;
  t.app_id = require_string(o, "appId", at, "txn");
  t.version = require_int(o, "version", at, "txn");
  t.last_updated = optional_int(o, "lastUpdated", at, "txn");
  return t;
}

CommitInfo parse_commit_info(const json& o, const LineContext& at) {
  CommitInfo c;
  c.operation = optional_string(o, "operation", at, "commitInfo");
  c.is_blind_append = optional_bool(o, "isBlindAppend", at, "commitInfo");
  if (const json* params = find(o, "operationParameters")) c.operation_parameters = *params;
  c.isolation_level = optional_string(o, "isolationLevel", at, "commitInfo");
  c.read_version = optional_int(o, "readVersion", at, "commitInfo");
  return c;
}

DomainMetadata parse_domain_metadata(const json& o, const LineContext& at) {
  DomainMetadata d;
  d.domain = require_string(o, "domain", at, "domainMetadata");
  d.configuration = optional_string(o, "configuration", at, "domainMetadata").value_or("");
  d.removed = optional_bool(o, "removed", at, "domainMetadata").value_or(false);
  return d;
}

AddCdcFile parse_cdc(const json& o, const LineContext& at) {
  AddCdcFile c;
  c.path = require_string(o, "path", at, "cdc");
  if (const json* pv = find(o, "partitionValues")) c.partition_values = parse_partition_values(*pv, at, "cdc");
  c.size = optional_int(o, "size", at, "cdc").value_or(0);
  c.data_change = optional_bool(o, "dataChange", at, "cdc").value_or(false);
  return c;
}

// ---- writing ----

ordered partition_values_json(const PartitionValues& values) {
  ordered out = ordered::object();
  for (const auto& [name, value] : values) out[name] = value ? ordered(*value) : ordered(nullptr);
  return out;
}

ordered dv_json(const DeletionVectorDescriptor& dv) {
  ordered out;
  out["storageType"] = dv.storage_type;
  out["pathOrInlineDv"] = dv.path_or_inline_dv;
  if (dv.offset) out["offset"] = *dv.offset;
  out["sizeInBytes"] = dv.size_in_bytes;
  out["cardinality"] = dv.cardinality;
  return out;
}

ordered to_ordered(const AddFile& a) {
  ordered out;
  out["path"] = a.path;
  out["partitionValues"] = partition_values_json(a.partition_values);
  out["size"] = a.size;
  out["modificationTime"] = a.modification_time;
  out["dataChange"] = a.data_change;
  if (a.stats) out["stats"] = *a.stats;
  if (a.deletion_vector) out["deletionVector"] = dv_json(*a.deletion_vector);
  return ordered{{"add", out}};
}

ordered to_ordered(const RemoveFile& r) {
  ordered out;
  out["path"] = r.path;
  if (r.deletion_timestamp) out["deletionTimestamp"] = *r.deletion_timestamp;
  out["dataChange"] = r.data_change;
  if (r.partition_values) {
    out["extendedFileMetadata"] = true;
    out["partitionValues"] = partition_values_json(*r.partition_values);
  }
  if (r.size) out["size"] = *r.size;
  if (r.stats) out["stats"] = *r.stats;
  if (r.deletion_vector) out["deletionVector"] = dv_json(*r.deletion_vector);
  return ordered{{"remove", out}};
}

ordered to_ordered(const Metadata& m) {
  ordered out;
  out["id"] = m.id;
  out["format"] = ordered{{"provider", "parquet"}, {"options", ordered::object()}};
  out["schemaString"] = m.schema_string;
  out["partitionColumns"] = m.partition_columns;
  ordered conf = ordered::object();
  for (const auto& [k, v] : m.configuration) conf[k] = v;
  out["configuration"] = conf;
  return ordered{{"metaData", out}};
}

ordered to_ordered(const Protocol& p) {
  ordered out;
  out["minReaderVersion"] = p.min_reader_version;
  out["minWriterVersion"] = p.min_writer_version;
  if (p.reader_features) out["readerFeatures"] = *p.reader_features;
  if (p.writer_features) out["writerFeatures"] = *p.writer_features;
  return ordered{{"protocol", out}};
}

ordered to_ordered(const Txn& t) {
  ordered out;
  out["appId"] = t.app_id;
  out["version"] = t.version;
  if (t.last_updated) out["lastUpdated"] = *t.last_updated;
  return ordered{{"txn", out}};
}

ordered to_ordered(const CommitInfo& c) {
  ordered out;
  if (c.operation) out["operation"] = *c.operation;
  out["operationParameters"] = ordered(c.operation_parameters);
  if (c.read_version) out["readVersion"] = *c.read_version;
  if (c.isolation_level) out["isolationLevel"] = *c.isolation_level;
  if (c.is_blind_append) out["isBlindAppend"] = *c.is_blind_append;
  return ordered{{"commitInfo", out}};
}

ordered to_ordered(const DomainMetadata& d) {
  ordered out;
  out["domain"] = d.domain;
  out["configuration"] = d.configuration;
  out["removed"] = d.removed;
  return ordered{{"domainMetadata", out}};
}

ordered to_ordered(const AddCdcFile& c) {
  ordered out;
  out["path"] = c.path;
  out["partitionValues"] = partition_values_json(c.partition_values);
  out["size"] = c.size;
  out["dataChange"] = c.data_change;
  return ordered{{"cdc", out}};
}

}  // namespace

std::string DeletionVectorDescriptor::id() const {
  return storage_type + path_or_inline_dv + "@" + (offset ? std::to_string(*offset) : "");
}

std::string dv_id(const std::optional<DeletionVectorDescriptor>& dv) { return dv ? dv->id() : ""; }

std::optional<FileStats> AddFile::parse_stats(const Schema& schema, StatsNaming naming) const {
  if (!stats) return std::nullopt;
  return stats_from_json_text(*stats, schema, naming);
}

void AddFile::set_stats(const FileStats& s, const Schema& schema, StatsNaming naming) {
  stats = dump_json(stats_to_json(s, schema, naming));
}

ColumnMappingMode Metadata::column_mapping_mode() const {
  const auto mode = config("delta.columnMapping.mode");
  if (mode == "name") return ColumnMappingMode::Name;
  if (mode == "id") return ColumnMappingMode::Id;
  return ColumnMappingMode::None;
}

StatsNaming Metadata::stats_naming() const {
  return column_mapping_mode() == ColumnMappingMode::None ? StatsNaming::Logical
                                                          : StatsNaming::Physical;
}

std::optional<std::string> Metadata::config(const std::string& key) const {
  const auto it = configuration.find(key);
  if (it == configuration.end()) return std::nullopt;
  return it->second;
}

std::optional<Action> parse_action(std::string_view line, const std::string& file, int line_number) {
  const LineContext at{file, line_number};
  json j;
  try {
    j = parse_json_exact(line);
  } catch (const json::parse_error& e) {
    at.fail(std::string("malformed JSON: ") + e.what());
  }
  if (!j.is_object() || j.size() != 1) at.fail("an action line must be an object with one key");
  const std::string type = j.begin().key();
  const json& body = j.begin().value();
  if (!body.is_object()) at.fail("action '" + type + "' is not an object");
  if (type == "add") return parse_add(body, at);
  if (type == "remove") return parse_remove(body, at);
  if (type == "metaData") return parse_metadata(body, at);
  if (type == "protocol") return parse_protocol(body, at);
  if (type == "txn") return parse_txn(body, at);
  if (type == "commitInfo") return parse_commit_info(body, at);
  if (type == "domainMetadata") return parse_domain_metadata(body, at);
  if (type == "cdc") return parse_cdc(body, at);
  return std::nullopt;
}

std::vector<Action> parse_commit(std::string_view text, const std::string& file) {
  std::vector<Action> actions;
  int line_number = 0;
  for (size_t start = 0; start < text.size();) {
    const size_t end = std::min(text.find('\n', start), text.size());
    std::string_view line = text.substr(start, end - start);
    ++line_number;
    start = end + 1;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.find_first_not_of(" \t") == std::string_view::npos) continue;
    if (auto action = parse_action(line, file, line_number)) actions.push_back(std::move(*action));
  }
  return actions;
}

std::string action_to_json_line(const Action& a) {
  return std::visit([](const auto& action) { return dump_json(to_ordered(action)); }, a);
}

std::string commit_to_json(const std::vector<Action>& actions) {
  std::string out;
  for (const Action& a : actions) out += action_to_json_line(a) + "\n";
  return out;
}

}  // namespace skipsound
