// A table schema: Spark's StructType, its leaves in order, and name resolution (docs/semantics.md §2.1, §4.2).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "model/values/types.h"

namespace skipsound {

using ColumnPath = std::vector<std::string>;  // logical names, outermost first

// Prints a path as SQL: a.b, `my col`.c (backquotes where a part is not a plain identifier).
std::string path_to_sql(const ColumnPath& path);

// A non-struct column reached through zero or more structs. Leaf ordinals follow the schema's
// depth-first order, which is the order Delta counts for dataSkippingNumIndexedCols.
struct Leaf {
  int ordinal = 0;
  ColumnPath path;           // logical
  ColumnPath physical_path;  // physical names (column mapping), equal to path when unmapped
  DataType type;
  bool nullable = true;
};

class Schema {
 public:
  Schema() = default;
  explicit Schema(std::vector<StructField> fields);

  // Spark's StructType JSON, the format of Delta's metaData.schemaString. Throws SchemaError.
  static Schema from_json(const nlohmann::json& j);
  static Schema from_json_text(const std::string& text);
  nlohmann::json to_json() const;

  const std::vector<StructField>& fields() const { return fields_; }
  const std::vector<Leaf>& leaves() const { return leaves_; }

  // Case-insensitive lookup as Spark does by default. Returns nullptr when absent.
  const Leaf* find_leaf(const ColumnPath& path) const;
  // A struct (non-leaf) column at this path, or nullptr.
  const StructField* find_field(const ColumnPath& path) const;
  // The existing leaf path nearest to `path` by case-insensitive edit distance (for "did you
  // mean"); nullopt when even the nearest differs in more than max(2, length/3) characters.
  std::optional<ColumnPath> nearest(const ColumnPath& path) const;

  bool operator==(const Schema& o) const { return fields_ == o.fields_; }

 private:
  std::vector<StructField> fields_;
  std::vector<Leaf> leaves_;
};

struct SchemaError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace skipsound
