#include "model/sql/printer.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <rapidcheck/gtest.h>

#include "model/sql/binder.h"
#include "model/sql/parser.h"
#include "model/values/utf8.h"
#include "tests/support/predicate_schema.h"

namespace skipsound {
namespace {

using skipsound::testing::predicate_schema;

ExprPtr col(std::string name) { return make_column({std::move(name)}); }
ExprPtr lit_int(int64_t v) { return make_literal(Value::integral(TypeKind::Int, v)); }

void expect_round_trip(const ExprPtr& e) {
  const std::string sql = to_sql(e);
  ExprPtr back;
  try {
    back = parse_predicate(sql);
  } catch (const InputError& error) {
    FAIL() << error.render();
  }
  EXPECT_TRUE(same_expr(back, e)) << sql << "\n  reprinted: " << to_sql(back);
}

TEST(Printer, SqlOfSpecialShapes) {
  EXPECT_EQ(to_sql(make_arith(ArithOp::Neg, {lit_int(5)})), "-(5)");
  EXPECT_EQ(to_sql(lit_int(-5)), "-5");
  EXPECT_EQ(to_sql(make_arith(ArithOp::Neg, {lit_int(-5)})), "- -5");
  EXPECT_EQ(to_sql(make_compare(CompareOp::Eq, make_column({"and", "my col"}), lit_int(1))),
            "`and`.`my col` = 1");
  EXPECT_EQ(to_sql(make_not(make_in(col("x"), {lit_int(1), lit_int(2)}))), "x NOT IN (1, 2)");
  EXPECT_EQ(to_sql(make_and(col("a"), make_or(col("b"), col("c")))), "a AND (b OR c)");
  EXPECT_EQ(to_sql(make_or(make_and(col("a"), col("b")), col("c"))), "a AND b OR c");
  EXPECT_EQ(to_sql(make_is_null(make_and(col("a"), col("b")))), "(a AND b) IS NULL");
  EXPECT_EQ(to_sql(make_cast(make_literal(Value::null()), DataType::of(TypeKind::Int))),
            "CAST((NULL) AS int)");
}

TEST(Printer, ParsedPredicatesRoundTrip) {
  for (const char* text :
       {"a OR b AND NOT c", "NOT NOT a", "a - (b - c) * -d % 2 <= 1", "(a = 1) = (b = 2)",
        "a NOT BETWEEN 1 + 1 AND (2 BETWEEN 0 AND 3)", "(a IS NULL) IS NOT NULL",
        "NOT a NOT IN (1, NULL, 'x')", "s LIKE 'it''s\\\\%' OR s NOT LIKE upper(t)",
        "CAST(a AS decimal(12,3)) > -1.50", "CAST(CAST(NULL AS int) AS string) IS NULL",
        "CAST('NaN' AS DOUBLE) = CAST(('NaN') AS DOUBLE)", "- - -a > - -5", "`we``ird`.x = DATE '2020-02-29'",
        "ts > TIMESTAMP '2020-01-01 10:00:00.123456' AND b = X'00FF'", "rand() > 0.5 AND coalesce(a, b)",
        "d = -0.0D OR d = 1E300D OR f = 1.25F OR x = 1Y + 2S + 3L"}) {
    SCOPED_TRACE(text);
    expect_round_trip(parse_predicate(text));
  }
}

TEST(Printer, BoundPredicatesRoundTripThroughTheBinder) {
  for (const char* text : {"dt = '2020-01-01' AND d > 5 OR `MY COL` IN (1, 2L)",
                           "st.INNER.z LIKE 'a%' AND `and` AND dec BETWEEN 1 AND 2.5",
                           "i + l * 2 > 3 AND NOT (f <=> 1.5) AND date > 0"}) {
    const ExprPtr e = parse_and_bind(text, predicate_schema());
    const std::string sql = to_sql(e);
    EXPECT_TRUE(same_expr(parse_and_bind(sql, predicate_schema()), e)) << sql;
  }
}

// DataFusion's dialect (delta-rs's predicates): no Spark literal suffixes, decimals and timestamps
// through casts it compares with the column's own type, <=> as IS NOT DISTINCT FROM, and forms
// whose meaning differs refused rather than printed.
TEST(Printer, DataFusionDialect) {
  const auto df = [](const char* text) { return to_sql(parse_predicate(text), SqlDialect::DataFusion); };
  EXPECT_EQ(df("x = 1L AND d > 1.5D AND NOT (y <=> 2)"), "x = 1 AND d > 1.5 AND NOT (y IS NOT DISTINCT FROM 2)");
  // DataFusion reads all that follows IS NOT DISTINCT FROM as its right operand: parenthesised whole.
  EXPECT_EQ(df("y <=> 'a' AND x IN (1, 2)"), "(y IS NOT DISTINCT FROM 'a') AND x IN (1, 2)");
  EXPECT_EQ(df("y = 'b' <=> TRUE OR x > 1"), "((y = 'b') IS NOT DISTINCT FROM TRUE) OR x > 1");
  // A bare NULL compared with a column takes the column's type.
  const auto bound = [](const char* text) { return to_sql(parse_and_bind(text, predicate_schema()), SqlDialect::DataFusion); };
  EXPECT_EQ(bound("NOT s = NULL AND NULL < i"), "NOT s = CAST(NULL AS VARCHAR) AND CAST(NULL AS INT) < i");
  EXPECT_EQ(df("c = CAST(2.25BD AS DECIMAL(10,2))"), "c = 2.25");
  EXPECT_EQ(df("s = 'it''s \\\\ x'"), "s = 'it''s \\ x'");  // one backslash, raw
  EXPECT_EQ(df("t > TIMESTAMP '2024-01-01 10:00:00.000001'"),
            "t > arrow_cast('2024-01-01T10:00:00.000001Z', 'Timestamp(Microsecond, Some(\"UTC\"))')");
  EXPECT_EQ(df("d = CAST('NaN' AS DOUBLE) OR dt = DATE '2024-02-29'"), "d = CAST('NaN' AS DOUBLE) OR dt = DATE '2024-02-29'");
  EXPECT_EQ(df("s RLIKE 'a.*' AND s NOT LIKE 'b%'"), "s ~ 'a.*' AND s NOT LIKE 'b%'");
  for (const char* refused : {"a / 2 > 1", "upper(s) = 'A'", "s LIKE ANY ('a%', 'b%')", "`my col` = 1",
                              "s LIKE 'a#%' ESCAPE '#'"}) {
    EXPECT_THROW(df(refused), UnsupportedInDialect) << refused;
  }
}

TEST(Printer, JsonTree) {
  const nlohmann::json j = to_json(parse_and_bind("st.x > 5 AND NOT b", predicate_schema()));
  EXPECT_EQ(j["op"], "and");
  EXPECT_EQ(j["type"], "boolean");
  EXPECT_EQ(j["children"][0]["op"], ">");
  EXPECT_EQ(j["children"][0]["children"][0], (nlohmann::json{{"column", "st.x"}, {"type", "int"}}));
  EXPECT_EQ(j["children"][0]["children"][1], (nlohmann::json{{"literal", "5"}, {"type", "int"}}));
  EXPECT_EQ(j["children"][1]["op"], "not");
  const nlohmann::json call = to_json(parse_predicate("rand() > 1"))["children"][0];
  EXPECT_EQ(call["function"], "rand");
  EXPECT_EQ(call["deterministic"], false);
}

// --- A local generator of arbitrary (unbound) IR -------------------------------------------------

rc::Gen<std::string> gen_text() {
  const auto code_point = rc::gen::oneOf(
      rc::gen::element<uint32_t>('\'', '\\', '`', '%', '_', '\n', '\t', 0, 0x7F, ' ', '.', '-'),
      rc::gen::inRange<uint32_t>(0x20, 0x7F), rc::gen::inRange<uint32_t>(0x80, 0xD800),
      rc::gen::inRange<uint32_t>(0xE000, 0x110000));
  return rc::gen::map(rc::gen::container<std::vector<uint32_t>>(code_point), [](const auto& cps) {
    std::string s;
    for (uint32_t cp : cps) append_utf8(s, cp);
    return s;
  });
}

rc::Gen<Value> gen_value() {
  using rc::gen::inRange;
  auto integral = [](TypeKind k) {
    return rc::gen::map(rc::gen::oneOf(rc::gen::element<int64_t>(integral_min(k), integral_max(k), 0, -1),
                                       inRange<int64_t>(integral_min(k), integral_max(k))),
                        [k](int64_t v) { return Value::integral(k, v); });
  };
  return rc::gen::oneOf(
      rc::gen::element(Value::null(), Value::boolean(true), Value::boolean(false),
                       Value::null(DataType::of(TypeKind::Int)),
                       Value::floating(TypeKind::Double, std::numeric_limits<double>::quiet_NaN()),
                       Value::floating(TypeKind::Float, -std::numeric_limits<double>::infinity()),
                       Value::floating(TypeKind::Double, -0.0)),
      integral(TypeKind::Byte), integral(TypeKind::Short), integral(TypeKind::Int),
      integral(TypeKind::Long),
      rc::gen::map(rc::gen::arbitrary<double>(),
                   [](double d) { return Value::floating(TypeKind::Double, d); }),
      rc::gen::map(rc::gen::arbitrary<float>(),
                   [](float f) { return Value::floating(TypeKind::Float, f); }),
      rc::gen::exec([] {
        const Decimal d{*rc::gen::arbitrary<int64_t>(), *inRange(0, 19)};
        const int natural = std::max(decimal_digits(d), d.scale);
        return Value::decimal(d, *inRange(natural, kMaxDecimalPrecision + 1));
      }),
      rc::gen::map(gen_text(), [](std::string s) { return Value::string(std::move(s)); }),
      rc::gen::map(rc::gen::arbitrary<std::string>(),
                   [](std::string s) { return Value::binary(std::move(s)); }),
      rc::gen::map(inRange<int64_t>(-719162, 2932897),
                   [](int64_t d) { return Value::integral(TypeKind::Date, d); }),
      rc::gen::map(inRange<int64_t>(-62135596800000000LL, 253402300800000000LL),
                   [](int64_t t) { return Value::integral(TypeKind::Timestamp, t); }),
      rc::gen::map(inRange<int64_t>(-62135596800000000LL, 253402300800000000LL),
                   [](int64_t t) { return Value::integral(TypeKind::TimestampNtz, t); }));
}

rc::Gen<ColumnPath> gen_path() {
  const auto part = rc::gen::oneOf(
      rc::gen::element<std::string>("a", "B", "date", "x", "timestamp", "cast", "and", "null", "my col",
                                    "we`ird", "1st", "\xC3\xA9t\xC3\xA9"),
      rc::gen::nonEmpty(gen_text()));
  return rc::gen::resize(3, rc::gen::nonEmpty(rc::gen::container<ColumnPath>(part)));
}

rc::Gen<DataType> gen_cast_type() {
  return rc::gen::oneOf(
      rc::gen::map(rc::gen::element(TypeKind::Boolean, TypeKind::Byte, TypeKind::Short, TypeKind::Int,
                                    TypeKind::Long, TypeKind::Float, TypeKind::Double, TypeKind::Date,
                                    TypeKind::Timestamp, TypeKind::TimestampNtz, TypeKind::String,
                                    TypeKind::Binary),
                   [](TypeKind k) { return DataType::of(k); }),
      rc::gen::exec([] {
        const int p = *rc::gen::inRange(1, kMaxDecimalPrecision + 1);
        return DataType::decimal(p, *rc::gen::inRange(0, p + 1));
      }));
}

// One of 0 .. n-1, each as likely at every size (gen::inRange scales with the size, and at small
// sizes would pick little but literals).
rc::Gen<int> one_of_first(int n) {
  std::vector<int> options(n);
  for (int i = 0; i < n; ++i) options[i] = i;
  return rc::gen::elementOf(options);
}

rc::Gen<ExprPtr> gen_expr(int depth) {
  return rc::gen::exec([depth]() -> ExprPtr {
    const int kinds = depth <= 0 ? 2 : 17;
    auto sub = [depth] { return *gen_expr(depth - 1); };
    switch (*one_of_first(kinds)) {
      case 0: return make_literal(*gen_value());
      case 1: return make_column(*gen_path());
      case 2: return make_compare(*rc::gen::element(CompareOp::Eq, CompareOp::NullSafeEq, CompareOp::Ne,
                                                    CompareOp::Lt, CompareOp::Le, CompareOp::Gt,
                                                    CompareOp::Ge),
                                  sub(), sub());
      case 3: return make_and(sub(), sub());
      case 4: return make_or(sub(), sub());
      case 5: return make_not(sub());
      case 6: {
        const bool negated = *rc::gen::arbitrary<bool>();
        if (*rc::gen::arbitrary<bool>()) return make_is_unknown(sub(), negated);
        return negated ? make_is_not_null(sub()) : make_is_null(sub());
      }
      case 7: {
        std::vector<ExprPtr> items(*rc::gen::inRange(1, 4));
        for (ExprPtr& item : items) item = sub();
        return make_in(sub(), std::move(items));
      }
      case 8: {
        if (*rc::gen::arbitrary<bool>()) return make_like(sub(), sub());
        return make_like_escape(sub(), sub(), *rc::gen::element<char32_t>(U'#', U'!', U'\'', U'%', U'\u00e9'));
      }
      case 9: return make_between(sub(), sub(), sub());
      case 10: {
        const auto op = *rc::gen::element(ArithOp::Add, ArithOp::Sub, ArithOp::Mul, ArithOp::Div,
                                          ArithOp::Mod, ArithOp::Neg);
        return op == ArithOp::Neg ? make_arith(op, {sub()}) : make_arith(op, {sub(), sub()});
      }
      case 11: return make_cast(sub(), *gen_cast_type());
      case 12: return make_rlike(sub(), sub());
      case 13: {
        // The parser builds LikeAny / LikeAll from string literal patterns only.
        std::vector<ExprPtr> patterns(*rc::gen::inRange(1, 4));
        for (ExprPtr& p : patterns) p = make_literal(Value::string(*gen_text()));
        return *rc::gen::arbitrary<bool>() ? make_like_any(sub(), std::move(patterns))
                                           : make_like_all(sub(), std::move(patterns));
      }
      case 14: {
        std::vector<std::pair<ExprPtr, ExprPtr>> branches(*rc::gen::inRange(1, 3));
        for (auto& [when, then] : branches) {
          when = sub();
          then = sub();
        }
        return make_case(std::move(branches), *rc::gen::arbitrary<bool>() ? sub() : nullptr);
      }
      case 15: return make_call(*rc::gen::element<std::string>("if", "nvl2", "startswith", "date_add"), {sub(), sub(), sub()});
      default: {
        std::vector<ExprPtr> args(*rc::gen::inRange(0, 3));
        for (ExprPtr& arg : args) arg = sub();
        return make_call(*rc::gen::element<std::string>("upper", "rand", "coalesce", "abs", "now"),
                         std::move(args));
      }
    }
  });
}

size_t depth_of(const Expr& e) {
  size_t depth = 0;
  for (const ExprPtr& child : e.children) depth = std::max(depth, depth_of(*child) + 1);
  return depth;
}

// The printer's precedence and parenthesising matter once operators nest: the labels show how
// deep the trees go and which operator is at the root.
RC_GTEST_PROP(PrinterProperty, ParseOfToSqlIsTheSameIr, ()) {
  const ExprPtr e = *gen_expr(*one_of_first(5));
  RC_TAG("depth " + std::to_string(std::min<size_t>(depth_of(*e), 3)) + (depth_of(*e) >= 3 ? "+" : ""));
  RC_CLASSIFY(e->kind == ExprKind::And || e->kind == ExprKind::Or, "AND/OR at the root");
  RC_CLASSIFY(e->kind == ExprKind::Not, "NOT at the root");
  RC_CLASSIFY(e->kind == ExprKind::Arith, "arithmetic at the root");
  RC_CLASSIFY(e->kind == ExprKind::RLike || e->kind == ExprKind::LikeAny || e->kind == ExprKind::LikeAll,
              "RLIKE / LIKE ANY / LIKE ALL at the root");
  RC_CLASSIFY(e->kind == ExprKind::Case, "CASE at the root");
  RC_CLASSIFY(e->kind == ExprKind::Like && e->children.size() == 3, "LIKE ESCAPE at the root");
  RC_CLASSIFY(e->unknown_form, "IS [NOT] UNKNOWN at the root");
  const std::string sql = to_sql(e);
  ExprPtr back;
  try {
    back = parse_predicate(sql);
  } catch (const InputError& error) {
    RC_FAIL(error.render());
  }
  RC_ASSERT(same_expr(back, e));
}

}  // namespace
}  // namespace skipsound
