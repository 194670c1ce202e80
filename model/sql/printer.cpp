#include "model/sql/printer.h"

#include <nlohmann/json.hpp>

#include "model/sql/parser.h"

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

std::string sql(const Expr& e);

// `e` printed where the grammar expects at least `needed`: parenthesised when it binds looser.
std::string operand(const ExprPtr& e, Precedence needed) {
  std::string text = sql(*e);
  return precedence_of(*e) < needed ? "(" + text + ")" : text;
}

std::string list(const std::vector<ExprPtr>& items, size_t from) {
  std::string out;
  for (size_t i = from; i < items.size(); ++i) {
    if (i > from) out += ", ";
    out += operand(items[i], kOr);
  }
  return out;
}

std::string negation_sql(const Expr& e) {
  const ExprPtr& x = e.children[0];
  // -5 would read back as the literal -5, not as -(5).
  const bool folds = x->kind == ExprKind::Literal && is_numeric(x->literal.type.kind) &&
                     !x->literal.is_null() && precedence_of(*x) == kPrimary;
  const std::string text = folds ? std::string(1, '(').append(sql(*x)).append(")") : operand(x, kUnary);
  return std::string(text[0] == '-' ? "- " : "-").append(text);  // "--" would start a SQL comment
}

std::string cast_sql(const Expr& e) {
  const ExprPtr& x = e.children[0];
  std::string text = operand(x, kOr);
  // CAST(NULL AS INT) reads back as a typed NULL literal; a parenthesised operand stays a cast.
  if (x->kind == ExprKind::Literal && folded_cast_literal(x->literal, e.cast_type)) {
    text = "(" + text + ")";
  }
  return "CAST(" + text + " AS " + type_name(e.cast_type) + ")";
}

std::string like_sql(const Expr& e) {
  std::string text = " LIKE " + operand(e.children[1], kAdditive);
  if (e.children.size() > 2) text += " ESCAPE " + sql(*e.children[2]);
  return text;
}

// NOT IN / NOT LIKE / NOT RLIKE / NOT BETWEEN read back as Not(In) etc.; print them in the usual
// order. (NOT of LIKE ANY / ALL prints as a prefix NOT: `x NOT LIKE ANY` means NOT (x LIKE ALL).)
std::string predicate_sql(const Expr& e, bool negated) {
  const std::string value = operand(e.children[0], kComparison);
  const std::string n = negated ? " NOT" : "";
  switch (e.kind) {
    case ExprKind::In: return value + n + " IN (" + list(e.children, 1) + ")";
    case ExprKind::Like: return value + n + like_sql(e);
    case ExprKind::RLike: return value + n + " RLIKE " + operand(e.children[1], kAdditive);
    case ExprKind::LikeAny: return value + " LIKE ANY (" + list(e.children, 1) + ")";
    case ExprKind::LikeAll: return value + " LIKE ALL (" + list(e.children, 1) + ")";
    default:
      return value + n + " BETWEEN " + operand(e.children[1], kAdditive) + " AND " +
             operand(e.children[2], kAdditive);
  }
}

bool is_suffix_predicate(const Expr& e) {
  return e.kind == ExprKind::In || e.kind == ExprKind::Like || e.kind == ExprKind::Between ||
         e.kind == ExprKind::RLike;
}

std::string null_test_sql(const Expr& e) {
  const bool negated = e.kind == ExprKind::IsNotNull;
  return operand(e.children[0], kComparison) + (negated ? " IS NOT " : " IS ") +
         (e.unknown_form ? "UNKNOWN" : "NULL");
}

std::string case_sql(const Expr& e) {
  std::string out = "CASE";
  const auto& c = e.children;
  size_t i = 0;
  for (; i + 1 < c.size(); i += 2) out += " WHEN " + operand(c[i], kOr) + " THEN " + operand(c[i + 1], kOr);
  if (i < c.size()) out += " ELSE " + operand(c[i], kOr);
  return out + " END";
}

std::string sql(const Expr& e) {
  const auto& c = e.children;
  switch (e.kind) {
    case ExprKind::Literal: return to_sql_literal(e.literal);
    case ExprKind::Column: return path_to_sql(e.path);
    case ExprKind::Compare:
      return operand(c[0], kComparison) + " " + compare_op_sql(e.cmp_op) + " " +
             operand(c[1], kAdditive);
    case ExprKind::And: return operand(c[0], kAnd) + " AND " + operand(c[1], kNot);
    case ExprKind::Or: return operand(c[0], kOr) + " OR " + operand(c[1], kAnd);
    case ExprKind::Not:
      if (is_suffix_predicate(*c[0])) return predicate_sql(*c[0], true);
      return "NOT " + operand(c[0], kNot);
    case ExprKind::IsNull:
    case ExprKind::IsNotNull: return null_test_sql(e);
    case ExprKind::In:
    case ExprKind::Like:
    case ExprKind::Between:
    case ExprKind::RLike:
    case ExprKind::LikeAny:
    case ExprKind::LikeAll: return predicate_sql(e, false);
    case ExprKind::Case: return case_sql(e);
    case ExprKind::Arith: {
      if (e.arith_op == ArithOp::Neg) return negation_sql(e);
      const Precedence level = precedence_of(e);
      return operand(c[0], level) + " " + arith_op_sql(e.arith_op) + " " +
             operand(c[1], static_cast<Precedence>(level + 1));
    }
    case ExprKind::Cast: return cast_sql(e);
    case ExprKind::Call: return e.function + "(" + list(c, 0) + ")";
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

std::string to_sql(const ExprPtr& e) { return sql(*e); }

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
