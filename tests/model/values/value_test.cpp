#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "model/values/value.h"

namespace skipsound {
namespace {

Value dbl(double d) { return Value::floating(TypeKind::Double, d); }
Value flt(double d) { return Value::floating(TypeKind::Float, d); }
Value lng(int64_t v) { return Value::integral(TypeKind::Long, v); }
Value dec(const std::string& text) {
  Decimal d = parse_decimal(text);
  return Value::decimal(d, std::max(decimal_digits(d), d.scale));
}
Value str(std::string s) { return Value::string(std::move(s)); }

int order(const Value& a, const Value& b) {
  auto o = spark_compare(a, b);
  EXPECT_TRUE(o.has_value());
  return *o < 0 ? -1 : (*o > 0 ? 1 : 0);
}

const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

TEST(SparkOrder, NaNIsGreatestAndEqualToItself) {
  EXPECT_EQ(order(dbl(kNaN), dbl(kNaN)), 0);
  EXPECT_EQ(order(dbl(kNaN), dbl(kInf)), 1);
  EXPECT_EQ(order(dbl(kInf), dbl(kNaN)), -1);
  EXPECT_EQ(order(flt(kNaN), dbl(kNaN)), 0);
  EXPECT_EQ(order(dbl(kNaN), lng(std::numeric_limits<int64_t>::max())), 1);
  EXPECT_EQ(order(dec("99999999999999999999999999999999999999"), dbl(kNaN)), -1);
}

TEST(SparkOrder, SignedZerosAreEqual) {
  EXPECT_EQ(order(dbl(-0.0), dbl(0.0)), 0);
  EXPECT_EQ(order(dbl(-0.0), lng(0)), 0);
  EXPECT_EQ(order(dec("0.000"), dbl(-0.0)), 0);
  EXPECT_FALSE(dbl(-0.0) == dbl(0.0)) << "structural equality keeps the sign";
}

TEST(SparkOrder, Infinities) {
  EXPECT_EQ(order(dbl(-kInf), lng(std::numeric_limits<int64_t>::min())), -1);
  EXPECT_EQ(order(dbl(kInf), dec("99999999999999999999999999999999999999")), 1);
  EXPECT_EQ(order(dbl(-kInf), dbl(-std::numeric_limits<double>::max())), -1);
}

TEST(SparkOrder, Int64ExtremesAgainstDoubles) {
  const int64_t max = std::numeric_limits<int64_t>::max();
  const int64_t min = std::numeric_limits<int64_t>::min();
  // (double)INT64_MAX rounds up to 2^63: the long is strictly below it.
  EXPECT_EQ(order(lng(max), dbl(static_cast<double>(max))), -1);
  EXPECT_EQ(order(lng(min), dbl(-9223372036854775808.0)), 0);
  EXPECT_EQ(order(lng(max - 1), lng(max)), -1);
  EXPECT_EQ(order(lng((int64_t{1} << 53) + 1), dbl(9007199254740992.0)), 1);
  EXPECT_EQ(order(lng(3), dbl(2.5)), 1);
  EXPECT_EQ(order(lng(-3), dbl(-2.5)), -1);
}

TEST(SparkOrder, DecimalsAgainstDoublesAreExact) {
  // 0.1 as a double is 0.1000000000000000055511151231257827...
  EXPECT_EQ(order(dec("0.1"), dbl(0.1)), -1);
  EXPECT_EQ(order(dec("0.1000000000000000055511151231257828"), dbl(0.1)), 1);
  EXPECT_EQ(order(dec("0.5"), dbl(0.5)), 0);
  EXPECT_EQ(order(dec("-0.5"), dbl(0.25)), -1);
  EXPECT_EQ(order(dec("-2.9546424000000000000E-17"), dbl(-2.9546424e-17)), 1);
  EXPECT_EQ(order(dec("1.50"), dec("1.5")), 0);
  EXPECT_EQ(order(dec("-1.51"), dec("-1.5")), -1);
  EXPECT_EQ(order(dec("12345678901234567890123456789012345678"), dec("0.00000000000000000000000000000000000001")), 1);
  EXPECT_EQ(order(dec("7"), lng(7)), 0);
}

TEST(SparkOrder, StringsByUnsignedUtf8Bytes) {
  const std::string del = "\x7F";
  const std::string e_acute = "\xC3\xA9";         // U+00E9
  const std::string max_cp = "\xF4\x8F\xBF\xBF";  // U+10FFFF
  const std::string cjk = "\xE4\xB8\xAD";         // U+4E2D
  EXPECT_EQ(order(str("a"), str(del)), -1);
  EXPECT_EQ(order(str(del), str(e_acute)), -1);
  EXPECT_EQ(order(str(e_acute), str(cjk)), -1);
  EXPECT_EQ(order(str(cjk), str(max_cp)), -1);
  EXPECT_EQ(order(str("ab"), str("abc")), -1);
  EXPECT_EQ(order(str(""), str("a")), -1);
  EXPECT_EQ(order(Value::binary("\xFF"), Value::binary("\x01\x02")), 1);
}

TEST(SparkOrder, NullComparesToNothing) {
  EXPECT_FALSE(spark_compare(Value::null(), lng(1)).has_value());
  EXPECT_FALSE(spark_compare(str("x"), Value::null(DataType::of(TypeKind::String))).has_value());
  EXPECT_THROW(spark_compare(str("1"), lng(1)), std::invalid_argument);
}

TEST(Decimals, ParseAndPrintExactly) {
  EXPECT_EQ(decimal_to_string(parse_decimal("-2.9546424000000000000E-17")),
            "-0.000000000000000029546424000000000000");
  EXPECT_EQ(parse_decimal("-2.9546424000000000000E-17").scale, 36);
  EXPECT_EQ(decimal_to_string(parse_decimal("-5.67800")), "-5.67800");
  EXPECT_EQ(decimal_to_string(parse_decimal("1E3")), "1000");
  EXPECT_EQ(decimal_to_string(parse_decimal("+.5")), "0.5");
  EXPECT_EQ(decimal_to_string(parse_decimal("99999999999999999999999999999999999999")),
            "99999999999999999999999999999999999999");
  EXPECT_THROW(parse_decimal("999999999999999999999999999999999999999"), std::invalid_argument);
  EXPECT_THROW(parse_decimal("1.2.3"), std::invalid_argument);
  EXPECT_THROW(parse_decimal(""), std::invalid_argument);
  EXPECT_THROW(parse_decimal("1e"), std::invalid_argument);
  EXPECT_EQ(rescale_decimal(parse_decimal("1.50"), 1), (Decimal{15, 1}));
  EXPECT_FALSE(rescale_decimal(parse_decimal("1.55"), 1).has_value());
}

TEST(SqlLiterals, SuffixesAndSpecialForms) {
  EXPECT_EQ(to_sql_literal(Value::integral(TypeKind::Byte, -128)), "-128Y");
  EXPECT_EQ(to_sql_literal(Value::integral(TypeKind::Short, 7)), "7S");
  EXPECT_EQ(to_sql_literal(Value::integral(TypeKind::Int, 7)), "7");
  EXPECT_EQ(to_sql_literal(lng(std::numeric_limits<int64_t>::min())), "-9223372036854775808L");
  EXPECT_EQ(to_sql_literal(dbl(1.5)), "1.5D");
  EXPECT_EQ(to_sql_literal(dbl(1e300)), "1E300D");
  EXPECT_EQ(to_sql_literal(dbl(3)), "3.0D");
  EXPECT_EQ(to_sql_literal(flt(0.1)), "0.1F");
  EXPECT_EQ(to_sql_literal(dbl(kNaN)), "CAST('NaN' AS DOUBLE)");
  EXPECT_EQ(to_sql_literal(flt(-kInf)), "CAST('-Infinity' AS FLOAT)");
  EXPECT_EQ(to_sql_literal(dec("1.50")), "1.50BD");
  EXPECT_EQ(to_sql_literal(Value::decimal(parse_decimal("1.50"), 10)), "CAST(1.50BD AS DECIMAL(10,2))");
  EXPECT_EQ(to_sql_literal(str("it's\n")), "'it''s\\n'");
  EXPECT_EQ(to_sql_literal(str(std::string("a\x01", 2))), "'a\\u0001'");
  EXPECT_EQ(to_sql_literal(Value::binary("\x0A\xFF")), "X'0AFF'");
  EXPECT_EQ(to_sql_literal(Value::integral(TypeKind::Date, 18262)), "DATE '2020-01-01'");
  EXPECT_EQ(to_sql_literal(Value::integral(TypeKind::Timestamp, 1577836800000001)),
            "TIMESTAMP '2020-01-01 00:00:00.000001'");
  EXPECT_EQ(to_sql_literal(Value::integral(TypeKind::TimestampNtz, 1577836800000000)),
            "TIMESTAMP_NTZ '2020-01-01 00:00:00'");
  EXPECT_EQ(to_sql_literal(Value::null(DataType::of(TypeKind::Int))), "CAST(NULL AS int)");
  EXPECT_EQ(to_sql_literal(Value::null()), "NULL");
}

TEST(ThreeValuedLogic, FullTables) {
  const Truth T = Truth::True, F = Truth::False, N = Truth::Null;
  const Truth all[] = {T, F, N};
  // Expected tables written out by hand (rows: a, columns: b in order T F N).
  const Truth and_table[3][3] = {{T, F, N}, {F, F, F}, {N, F, N}};
  const Truth or_table[3][3] = {{T, T, T}, {T, F, N}, {T, N, N}};
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      EXPECT_EQ(truth_and(all[i], all[j]), and_table[i][j]) << i << "," << j;
      EXPECT_EQ(truth_or(all[i], all[j]), or_table[i][j]) << i << "," << j;
    }
  }
  EXPECT_EQ(truth_not(T), F);
  EXPECT_EQ(truth_not(F), T);
  EXPECT_EQ(truth_not(N), N);
  EXPECT_STREQ(truth_name(N), "NULL");
}

// Values drawn from the edges that break naive orderings.
rc::Gen<Value> edge_numeric() {
  return rc::gen::oneOf(
      rc::gen::map(rc::gen::element(0.0, -0.0, 0.5, -0.5, 1.0, 1e300, -1e-300, kNaN, kInf, -kInf,
                                    9223372036854775808.0, 0.1),
                   [](double d) { return dbl(d); }),
      rc::gen::map(rc::gen::element<int64_t>(0, 1, -1, std::numeric_limits<int64_t>::max(),
                                             std::numeric_limits<int64_t>::min()),
                   [](int64_t v) { return lng(v); }),
      rc::gen::map(rc::gen::arbitrary<int64_t>(), [](int64_t v) { return lng(v); }),
      rc::gen::map(rc::gen::element<std::string>("0.1", "-0.5", "0.500", "1E-30", "-7",
                                                 "9223372036854775807.5",
                                                 "12345678901234567890123456789012345678"),
                   [](std::string s) { return dec(s); }));
}

// Groups of values Spark orders equal, across types: independent draws almost never give
// a = b = c, so the chains the equality half of the property checks are drawn from these.
rc::Gen<std::vector<Value>> equal_numerics() {
  return rc::gen::elementOf(std::vector<std::vector<Value>>{
      {dbl(0.0), dbl(-0.0), lng(0), dec("0.000")},
      {dbl(1.0), lng(1), dec("1.0"), flt(1.0)},
      {dbl(-0.5), dec("-0.500"), flt(-0.5)},
      {dbl(9223372036854775808.0), dec("9223372036854775808")},
      {dbl(kNaN), flt(kNaN)},
  });
}

RC_GTEST_PROP(SparkOrder, IsATotalOrder, ()) {
  const bool equal_chain = *rc::gen::weightedElement<bool>({{3, false}, {1, true}});
  const std::vector<Value> group = *equal_numerics();
  const rc::Gen<Value> draw = equal_chain ? rc::gen::elementOf(group) : edge_numeric();
  const Value a = *draw, b = *draw, c = *draw;
  const auto sign = [](const Value& x, const Value& y) {
    const auto o = *spark_compare(x, y);
    return o < 0 ? -1 : (o > 0 ? 1 : 0);
  };
  const int ab = sign(a, b), ba = sign(b, a), bc = sign(b, c), ac = sign(a, c);
  const auto is_nan = [](const Value& v) { return is_floating(v.type.kind) && std::isnan(v.as_double()); };
  RC_CLASSIFY(a.type.kind != b.type.kind, "a and b of different types");
  RC_CLASSIFY(ab == 0 && a.type.kind != b.type.kind, "equal across types");
  RC_CLASSIFY(ab <= 0 && bc <= 0, "a <= b <= c (transitivity checked)");
  RC_CLASSIFY(ab == 0 && bc == 0, "a = b = c");
  RC_CLASSIFY(is_nan(a) || is_nan(b) || is_nan(c), "NaN");
  RC_ASSERT(ab == -ba);
  if (ab <= 0 && bc <= 0) RC_ASSERT(ac <= 0);
  if (ab == 0 && bc == 0) RC_ASSERT(ac == 0);
}

// The text's shapes: an integer, a point inside the digits, zeros after the point, a sign, and the
// int64 extremes (a size-scaled arbitrary<int64_t> alone rarely reaches 19 digits).
RC_GTEST_PROP(Decimals, TextRoundTrips, ()) {
  const int64_t unscaled = *rc::gen::weightedOneOf<int64_t>(
      {{3, rc::gen::arbitrary<int64_t>()},
       {1, rc::gen::element<int64_t>(0, -1, std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max())}});
  const int scale = *rc::gen::elementOf(std::vector<int>{0, 1, 2, 3, 5, 10, 18, 19});
  const Decimal d{unscaled, scale};
  const size_t digits = std::to_string(unscaled).size() - (unscaled < 0 ? 1 : 0);
  RC_TAG(scale == 0 ? "integer" : static_cast<size_t>(scale) >= digits ? "0.xxx" : "point inside the digits");
  RC_CLASSIFY(unscaled < 0, "negative");
  RC_CLASSIFY(digits >= 19, "19 digits");
  const Decimal back = parse_decimal(decimal_to_string(d));
  RC_ASSERT(back == d);
}

}  // namespace
}  // namespace skipsound
