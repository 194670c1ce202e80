#include "model/sql/printer.h"

#include <algorithm>
#include <cctype>
#include <cmath>

#include <nlohmann/json.hpp>

#include "model/sql/parser.h"
#include "model/values/temporal.h"

namespace skipsound {

namespace {

// Binding strength, loosest first, mirroring the grammar's rule levels in parser.cpp.
enum Precedence : int {
  kOr = 1,
  kAnd,
  kNot,
  kPredicate,  // IS NULL, IN, LIKE, BETWEEN
  kComparison,
  kAdditive,
  kMultiplicative,
  kUnary,
  kPrimary,
};

Precedence precedence_of(const Expr& e) {
  switch (e.kind) {
    case ExprKind::Or: return kOr;
    case ExprKind::And: return kAnd;
    case ExprKind::Not: return kNot;
    case ExprKind::IsNull:
    case ExprKind::IsNotNull:
    case ExprKind::In:
    case ExprKind::InSubquery:
    case ExprKind::Like:
    case ExprKind::Between:
    case ExprKind::RLike:
    case ExprKind::LikeAny:
    case ExprKind::LikeAll: return kPredicate;
    case ExprKind::Compare: return kComparison;
    case ExprKind::Arith:
      switch (e.arith_op) {
        case ArithOp::Add:
        case ArithOp::Sub: return kAdditive;
        case ArithOp::Neg: return kUnary;
        default: return kMultiplicative;
      }
    case ExprKind::Literal: {
      // A negative number prints with its sign, which the grammar reads at the unary level.
      const std::string text = to_sql_literal(e.literal);
      return text[0] == '-' ? kUnary : kPrimary;
    }
    default: return kPrimary;
  }
}

// DataFusion's SQL (the dialect of delta-rs's predicates): numbers without Spark's type suffixes,
// typed NULLs through CAST, strings with '' as the only escape, timestamps through
// arrow_cast because its TIMESTAMP literal is nanoseconds without a zone and does not compare
// with a microsecond UTC column, identifiers in double quotes.
std::string datafusion_type(const DataType& t) {
  switch (t.kind) {
    case TypeKind::Byte: return "TINYINT";
    case TypeKind::Short: return "SMALLINT";
    case TypeKind::Int: return "INT";
    case TypeKind::Long: return "BIGINT";
    case TypeKind::Float: return "FLOAT";
    case TypeKind::Double: return "DOUBLE";
    case TypeKind::Boolean: return "BOOLEAN";
    case TypeKind::String: return "VARCHAR";
    case TypeKind::Date: return "DATE";
    case TypeKind::Decimal:
      return "DECIMAL(" + std::to_string(t.precision) + "," + std::to_string(t.scale) + ")";
    default: throw UnsupportedInDialect("type " + type_name(t));
  }
}

std::string arrow_timestamp_type(const DataType& t) {
  return t.kind == TypeKind::Timestamp ? "'Timestamp(Microsecond, Some(\"UTC\"))'"
                                       : "'Timestamp(Microsecond, None)'";
}

std::string datafusion_cast(const std::string& operand_text, const DataType& to) {
  if (to.kind == TypeKind::Timestamp || to.kind == TypeKind::TimestampNtz) {
    return "arrow_cast(" + operand_text + ", " + arrow_timestamp_type(to) + ")";
  }
  return "CAST(" + operand_text + " AS " + datafusion_type(to) + ")";
}

std::string datafusion_string(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

std::string datafusion_literal(const Value& v) {
  const TypeKind k = v.type.kind;
  if (v.is_null()) return k == TypeKind::Null ? "NULL" : datafusion_cast("NULL", v.type);
  switch (k) {
    case TypeKind::Byte:
    case TypeKind::Short:
    case TypeKind::Int:
    case TypeKind::Long: return std::to_string(v.as_int());
    case TypeKind::Float:
    case TypeKind::Double: {
      if (!std::isfinite(v.as_double())) return to_sql_literal(v);  // CAST('NaN' AS DOUBLE)
      std::string text = to_sql_literal(v);
      text.pop_back();  // Spark's D / F suffix
      return k == TypeKind::Float ? datafusion_cast(text, v.type) : text;
    }
    // Plain digits: delta-rs refuses to compare a decimal column with a decimal of another
    // precision ("Invalid comparison operation: Decimal128(10, 2) > Decimal128(3, 2)",
    // docs/engines.md, findings), while DataFusion coerces an untyped number to the column's type.
    case TypeKind::Decimal: return decimal_to_string(v.as_decimal());
    case TypeKind::Timestamp:
    case TypeKind::TimestampNtz:
      return datafusion_cast(datafusion_string(format_timestamp(
                                 v.as_int(), TimestampFormat{'T', 0, k == TypeKind::Timestamp})),
                             v.type);
    case TypeKind::String: return datafusion_string(v.as_string());
    case TypeKind::Boolean:
    case TypeKind::Date: return to_sql_literal(v);
    default: throw UnsupportedInDialect("a literal of type " + type_name(v.type));
  }
}

std::string datafusion_column(const ColumnPath& path) {
  std::string out;
  for (const std::string& part : path) {
    if (!out.empty()) out += '.';
    const bool plain = !part.empty() && (std::isalpha(static_cast<unsigned char>(part[0])) || part[0] == '_') &&
                       std::all_of(part.begin(), part.end(), [](char c) {
                         return std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '_';
                       });
    if (!plain) throw UnsupportedInDialect("column name " + path_to_sql(path));
    out += part;
  }
  return out;
}

std::string sql(const Expr& e, SqlDialect d);

// `e` printed where the grammar expects at least `needed`: parenthesised when it binds looser.
std::string operand(const ExprPtr& e, Precedence needed, SqlDialect d) {
  std::string text = sql(*e, d);
  return precedence_of(*e) < needed ? "(" + text + ")" : text;
}

std::string list(const std::vector<ExprPtr>& items, size_t from, SqlDialect d) {
  std::string out;
  for (size_t i = from; i < items.size(); ++i) {
    if (i > from) out += ", ";
    out += operand(items[i], kOr, d);
  }
  return out;
}

std::string negation_sql(const Expr& e, SqlDialect d) {
  const ExprPtr& x = e.children[0];
  // -5 would read back as the literal -5, not as -(5).
  const bool folds = x->kind == ExprKind::Literal && is_numeric(x->literal.type.kind) &&
                     !x->literal.is_null() && precedence_of(*x) == kPrimary;
  const std::string text = folds ? std::string(1, '(').append(sql(*x, d)).append(")") : operand(x, kUnary, d);
  return std::string(text[0] == '-' ? "- " : "-").append(text);  // "--" would start a SQL comment
}

std::string cast_sql(const Expr& e, SqlDialect d) {
  const ExprPtr& x = e.children[0];
  std::string text = operand(x, kOr, d);
  if (d == SqlDialect::DataFusion) return datafusion_cast(text, e.cast_type);
  // CAST(NULL AS INT) reads back as a typed NULL literal; a parenthesised operand stays a cast.
  if (x->kind == ExprKind::Literal && folded_cast_literal(x->literal, e.cast_type)) {
    text = "(" + text + ")";
  }
  return "CAST(" + text + " AS " + type_name(e.cast_type) + ")";
}

// A comparison operand in DataFusion's SQL: an untyped NULL takes the other operand's type
// (DataFusion cannot coerce a bare NULL in every comparison: "Casting from Int64 to Null").
std::string datafusion_operand(const ExprPtr& e, const ExprPtr& other, Precedence needed) {
  const bool untyped_null = e->kind == ExprKind::Literal && e->literal.type.kind == TypeKind::Null;
  if (untyped_null && other->type.kind != TypeKind::Null) return datafusion_cast("NULL", other->type);
  return operand(e, needed, SqlDialect::DataFusion);
}

std::string like_sql(const Expr& e, SqlDialect d) {
  // DataFusion's LIKE takes no escape character but the backslash.
  if (d == SqlDialect::DataFusion && e.children.size() > 2 && like_escape(e) != U'\\') {
    throw UnsupportedInDialect("LIKE with an ESCAPE other than the backslash");
  }
  std::string text = " LIKE " + operand(e.children[1], kAdditive, d);
  if (e.children.size() > 2) text += " ESCAPE " + sql(*e.children[2], d);
  return text;
}

// The table itself is `t`, as the parser reads it.
std::string subquery_sql(const Expr& e, SqlDialect d) {
  if (d == SqlDialect::DataFusion) throw UnsupportedInDialect("subquery");
  std::string text = "SELECT " + sql(*e.children[1], d) + " FROM t";
  if (e.children.size() > 2) text += " WHERE " + sql(*e.children[2], d);
  return text;
}

// NOT IN / NOT LIKE / NOT RLIKE / NOT BETWEEN read back as Not(In) etc.; print them in the usual
// order. (NOT of LIKE ANY / ALL prints as a prefix NOT: `x NOT LIKE ANY` means NOT (x LIKE ALL).)
std::string predicate_sql(const Expr& e, bool negated, SqlDialect d) {
  const std::string value = operand(e.children[0], kComparison, d);
  const std::string n = negated ? " NOT" : "";
  switch (e.kind) {
    case ExprKind::In: return value + n + " IN (" + list(e.children, 1, d) + ")";
    case ExprKind::InSubquery: return value + n + " IN (" + subquery_sql(e, d) + ")";
    case ExprKind::Like: return value + n + like_sql(e, d);
    case ExprKind::RLike:
      if (d == SqlDialect::DataFusion) return value + (negated ? " !~ " : " ~ ") + operand(e.children[1], kAdditive, d);
      return value + n + " RLIKE " + operand(e.children[1], kAdditive, d);
    case ExprKind::LikeAny:
    case ExprKind::LikeAll:
      if (d == SqlDialect::DataFusion) throw UnsupportedInDialect("LIKE ANY / LIKE ALL");
      return value + (e.kind == ExprKind::LikeAny ? " LIKE ANY (" : " LIKE ALL (") + list(e.children, 1, d) + ")";
    default:
      return value + n + " BETWEEN " + operand(e.children[1], kAdditive, d) + " AND " +
             operand(e.children[2], kAdditive, d);
  }
}

bool is_suffix_predicate(const Expr& e) {
  return e.kind == ExprKind::In || e.kind == ExprKind::InSubquery || e.kind == ExprKind::Like ||
         e.kind == ExprKind::Between || e.kind == ExprKind::RLike;
}

std::string null_test_sql(const Expr& e, SqlDialect d) {
  const bool negated = e.kind == ExprKind::IsNotNull;
  return operand(e.children[0], kComparison, d) + (negated ? " IS NOT " : " IS ") +
         (e.unknown_form ? "UNKNOWN" : "NULL");
}

std::string case_sql(const Expr& e, SqlDialect d) {
  std::string out = "CASE";
  const auto& c = e.children;
  size_t i = 0;
  for (; i + 1 < c.size(); i += 2) out += " WHEN " + operand(c[i], kOr, d) + " THEN " + operand(c[i + 1], kOr, d);
  if (i < c.size()) out += " ELSE " + operand(c[i], kOr, d);
  return out + " END";
}

std::string sql(const Expr& e, SqlDialect d) {
  const auto& c = e.children;
  const bool datafusion = d == SqlDialect::DataFusion;
  switch (e.kind) {
    case ExprKind::Literal: return datafusion ? datafusion_literal(e.literal) : to_sql_literal(e.literal);
    case ExprKind::Column: return datafusion ? datafusion_column(e.path) : path_to_sql(e.path);
    case ExprKind::Compare: {
      // DataFusion's parser reads everything after IS NOT DISTINCT FROM as its right operand
      // (`a IS NOT DISTINCT FROM b AND c` is `a <=> (b AND c)`), so the comparison and its
      // operands are parenthesised whole.
      if (datafusion && e.cmp_op == CompareOp::NullSafeEq) {
        return "(" + datafusion_operand(c[0], c[1], kPrimary) + " IS NOT DISTINCT FROM " +
               datafusion_operand(c[1], c[0], kPrimary) + ")";
      }
      if (datafusion) {
        return datafusion_operand(c[0], c[1], kComparison) + " " + compare_op_sql(e.cmp_op) + " " +
               datafusion_operand(c[1], c[0], kAdditive);
      }
      return operand(c[0], kComparison, d) + " " + compare_op_sql(e.cmp_op) + " " + operand(c[1], kAdditive, d);
    }
    case ExprKind::And: return operand(c[0], kAnd, d) + " AND " + operand(c[1], kNot, d);
    case ExprKind::Or: return operand(c[0], kOr, d) + " OR " + operand(c[1], kAnd, d);
    case ExprKind::Not:
      if (is_suffix_predicate(*c[0])) return predicate_sql(*c[0], true, d);
      return "NOT " + operand(c[0], kNot, d);
    case ExprKind::IsNull:
    case ExprKind::IsNotNull: return null_test_sql(e, d);
    case ExprKind::In:
    case ExprKind::InSubquery:
    case ExprKind::Like:
    case ExprKind::Between:
    case ExprKind::RLike:
    case ExprKind::LikeAny:
    case ExprKind::LikeAll: return predicate_sql(e, false, d);
    case ExprKind::Case: return case_sql(e, d);
    case ExprKind::Arith: {
      if (e.arith_op == ArithOp::Neg) return negation_sql(e, d);
      // Spark's `/` gives a double or decimal; DataFusion's divides integers as integers.
      if (datafusion && e.arith_op == ArithOp::Div) throw UnsupportedInDialect("division");
      const Precedence level = precedence_of(e);
      return operand(c[0], level, d) + " " + arith_op_sql(e.arith_op) + " " +
             operand(c[1], static_cast<Precedence>(level + 1), d);
    }
    case ExprKind::Cast: return cast_sql(e, d);
    case ExprKind::Call:
      // Spark's functions and DataFusion's share names, not always semantics.
      if (datafusion) throw UnsupportedInDialect("function " + e.function);
      return e.function + "(" + list(c, 0, d) + ")";
  }
  return "?";
}

const char* kind_name(const Expr& e) {
  switch (e.kind) {
    case ExprKind::And: return "and";
    case ExprKind::Or: return "or";
    case ExprKind::Not: return "not";
    case ExprKind::IsNull: return e.unknown_form ? "is unknown" : "is null";
    case ExprKind::IsNotNull: return e.unknown_form ? "is not unknown" : "is not null";
    case ExprKind::RLike: return "rlike";
    case ExprKind::LikeAny: return "like any";
    case ExprKind::LikeAll: return "like all";
    case ExprKind::Case: return "case";
    case ExprKind::In: return "in";
    case ExprKind::InSubquery: return "in subquery";
    case ExprKind::Like: return "like";
    case ExprKind::Between: return "between";
    case ExprKind::Compare: return compare_op_sql(e.cmp_op);
    case ExprKind::Arith: return e.arith_op == ArithOp::Neg ? "neg" : arith_op_sql(e.arith_op);
    case ExprKind::Cast: return "cast";
    case ExprKind::Call: return "call";
    default: return "?";
  }
}

}  // namespace

std::string to_sql(const ExprPtr& e, SqlDialect dialect) { return sql(*e, dialect); }

nlohmann::json to_json(const ExprPtr& e) {
  nlohmann::json j;
  switch (e->kind) {
    case ExprKind::Literal: j["literal"] = to_display(e->literal); break;
    case ExprKind::Column: j["column"] = path_to_sql(e->path); break;
    default: {
      j["op"] = kind_name(*e);
      if (e->kind == ExprKind::Cast) j["to"] = type_name(e->cast_type);
      if (e->kind == ExprKind::Call) {
        j["function"] = e->function;
        j["deterministic"] = e->deterministic;
      }
      nlohmann::json children = nlohmann::json::array();
      for (const ExprPtr& child : e->children) children.push_back(to_json(child));
      j["children"] = std::move(children);
    }
  }
  // Unbound IR has no types yet except on literals.
  const DataType& type = e->kind == ExprKind::Literal ? e->literal.type : e->type;
  if (type.kind != TypeKind::Null || e->kind == ExprKind::Literal) j["type"] = type_name(type);
  return j;
}

}  // namespace skipsound
