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
    case ExprKind::Between: return kPredicate;
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
  const std::string text = folds ? "(" + sql(*x) + ")" : operand(x, kUnary);
  return text[0] == '-' ? "- " + text : "-" + text;  // "--" would start a SQL comment
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

// NOT IN / NOT LIKE / NOT BETWEEN read back as Not(In) etc.; print them in the usual order.
std::string predicate_sql(const Expr& e, bool negated) {
  const std::string value = operand(e.children[0], kComparison);
  const std::string n = negated ? " NOT" : "";
  switch (e.kind) {
    case ExprKind::In: return value + n + " IN (" + list(e.children, 1) + ")";
    case ExprKind::Like: return value + n + " LIKE " + operand(e.children[1], kAdditive);
    default:
      return value + n + " BETWEEN " + operand(e.children[1], kAdditive) + " AND " +
             operand(e.children[2], kAdditive);
  }
}

bool is_suffix_predicate(const Expr& e) {
  return e.kind == ExprKind::In || e.kind == ExprKind::Like || e.kind == ExprKind::Between;
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
    case ExprKind::IsNull: return operand(c[0], kComparison) + " IS NULL";
    case ExprKind::IsNotNull: return operand(c[0], kComparison) + " IS NOT NULL";
    case ExprKind::In:
    case ExprKind::Like:
    case ExprKind::Between: return predicate_sql(e, false);
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
    case ExprKind::IsNull: return "is null";
    case ExprKind::IsNotNull: return "is not null";
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
