#include "generators/schema_gen.h"

#include <algorithm>

#include "generators/combinators.h"
#include "generators/value_gen.h"

namespace skipsound::generators {
namespace {

constexpr int kMaxStructDepth = 2;

rc::Gen<DataType> column_type(int depth);

rc::Gen<StructField> unnamed_field(int depth) {
  return rc::gen::apply(
      [](DataType type, bool nullable) { return StructField{"", std::move(type), nullable, ""}; },
      column_type(depth), rc::gen::weightedElement<bool>({{5, true}, {1, false}}));
}

rc::Gen<DataType> struct_type(int depth) {
  return rc::gen::map(
      vector_of<StructField>(1, 3, unnamed_field(depth)),
      [](std::vector<StructField> fields) {
        DataType t = DataType::of(TypeKind::Struct);
        t.fields = std::move(fields);
        return t;
      });
}

rc::Gen<DataType> column_type(int depth) {
  if (depth >= kMaxStructDepth) return primitive_type();
  return rc::gen::weightedOneOf<DataType>(
      {{6, primitive_type()},
       {1, rc::gen::lazy([depth] { return struct_type(depth + 1); })}});
}

void name_fields(std::vector<StructField>& fields, const std::string& prefix) {
  for (size_t i = 0; i < fields.size(); ++i) {
    fields[i].name = prefix + std::to_string(i);
    if (fields[i].type.kind == TypeKind::Struct) name_fields(fields[i].type.fields, "f");
  }
}

// Column mapping in name mode after renames (RENAME c0 TO tmp, c1 TO c0, ...): each top-level
// column's physical name is the logical name of the next one, so a reader that looks stats up by
// logical name finds another column's (docs/semantics.md §4.7: stats are keyed by physical names).
void rotate_physical_names(std::vector<StructField>& fields) {
  if (fields.size() < 2) return;
  for (size_t i = 0; i < fields.size(); ++i) fields[i].physical_name = fields[(i + 1) % fields.size()].name;
}

}  // namespace

rc::Gen<Schema> schema() {
  return rc::gen::apply(
      [](std::vector<StructField> fields, bool mapped) {
        name_fields(fields, "c");
        if (mapped) rotate_physical_names(fields);
        return Schema(std::move(fields));
      },
      vector_of<StructField>(1, 6, unnamed_field(0)), rc::gen::weightedElement<bool>({{3, false}, {1, true}}));
}

bool is_partition_leaf(const Leaf& leaf, const StatsConfig& config) {
  return std::find(config.partition_columns.begin(), config.partition_columns.end(),
                   leaf.path.front()) != config.partition_columns.end();
}

rc::Gen<StatsConfig> stats_config_for(const Schema& schema) {
  std::vector<std::string> partition_candidates;
  // Partition values are logged as JSON strings (proofs/perfile/per_file_log.h), which binary bytes are not.
  for (const StructField& f : schema.fields()) {
    if (f.type.kind != TypeKind::Struct && f.type.kind != TypeKind::Binary) partition_candidates.push_back(f.name);
  }
  std::vector<ColumnPath> leaf_paths;
  for (const Leaf& leaf : schema.leaves()) leaf_paths.push_back(leaf.path);

  // Partition columns: each top-level primitive column with probability 1/6, but never all of
  // the schema's leaves, so a data column always remains.
  auto partitions = rc::gen::map(
      rc::gen::container<std::vector<int>>(partition_candidates.size(), uniform_in(0, 6)),
      [partition_candidates, total = schema.leaves().size()](const std::vector<int>& dice) {
        std::vector<std::string> chosen;
        for (size_t i = 0; i < dice.size(); ++i) {
          if (dice[i] == 0 && chosen.size() + 1 < total) chosen.push_back(partition_candidates[i]);
        }
        return chosen;
      });
  auto num_indexed = rc::gen::weightedElement<int>({{6, 32}, {2, -1}, {1, 0}, {2, 1}, {2, 2}, {2, 3}});
  using Columns = std::optional<std::vector<ColumnPath>>;
  auto stats_columns = rc::gen::weightedOneOf<Columns>(
      {{7, rc::gen::just(Columns())},
       {1, rc::gen::map(vector_of<ColumnPath>(0, 2, rc::gen::elementOf(leaf_paths)),
                        [](std::vector<ColumnPath> paths) { return Columns(std::move(paths)); })}});
  return rc::gen::apply(
      [](std::vector<std::string> partition_columns, int num_indexed_cols, Columns columns) {
        StatsConfig config;
        config.num_indexed_cols = num_indexed_cols;
        config.stats_columns = std::move(columns);
        config.partition_columns = std::move(partition_columns);
        return config;
      },
      partitions, num_indexed, stats_columns);
}

rc::Gen<TableShape> table_shape() {
  return rc::gen::mapcat(schema(), [](const Schema& s) {
    return rc::gen::map(stats_config_for(s),
                        [s](StatsConfig config) { return TableShape{s, std::move(config)}; });
  });
}

}  // namespace skipsound::generators
