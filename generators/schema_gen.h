// RapidCheck generators for tables: a schema (nested structs, every primitive type, partition
// columns) with the stats configuration its writers follow (docs/semantics.md §4.2), often indexing fewer
// leaves than the schema has.
#pragma once
#include <rapidcheck.h>

#include "model/sql/schema.h"
#include "model/stats/stats_collection.h"

namespace skipsound::generators {

struct TableShape {
  Schema schema;
  StatsConfig stats_config;
};

// Top-level columns are named c0, c1, ...; struct fields f0, f1, ... (so paths read c2.f1).
rc::Gen<Schema> schema();
rc::Gen<StatsConfig> stats_config_for(const Schema& schema);
rc::Gen<TableShape> table_shape();

// Whether `leaf` is (inside) one of the config's partition columns.
bool is_partition_leaf(const Leaf& leaf, const StatsConfig& config);

}  // namespace skipsound::generators
