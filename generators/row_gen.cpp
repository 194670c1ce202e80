#include "generators/row_gen.h"

#include "generators/combinators.h"
#include "generators/value_gen.h"

namespace skipsound::generators {
namespace {

using Column = std::vector<Value>;

enum class NullRate { Never, Sometimes, Always };

rc::Gen<Value> cell(const Leaf& leaf, const std::vector<Value>& pool, NullRate rate) {
  const Value null = Value::null(leaf.type);
  if (rate == NullRate::Always && leaf.nullable) return rc::gen::just(null);
  const bool may_be_null = rate == NullRate::Sometimes && leaf.nullable;
  return rc::gen::weightedOneOf<Value>({{3, rc::gen::elementOf(pool)},
                                        {1, value_of(leaf.type)},
                                        {may_be_null ? 2u : 0u, rc::gen::just(null)}});
}

rc::Gen<Column> column_of(const Leaf& leaf, std::size_t rows, bool partition) {
  auto rate = rc::gen::weightedElement<NullRate>(
      {{3, NullRate::Never}, {3, NullRate::Sometimes}, {1, NullRate::Always}});
  auto pool = vector_of<Value>(1, 3, value_of(leaf.type));
  return rc::gen::mapcat(rc::gen::pair(pool, rate), [leaf, rows, partition](const auto& pr) {
    const auto& [values, null_rate] = pr;
    if (partition) {  // one value for the whole file
      return rc::gen::map(cell(leaf, values, null_rate),
                          [rows](const Value& v) { return Column(rows, v); });
    }
    return rc::gen::container<Column>(rows, cell(leaf, values, null_rate));
  });
}

std::vector<Row> transpose(const std::vector<Column>& columns, std::size_t rows) {
  std::vector<Row> out(rows);
  for (std::size_t r = 0; r < rows; ++r) {
    for (const Column& column : columns) out[r].push_back(column[r]);
  }
  return out;
}

rc::Gen<std::vector<Row>> rows_of_count(const TableShape& table, std::size_t rows) {
  std::vector<rc::Gen<Column>> columns;
  for (const Leaf& leaf : table.schema.leaves()) {
    columns.push_back(column_of(leaf, rows, is_partition_leaf(leaf, table.stats_config)));
  }
  // Chained with apply (not mapcat) so each column shrinks on its own.
  rc::Gen<std::vector<Column>> all = rc::gen::just(std::vector<Column>());
  for (const auto& column : columns) {
    all = rc::gen::apply(
        [](std::vector<Column> prefix, Column next) {
          prefix.push_back(std::move(next));
          return prefix;
        },
        all, column);
  }
  return rc::gen::map(all, [rows](const std::vector<Column>& cs) { return transpose(cs, rows); });
}

}  // namespace

rc::Gen<std::vector<Row>> rows_for(const TableShape& table) {
  auto count = rc::gen::weightedOneOf<std::size_t>(
      {{1, rc::gen::just<std::size_t>(0)}, {12, uniform_in<std::size_t>(1, 9)}});
  return rc::gen::mapcat(count, [table](std::size_t n) { return rows_of_count(table, n); });
}

}  // namespace skipsound::generators
