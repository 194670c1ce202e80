// A file's statistics in Delta's format (docs/semantics.md §4.1): every field optional, nested like the schema.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "model/values/input_error.h"
#include "model/sql/schema.h"
#include "model/values/value.h"

namespace skipsound {

struct ColumnStats {
  std::optional<Value> min;
  std::optional<Value> max;
  std::optional<int64_t> null_count;
  bool operator==(const ColumnStats& o) const = default;
};

struct FileStats {
  std::optional<int64_t> num_records;  // physical rows, deleted ones included
  std::optional<bool> tight_bounds;    // absent reads as true (PROTOCOL.md)
  std::vector<ColumnStats> columns;    // by Leaf::ordinal; may be shorter than the schema

  const ColumnStats& column(int leaf) const;  // an empty ColumnStats when out of range
  ColumnStats& column_mut(int leaf);          // grows `columns` as needed
  bool wide() const { return tight_bounds.has_value() && !*tight_bounds; }
  bool operator==(const FileStats& o) const = default;
};

// How stats JSON names its columns: logical names, or physical names under column mapping.
enum class StatsNaming { Logical, Physical };

// Parses Delta's stats JSON. Unknown columns are ignored (a stats file may predate a schema
// change); wrong value types are InputError naming the JSON path (e.g. "maxValues.s.l").
// Timestamps are read with their offset and converted to UTC microseconds.
FileStats stats_from_json(const nlohmann::json& j, const Schema& schema,
                          StatsNaming naming = StatsNaming::Logical);
// An injected input-path mutant of the stats reader (model/mutants/fault_injection.h) misreads the text.
FileStats stats_from_json_text(const std::string& text, const Schema& schema,
                               StatsNaming naming = StatsNaming::Logical);
nlohmann::json stats_to_json(const FileStats& s, const Schema& schema,
                             StatsNaming naming = StatsNaming::Logical);

}  // namespace skipsound
