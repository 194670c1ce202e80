#include "model/sql/binder.h"

#include <functional>

#include <gtest/gtest.h>

#include "tests/support/predicate_schema.h"

namespace skipsound {
namespace {

using skipsound::testing::predicate_schema;

ExprPtr bound(const std::string& text) { return parse_and_bind(text, predicate_schema()); }

std::pair<std::string, int> bind_error(const std::string& text) {
  try {
    bound(text);
  } catch (const InputError& e) {
    return {e.message(), e.column()};
  }
  ADD_FAILURE() << "bound without error: " << text;
  return {"", 0};
}

// The right-hand literal of a bound comparison.
Value rhs_literal(const std::string& text) {
  const ExprPtr e = bound(text);
  EXPECT_EQ(e->children[1]->kind, ExprKind::Literal) << text;
  EXPECT_EQ(e->children[1]->type, e->children[1]->literal.type) << text;
  return e->children[1]->literal;
}

DataType type_of_lhs(const std::string& text) { return bound(text)->children[0]->type; }

void for_each_node(const Expr& e, const std::function<void(const Expr&)>& visit) {
  visit(e);
  for (const ExprPtr& child : e.children) for_each_node(*child, visit);
}

TEST(Binder, ResolvesColumnsCaseInsensitivelyToTheSchemaSpelling) {
  const ExprPtr e = bound("ST.inner.Z = 'x' AND `MY COL` > 1");
  const Expr& z = *e->children[0]->children[0];
  EXPECT_EQ(z.path, (ColumnPath{"st", "Inner", "z"}));
  EXPECT_EQ(z.leaf, predicate_schema().find_leaf({"st", "Inner", "z"})->ordinal);
  EXPECT_EQ(z.type, DataType::of(TypeKind::String));
  EXPECT_EQ(e->children[1]->children[0]->path, (ColumnPath{"my col"}));
}

TEST(Binder, TypesEveryNode) {
  const ExprPtr e = bound("i + 1 > 2 AND upper(s) LIKE 'A%' OR NOT b AND dt IS NULL AND l IN (1, 2)");
  for_each_node(*e, [](const Expr& node) {
    EXPECT_NE(node.type.kind, TypeKind::Null) << static_cast<int>(node.kind);
  });
  EXPECT_EQ(e->type, DataType::of(TypeKind::Boolean));
}

TEST(Binder, UnknownColumnSuggestsTheNearestName) {
  EXPECT_EQ(bind_error("i = 1 AND fod = 1"),
            std::make_pair(std::string("unknown column `fod` (did you mean `food`?)"), 11));
  EXPECT_EQ(bind_error("zzzzzzzz = 1").first, "unknown column `zzzzzzzz`");
}

TEST(Binder, NestedColumnsCannotBeCompared) {
  EXPECT_EQ(bind_error("st = 1").first, "column `st` is a struct; use one of its fields");
  EXPECT_EQ(bind_error("1 < arr"), std::make_pair(std::string("cannot compare array<int> column arr"), 5));
  EXPECT_NO_THROW(bound("arr IS NULL"));
}

TEST(Binder, IncomparableTypesAreReportedAtTheOperator) {
  EXPECT_EQ(bind_error("s = 5"),
            std::make_pair(std::string("cannot compare string column s with integer literal 5"), 3));
  EXPECT_EQ(bind_error("b > 1").first, "cannot compare boolean column b with integer literal 1");
  EXPECT_EQ(bind_error("i IN (1, 'x')").first, "cannot compare integer column i with string literal 'x'");
  EXPECT_EQ(bind_error("dt = X'00'").first, "cannot compare date column dt with binary literal X'00'");
}

TEST(Binder, StringLiteralsBecomeTemporalValues) {
  EXPECT_EQ(rhs_literal("dt = '2020-01-01'"), Value::integral(TypeKind::Date, 18262));
  EXPECT_EQ(rhs_literal("ts >= '1970-01-01 00:00:01'"), Value::integral(TypeKind::Timestamp, 1000000));
  EXPECT_EQ(rhs_literal("ntz < '1970-01-01 00:00:00.5'"), Value::integral(TypeKind::TimestampNtz, 500000));
  EXPECT_EQ(bound("'2020-01-01' = dt")->children[0]->literal, Value::integral(TypeKind::Date, 18262));
  // Spark's non-ANSI CAST: a string that is no date is a NULL date, not an error.
  EXPECT_EQ(rhs_literal("dt = 'nope'"), Value::null(DataType::of(TypeKind::Date)));
  EXPECT_EQ(rhs_literal("ts < '2020-01-01T00:00:00Z'"), Value::integral(TypeKind::Timestamp, 1577836800000000LL));
  const ExprPtr between = bound("dt BETWEEN '2020-01-01' AND DATE '2020-12-31'");
  EXPECT_EQ(between->children[1]->literal, Value::integral(TypeKind::Date, 18262));
}

TEST(Binder, NumericLiteralsWidenToTheColumnTypeWhenExact) {
  EXPECT_EQ(rhs_literal("d = 5"), Value::floating(TypeKind::Double, 5.0));
  EXPECT_EQ(rhs_literal("d = 1.5"), Value::floating(TypeKind::Double, 1.5));  // Spark: decimal -> double
  EXPECT_EQ(rhs_literal("f = 5"), Value::floating(TypeKind::Float, 5.0));
  EXPECT_EQ(rhs_literal("l = 5"), Value::integral(TypeKind::Long, 5));
  EXPECT_EQ(rhs_literal("dec = 5"), Value::decimal(Decimal{500, 2}, 10));
  // Not exact: kept as written, compared exactly.
  EXPECT_EQ(rhs_literal("i = 1.5"), Value::decimal(Decimal{15, 1}, 2));
  EXPECT_EQ(rhs_literal("f = 16777217"), Value::integral(TypeKind::Int, 16777217));
  EXPECT_EQ(rhs_literal("d = 9007199254740993L"), Value::integral(TypeKind::Long, 9007199254740993LL));
  EXPECT_EQ(rhs_literal("dec = 123456789012L"), Value::integral(TypeKind::Long, 123456789012LL));
  EXPECT_EQ(rhs_literal("by = 5"), Value::integral(TypeKind::Int, 5));
  const ExprPtr in = bound("l IN (1, 2L, NULL)");
  EXPECT_EQ(in->children[1]->literal, Value::integral(TypeKind::Long, 1));
  EXPECT_TRUE(in->children[3]->literal.is_null());
}

TEST(Binder, LogicalOperandsMustBeBoolean) {
  EXPECT_EQ(bind_error("i AND b"),
            std::make_pair(std::string("AND needs boolean operands, not integer column i"), 1));
  EXPECT_EQ(bind_error("b OR s").first, "OR needs boolean operands, not string column s");
  EXPECT_EQ(bind_error("NOT 1").first, "NOT needs boolean operands, not integer literal 1");
  EXPECT_NO_THROW(bound("b"));
  EXPECT_NO_THROW(bound("NOT b AND NULL"));
  EXPECT_NO_THROW(bound("b = false OR `and`"));
  EXPECT_EQ(bind_error("i + 1").first, "a predicate must be boolean, not integer expression");
}

TEST(Binder, LikeNeedsStrings) {
  EXPECT_NO_THROW(bound("s LIKE 'a%' AND s NOT LIKE NULL"));
  EXPECT_EQ(bind_error("i LIKE 'a'").first, "LIKE needs string operands, not integer column i");
  EXPECT_EQ(bind_error("s LIKE 5").first, "LIKE needs string operands, not integer literal 5");
}

TEST(Binder, ArithmeticResultTypesFollowSpark) {
  EXPECT_EQ(type_of_lhs("i + i > 0"), DataType::of(TypeKind::Int));
  EXPECT_EQ(type_of_lhs("i + l > 0"), DataType::of(TypeKind::Long));
  EXPECT_EQ(type_of_lhs("i * d > 0"), DataType::of(TypeKind::Double));
  EXPECT_EQ(type_of_lhs("f - i > 0"), DataType::of(TypeKind::Float));
  EXPECT_EQ(type_of_lhs("i / i > 0"), DataType::of(TypeKind::Double));
  EXPECT_EQ(type_of_lhs("by + by > 0"), DataType::of(TypeKind::Byte));
  EXPECT_EQ(type_of_lhs("sh % i > 0"), DataType::of(TypeKind::Int));
  EXPECT_EQ(type_of_lhs("-sh > 0"), DataType::of(TypeKind::Short));
  // decimal(10,2) + int as decimal(10,0): scale 2, precision max(8, 10) + 2 + 1.
  EXPECT_EQ(type_of_lhs("dec + i > 0"), DataType::decimal(13, 2));
  EXPECT_EQ(type_of_lhs("dec * dec > 0"), DataType::decimal(21, 4));
  EXPECT_EQ(type_of_lhs("dec + d > 0"), DataType::of(TypeKind::Double));
  EXPECT_EQ(bind_error("s + 1 > 0").first, "arithmetic + needs numeric operands, not string column s");
}

TEST(Binder, CallsAndCasts) {
  const ExprPtr e = bound("rand() > 0.5");
  EXPECT_FALSE(e->children[0]->deterministic);
  EXPECT_EQ(e->children[0]->type, DataType::of(TypeKind::Double));
  EXPECT_EQ(e->children[1]->literal, Value::floating(TypeKind::Double, 0.5));
  EXPECT_EQ(type_of_lhs("length(s) > 1"), DataType::of(TypeKind::Int));
  EXPECT_EQ(type_of_lhs("abs(dec) > 1"), DataType::decimal(10, 2));
  EXPECT_EQ(type_of_lhs("coalesce(NULL, l) > 1"), DataType::of(TypeKind::Long));
  EXPECT_EQ(type_of_lhs("CAST(s AS date) > DATE '2020-01-01'"), DataType::of(TypeKind::Date));
  EXPECT_EQ(bind_error("upper(s, s) = 'A'"), std::make_pair(std::string("upper() takes 1 argument(s), not 2"), 1));
  EXPECT_EQ(bind_error("coalesce() IS NULL").first, "coalesce() takes at least 1 argument(s), not 0");
}

TEST(Binder, BindingIsIdempotent) {
  for (const char* text : {"dt = '2020-01-01' AND d > 5", "i = 1.5 OR `MY COL` IN (1, 2)",
                           "rand() < 0.1 AND ST.x BETWEEN 1 AND 5L"}) {
    const ExprPtr once = bound(text);
    EXPECT_TRUE(same_expr(bind(once, predicate_schema()), once)) << text;
  }
}

}  // namespace
}  // namespace skipsound
