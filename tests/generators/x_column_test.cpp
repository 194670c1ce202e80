// The worlds' x column (generators/x_column.h): for every type, a rank's JSON row value and its SQL
// literal are the same value, ranks keep their order in Spark's order (so the world generators'
// bands and thresholds keep their shape), and the stats edges the types are there for are hit.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "generators/x_column.h"
#include "model/sql/binder.h"
#include "model/sql/evaluator.h"
#include "model/sql/row.h"
#include "model/sql/schema.h"
#include "model/values/utf8.h"

namespace skipsound::generators {
namespace {

constexpr int kLowestRank = -1;   // boundary_x's lowest
constexpr int kHighestRank = 46;  // a BETWEEN's upper end over the top rank

Schema schema_of(XType type) {
  return Schema({StructField{"x", parse_type_name(x_type_sql(type)), true, ""}});
}

Value value_at(XType type, int rank, const Schema& schema) {
  return value_from_json(nlohmann::json::parse(x_json(type, rank)), schema.leaves().front().type);
}

TEST(XColumn, TheLiteralAndTheRowValueOfARankAreEqual) {
  for (XType type : all_x_types()) {
    const Schema schema = schema_of(type);
    for (int rank = kLowestRank; rank <= kHighestRank; ++rank) {
      SCOPED_TRACE(std::string(x_type_sql(type)) + " rank " + std::to_string(rank));
      const Row row{value_at(type, rank, schema)};
      // <=> so that NaN = NaN holds as Spark's order has it.
      EXPECT_EQ(evaluate(*parse_and_bind("x <=> " + x_literal(type, rank), schema), row), Truth::True);
    }
  }
}

TEST(XColumn, RanksKeepTheirOrderInEveryType) {
  for (XType type : all_x_types()) {
    const Schema schema = schema_of(type);
    for (int rank = kLowestRank; rank < kHighestRank; ++rank) {
      SCOPED_TRACE(std::string(x_type_sql(type)) + " rank " + std::to_string(rank));
      const auto order = spark_compare(value_at(type, rank, schema), value_at(type, rank + 1, schema));
      ASSERT_TRUE(order.has_value());
      // Doubles stop growing at NaN, the greatest double; every other rank is strictly below the next.
      const bool both_nan = type == XType::Double && rank >= kDoubleNanRank;
      EXPECT_EQ(*order, both_nan ? std::strong_ordering::equal : std::strong_ordering::less);
    }
  }
}

TEST(XColumn, TheValuesSitOnTheStatsEdges) {
  const Schema strings = schema_of(XType::String);
  // Longer than the 32-character stats prefix, with a surrogate pair inside it.
  EXPECT_GT(code_point_count(value_at(XType::String, 5, strings).as_string()), 32u);
  EXPECT_EQ(x_json(XType::Double, 0), "-0.0");
  EXPECT_EQ(x_json(XType::Double, kDoubleNanRank), "\"NaN\"");
  EXPECT_EQ(x_literal(XType::Date, 9), "DATE '2024-02-29'");  // the leap day
  EXPECT_EQ(x_literal(XType::Timestamp, 19), "TIMESTAMP '2024-03-10 01:59:59.999750'");
  EXPECT_EQ(x_literal(XType::Timestamp, 20), "TIMESTAMP '2024-03-10 02:00:00.000000'");
  EXPECT_EQ(x_literal(XType::Decimal, -1), "-0.25");
}

}  // namespace
}  // namespace skipsound::generators
