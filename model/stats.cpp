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

int64_t count_from_json(const json& j, const std::string& path) {
  if (j.is_number_unsigned()) {
    if (j.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX)) wrong_type(path, "a count");
    return static_cast<int64_t>(j.get<uint64_t>());
  }
  if (!j.is_number_integer() || j.get<int64_t>() < 0) wrong_type(path, "a non-negative integer");
  return j.get<int64_t>();
}

// Walks the schema below one of minValues / maxValues / nullCount. Every leaf advances
// `ordinal`, present in the JSON or not, so ordinals line up with Schema::leaves().
class StatsReader {
 public:
  StatsReader(FileStats& out, const Schema& schema, StatsNaming naming)
      : out_(out), schema_(schema), naming_(naming) {}

  void read(StatKind kind, const json& section) {
    const std::string path = stat_key(kind);
    if (!section.is_object()) wrong_type(path, "an object");
    int ordinal = 0;
    read_fields(kind, &section, schema_.fields(), path, ordinal);
  }

 private:
  void read_fields(StatKind kind, const json* object, const std::vector<StructField>& fields,
                   const std::string& path, int& ordinal) {
    for (const StructField& f : fields) {
      const json* value = nullptr;
      if (object != nullptr) {
        auto it = object->find(key_of(f, naming_));
        if (it != object->end() && !it->is_null()) value = &*it;
      }
      if (f.type.kind != TypeKind::Struct) {
        if (value != nullptr) read_leaf(kind, *value, path + "." + key_of(f, naming_), ordinal);
        ++ordinal;
        continue;
      }
      const std::string inner = path + "." + key_of(f, naming_);
      if (value != nullptr && !value->is_object()) wrong_type(inner, "an object for a struct");
      read_fields(kind, value, f.type.fields, inner, ordinal);
    }
  }

  void read_leaf(StatKind kind, const json& j, const std::string& path, int ordinal) {
    const Leaf& leaf = schema_.leaves()[ordinal];
    if (kind == StatKind::NullCount) {
      out_.column_mut(ordinal).null_count = count_from_json(j, path);
      return;
    }
    // Writers never record min/max for boolean, binary, arrays or maps (SPEC §4).
    if (!has_min_max(leaf.type.kind)) return;
    Value v;
    try {
      v = value_from_json(j, leaf.type);
    } catch (const InputError& e) {
      throw InputError("stats: " + path + ": " + e.message());
    }
    ColumnStats& c = out_.column_mut(ordinal);
    (kind == StatKind::Min ? c.min : c.max) = std::move(v);
  }

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
  if (auto it = j.find("numRecords"); it != j.end() && !it->is_null()) {
    stats.num_records = count_from_json(*it, "numRecords");
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
