#include "model/sql/binder.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string>

#include "model/sql/parser.h"
#include "model/sql/regex.h"
#include "model/values/cast.h"
#include "model/values/ascii_text.h"

namespace skipsound {

namespace {

bool is_nested(TypeKind k) {
  return k == TypeKind::Struct || k == TypeKind::Array || k == TypeKind::Map;
}

std::string type_noun(const DataType& t) {
  return t.kind == TypeKind::Int ? "integer" : type_name(t);
}

// "string column s", "integer literal 5", "NULL", "double expression".
std::string describe(const Expr& e) {
  switch (e.kind) {
    case ExprKind::Column: return type_noun(e.type) + " column " + path_to_sql(e.path);
    case ExprKind::Literal:
      if (e.literal.type.kind == TypeKind::Null) return "NULL";
      return type_noun(e.type) + " literal " + to_sql_literal(e.literal);
    default: return type_noun(e.type) + " expression";
  }
}

// --- Spark's type rules for arithmetic ---------------------------------------------------------

// The decimal an integral type widens to in decimal arithmetic.
DataType integral_as_decimal(TypeKind k) {
  switch (k) {
    case TypeKind::Byte: return DataType::decimal(3, 0);
    case TypeKind::Short: return DataType::decimal(5, 0);
    case TypeKind::Int: return DataType::decimal(10, 0);
    default: return DataType::decimal(20, 0);
  }
}

// Spark's DecimalType.adjustPrecisionScale (precision loss allowed, the default).
DataType bounded_decimal(int precision, int scale) {
  if (precision <= kMaxDecimalPrecision) return DataType::decimal(precision, scale);
  const int integral_digits = precision - scale;
  const int min_scale = std::min(scale, 6);
  return DataType::decimal(kMaxDecimalPrecision,
                           std::max(kMaxDecimalPrecision - integral_digits, min_scale));
}

DataType decimal_arithmetic_type(ArithOp op, const DataType& a, const DataType& b) {
  const int p1 = a.precision, s1 = a.scale, p2 = b.precision, s2 = b.scale;
  switch (op) {
    case ArithOp::Add:
    case ArithOp::Sub: {
      const int s = std::max(s1, s2);
      return bounded_decimal(std::max(p1 - s1, p2 - s2) + s + 1, s);
    }
    case ArithOp::Mul: return bounded_decimal(p1 + p2 + 1, s1 + s2);
    case ArithOp::Div: {
      const int s = std::max(6, s1 + p2 + 1);
      return bounded_decimal(p1 - s1 + s2 + s, s);
    }
    default: {  // Mod
      const int s = std::max(s1, s2);
      return bounded_decimal(std::min(p1 - s1, p2 - s2) + s, s);
    }
  }
}

int integral_rank(TypeKind k) {
  switch (k) {
    case TypeKind::Byte: return 0;
    case TypeKind::Short: return 1;
    case TypeKind::Int: return 2;
    default: return 3;
  }
}

DataType arithmetic_type(ArithOp op, const DataType& a, const DataType& b) {
  if (a.kind == TypeKind::Null) return b;
  if (b.kind == TypeKind::Null) return a;
  const auto double_type = DataType::of(TypeKind::Double);
  if (is_floating(a.kind) || is_floating(b.kind)) {
    if (op == ArithOp::Div || a.kind == TypeKind::Double || b.kind == TypeKind::Double) {
      return double_type;
    }
    return DataType::of(TypeKind::Float);
  }
  if (a.kind == TypeKind::Decimal || b.kind == TypeKind::Decimal) {
    const DataType da = a.kind == TypeKind::Decimal ? a : integral_as_decimal(a.kind);
    const DataType db = b.kind == TypeKind::Decimal ? b : integral_as_decimal(b.kind);
    return decimal_arithmetic_type(op, da, db);
  }
  if (op == ArithOp::Div) return double_type;
  return integral_rank(a.kind) >= integral_rank(b.kind) ? a : b;
}

// Spark's wider common type of two branch values (CASE, IF, COALESCE, …): numeric widening,
// date with timestamp as timestamp, and a string with any other atomic value but binary and
// boolean as string; nullopt when Spark has none.
std::optional<DataType> common_type(const DataType& a, const DataType& b) {
  if (a.kind == TypeKind::Null || a == b) return b;
  if (b.kind == TypeKind::Null) return a;
  if (is_numeric(a.kind) && is_numeric(b.kind)) {
    if (is_floating(a.kind) || is_floating(b.kind)) {
      const bool both_narrow = a.kind != TypeKind::Double && b.kind != TypeKind::Double &&
                               a.kind != TypeKind::Decimal && b.kind != TypeKind::Decimal;
      return DataType::of(both_narrow ? TypeKind::Float : TypeKind::Double);
    }
    if (a.kind == TypeKind::Decimal || b.kind == TypeKind::Decimal) {
      const DataType da = a.kind == TypeKind::Decimal ? a : integral_as_decimal(a.kind);
      const DataType db = b.kind == TypeKind::Decimal ? b : integral_as_decimal(b.kind);
      const int scale = std::max(da.scale, db.scale);
      return bounded_decimal(std::max(da.precision - da.scale, db.precision - db.scale) + scale, scale);
    }
    return integral_rank(a.kind) >= integral_rank(b.kind) ? a : b;
  }
  const auto is_date_or_timestamp = [](TypeKind k) { return k == TypeKind::Date || k == TypeKind::Timestamp; };
  if (is_date_or_timestamp(a.kind) && is_date_or_timestamp(b.kind)) return DataType::of(TypeKind::Timestamp);
  const auto promotes_to_string = [](const DataType& t) {
    return !is_nested(t.kind) && t.kind != TypeKind::Binary && t.kind != TypeKind::Boolean;
  };
  if ((a.kind == TypeKind::String && promotes_to_string(b)) || (b.kind == TypeKind::String && promotes_to_string(a))) {
    return DataType::of(TypeKind::String);
  }
  return std::nullopt;
}

// --- Literal coercion ---------------------------------------------------------------------------

double decimal_to_double(const Decimal& d) {
  const std::string text = decimal_to_string(d);
  double v = 0;
  std::from_chars(text.data(), text.data() + text.size(), v);
  return v;
}

// An integral literal as a value of a wider numeric type, when that is exact.
std::optional<Value> widened_integral(int64_t v, const DataType& target) {
  const TypeKind k = target.kind;
  if (is_integral(k)) {
    if (v < integral_min(k) || v > integral_max(k)) return std::nullopt;
    return Value::integral(k, v);
  }
  if (is_floating(k)) {
    // Exact when the value survives the round trip (2^63 itself does not fit back).
    const double d = k == TypeKind::Float ? static_cast<double>(static_cast<float>(v))
                                          : static_cast<double>(v);
    if (d >= 9223372036854775808.0 || static_cast<int64_t>(d) != v) return std::nullopt;
    return Value::floating(k, d);
  }
  if (k == TypeKind::Decimal) {
    const std::optional<Decimal> d = rescale_decimal(Decimal{v, 0}, target.scale);
    if (!d || !fits_precision(*d, target.precision)) return std::nullopt;
    return Value::decimal(*d, target.precision);
  }
  return std::nullopt;
}

// The literal Spark's implicit cast produces when `literal` meets an operand of type `target`, or
// nullopt to keep the literal as written (it then compares exactly, across types).
std::optional<Value> coerced_literal(const Value& literal, const DataType& target) {
  const TypeKind from = literal.type.kind, to = target.kind;
  if (literal.is_null() || from == to) return std::nullopt;
  if (from == TypeKind::String && is_temporal(to)) {
    // Spark's PromoteStrings casts the string side to the date / timestamp / timestamp_ntz type,
    // with the non-ANSI CAST: text it cannot read is NULL, not an error (docs/semantics.md §3.3).
    // The cast of a literal is folded here, as Spark's ConstantFolding does before Delta sees it.
    return cast_value(literal, target);
  }
  if (is_integral(from) && integral_rank(from) < integral_rank(to)) {
    return widened_integral(literal.as_int(), target);
  }
  if (is_integral(from) && (is_floating(to) || to == TypeKind::Decimal)) {
    return widened_integral(literal.as_int(), target);
  }
  if (from == TypeKind::Decimal && is_floating(to)) {
    // Spark compares decimal with float/double as double.
    return Value::floating(TypeKind::Double, decimal_to_double(literal.as_decimal()));
  }
  if (from == TypeKind::Float && to == TypeKind::Double) {
    return Value::floating(TypeKind::Double, literal.as_double());
  }
  return std::nullopt;
}

// --- The binder ------------------------------------------------------------------------------

class Binder {
 public:
  Binder(const Schema& schema, std::string_view source) : schema_(schema), source_(source) {}

  ExprPtr bind(const Expr& e, int depth) {
    if (depth > kMaxExprDepth) {
      fail("expression nested deeper than " + std::to_string(kMaxExprDepth) + " levels", e);
    }
    // The bound copy is allocated once and typed in place.
    auto bound = std::make_shared<Expr>(e);
    Expr& out = *bound;
    for (ExprPtr& child : out.children) child = bind(*child, depth + 1);
    switch (out.kind) {
      case ExprKind::Literal: out.type = out.literal.type; break;
      case ExprKind::Column: bind_column(out); break;
      case ExprKind::Compare: bind_compare(out); break;
      case ExprKind::And:
      case ExprKind::Or:
      case ExprKind::Not: bind_logical(out); break;
      case ExprKind::IsNull:
      case ExprKind::IsNotNull: bind_null_test(out); break;
      case ExprKind::In:
      case ExprKind::Between: bind_membership(out); break;
      case ExprKind::Like:
      case ExprKind::LikeAny:
      case ExprKind::LikeAll: bind_like(out); break;
      case ExprKind::RLike: bind_rlike(out); break;
      case ExprKind::Case: bind_case(out); break;
      case ExprKind::Arith: bind_arith(out); break;
      case ExprKind::Cast: bind_cast(out); break;
      case ExprKind::Call: bind_call(out); break;
      case ExprKind::InSubquery: bind_in_subquery(out); break;
    }
    return bound;
  }

  [[noreturn]] void fail(const std::string& message, const Expr& at) const {
    throw InputError(message, at.position, std::string(source_));
  }

 private:
  void bind_column(Expr& e) const {
    const Leaf* leaf = schema_.find_leaf(e.path);
    if (leaf == nullptr && e.path.size() == 1 && is_bare_time_function(ascii_lower(e.path.front()))) {
      // Spark reads a bare CURRENT_DATE / CURRENT_TIMESTAMP as the call when no column has the name.
      e.kind = ExprKind::Call;
      e.function = ascii_lower(e.path.front());
      e.path.clear();
      bind_call(e);
      return;
    }
    if (leaf == nullptr) {
      if (schema_.find_field(e.path) != nullptr) {
        fail("column `" + path_to_sql(e.path) + "` is a struct; use one of its fields", e);
      }
      std::string message = "unknown column `" + path_to_sql(e.path) + "`";
      if (auto near = schema_.nearest(e.path)) message += " (did you mean `" + path_to_sql(*near) + "`?)";
      fail(message, e);
    }
    e.path = leaf->path;
    e.leaf = leaf->ordinal;
    e.type = leaf->type;
  }

  // A literal operand meeting a non-literal one takes the other's type where Spark casts it.
  void coerce_against(ExprPtr& operand, const Expr& other) const {
    if (operand->kind != ExprKind::Literal || other.kind == ExprKind::Literal) return;
    auto converted = coerced_literal(operand->literal, other.type);
    if (!converted) return;
    auto copy = std::make_shared<Expr>(*operand);
    copy->literal = std::move(*converted);
    copy->type = copy->literal.type;
    operand = std::move(copy);
  }

  void require_comparable(const Expr& a, const Expr& b, const Expr& at) const {
    for (const Expr* side : {&a, &b}) {
      if (is_nested(side->type.kind)) fail("cannot compare " + describe(*side), *side);
    }
    if (!comparable(a.type, b.type)) fail("cannot compare " + describe(a) + " with " + describe(b), at);
  }

  void bind_compare(Expr& e) const {
    coerce_against(e.children[0], *e.children[1]);
    coerce_against(e.children[1], *e.children[0]);
    require_comparable(*e.children[0], *e.children[1], e);
    e.type = DataType::of(TypeKind::Boolean);
  }

  // IN and BETWEEN: every other child is compared with the first.
  void bind_membership(Expr& e) const {
    const Expr& value = *e.children[0];
    for (size_t i = 1; i < e.children.size(); ++i) {
      coerce_against(e.children[i], value);
      require_comparable(value, *e.children[i], *e.children[i]);
    }
    e.type = DataType::of(TypeKind::Boolean);
  }

  // The selected column is compared with the value as an IN item is; the WHERE is a predicate.
  void bind_in_subquery(Expr& e) const {
    const Expr& selected = *e.children[1];
    if (selected.kind != ExprKind::Column) fail("a subquery selects one column", selected);
    require_comparable(*e.children[0], selected, selected);
    if (e.children.size() > 2) {
      require_kind(*e.children[2], [](TypeKind k) { return k == TypeKind::Boolean; },
                   [] { return std::string("a subquery's WHERE needs a boolean condition"); });
    }
    e.type = DataType::of(TypeKind::Boolean);
  }

  // `what` builds the message's first part, only when the check fails.
  template <typename What>
  void require_kind(const Expr& operand, bool (*accepts)(TypeKind), What what) const {
    if (operand.type.kind != TypeKind::Null && !accepts(operand.type.kind)) {
      fail(what() + ", not " + describe(operand), operand);
    }
  }

  void bind_logical(Expr& e) const {
    const char* op = e.kind == ExprKind::And ? "AND" : e.kind == ExprKind::Or ? "OR" : "NOT";
    for (const ExprPtr& child : e.children) {
      require_kind(*child, [](TypeKind k) { return k == TypeKind::Boolean; },
                   [op] { return std::string(op) + " needs boolean operands"; });
    }
    e.type = DataType::of(TypeKind::Boolean);
  }

  static bool is_bare_time_function(const std::string& lower_name) {
    return lower_name == "current_date" || lower_name == "current_timestamp";
  }

  void bind_null_test(Expr& e) const {
    if (e.unknown_form) {
      require_kind(*e.children[0], [](TypeKind k) { return k == TypeKind::Boolean; },
                   [] { return std::string("IS UNKNOWN needs a boolean operand"); });
    }
    e.type = DataType::of(TypeKind::Boolean);
  }

  void require_strings(const Expr& e, const char* what) const {
    for (const ExprPtr& child : e.children) {
      require_kind(*child, [](TypeKind k) { return k == TypeKind::String; },
                   [what] { return std::string(what) + " needs string operands"; });
    }
  }

  void bind_like(Expr& e) const {
    require_strings(e, e.kind == ExprKind::Like ? "LIKE" : e.kind == ExprKind::LikeAny ? "LIKE ANY" : "LIKE ALL");
    e.type = DataType::of(TypeKind::Boolean);
  }

  // A literal pattern must compile now (Spark compiles a foldable pattern once, before any row).
  void bind_rlike(Expr& e) const {
    require_strings(e, "RLIKE");
    const Expr& pattern = *e.children[1];
    if (pattern.kind == ExprKind::Literal && !pattern.literal.is_null()) {
      if (auto problem = regex_problem(pattern.literal.as_string())) {
        fail("RLIKE pattern " + to_sql_literal(pattern.literal) + " cannot be used: " + *problem, pattern);
      }
    }
    e.type = DataType::of(TypeKind::Boolean);
  }

  DataType common_type_of(const std::vector<const Expr*>& branches, const std::string& what) const {
    DataType type = DataType::of(TypeKind::Null);
    for (const Expr* branch : branches) {
      const auto wider = common_type(type, branch->type);
      if (!wider) fail(std::string(what) + " cannot combine " + type_name(type) + " with " + describe(*branch), *branch);
      type = *wider;
    }
    return type;
  }

  void bind_case(Expr& e) const {
    std::vector<const Expr*> results;
    const size_t n = e.children.size();
    for (size_t i = 0; i < n; ++i) {
      const bool condition = i % 2 == 0 && i + 1 < n;
      if (!condition) {
        results.push_back(e.children[i].get());
        continue;
      }
      require_kind(*e.children[i], [](TypeKind k) { return k == TypeKind::Boolean; },
                   [] { return std::string("a WHEN condition must be boolean"); });
    }
    e.type = common_type_of(results, "CASE");
  }

  void bind_arith(Expr& e) const {
    for (const ExprPtr& child : e.children) {
      require_kind(*child, is_numeric, [&] {
        return std::string("arithmetic ") + arith_op_sql(e.arith_op) + " needs numeric operands";
      });
    }
    e.type = e.arith_op == ArithOp::Neg
                 ? e.children[0]->type
                 : arithmetic_type(e.arith_op, e.children[0]->type, e.children[1]->type);
  }

  void bind_cast(Expr& e) const {
    const Expr& operand = *e.children[0];
    if (is_nested(operand.type.kind) || is_nested(e.cast_type.kind)) {
      fail("cannot cast " + describe(operand) + " to " + type_name(e.cast_type), e);
    }
    e.type = e.cast_type;
  }

  void bind_call(Expr& e) const {
    const FunctionInfo* f = find_function(e.function);
    if (f == nullptr) fail("unknown function `" + e.function + "`", e);
    const int n = static_cast<int>(e.children.size());
    if (n < f->min_args || (f->max_args >= 0 && n > f->max_args)) {
      const std::string expected =
          f->max_args < 0 ? "at least " + std::to_string(f->min_args)
          : f->min_args == f->max_args
              ? std::to_string(f->min_args)
              : std::to_string(f->min_args) + " to " + std::to_string(f->max_args);
      fail(e.function + "() takes " + expected + " argument(s), not " + std::to_string(n), e);
    }
    e.deterministic = f->deterministic;
    check_arguments(e);
    e.type = call_type(*f, e);
  }

  // The argument types of the calls whose results the model computes (evaluator, Z3 encoding).
  void check_arguments(const Expr& e) const {
    const std::string& f = e.function;
    const auto argument = [&](size_t i, bool (*accepts)(TypeKind), const char* needs) {
      require_kind(*e.children[i], accepts, [&] { return f + "() needs " + needs; });
    };
    const auto string_kind = [](TypeKind k) { return k == TypeKind::String; };
    if (f == "startswith" || f == "endswith" || f == "contains") {
      argument(0, string_kind, "string arguments");
      argument(1, string_kind, "string arguments");
    } else if (f == "date_add" || f == "date_sub") {
      argument(0, [](TypeKind k) { return k == TypeKind::Date || k == TypeKind::Timestamp || k == TypeKind::String; },
               "a date first");
      argument(1, is_integral, "an integral number of days second");
    } else if (f == "hex") {
      argument(0, [](TypeKind k) { return !is_nested(k); }, "an atomic argument");
    } else if (f == "if") {
      argument(0, [](TypeKind k) { return k == TypeKind::Boolean; }, "a boolean condition first");
    }
  }

  DataType call_type(const FunctionInfo& f, const Expr& e) const {
    switch (f.result) {
      case FunctionResult::String: return DataType::of(TypeKind::String);
      case FunctionResult::Int: return DataType::of(TypeKind::Int);
      case FunctionResult::Long: return DataType::of(TypeKind::Long);
      case FunctionResult::Double: return DataType::of(TypeKind::Double);
      case FunctionResult::Boolean: return DataType::of(TypeKind::Boolean);
      case FunctionResult::Date: return DataType::of(TypeKind::Date);
      case FunctionResult::Timestamp: return DataType::of(TypeKind::Timestamp);
      case FunctionResult::SameAsFirst: return e.children[0]->type;
      case FunctionResult::CommonOfArgs:
      case FunctionResult::CommonOfBranches: {
        std::vector<const Expr*> branches;
        const size_t first = f.result == FunctionResult::CommonOfBranches ? 1 : 0;
        for (size_t i = first; i < e.children.size(); ++i) branches.push_back(e.children[i].get());
        return common_type_of(branches, e.function + "()");
      }
    }
    return DataType::of(TypeKind::Null);
  }

  const Schema& schema_;
  std::string_view source_;
};

}  // namespace

ExprPtr bind(const ExprPtr& unbound, const Schema& schema, std::string_view source) {
  Binder binder(schema, source);
  ExprPtr bound = binder.bind(*unbound, 1);
  const TypeKind k = bound->type.kind;
  if (k != TypeKind::Boolean && k != TypeKind::Null) {
    binder.fail("a predicate must be boolean, not " + describe(*bound), *bound);
  }
  return bound;
}

ExprPtr parse_and_bind(std::string_view text, const Schema& schema) {
  return bind(parse_predicate(text), schema, text);
}

}  // namespace skipsound
