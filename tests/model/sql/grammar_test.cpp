// Spark's boolean grammar beyond comparisons (docs/semantics.md §3.1): each construct parses to the
// IR Spark's AstBuilder builds, binds with its type rules and errors, evaluates in 3VL as Spark
// does, and prints back to SQL that parses and binds to the same IR.
#include <gtest/gtest.h>

#include <map>

#include "model/sql/binder.h"
#include "model/sql/evaluator.h"
#include "model/sql/parser.h"
#include "model/sql/printer.h"
#include "tests/support/predicate_schema.h"

namespace skipsound {
namespace {

using skipsound::testing::predicate_schema;

const Truth T = Truth::True, F = Truth::False, N = Truth::Null;

ExprPtr col(std::string name) { return make_column({std::move(name)}); }
ExprPtr lit(Value v) { return make_literal(std::move(v)); }
ExprPtr text(std::string s) { return lit(Value::string(std::move(s))); }
ExprPtr int_lit(int64_t v) { return lit(Value::integral(TypeKind::Int, v)); }
ExprPtr boolean(bool v) { return lit(Value::boolean(v)); }

void expect_parses_to(const std::string& sql, const ExprPtr& expected) {
  SCOPED_TRACE(sql);
  EXPECT_TRUE(same_expr(parse_predicate(sql), expected)) << to_sql(parse_predicate(sql));
}

std::pair<std::string, int> error_of(const std::string& sql) {
  try {
    parse_and_bind(sql, predicate_schema());
  } catch (const InputError& e) {
    return {e.message(), e.column()};
  }
  ADD_FAILURE() << "accepted: " << sql;
  return {"", 0};
}

// A row of the predicate schema: the named leaves set, every other one NULL.
Row row_of(const std::map<std::string, Value>& values) {
  Row row;
  for (const Leaf& leaf : predicate_schema().leaves()) {
    const auto it = values.find(path_to_sql(leaf.path));
    row.push_back(it == values.end() ? Value::null(leaf.type) : it->second);
  }
  return row;
}

Truth eval(const std::string& sql, const std::map<std::string, Value>& values = {}) {
  SCOPED_TRACE(sql);
  return evaluate(*parse_and_bind(sql, predicate_schema()), row_of(values));
}

Value value_of(const std::string& sql, const std::map<std::string, Value>& values = {}) {
  const ExprPtr e = parse_and_bind(sql, predicate_schema());
  return evaluate_value(*e->children[0], row_of(values));
}

TEST(Grammar, BangIsNot) {
  expect_parses_to("!b", make_not(col("b")));
  expect_parses_to("! !b AND !(i > 1)",
                   make_and(make_not(make_not(col("b"))), make_not(make_compare(CompareOp::Gt, col("i"), int_lit(1)))));
  expect_parses_to("i != 1", make_compare(CompareOp::Ne, col("i"), int_lit(1)));
  EXPECT_EQ(eval("!b", {{"b", Value::boolean(false)}}), T);
  EXPECT_EQ(eval("!b"), N);
}

TEST(Grammar, IsTrueFalseUnknownAreSparksRewrites) {
  expect_parses_to("b IS TRUE", make_compare(CompareOp::NullSafeEq, col("b"), boolean(true)));
  expect_parses_to("b IS NOT FALSE", make_not(make_compare(CompareOp::NullSafeEq, col("b"), boolean(false))));
  expect_parses_to("(i > 1) IS UNKNOWN", make_is_unknown(make_compare(CompareOp::Gt, col("i"), int_lit(1)), false));
  expect_parses_to("b IS NOT UNKNOWN", make_is_unknown(col("b"), true));
  EXPECT_EQ(eval("b IS TRUE"), F);
  EXPECT_EQ(eval("b IS NOT TRUE"), T);
  EXPECT_EQ(eval("b IS FALSE", {{"b", Value::boolean(false)}}), T);
  EXPECT_EQ(eval("(i > 1) IS UNKNOWN"), T);
  EXPECT_EQ(eval("(i > 1) IS NOT UNKNOWN", {{"i", Value::integral(TypeKind::Int, 0)}}), T);
  EXPECT_EQ(error_of("i IS UNKNOWN"), std::make_pair(std::string("IS UNKNOWN needs a boolean operand, not integer column i"), 1));
  EXPECT_EQ(error_of("b IS 5").first, "expected NULL, TRUE, FALSE, UNKNOWN or DISTINCT FROM");
  EXPECT_EQ(error_of("i IS TRUE").first, "cannot compare integer column i with boolean literal TRUE");
}

TEST(Grammar, IsDistinctFromIsNullSafeEquality) {
  expect_parses_to("i IS DISTINCT FROM l", make_not(make_compare(CompareOp::NullSafeEq, col("i"), col("l"))));
  expect_parses_to("i IS NOT DISTINCT FROM 5 + 1",
                   make_compare(CompareOp::NullSafeEq, col("i"), make_arith(ArithOp::Add, {int_lit(5), int_lit(1)})));
  EXPECT_EQ(eval("i IS DISTINCT FROM l"), F) << "both NULL";
  EXPECT_EQ(eval("i IS DISTINCT FROM 1"), T);
  EXPECT_EQ(eval("i IS NOT DISTINCT FROM 1", {{"i", Value::integral(TypeKind::Int, 1)}}), T);
}

TEST(Grammar, RlikeIsJavaFindOnCodePoints) {
  expect_parses_to("s RLIKE 'a+'", make_rlike(col("s"), text("a+")));
  expect_parses_to("s NOT REGEXP 'a'", make_not(make_rlike(col("s"), text("a"))));
  const std::map<std::string, Value> abc{{"s", Value::string("abc")}};
  EXPECT_EQ(eval("s RLIKE 'b'", abc), T) << "find, not a whole match";
  EXPECT_EQ(eval("s RLIKE '^b'", abc), F);
  EXPECT_EQ(eval("s RLIKE '^[a-c]{3}$'", abc), T);
  EXPECT_EQ(eval("s NOT RLIKE 'x|y'", abc), T);
  EXPECT_EQ(eval("s RLIKE 'a'"), N);
  EXPECT_EQ(eval("s RLIKE '^.$'", {{"s", Value::string("\xC3\xA9")}}), T) << "one code point, two bytes";
  EXPECT_EQ(eval("s RLIKE s", abc), T) << "a pattern from the row";
}

TEST(Grammar, RlikePatternsThatDoNotCompileAreBindErrors) {
  const auto [message, column] = error_of("i > 0 AND s RLIKE '(a'");
  EXPECT_EQ(column, 19) << "at the pattern";
  EXPECT_NE(message.find("RLIKE pattern '(a' cannot be used"), std::string::npos) << message;
  for (const char* java_only : {"s RLIKE '(?i)a'", "s RLIKE 'a*+'", "s RLIKE '\\\\Aa'", "s RLIKE '[a-z&&[^b]]'",
                                "s RLIKE '(?<=a)b'", "s RLIKE '(a)\\\\1'"}) {
    EXPECT_NE(error_of(java_only).first.find("cannot be used"), std::string::npos) << java_only;
  }
  EXPECT_NE(error_of("i RLIKE 'a'").first.find("RLIKE needs string operands"), std::string::npos);
}

TEST(Grammar, IlikeIsLikeOfLowerCase) {
  expect_parses_to("s ILIKE 'A%'", make_like(make_call("lower", {col("s")}), make_call("lower", {text("A%")})));
  expect_parses_to("s NOT ILIKE 'A%'",
                   make_not(make_like(make_call("lower", {col("s")}), make_call("lower", {text("A%")}))));
  EXPECT_EQ(eval("s ILIKE 'aB%'", {{"s", Value::string("ABC")}}), T);
  EXPECT_EQ(eval("s NOT ILIKE '%c'", {{"s", Value::string("ABC")}}), F);
}

TEST(Grammar, LikeEscape) {
  expect_parses_to("s LIKE 'a#%' ESCAPE '#'", make_like_escape(col("s"), text("a#%"), U'#'));
  expect_parses_to("s LIKE 'a\\\\%' ESCAPE '\\\\'", make_like(col("s"), text("a\\%")));
  EXPECT_EQ(eval("s LIKE 'a#%c' ESCAPE '#'", {{"s", Value::string("a%c")}}), T);
  EXPECT_EQ(eval("s LIKE 'a#%c' ESCAPE '#'", {{"s", Value::string("abc")}}), F);
  EXPECT_EQ(eval("s LIKE 'a\\\\b%' ESCAPE '#'", {{"s", Value::string("a\\bc")}}), T) << "backslash is plain";
  EXPECT_EQ(eval("s LIKE 'a##' ESCAPE '#'", {{"s", Value::string("a#")}}), T);
  EXPECT_THROW(eval("s LIKE 'a#b' ESCAPE '#'", {{"s", Value::string("ab")}}), NotEvaluable)
      << "Spark refuses the escape before anything but _, % and itself";
  EXPECT_THROW(eval("s LIKE 'a\\\\b'", {{"s", Value::string("ab")}}), NotEvaluable) << "the default escape too";
  EXPECT_EQ(error_of("s LIKE 'a' ESCAPE 'ab'"), std::make_pair(std::string("the ESCAPE string must be exactly one character"), 19));
}

TEST(Grammar, LikeAnyAllWithSparksNullSemantics) {
  expect_parses_to("s LIKE ANY ('a%', 'b%')", make_like_any(col("s"), {text("a%"), text("b%")}));
  expect_parses_to("s LIKE SOME ('a%')", make_like_any(col("s"), {text("a%")}));
  expect_parses_to("s NOT LIKE ANY ('a%')", make_not(make_like_all(col("s"), {text("a%")})));
  expect_parses_to("s NOT LIKE ALL ('a%')", make_not(make_like_any(col("s"), {text("a%")})));
  // A pattern that is not a string literal: Spark's OR / AND of LIKEs.
  expect_parses_to("s LIKE ALL ('a%', s)", make_and(make_like(col("s"), text("a%")), make_like(col("s"), col("s"))));
  expect_parses_to("s NOT LIKE ANY ('a%', NULL)",
                   make_or(make_not(make_like(col("s"), text("a%"))), make_not(make_like(col("s"), lit(Value::null())))));
  const std::map<std::string, Value> abc{{"s", Value::string("abc")}};
  EXPECT_EQ(eval("s LIKE ANY ('x%', 'a%')", abc), T);
  EXPECT_EQ(eval("s LIKE ANY ('x%', CAST(NULL AS STRING))", abc), N);
  EXPECT_EQ(eval("s LIKE ANY ('x%', 'y%')", abc), F);
  EXPECT_EQ(eval("s LIKE ALL ('a%', '%c')", abc), T);
  EXPECT_EQ(eval("s LIKE ALL ('a%', CAST(NULL AS STRING))", abc), N);
  EXPECT_EQ(eval("s LIKE ALL ('x%', CAST(NULL AS STRING))", abc), F);
  EXPECT_EQ(eval("s NOT LIKE ANY ('a%', 'x%')", abc), T) << "some pattern does not match";
  EXPECT_EQ(eval("s NOT LIKE ALL ('a%', 'x%')", abc), F) << "one pattern matches";
  EXPECT_EQ(eval("s NOT LIKE ALL ('x%', 'y%')", abc), T);
  EXPECT_EQ(eval("s LIKE ANY ('a%')"), N) << "NULL value";
  EXPECT_NE(error_of("s LIKE ANY ()").first.find("expected"), std::string::npos);
}

TEST(Grammar, InWithExpressions) {
  expect_parses_to("i IN (l, i + 1)", make_in(col("i"), {col("l"), make_arith(ArithOp::Add, {col("i"), int_lit(1)})}));
  EXPECT_EQ(eval("i IN (l, i + 1)", {{"i", Value::integral(TypeKind::Int, 3)}}), N);
  EXPECT_EQ(eval("i IN (l, i + 0)", {{"i", Value::integral(TypeKind::Int, 3)}}), T);
}

TEST(Grammar, SubqueriesAreRefusedWhereTheyStart) {
  const std::string why = "the one subquery is IN (SELECT <column> FROM t [WHERE ...])";
  EXPECT_EQ(error_of("i = (select max(x) FROM t)"), std::make_pair("subqueries are not supported here: " + why, 6));
  EXPECT_EQ(error_of("i IN ((SELECT l FROM t))"), std::make_pair("subqueries are not supported here: " + why, 8));
  EXPECT_EQ(error_of("b AND EXISTS (SELECT 1)"), std::make_pair("EXISTS subqueries are not supported: " + why, 7));
  EXPECT_EQ(error_of("NOT exists(SELECT 1)").second, 5);
}

// docs/semantics.md §3.1: `v [NOT] IN (SELECT c FROM t [WHERE p])` over the table itself; one row
// cannot decide it (its operation resolves it against the snapshot), and it prints back as written.
TEST(Grammar, InSubqueryOverTheTableItself) {
  const ExprPtr where = make_compare(CompareOp::Gt, col("l"), int_lit(5));
  expect_parses_to("i IN (SELECT l FROM t WHERE l > 5)", make_in_subquery(col("i"), col("l"), where));
  expect_parses_to("i NOT IN (select l from T)", make_not(make_in_subquery(col("i"), col("l"), nullptr)));
  for (const std::string sql : {"i IN (SELECT l FROM t WHERE l > 5L)", "i NOT IN (SELECT l FROM t)"}) {
    const ExprPtr bound = parse_and_bind(sql, predicate_schema());
    EXPECT_EQ(to_sql(bound), sql);
    EXPECT_TRUE(contains_subquery(*bound));
    EXPECT_THROW(evaluate(*bound, Row{}), NotEvaluable);
    EXPECT_THROW(to_sql(bound, SqlDialect::DataFusion), UnsupportedInDialect);
  }
  EXPECT_EQ(error_of("i IN (SELECT l FROM t2)"), std::make_pair(std::string("a subquery reads the table itself (FROM t), not 't2'"), 21));
  EXPECT_EQ(error_of("i IN (SELECT l + 1 FROM t)").first, "a subquery selects one column");
  EXPECT_EQ(error_of("i IN (SELECT l FROM t WHERE l)").first.find("a subquery's WHERE needs a boolean condition"), 0u);
}

TEST(Grammar, CaseWhen) {
  const ExprPtr searched = make_case({{col("b"), int_lit(1)}, {make_compare(CompareOp::Gt, col("i"), int_lit(0)), int_lit(2)}},
                                     int_lit(3));
  expect_parses_to("CASE WHEN b THEN 1 WHEN i > 0 THEN 2 ELSE 3 END = 2",
                   make_compare(CompareOp::Eq, searched, int_lit(2)));
  expect_parses_to("CASE i WHEN 1 THEN TRUE END",
                   make_case({{make_compare(CompareOp::Eq, col("i"), int_lit(1)), boolean(true)}}, nullptr));
  const std::string sql = "CASE WHEN b THEN 1 WHEN i > 0 THEN 2 ELSE 3 END = 2";
  EXPECT_EQ(eval(sql, {{"i", Value::integral(TypeKind::Int, 5)}}), T) << "a NULL condition is not TRUE";
  EXPECT_EQ(eval(sql, {{"b", Value::boolean(true)}, {"i", Value::integral(TypeKind::Int, 5)}}), F);
  EXPECT_EQ(eval("CASE i WHEN 1 THEN TRUE END", {{"i", Value::integral(TypeKind::Int, 2)}}), N) << "no ELSE";
  // Branches take Spark's common type: int and decimal(2,1) make decimal(11,1).
  const ExprPtr widened = parse_and_bind("CASE WHEN b THEN 1 ELSE 2.5 END > 0", predicate_schema());
  EXPECT_EQ(widened->children[0]->type, DataType::decimal(11, 1));
  EXPECT_EQ(value_of("CASE WHEN b THEN 1 ELSE 2.5 END > 0", {{"b", Value::boolean(true)}}).as_decimal(),
            (Decimal{10, 1}));
  EXPECT_EQ(error_of("CASE WHEN i THEN 1 END = 1"), std::make_pair(std::string("a WHEN condition must be boolean, not integer column i"), 11));
  EXPECT_NE(error_of("CASE WHEN b THEN 1 ELSE X'00' END = 1").first.find("CASE cannot combine"), std::string::npos);
  EXPECT_EQ(error_of("CASE WHEN b THEN 1 = 1").first, "expected END");
}

// CASE recurses without parentheses: its nesting counts like theirs, before the grammar runs.
TEST(Grammar, CaseNestingIsBounded) {
  std::string deep;
  for (int i = 0; i < 300; ++i) deep += "CASE WHEN b THEN ";
  EXPECT_EQ(error_of(deep + "b").first, "nesting deeper than 256 levels");
  std::string ok = "b";
  for (int i = 0; i < 200; ++i) ok = "CASE WHEN b THEN " + ok + " END";
  EXPECT_NO_THROW(parse_and_bind(ok, predicate_schema()));
  EXPECT_NO_THROW(parse_and_bind("`case` = 1 OR `end` = 2", Schema({StructField{"case", DataType::of(TypeKind::Int), true, {}},
                                                                      StructField{"end", DataType::of(TypeKind::Int), true, {}}})));
}

TEST(Grammar, ConditionalFunctions) {
  const std::map<std::string, Value> five{{"i", Value::integral(TypeKind::Int, 5)}};
  EXPECT_EQ(eval("if(i > 1, 'big', 'small') = 'big'", five), T);
  EXPECT_EQ(eval("if(i > 1, 'big', 'small') = 'small'"), T) << "a NULL condition takes the ELSE";
  EXPECT_EQ(eval("nvl2(i, 1, 2) = 2"), T);
  EXPECT_EQ(eval("nullif(i, 5) IS NULL", five), T);
  EXPECT_EQ(eval("nullif(i, 4) = 5", five), T);
  EXPECT_EQ(eval("coalesce(i, 2.5) = 2.5"), T) << "int and decimal widen to decimal";
  EXPECT_EQ(eval("nvl(s, 7) = '7'"), T) << "a string with a number is a string";
  EXPECT_NE(error_of("if(i, 1, 2) = 1").first.find("if() needs a boolean condition first"), std::string::npos);
  EXPECT_NE(error_of("coalesce(b, 1) = 1").first.find("coalesce() cannot combine"), std::string::npos);
}

TEST(Grammar, StringAndDateFunctions) {
  const std::map<std::string, Value> abc{{"s", Value::string("abc")}};
  EXPECT_EQ(eval("startswith(s, 'ab')", abc), T);
  EXPECT_EQ(eval("startswith(s, 'b')", abc), F);
  EXPECT_EQ(eval("substring(s, 1, 2) = 'ab'", abc), T);
  EXPECT_EQ(eval("substr(s, 1, 5) = 'abc'", abc), T);
  EXPECT_NE(error_of("startswith(i, 'a')").first.find("startswith() needs string arguments"), std::string::npos);
  const Value day = Value::integral(TypeKind::Date, 18262);  // 2020-01-01
  EXPECT_EQ(eval("date_add(dt, 31) = DATE '2020-02-01'", {{"dt", day}}), T);
  EXPECT_EQ(eval("date_sub(dt, 1) = DATE '2019-12-31'", {{"dt", day}}), T);
  EXPECT_EQ(eval("date_add('2020-02-28', 1Y) = DATE '2020-02-29'"), T);
  EXPECT_EQ(eval("date_add(dt, 1) > dt"), N);
  EXPECT_NE(error_of("date_add(dt, 1.5) > dt").first.find("an integral number of days"), std::string::npos);
}

TEST(Grammar, QueryTimeFunctionsAreCallsWithoutParentheses) {
  const ExprPtr bare = parse_and_bind("dt <= current_date AND ts < CURRENT_TIMESTAMP", predicate_schema());
  const Expr& date_call = *bare->children[0]->children[1];
  EXPECT_EQ(date_call.kind, ExprKind::Call);
  EXPECT_EQ(date_call.function, "current_date");
  EXPECT_FALSE(date_call.deterministic);
  EXPECT_TRUE(same_expr(bare, parse_and_bind("dt <= current_date() AND ts < current_timestamp()", predicate_schema())));
  EXPECT_THROW(eval("dt <= current_date"), NotEvaluable) << "the model does not know the query's time";
  const Value day = Value::integral(TypeKind::Date, 18262);
  const ExprPtr p = parse_and_bind("dt = current_date()", predicate_schema());
  EXPECT_EQ(evaluate(*p, row_of({{"dt", day}}), CallValues{{p->children[1].get(), day}}), T);
}

// Spark reads a double-quoted token as a string literal (spark.sql.ansi.doubleQuotedIdentifiers is
// off by default), with the escapes of single quotes and "" for a quote.
TEST(Grammar, DoubleQuotedStringsAreStringLiterals) {
  expect_parses_to(R"(s = "a'b")", make_compare(CompareOp::Eq, col("s"), text("a'b")));
  expect_parses_to(R"(s = "say ""hi""\t\u00e9")", make_compare(CompareOp::Eq, col("s"), text("say \"hi\"\t\xC3\xA9")));
  expect_parses_to(R"(s LIKE "a%" ESCAPE "#")", parse_predicate("s LIKE 'a%' ESCAPE '#'"));
  expect_parses_to(R"(dt = DATE "2020-01-01")", parse_predicate("dt = DATE '2020-01-01'"));
  EXPECT_TRUE(same_expr(parse_predicate(R"("(" = s)"), parse_predicate("'(' = s"))) << "a quoted '(' does not nest";
  EXPECT_EQ(error_of(R"(s = "abc)"), std::make_pair(std::string("unterminated string"), 5));
  EXPECT_EQ(error_of(R"(s = "ab\")"), std::make_pair(std::string("unterminated string"), 5));
}

// isnull(e) / isnotnull(e) are Spark's IsNull / IsNotNull: the IR of `e IS [NOT] NULL`.
TEST(Grammar, IsNullFunctionsAreNullTests) {
  expect_parses_to("isnull(i + 1)", make_is_null(make_arith(ArithOp::Add, {col("i"), int_lit(1)})));
  expect_parses_to("NOT ISNOTNULL(s)", make_not(make_is_not_null(col("s"))));
  EXPECT_EQ(eval("isnull(i)"), T);
  EXPECT_EQ(eval("isnotnull(i)"), F);
  EXPECT_EQ(eval("isnotnull(i)", {{"i", Value::integral(TypeKind::Int, 0)}}), T);
  EXPECT_EQ(eval("isnull(b AND NULL)", {{"b", Value::boolean(false)}}), F) << "FALSE AND NULL is FALSE";
  EXPECT_EQ(error_of("isnull(i, l)"), std::make_pair(std::string("isnull() takes 1 argument(s), not 2"), 1));
  EXPECT_EQ(error_of("isnotnull()").first, "isnotnull() takes 1 argument(s), not 0");
  EXPECT_EQ(error_of("`isnull`(i)").first, "unknown function `isnull`");
}

// A string meeting a date or timestamp is cast to that type (Spark's PromoteStrings), with the
// non-ANSI CAST: a string it cannot read is NULL.
TEST(Grammar, StringsComparedWithTemporalColumnsAreCast) {
  const Value day = Value::integral(TypeKind::Date, 18262);  // 2020-01-01
  EXPECT_EQ(eval(R"(dt = "2020-01-01")", {{"dt", day}}), T);
  EXPECT_EQ(eval("dt = '2020-01-01 23:59:59'", {{"dt", day}}), T) << "CAST AS DATE ignores the time";
  EXPECT_EQ(eval("dt = ' 2020-01-01 '", {{"dt", day}}), T) << "and trims spaces";
  EXPECT_EQ(eval("dt <> 'nope'", {{"dt", day}}), N);
  EXPECT_EQ(eval("'2020-13-01' < ts", {{"ts", Value::integral(TypeKind::Timestamp, 0)}}), N);
  EXPECT_EQ(eval("ntz >= \"1970-01-01 00:00:01\"", {{"ntz", Value::integral(TypeKind::TimestampNtz, 1000000)}}), T);
  EXPECT_EQ(eval("ntz >= \"1970-01-01 00:00:01\"", {{"ntz", Value::integral(TypeKind::TimestampNtz, 999999)}}), F);
}

// hex(e): Spark's Hex, upper-case digits of a long (two's complement) or of the bytes of a string
// or binary; other numbers go through CAST AS BIGINT, other values through CAST AS STRING.
TEST(Grammar, HexFunction) {
  EXPECT_EQ(value_of("hex(s) = ''", {{"s", Value::string("1111")}}), Value::string("31313131"));
  EXPECT_EQ(value_of("hex(s) = ''", {{"s", Value::string("\xC3\xA9")}}), Value::string("C3A9"));
  EXPECT_EQ(value_of("hex(bin) = ''", {{"bin", Value::binary(std::string("\x00\xAB", 2))}}), Value::string("00AB"));
  EXPECT_EQ(value_of("hex(i) = ''", {{"i", Value::integral(TypeKind::Int, 255)}}), Value::string("FF"));
  EXPECT_EQ(value_of("hex(i) = ''", {{"i", Value::integral(TypeKind::Int, 0)}}), Value::string("0"));
  EXPECT_EQ(value_of("hex(l) = ''", {{"l", Value::integral(TypeKind::Long, -1)}}), Value::string("FFFFFFFFFFFFFFFF"));
  EXPECT_EQ(value_of("hex(d) = ''", {{"d", Value::floating(TypeKind::Double, 17.9)}}), Value::string("11"));
  EXPECT_EQ(value_of("hex(b) = ''", {{"b", Value::boolean(true)}}), Value::string("74727565"));
  EXPECT_TRUE(value_of("hex(s) = ''").is_null());
  EXPECT_EQ(error_of("hex(arr) = ''").first, "hex() needs an atomic argument, not array<int> column arr");
  // A string compared with binary is compared as its UTF-8 bytes (Spark casts it to binary).
  EXPECT_EQ(eval(R"(bin = hex("1111"))", {{"bin", Value::binary("31313131")}}), T);
  EXPECT_EQ(eval(R"(bin = hex("1111"))", {{"bin", Value::binary("1111")}}), F);
}

// Every construct, bound, printed and read back.
TEST(Grammar, EveryConstructRoundTripsThroughThePrinter) {
  for (const char* sql :
       {"!b OR !(i > 1)", "b IS TRUE AND b IS NOT FALSE", "(i > 1) IS UNKNOWN OR b IS NOT UNKNOWN",
        "i IS DISTINCT FROM l AND i IS NOT DISTINCT FROM 3", "s RLIKE '^a.*' OR s NOT REGEXP s",
        "s ILIKE 'A%' AND s NOT ILIKE '%b'", "s LIKE 'a#%_' ESCAPE '#' OR s NOT LIKE 'x!%' ESCAPE '!'",
        "s LIKE ANY ('a%', 'b%') AND s NOT LIKE ALL ('c%') AND NOT s LIKE SOME ('d%', CAST(NULL AS STRING))",
        "s LIKE ALL ('a%', s) OR s NOT LIKE ANY (s, 'z')", "i IN (l, i + 1, 3)",
        "CASE WHEN b THEN 1 WHEN i > 0 THEN 2 ELSE 3 END = 2", "CASE i WHEN 1 THEN b WHEN 2 THEN NOT b END",
        "coalesce(i, 2) > nvl(l, 1) AND if(b, s, 'x') = nvl2(i, 'a', 'b') AND nullif(i, 0) > 1",
        "startswith(s, 'ab') AND substring(s, 1, 3) = 'abc' AND substr(s, 1, 2) <> 'x'",
        "date_add(dt, 1) > DATE '2020-01-01' AND date_sub(dt, 2) < current_date AND ts < now()",
        R"(s = "it's ""q""" AND isnull(i) AND NOT isnotnull(s))",
        R"(dt = "2020-01-01" AND ts >= "2020-01-01 01:00:00" AND ntz < 'nope' AND "2020" < dt)",
        R"(hex(s) = hex(i) AND bin = hex("1111") AND hex(bin) <> '')"}) {
    SCOPED_TRACE(sql);
    const ExprPtr unbound = parse_predicate(sql);
    EXPECT_TRUE(same_expr(parse_predicate(to_sql(unbound)), unbound)) << to_sql(unbound);
    const ExprPtr bound = parse_and_bind(sql, predicate_schema());
    EXPECT_TRUE(same_expr(parse_and_bind(to_sql(bound), predicate_schema()), bound)) << to_sql(bound);
  }
}

}  // namespace
}  // namespace skipsound
