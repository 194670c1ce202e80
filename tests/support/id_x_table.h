// The two-column table of the transaction tests: `id` (long) and `x` (int).
#pragma once
#include <cstdint>

#include "model/sql/row.h"
#include "model/sql/schema.h"

namespace skipsound::test {

inline Schema id_x_schema() {
  return Schema({StructField{"id", DataType::of(TypeKind::Long), true, {}},
                 StructField{"x", DataType::of(TypeKind::Int), true, {}}});
}

inline Row id_x_row(int64_t id, int64_t x) {
  return Row{Value::integral(TypeKind::Long, id), Value::integral(TypeKind::Int, x)};
}

}  // namespace skipsound::test
