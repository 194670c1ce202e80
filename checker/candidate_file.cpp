#include "checker/candidate_file.h"

namespace skipsound {

Row partition_row(const std::map<std::string, Value>& values, const Schema& schema) {
  Row row;
  row.reserve(schema.leaves().size());
  for (const Leaf& leaf : schema.leaves()) row.push_back(Value::null(leaf.type));
  for (const auto& [name, value] : values) {
    if (const Leaf* leaf = schema.find_leaf(ColumnPath{name})) row[leaf->ordinal] = value;
  }
  return row;
}

}  // namespace skipsound
