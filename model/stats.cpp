#include "model/stats.h"

#include <nlohmann/json.hpp>

#include "model/exact_json.h"
#include "model/row.h"

namespace skipsound {

namespace {

using nlohmann::json;

enum class StatKind { Min, Max, NullCount };

const char* stat_key(StatKind k) {
  switch (k) {
    case StatKind::Min: return "minValues";
    case StatKind::Max: return "maxValues";
    case StatKind::NullCount: return "nullCount";
  }
  return "";
}

const std::string& key_of(const StructField& f, StatsNaming naming) {
  return naming == StatsNaming::Physical && !f.physical_name.empty() ? f.physical_name : f.name;
}

[[noreturn]] void wrong_type(const std::string& path, const std::string& expected) {
  throw InputError("stats: " + path + ": expected " + expected);
}

// A non-negative int64 count, or nullopt for anything else.
std::optional<int64_t> count_of(const json& j) {
  if (j.is_number_unsigned()) {
    if (j.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX)) return std::nullopt;
    return static_cast<int64_t>(j.get<uint64_t>());
  }
  if (!j.is_number_integer() || j.get<int64_t>() < 0) return std::nullopt;
  return j.get<int64_t>();
}

// Walks the schema below one of minValues / maxValues / nullCount. Every leaf advances
// `ordinal`, present in the JSON or not, so ordinals line up with Schema::leaves().
class StatsReader {
 public:
  StatsReader(FileStats& out, const Schema& schema, StatsNaming naming)
      : out_(out), schema_(schema), naming_(naming) {}

  void read(StatKind kind, const json& section) {
    if (!section.is_object()) wrong_type(stat_key(kind), "an object");
    int ordinal = 0;
    keys_.clear();
    read_fields(kind, &section, schema_.fields(), ordinal);
  }

 private:
  // The JSON path of the current key, built only for an error message.
  std::string path(StatKind kind) const {
    std::string out = stat_key(kind);
    for (const std::string* key : keys_) out += "." + *key;
    return out;
  }

  void read_fields(StatKind kind, const json* object, const std::vector<StructField>& fields,
                   int& ordinal) {
    for (const StructField& f : fields) {
      const std::string& key = key_of(f, naming_);
      const json* value = nullptr;
      if (object != nullptr) {
        auto it = object->find(key);
        if (it != object->end() && !it->is_null()) value = &*it;
      }
      keys_.push_back(&key);
      if (f.type.kind != TypeKind::Struct) {
        if (value != nullptr) read_leaf(kind, *value, ordinal);
        ++ordinal;
      } else {
        if (value != nullptr && !value->is_object()) wrong_type(path(kind), "an object for a struct");
        read_fields(kind, value, f.type.fields, ordinal);
      }
      keys_.pop_back();
    }
  }

  void read_leaf(StatKind kind, const json& j, int ordinal) {
    const Leaf& leaf = schema_.leaves()[ordinal];
    if (kind == StatKind::NullCount) {
      const auto count = count_of(j);
      if (!count) wrong_type(path(kind), "a non-negative integer");
      out_.column_mut(ordinal).null_count = count;
      return;
    }
    // Writers never record min/max for boolean, binary, arrays or maps (SPEC §4).
    if (!has_min_max(leaf.type.kind)) return;
    Value v;
    try {
      v = value_from_json(j, leaf.type);
    } catch (const InputError& e) {
      throw InputError("stats: " + path(kind) + ": " + e.message());
    }
    ColumnStats& c = out_.column_mut(ordinal);
    (kind == StatKind::Min ? c.min : c.max) = std::move(v);
  }

  std::vector<const std::string*> keys_;
  FileStats& out_;
  const Schema& schema_;
  StatsNaming naming_;
};

// The slot for a leaf, creating the struct objects on its path.
json* leaf_slot(json& parent, const ColumnPath& names) {
  json* at = &parent;
  for (const std::string& name : names) at = &(*at)[name];
  return at;
}

}  // namespace

const ColumnStats& FileStats::column(int leaf) const {
  static const ColumnStats empty;
  return leaf >= 0 && leaf < static_cast<int>(columns.size()) ? columns[leaf] : empty;
}

ColumnStats& FileStats::column_mut(int leaf) {
  if (leaf >= static_cast<int>(columns.size())) columns.resize(leaf + 1);
  return columns[leaf];
}

FileStats stats_from_json(const json& j, const Schema& schema, StatsNaming naming) {
  if (!j.is_object()) throw InputError("stats: expected a JSON object");
  FileStats stats;
  stats.columns.reserve(schema.leaves().size());
  if (auto it = j.find("numRecords"); it != j.end() && !it->is_null()) {
    stats.num_records = count_of(*it);
    if (!stats.num_records) wrong_type("numRecords", "a non-negative integer");
  }
  if (auto it = j.find("tightBounds"); it != j.end() && !it->is_null()) {
    if (!it->is_boolean()) wrong_type("tightBounds", "true or false");
    stats.tight_bounds = it->get<bool>();
  }
  StatsReader reader(stats, schema, naming);
  for (StatKind kind : {StatKind::Min, StatKind::Max, StatKind::NullCount}) {
    if (auto it = j.find(stat_key(kind)); it != j.end() && !it->is_null()) reader.read(kind, *it);
  }
  return stats;
}

FileStats stats_from_json_text(const std::string& text, const Schema& schema, StatsNaming naming) {
  json j;
  try {
    j = parse_json_exact(text);
  } catch (const json::parse_error& e) {
    throw InputError(std::string("stats: not valid JSON: ") + e.what(),
                     static_cast<int>(std::min<size_t>(e.byte, text.size() + 1)), text);
  }
  return stats_from_json(j, schema, naming);
}

json stats_to_json(const FileStats& s, const Schema& schema, StatsNaming naming) {
  json out = json::object();
  if (s.num_records) out["numRecords"] = *s.num_records;
  json mins = json::object(), maxes = json::object(), nulls = json::object();
  for (const Leaf& leaf : schema.leaves()) {
    const ColumnStats& c = s.column(leaf.ordinal);
    const ColumnPath& names = naming == StatsNaming::Physical ? leaf.physical_path : leaf.path;
    if (c.min) *leaf_slot(mins, names) = value_to_json(*c.min);
    if (c.max) *leaf_slot(maxes, names) = value_to_json(*c.max);
    if (c.null_count) *leaf_slot(nulls, names) = *c.null_count;
  }
  if (!mins.empty()) out["minValues"] = std::move(mins);
  if (!maxes.empty()) out["maxValues"] = std::move(maxes);
  if (!nulls.empty()) out["nullCount"] = std::move(nulls);
  if (s.tight_bounds) out["tightBounds"] = *s.tight_bounds;
  return out;
}

}  // namespace skipsound
