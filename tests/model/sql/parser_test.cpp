#include "model/sql/parser.h"

#include <cmath>

#include <gtest/gtest.h>

namespace skipsound {
namespace {

ExprPtr col(std::string name) { return make_column({std::move(name)}); }
ExprPtr lit_int(int64_t v) { return make_literal(Value::integral(TypeKind::Int, v)); }

void expect_parses_to(const std::string& text, const ExprPtr& expected) {
  SCOPED_TRACE(text);
  const ExprPtr parsed = parse_predicate(text);
  EXPECT_TRUE(same_expr(parsed, expected));
}

Value literal_of(const std::string& text) {
  const ExprPtr e = parse_predicate(text);
  EXPECT_EQ(e->kind, ExprKind::Literal) << text;
  return e->literal;
}

// The error's message and column, or a failure when the text parses.
std::pair<std::string, int> error_of(const std::string& text) {
  try {
    parse_predicate(text);
  } catch (const InputError& e) {
    return {e.message(), e.column()};
  }
  ADD_FAILURE() << "parsed without error: " << text;
  return {"", 0};
}

TEST(Parser, PrecedenceOfLogicalOperators) {
  expect_parses_to("a OR b AND NOT c", make_or(col("a"), make_and(col("b"), make_not(col("c")))));
  expect_parses_to("NOT a = 1", make_not(make_compare(CompareOp::Eq, col("a"), lit_int(1))));
  expect_parses_to("NOT a AND b", make_and(make_not(col("a")), col("b")));
  expect_parses_to("a AND b AND c", make_and(make_and(col("a"), col("b")), col("c")));
  expect_parses_to("(a OR b) AND c", make_and(make_or(col("a"), col("b")), col("c")));
  expect_parses_to("NOT NOT a", make_not(make_not(col("a"))));
}

TEST(Parser, PrecedenceOfArithmetic) {
  auto arith = [](ArithOp op, ExprPtr a, ExprPtr b) { return make_arith(op, {a, b}); };
  expect_parses_to("a + b * c - d > 0",
                   make_compare(CompareOp::Gt,
                                arith(ArithOp::Sub,
                                      arith(ArithOp::Add, col("a"), arith(ArithOp::Mul, col("b"), col("c"))),
                                      col("d")),
                                lit_int(0)));
  expect_parses_to("a % 2 = 1 - -1",
                   make_compare(CompareOp::Eq, arith(ArithOp::Mod, col("a"), lit_int(2)),
                                arith(ArithOp::Sub, lit_int(1), lit_int(-1))));
  expect_parses_to("a / (b - 1) <> 0",
                   make_compare(CompareOp::Ne,
                                arith(ArithOp::Div, col("a"), arith(ArithOp::Sub, col("b"), lit_int(1))),
                                lit_int(0)));
}

TEST(Parser, UnaryMinusFoldsOnlyIntoANumberLiteral) {
  EXPECT_EQ(literal_of("-5"), Value::integral(TypeKind::Int, -5));
  expect_parses_to("-(5)", make_arith(ArithOp::Neg, {lit_int(5)}));
  expect_parses_to("- -5", make_arith(ArithOp::Neg, {lit_int(-5)}));
  expect_parses_to("-a", make_arith(ArithOp::Neg, {col("a")}));
  expect_parses_to("a - 5", make_arith(ArithOp::Sub, {col("a"), lit_int(5)}));
}

TEST(Parser, ComparisonOperators) {
  const std::pair<const char*, CompareOp> cases[] = {
      {"=", CompareOp::Eq},  {"==", CompareOp::Eq}, {"<>", CompareOp::Ne},
      {"!=", CompareOp::Ne}, {"<", CompareOp::Lt},  {"<=", CompareOp::Le},
      {">", CompareOp::Gt},  {">=", CompareOp::Ge}, {"<=>", CompareOp::NullSafeEq}};
  for (const auto& [text, op] : cases) {
    expect_parses_to(std::string("a ") + text + " 1", make_compare(op, col("a"), lit_int(1)));
    expect_parses_to(std::string("a") + text + "1", make_compare(op, col("a"), lit_int(1)));
  }
}

TEST(Parser, PredicateForms) {
  expect_parses_to("a BETWEEN 1 AND 2 AND b",
                   make_and(make_between(col("a"), lit_int(1), lit_int(2)), col("b")));
  expect_parses_to("a NOT BETWEEN 1 AND 2", make_not(make_between(col("a"), lit_int(1), lit_int(2))));
  expect_parses_to("a IN (1, 2)", make_in(col("a"), {lit_int(1), lit_int(2)}));
  expect_parses_to("a NOT IN (1)", make_not(make_in(col("a"), {lit_int(1)})));
  expect_parses_to("s LIKE 'ab%'", make_like(col("s"), make_literal(Value::string("ab%"))));
  expect_parses_to("s NOT LIKE 'x'", make_not(make_like(col("s"), make_literal(Value::string("x")))));
  expect_parses_to("a IS NULL", make_is_null(col("a")));
  expect_parses_to("a IS NOT NULL", make_is_not_null(col("a")));
  expect_parses_to("(a > 0 AND b > 1) IS NULL",
                   make_is_null(make_and(make_compare(CompareOp::Gt, col("a"), lit_int(0)),
                                         make_compare(CompareOp::Gt, col("b"), lit_int(1)))));
  expect_parses_to("a = 1 IS NULL", make_is_null(make_compare(CompareOp::Eq, col("a"), lit_int(1))));
  expect_parses_to("b", col("b"));
  expect_parses_to("b = false OR a",
                   make_or(make_compare(CompareOp::Eq, col("b"), make_literal(Value::boolean(false))),
                           col("a")));
}

TEST(Parser, KeywordsAreCaseInsensitive) {
  expect_parses_to("a is NOT null aNd b In (1) oR NoT c",
                   make_or(make_and(make_is_not_null(col("a")), make_in(col("b"), {lit_int(1)})),
                           make_not(col("c"))));
  EXPECT_EQ(literal_of("True"), Value::boolean(true));
  EXPECT_EQ(literal_of("fALSE"), Value::boolean(false));
  EXPECT_TRUE(literal_of("nUlL").is_null());
  EXPECT_EQ(literal_of("dAtE '1970-01-02'"), Value::integral(TypeKind::Date, 1));
  expect_parses_to("a bEtWeEn 1 AnD 2", make_between(col("a"), lit_int(1), lit_int(2)));
}

TEST(Parser, IntegerLiteralsWidenAsSpark) {
  EXPECT_EQ(literal_of("7"), Value::integral(TypeKind::Int, 7));
  EXPECT_EQ(literal_of("7L"), Value::integral(TypeKind::Long, 7));
  EXPECT_EQ(literal_of("7l"), Value::integral(TypeKind::Long, 7));
  EXPECT_EQ(literal_of("7Y"), Value::integral(TypeKind::Byte, 7));
  EXPECT_EQ(literal_of("-128Y"), Value::integral(TypeKind::Byte, -128));
  EXPECT_EQ(literal_of("7S"), Value::integral(TypeKind::Short, 7));
  EXPECT_EQ(literal_of("2147483647"), Value::integral(TypeKind::Int, 2147483647));
  EXPECT_EQ(literal_of("-2147483648"), Value::integral(TypeKind::Int, -2147483648LL));
  EXPECT_EQ(literal_of("2147483648"), Value::integral(TypeKind::Long, 2147483648LL));
  EXPECT_EQ(literal_of("-9223372036854775808L"),
            Value::integral(TypeKind::Long, std::numeric_limits<int64_t>::min()));
  const Value big = literal_of("9223372036854775808");
  EXPECT_EQ(big.type, DataType::decimal(19, 0));
  EXPECT_EQ(big.as_decimal(), (Decimal{static_cast<__int128>(9223372036854775807LL) + 1, 0}));
}

TEST(Parser, FractionalLiterals) {
  EXPECT_EQ(literal_of("1.5"), Value::decimal(Decimal{15, 1}, 2));
  EXPECT_EQ(literal_of("1.5BD"), Value::decimal(Decimal{15, 1}, 2));
  EXPECT_EQ(literal_of("0.05"), Value::decimal(Decimal{5, 2}, 2));
  EXPECT_EQ(literal_of("-1.50"), Value::decimal(Decimal{-150, 2}, 3));
  EXPECT_EQ(literal_of("1.5e3"), Value::floating(TypeKind::Double, 1500.0));
  EXPECT_EQ(literal_of("1.5D"), Value::floating(TypeKind::Double, 1.5));
  EXPECT_EQ(literal_of("2E-3D"), Value::floating(TypeKind::Double, 0.002));
  EXPECT_EQ(literal_of("1.1F"), Value::floating(TypeKind::Float, static_cast<double>(1.1f)));
  EXPECT_EQ(literal_of("CAST(1.50BD AS DECIMAL(10,2))"), Value::decimal(Decimal{150, 2}, 10));
  EXPECT_TRUE(std::isnan(literal_of("CAST('NaN' AS DOUBLE)").as_double()));
  EXPECT_EQ(literal_of("CAST('-Infinity' AS FLOAT)"),
            Value::floating(TypeKind::Float, -std::numeric_limits<double>::infinity()));
}

TEST(Parser, StringLiterals) {
  EXPECT_EQ(literal_of("'it''s'"), Value::string("it's"));
  EXPECT_EQ(literal_of(R"('a\nb\t\\\'')"), Value::string("a\nb\t\\'"));
  EXPECT_EQ(literal_of(R"('\u00e9')"), Value::string("\xC3\xA9"));
  EXPECT_EQ(literal_of(R"('\uD83D\uDE00')"), Value::string("\xF0\x9F\x98\x80"));
  EXPECT_EQ(literal_of("'\xF0\x9F\x98\x80 caf\xC3\xA9'"), Value::string("\xF0\x9F\x98\x80 caf\xC3\xA9"));
  EXPECT_EQ(literal_of("''"), Value::string(""));
  EXPECT_EQ(literal_of(R"('50\%')"), Value::string("50\\%"));  // kept for LIKE, as Spark does
}

TEST(Parser, TypedLiterals) {
  EXPECT_EQ(literal_of("DATE '2020-01-01'"), Value::integral(TypeKind::Date, 18262));
  EXPECT_EQ(literal_of("TIMESTAMP '2020-01-01 00:00:00.000001'"),
            Value::integral(TypeKind::Timestamp, 1577836800000001LL));
  EXPECT_EQ(literal_of("TIMESTAMP_NTZ '1970-01-01 00:00:01'"),
            Value::integral(TypeKind::TimestampNtz, 1000000));
  EXPECT_EQ(literal_of("X'0aFF'"), Value::binary(std::string("\x0A\xFF", 2)));
  EXPECT_EQ(literal_of("x''"), Value::binary(""));
  EXPECT_EQ(literal_of("CAST(NULL AS INT)"), Value::null(DataType::of(TypeKind::Int)));
  expect_parses_to("CAST((NULL) AS INT)",
                   make_cast(make_literal(Value::null()), DataType::of(TypeKind::Int)));
}

TEST(Parser, Identifiers) {
  expect_parses_to("`my col` = 1", make_compare(CompareOp::Eq, col("my col"), lit_int(1)));
  expect_parses_to("`a``b`", col("a`b"));
  expect_parses_to("a.b.c", make_column({"a", "b", "c"}));
  expect_parses_to("a.`x y`.c", make_column({"a", "x y", "c"}));
  // Words that only start a literal or a cast stay usable as column names.
  expect_parses_to("date = 1", make_compare(CompareOp::Eq, col("date"), lit_int(1)));
  expect_parses_to("x > timestamp", make_compare(CompareOp::Gt, col("x"), col("timestamp")));
  expect_parses_to("`and`", col("and"));
}

TEST(Parser, CastsAndCalls) {
  expect_parses_to("CAST(a AS decimal(10, 2)) > 0",
                   make_compare(CompareOp::Gt, make_cast(col("a"), DataType::decimal(10, 2)), lit_int(0)));
  expect_parses_to("cast(a as BIGINT)", make_cast(col("a"), DataType::of(TypeKind::Long)));
  const ExprPtr upper = parse_predicate("UPPER(s) = 'X'")->children[0];
  EXPECT_EQ(upper->kind, ExprKind::Call);
  EXPECT_EQ(upper->function, "upper");
  EXPECT_TRUE(upper->deterministic);
  for (const char* f : {"rand()", "random()", "uuid()", "shuffle(a)", "monotonically_increasing_id()",
                        "current_timestamp()", "now()"}) {
    const ExprPtr call = parse_predicate(f);
    EXPECT_EQ(call->kind, ExprKind::Call) << f;
    EXPECT_FALSE(call->deterministic) << f;
  }
  EXPECT_EQ(parse_predicate("coalesce(a, b, 1)")->children.size(), 3u);
}

TEST(Parser, PositionsAreOneBasedColumns) {
  const ExprPtr e = parse_predicate("a >  5 AND b");
  EXPECT_EQ(e->position, 8);
  EXPECT_EQ(e->children[0]->position, 3);
  EXPECT_EQ(e->children[0]->children[0]->position, 1);
  EXPECT_EQ(e->children[0]->children[1]->position, 6);
}

TEST(Parser, ErrorsCarryMessageAndColumn) {
  using E = std::pair<std::string, int>;
  EXPECT_EQ(error_of(""), E("empty predicate", 1));
  EXPECT_EQ(error_of("  \t"), E("empty predicate", 1));
  EXPECT_EQ(error_of("a = 'abc"), E("unterminated string", 5));
  EXPECT_EQ(error_of("a = 'ab\\"), E("unterminated string", 5));
  EXPECT_EQ(error_of("a = '\xFF'"), E("invalid UTF-8 byte 0xFF", 6));
  EXPECT_EQ(error_of("a = '\xC3('"), E("invalid UTF-8 byte 0x28", 7));
  EXPECT_EQ(error_of("a = '\xED\xA0\x80'"), E("invalid UTF-8 byte 0xA0", 7));  // a surrogate
  EXPECT_EQ(error_of("a = 1 b"), E("unexpected `b`", 7));
  EXPECT_EQ(error_of("a = 1)"), E("unexpected `)`", 6));
  EXPECT_EQ(error_of("foo(1) = 2"), E("unknown function `foo`", 1));
  EXPECT_EQ(error_of("a >"), E("expected an operand", 4));
  EXPECT_EQ(error_of("(a"), E("expected ')'", 3));
  EXPECT_EQ(error_of("a AND"), E("expected an expression", 6));
  EXPECT_EQ(error_of("a IS 5"), E("expected NULL, TRUE, FALSE, UNKNOWN or DISTINCT FROM", 6));
  EXPECT_EQ(error_of("128Y"), E("number `128Y` is out of range for tinyint", 1));
  EXPECT_EQ(error_of("a = 1.5L"), E("malformed number `1.5L`", 5));
  EXPECT_EQ(error_of("a = 12abc"), E("malformed number `12abc`", 5));
  EXPECT_EQ(error_of("`ab = 1"), E("unterminated quoted identifier", 1));
  EXPECT_EQ(error_of(R"(s = '\u12')"), E("\\u needs four hex digits", 6));
  EXPECT_EQ(error_of(R"(s = '\uD800')"), E("unpaired UTF-16 surrogate in \\u escape", 6));
  EXPECT_EQ(error_of("d = DATE '2020-13-01'"), E("cannot read '2020-13-01' as a date", 10));
  EXPECT_EQ(error_of("CAST(a AS wibble)"), E("unknown type `wibble`", 11));
  EXPECT_EQ(error_of("x = X'0G'"), E("binary literal needs pairs of hex digits", 7));
}

TEST(Parser, NestingLimit) {
  const int limit = kMaxNestingDepth;
  const std::string ok = std::string(limit, '(') + "a" + std::string(limit, ')');
  EXPECT_EQ(parse_predicate(ok)->kind, ExprKind::Column);
  const std::string deep = std::string(limit + 1, '(') + "a" + std::string(limit + 1, ')');
  EXPECT_EQ(error_of(deep), std::make_pair(std::string("nesting deeper than 256 levels"), limit + 1));
  // Parentheses inside strings and quoted names do not count.
  EXPECT_NO_THROW(parse_predicate("s = '" + std::string(1000, '(') + "'"));
}

TEST(Parser, HostileInputsFinish) {
  EXPECT_EQ(error_of(std::string(1 << 20, '(')).second, kMaxNestingDepth + 1);
  EXPECT_EQ(error_of(std::string(10000, '(') + "a" + std::string(10000, ')')).second,
            kMaxNestingDepth + 1);
  std::string conjuncts = "c0 > 1";
  for (int i = 1; conjuncts.size() < 100 * 1024; ++i) conjuncts += " AND c" + std::to_string(i % 50) + " > 1";
  const ExprPtr e = parse_predicate(conjuncts);
  int depth = 0;
  for (const Expr* node = e.get(); node->kind == ExprKind::And; node = node->children[0].get()) ++depth;
  EXPECT_GT(depth, 8000);
  std::string chain = "a";
  for (int i = 0; i < kMaxExprDepth; ++i) chain += "+a";
  EXPECT_EQ(error_of(chain + " > 0").first, "expression nested deeper than 16384 levels");
  EXPECT_EQ(error_of(std::string((1 << 20) - 1, '-') + "a").first, "expression nested deeper than 16384 levels");
  // Beyond kMaxPredicateBytes (model/values/input_limits.h) the text is refused unread.
  EXPECT_EQ(error_of(std::string(1 << 20, '-') + "a").first,
            "predicate of 1048577 bytes, longer than the limit of 1048576 bytes");
}

TEST(InputError, RenderPutsTheCaretUnderTheCharacter) {
  EXPECT_EQ(InputError("bad", 3, "a b c").render(), "error: bad at column 3\n  a b c\n    ^");
  // One caret column per character, not per byte.
  EXPECT_EQ(InputError("bad", 4, "\xC3\xA9 x").render(), "error: bad at column 4\n  \xC3\xA9 x\n    ^");
  EXPECT_EQ(InputError("bad").render(), "error: bad");
  const std::string long_source(1000, 'a');
  EXPECT_LT(InputError("bad", 500, long_source).render().size(), 300u);
}

}  // namespace
}  // namespace skipsound
