#include "model/sql/expr.h"

#include <algorithm>
#include <cctype>
#include <stdexcept>

#include "model/values/ascii_text.h"
#include "model/values/utf8.h"

namespace skipsound {

const char* compare_op_sql(CompareOp op) {
  switch (op) {
    case CompareOp::Eq: return "=";
    case CompareOp::NullSafeEq: return "<=>";
    case CompareOp::Ne: return "<>";
    case CompareOp::Lt: return "<";
    case CompareOp::Le: return "<=";
    case CompareOp::Gt: return ">";
    case CompareOp::Ge: return ">=";
  }
  return "?";
}

const char* arith_op_sql(ArithOp op) {
  switch (op) {
    case ArithOp::Add: return "+";
    case ArithOp::Sub: return "-";
    case ArithOp::Mul: return "*";
    case ArithOp::Div: return "/";
    case ArithOp::Mod: return "%";
    case ArithOp::Neg: return "-";
  }
  return "?";
}

CompareOp flip(CompareOp op) {
  switch (op) {
    case CompareOp::Lt: return CompareOp::Gt;
    case CompareOp::Le: return CompareOp::Ge;
    case CompareOp::Gt: return CompareOp::Lt;
    case CompareOp::Ge: return CompareOp::Le;
    default: return op;  // =, <=>, <> are symmetric
  }
}

CompareOp negate(CompareOp op) {
  switch (op) {
    case CompareOp::Eq: return CompareOp::Ne;
    case CompareOp::Ne: return CompareOp::Eq;
    case CompareOp::Lt: return CompareOp::Ge;
    case CompareOp::Le: return CompareOp::Gt;
    case CompareOp::Gt: return CompareOp::Le;
    case CompareOp::Ge: return CompareOp::Lt;
    case CompareOp::NullSafeEq: break;
  }
  throw std::invalid_argument("NOT (a <=> b) has no single comparison operator");
}

bool Expr::operator==(const Expr& o) const {
  if (kind != o.kind || !(type == o.type) || children.size() != o.children.size()) return false;
  switch (kind) {
    case ExprKind::Literal:
      if (!(literal == o.literal)) return false;
      break;
    case ExprKind::Column:
      if (path != o.path || leaf != o.leaf) return false;
      break;
    case ExprKind::Compare:
      if (cmp_op != o.cmp_op) return false;
      break;
    case ExprKind::Arith:
      if (arith_op != o.arith_op) return false;
      break;
    case ExprKind::Cast:
      if (!(cast_type == o.cast_type)) return false;
      break;
    case ExprKind::Call:
      if (function != o.function || deterministic != o.deterministic) return false;
      break;
    case ExprKind::IsNull:
    case ExprKind::IsNotNull:
      if (unknown_form != o.unknown_form) return false;
      break;
    default: break;
  }
  for (size_t i = 0; i < children.size(); ++i) {
    if (!same_expr(children[i], o.children[i])) return false;
  }
  return true;
}

bool same_expr(const ExprPtr& a, const ExprPtr& b) {
  if (a == b) return true;
  if (!a || !b) return false;
  return *a == *b;
}

namespace {

ExprPtr make_node(ExprKind kind, std::vector<ExprPtr> children) {
  auto e = std::make_shared<Expr>();
  e->kind = kind;
  e->children = std::move(children);
  return e;
}

}  // namespace

ExprPtr make_literal(Value v) {
  auto e = std::make_shared<Expr>();
  e->kind = ExprKind::Literal;
  e->literal = std::move(v);
  return e;
}

ExprPtr make_column(ColumnPath path) {
  auto e = std::make_shared<Expr>();
  e->kind = ExprKind::Column;
  e->path = std::move(path);
  return e;
}

ExprPtr make_compare(CompareOp op, ExprPtr lhs, ExprPtr rhs) {
  auto e = std::make_shared<Expr>();
  e->kind = ExprKind::Compare;
  e->cmp_op = op;
  e->children = {std::move(lhs), std::move(rhs)};
  return e;
}

ExprPtr make_and(ExprPtr lhs, ExprPtr rhs) {
  return make_node(ExprKind::And, {std::move(lhs), std::move(rhs)});
}

ExprPtr make_or(ExprPtr lhs, ExprPtr rhs) {
  return make_node(ExprKind::Or, {std::move(lhs), std::move(rhs)});
}

ExprPtr make_not(ExprPtr e) { return make_node(ExprKind::Not, {std::move(e)}); }
ExprPtr make_is_null(ExprPtr e) { return make_node(ExprKind::IsNull, {std::move(e)}); }
ExprPtr make_is_not_null(ExprPtr e) { return make_node(ExprKind::IsNotNull, {std::move(e)}); }

ExprPtr make_in(ExprPtr value, std::vector<ExprPtr> items) {
  items.insert(items.begin(), std::move(value));
  return make_node(ExprKind::In, std::move(items));
}

ExprPtr make_like(ExprPtr value, ExprPtr pattern) {
  return make_node(ExprKind::Like, {std::move(value), std::move(pattern)});
}

ExprPtr make_like_escape(ExprPtr value, ExprPtr pattern, char32_t escape) {
  // The default escape is not recorded (the parser reads `ESCAPE '\\'` so too).
  if (escape == U'\\') return make_like(std::move(value), std::move(pattern));
  std::string text;
  append_utf8(text, escape);
  return make_node(ExprKind::Like, {std::move(value), std::move(pattern), make_literal(Value::string(text))});
}

ExprPtr make_rlike(ExprPtr value, ExprPtr regex) {
  return make_node(ExprKind::RLike, {std::move(value), std::move(regex)});
}

ExprPtr make_like_any(ExprPtr value, std::vector<ExprPtr> patterns) {
  patterns.insert(patterns.begin(), std::move(value));
  return make_node(ExprKind::LikeAny, std::move(patterns));
}

ExprPtr make_like_all(ExprPtr value, std::vector<ExprPtr> patterns) {
  patterns.insert(patterns.begin(), std::move(value));
  return make_node(ExprKind::LikeAll, std::move(patterns));
}

ExprPtr make_case(std::vector<std::pair<ExprPtr, ExprPtr>> whens_thens, ExprPtr otherwise) {
  std::vector<ExprPtr> children;
  for (auto& [when, then] : whens_thens) {
    children.push_back(std::move(when));
    children.push_back(std::move(then));
  }
  if (otherwise) children.push_back(std::move(otherwise));
  return make_node(ExprKind::Case, std::move(children));
}

ExprPtr make_is_unknown(ExprPtr e, bool negated) {
  auto node = std::make_shared<Expr>();
  node->kind = negated ? ExprKind::IsNotNull : ExprKind::IsNull;
  node->unknown_form = true;
  node->children = {std::move(e)};
  return node;
}

char32_t like_escape(const Expr& like) {
  if (like.children.size() < 3) return U'\\';
  const std::vector<char32_t> cps = decode_utf8(like.children[2]->literal.as_string());
  return cps.empty() ? U'\\' : cps.front();
}

ExprPtr make_between(ExprPtr value, ExprPtr low, ExprPtr high) {
  return make_node(ExprKind::Between, {std::move(value), std::move(low), std::move(high)});
}

ExprPtr make_arith(ArithOp op, std::vector<ExprPtr> operands) {
  const size_t expected = op == ArithOp::Neg ? 1 : 2;
  if (operands.size() != expected) {
    throw std::invalid_argument(std::string("arithmetic ") + arith_op_sql(op) + " takes " +
                                std::to_string(expected) + " operand(s)");
  }
  auto e = std::make_shared<Expr>();
  e->kind = ExprKind::Arith;
  e->arith_op = op;
  e->children = std::move(operands);
  return e;
}

ExprPtr make_cast(ExprPtr operand, DataType to) {
  auto e = std::make_shared<Expr>();
  e->kind = ExprKind::Cast;
  e->cast_type = std::move(to);
  e->children = {std::move(operand)};
  return e;
}

ExprPtr make_call(std::string function, std::vector<ExprPtr> args) {
  auto e = std::make_shared<Expr>();
  e->kind = ExprKind::Call;
  function = ascii_lower(function);
  e->deterministic = is_deterministic_function(function);
  e->function = std::move(function);
  e->children = std::move(args);
  return e;
}

ExprPtr make_in_subquery(ExprPtr value, ExprPtr selected, ExprPtr condition) {
  std::vector<ExprPtr> children{std::move(value), std::move(selected)};
  if (condition) children.push_back(std::move(condition));
  return make_node(ExprKind::InSubquery, std::move(children));
}

bool contains_subquery(const Expr& e) {
  return e.kind == ExprKind::InSubquery ||
         std::any_of(e.children.begin(), e.children.end(), [](const ExprPtr& c) { return contains_subquery(*c); });
}

namespace {

using R = FunctionResult;

// Spark's built-ins that read predicates plausibly use. Non-deterministic ones are dropped from
// skipping (docs/semantics.md §5.3), so their determinism flag matters; the rest only need a result type.
constexpr FunctionInfo kFunctions[] = {
    {"abs", true, 1, 1, R::SameAsFirst},
    {"ceil", true, 1, 1, R::SameAsFirst},
    {"ceiling", true, 1, 1, R::SameAsFirst},
    {"char_length", true, 1, 1, R::Int},
    {"coalesce", true, 1, -1, R::CommonOfArgs},
    {"concat", true, 0, -1, R::String},
    {"concat_ws", true, 1, -1, R::String},
    {"contains", true, 2, 2, R::Boolean},
    {"current_date", false, 0, 0, R::Date},
    {"current_timestamp", false, 0, 0, R::Timestamp},
    {"date_add", true, 2, 2, R::Date},
    {"date_sub", true, 2, 2, R::Date},
    {"datediff", true, 2, 2, R::Int},
    {"day", true, 1, 1, R::Int},
    {"dayofmonth", true, 1, 1, R::Int},
    {"endswith", true, 2, 2, R::Boolean},
    {"exp", true, 1, 1, R::Double},
    {"floor", true, 1, 1, R::SameAsFirst},
    {"greatest", true, 1, -1, R::CommonOfArgs},
    {"hash", true, 1, -1, R::Int},
    {"hex", true, 1, 1, R::String},
    {"hour", true, 1, 1, R::Int},
    {"if", true, 3, 3, R::CommonOfBranches},
    {"ifnull", true, 2, 2, R::CommonOfArgs},
    {"instr", true, 2, 2, R::Int},
    {"isnan", true, 1, 1, R::Boolean},
    {"lcase", true, 1, 1, R::String},
    {"least", true, 1, -1, R::CommonOfArgs},
    {"length", true, 1, 1, R::Int},
    {"ln", true, 1, 1, R::Double},
    {"log", true, 1, 2, R::Double},
    {"lower", true, 1, 1, R::String},
    {"lpad", true, 2, 3, R::String},
    {"ltrim", true, 1, 1, R::String},
    {"md5", true, 1, 1, R::String},
    {"minute", true, 1, 1, R::Int},
    {"monotonically_increasing_id", false, 0, 0, R::Long},
    {"month", true, 1, 1, R::Int},
    {"now", false, 0, 0, R::Timestamp},
    {"nullif", true, 2, 2, R::SameAsFirst},
    {"nvl", true, 2, 2, R::CommonOfArgs},
    {"nvl2", true, 3, 3, R::CommonOfBranches},
    {"pow", true, 2, 2, R::Double},
    {"power", true, 2, 2, R::Double},
    {"rand", false, 0, 1, R::Double},
    {"randn", false, 0, 1, R::Double},
    {"random", false, 0, 1, R::Double},
    {"replace", true, 2, 3, R::String},
    {"reverse", true, 1, 1, R::String},
    {"round", true, 1, 2, R::SameAsFirst},
    {"rpad", true, 2, 3, R::String},
    {"rtrim", true, 1, 1, R::String},
    {"second", true, 1, 1, R::Int},
    {"sha1", true, 1, 1, R::String},
    {"sha2", true, 2, 2, R::String},
    {"shuffle", false, 1, 1, R::SameAsFirst},
    {"sign", true, 1, 1, R::Double},
    {"signum", true, 1, 1, R::Double},
    {"sqrt", true, 1, 1, R::Double},
    {"startswith", true, 2, 2, R::Boolean},
    {"substr", true, 2, 3, R::String},
    {"substring", true, 2, 3, R::String},
    {"to_date", true, 1, 2, R::Date},
    {"trim", true, 1, 1, R::String},
    {"ucase", true, 1, 1, R::String},
    {"upper", true, 1, 1, R::String},
    {"uuid", false, 0, 0, R::String},
    {"year", true, 1, 1, R::Int},
};

}  // namespace

const FunctionInfo* find_function(const std::string& lower_name) {
  for (const FunctionInfo& f : kFunctions) {
    if (lower_name == f.name) return &f;
  }
  return nullptr;
}

bool is_query_time_function(const std::string& lower_name) {
  return lower_name == "current_date" || lower_name == "current_timestamp" || lower_name == "now";
}

bool is_known_function(const std::string& lower_name) { return find_function(lower_name) != nullptr; }

bool is_deterministic_function(const std::string& lower_name) {
  const FunctionInfo* f = find_function(lower_name);
  return f != nullptr && f->deterministic;
}

}  // namespace skipsound
