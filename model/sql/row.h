// A row: one value per schema leaf, read from and written to JSON objects nested like the schema.
#pragma once
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "model/sql/schema.h"
#include "model/values/value.h"

namespace skipsound {

using Row = std::vector<Value>;  // indexed by Leaf::ordinal; absent columns are NULL

// Reads {"a":1,"s":{"b":"x"}}; missing keys are NULL. Throws InputError naming the column.
Row row_from_json(const nlohmann::json& j, const Schema& schema);
nlohmann::json row_to_json(const Row& row, const Schema& schema);

// Converts a JSON scalar to a value of `type` (numbers, strings for dates/timestamps/decimals,
// "NaN"/"Infinity"/"-Infinity" for floating point). Throws InputError.
Value value_from_json(const nlohmann::json& j, const DataType& type);
nlohmann::json value_to_json(const Value& v);

}  // namespace skipsound
