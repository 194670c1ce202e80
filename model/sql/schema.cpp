#include "model/sql/schema.h"

#include "model/sql/parser.h"
#include "model/values/ascii_text.h"
#include "model/values/exact_json.h"

#include <algorithm>
#include <cctype>

#include <nlohmann/json.hpp>

namespace skipsound {

namespace {

using nlohmann::json;

constexpr const char* kPhysicalNameKey = "delta.columnMapping.physicalName";

[[noreturn]] void fail(const std::string& where, const std::string& problem) {
  throw SchemaError("schema JSON at " + (where.empty() ? std::string("top level") : where) +
                    ": " + problem);
}

const json& member(const json& object, const char* key, const std::string& where) {
  auto it = object.find(key);
  if (it == object.end()) fail(where, std::string("missing \"") + key + "\"");
  return *it;
}

bool optional_bool(const json& object, const char* key, const std::string& where) {
  auto it = object.find(key);
  if (it == object.end()) return true;
  if (!it->is_boolean()) fail(where + "." + key, "expected true or false");
  return it->get<bool>();
}

DataType type_from_json(const json& j, const std::string& where);

// Spark refuses a struct with two fields of one name (compared case-insensitively), and Delta's
// column mapping two of one physical name: stats and partition values are keyed by the name, so
// two such columns would share them.
void refuse_duplicate(const std::vector<StructField>& earlier, const StructField& field, const std::string& at) {
  for (const StructField& e : earlier) {
    if (ascii_iequals(e.name, field.name)) fail(at + ".name", "duplicate field name \"" + field.name + "\"");
    if (!field.physical_name.empty() && e.physical_name == field.physical_name) {
      fail(at + ".metadata", "duplicate physicalName \"" + field.physical_name + "\"");
    }
  }
}

std::vector<StructField> fields_from_json(const json& j, const std::string& where) {
  const json& fields = member(j, "fields", where);
  if (!fields.is_array()) fail(where + ".fields", "expected an array");
  std::vector<StructField> out;
  for (size_t i = 0; i < fields.size(); ++i) {
    const std::string at = where + (where.empty() ? "" : ".") + "fields[" + std::to_string(i) + "]";
    const json& f = fields[i];
    if (!f.is_object()) fail(at, "expected a field object");
    const json& name = member(f, "name", at);
    if (!name.is_string()) fail(at + ".name", "expected a string");
    StructField field;
    field.name = name.get<std::string>();
    field.type = type_from_json(member(f, "type", at), at + ".type");
    field.nullable = optional_bool(f, "nullable", at);
    auto metadata = f.find("metadata");
    if (metadata != f.end() && metadata->is_object()) {
      auto physical = metadata->find(kPhysicalNameKey);
      if (physical != metadata->end()) {
        if (!physical->is_string()) fail(at + ".metadata", "physicalName must be a string");
        field.physical_name = physical->get<std::string>();
      }
    }
    refuse_duplicate(out, field, at);
    out.push_back(std::move(field));
  }
  return out;
}

DataType type_from_json(const json& j, const std::string& where) {
  if (j.is_string()) {
    try {
      return parse_type_name(j.get<std::string>());
    } catch (const std::invalid_argument& e) {
      fail(where, e.what());
    }
  }
  if (!j.is_object()) fail(where, "expected a type name or a type object");
  const json& kind = member(j, "type", where);
  if (!kind.is_string()) fail(where + ".type", "expected a string");
  const std::string k = kind.get<std::string>();
  if (k == "struct") {
    DataType t = DataType::of(TypeKind::Struct);
    t.fields = fields_from_json(j, where);
    return t;
  }
  if (k == "array") {
    return DataType::array(type_from_json(member(j, "elementType", where), where + ".elementType"),
                           optional_bool(j, "containsNull", where));
  }
  if (k == "map") {
    return DataType::map(type_from_json(member(j, "keyType", where), where + ".keyType"),
                         type_from_json(member(j, "valueType", where), where + ".valueType"),
                         optional_bool(j, "valueContainsNull", where));
  }
  fail(where + ".type", "unknown nested type \"" + k + "\"");
}

// Spark's JSON names differ from its simpleString for the integral types.
std::string json_type_name(const DataType& t) {
  switch (t.kind) {
    case TypeKind::Byte: return "byte";
    case TypeKind::Short: return "short";
    case TypeKind::Int: return "integer";
    case TypeKind::Long: return "long";
    case TypeKind::Null: return "null";
    default: return type_name(t);
  }
}

json fields_to_json(const std::vector<StructField>& fields);

json type_to_json(const DataType& t) {
  switch (t.kind) {
    case TypeKind::Struct: return json{{"type", "struct"}, {"fields", fields_to_json(t.fields)}};
    case TypeKind::Array:
      return json{{"type", "array"},
                  {"elementType", type_to_json(t.fields.at(0).type)},
                  {"containsNull", t.fields.at(0).nullable}};
    case TypeKind::Map:
      return json{{"type", "map"},
                  {"keyType", type_to_json(t.fields.at(0).type)},
                  {"valueType", type_to_json(t.fields.at(1).type)},
                  {"valueContainsNull", t.fields.at(1).nullable}};
    default: return json_type_name(t);
  }
}

json fields_to_json(const std::vector<StructField>& fields) {
  json out = json::array();
  for (const StructField& f : fields) {
    json metadata = json::object();
    if (!f.physical_name.empty()) metadata[kPhysicalNameKey] = f.physical_name;
    out.push_back(json{{"name", f.name},
                       {"type", type_to_json(f.type)},
                       {"nullable", f.nullable},
                       {"metadata", metadata}});
  }
  return out;
}

void collect_leaves(const std::vector<StructField>& fields, ColumnPath& path, ColumnPath& physical,
                    std::vector<Leaf>& out) {
  for (const StructField& f : fields) {
    path.push_back(f.name);
    physical.push_back(f.physical_name.empty() ? f.name : f.physical_name);
    if (f.type.kind == TypeKind::Struct) {
      collect_leaves(f.type.fields, path, physical, out);
    } else {
      out.push_back(Leaf{static_cast<int>(out.size()), path, physical, f.type, f.nullable});
    }
    path.pop_back();
    physical.pop_back();
  }
}

bool same_path(const ColumnPath& a, const ColumnPath& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), ascii_iequals);
}


size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1])});
      diagonal = above;
    }
  }
  return row[b.size()];
}

bool is_plain_identifier(const std::string& s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  });
}

}  // namespace

std::string path_to_sql(const ColumnPath& path) {
  std::string out;
  for (size_t i = 0; i < path.size(); ++i) {
    if (i > 0) out += '.';
    // Reserved words (AND, NULL, ...) are identifiers only when backquoted.
    if (is_plain_identifier(path[i]) && !is_reserved_word(path[i])) {
      out += path[i];
      continue;
    }
    out += '`';
    for (char c : path[i]) {
      if (c == '`') out += '`';  // a backquote inside backquotes is doubled
      out += c;
    }
    out += '`';
  }
  return out;
}

Schema::Schema(std::vector<StructField> fields) : fields_(std::move(fields)) {
  ColumnPath path, physical;
  collect_leaves(fields_, path, physical, leaves_);
}

Schema Schema::from_json(const json& j) {
  if (!j.is_object()) fail("", "expected a struct type object");
  auto kind = j.find("type");
  if (kind == j.end() || *kind != "struct") fail("type", "expected \"struct\"");
  return Schema(fields_from_json(j, ""));
}

Schema Schema::from_json_text(const std::string& text) {
  json j;
  try {
    j = parse_json_exact(text);
  } catch (const json::parse_error& e) {
    throw SchemaError(std::string("schema JSON is not valid JSON: ") + e.what());
  }
  return from_json(j);
}

json Schema::to_json() const { return json{{"type", "struct"}, {"fields", fields_to_json(fields_)}}; }

const Leaf* Schema::find_leaf(const ColumnPath& path) const {
  for (const Leaf& leaf : leaves_) {
    if (same_path(leaf.path, path)) return &leaf;
  }
  return nullptr;
}

const StructField* Schema::find_field(const ColumnPath& path) const {
  const std::vector<StructField>* level = &fields_;
  const StructField* found = nullptr;
  for (const std::string& part : path) {
    if (level == nullptr) return nullptr;
    auto it = std::find_if(level->begin(), level->end(), [&](const StructField& f) {
      return ascii_iequals(f.name, part);
    });
    if (it == level->end()) return nullptr;
    found = &*it;
    level = it->type.kind == TypeKind::Struct ? &it->type.fields : nullptr;
  }
  return found != nullptr && found->type.kind == TypeKind::Struct ? found : nullptr;
}

std::optional<ColumnPath> Schema::nearest(const ColumnPath& path) const {
  const std::string wanted = ascii_lower(path_to_sql(path));
  const Leaf* best = nullptr;
  size_t best_distance = 0;
  for (const Leaf& leaf : leaves_) {
    const size_t d = edit_distance(wanted, ascii_lower(path_to_sql(leaf.path)));
    if (best == nullptr || d < best_distance) {
      best = &leaf;
      best_distance = d;
    }
  }
  // A suggestion further away than a third of the name is noise, not a typo.
  if (best == nullptr || best_distance > std::max<size_t>(2, wanted.size() / 3)) return std::nullopt;
  return best->path;
}

}  // namespace skipsound
