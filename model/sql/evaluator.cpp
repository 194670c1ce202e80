#include "model/sql/evaluator.h"

#include <algorithm>
#include <cmath>

#include "model/sql/arithmetic.h"
#include "model/values/cast.h"
#include "model/sql/like.h"
#include "model/sql/regex.h"
#include "model/values/utf8.h"
#include "model/values/ascii_text.h"

namespace skipsound {

namespace {

Truth truth_of_value(const Value& v) {
  if (v.is_null()) return Truth::Null;
  if (v.type.kind != TypeKind::Boolean) {
    throw std::invalid_argument("a predicate of type " + type_name(v.type) + " is not boolean");
  }
  return truth_of(v.as_bool());
}

Value value_of_truth(Truth t) {
  return t == Truth::Null ? Value::null(DataType::of(TypeKind::Boolean))
                          : Value::boolean(t == Truth::True);
}

bool is_predicate_kind(ExprKind k) {
  switch (k) {
    case ExprKind::Compare:
    case ExprKind::And:
    case ExprKind::Or:
    case ExprKind::Not:
    case ExprKind::IsNull:
    case ExprKind::IsNotNull:
    case ExprKind::In:
    case ExprKind::Like:
    case ExprKind::Between:
    case ExprKind::RLike:
    case ExprKind::LikeAny:
    case ExprKind::LikeAll:
    case ExprKind::InSubquery: return true;
    default: return false;
  }
}

Value cast_or_throw(const Value& v, const DataType& to, const std::string& what) {
  auto cast = cast_value(v, to);
  if (!cast) throw NotEvaluable("cannot evaluate " + what + " from " + type_name(v.type));
  return *cast;
}

// Spark coerces a string compared with a number, date or timestamp to the other side's type;
// the binder normally inserts that cast, this covers IR built without it.
std::optional<std::strong_ordering> compare_values(const Value& a, const Value& b) {
  if (a.is_null() || b.is_null()) return std::nullopt;
  if (comparable(a.type, b.type)) return spark_compare(a, b);
  if (a.type.kind == TypeKind::String) {
    return compare_values(cast_or_throw(a, b.type, "a comparison"), b);
  }
  if (b.type.kind == TypeKind::String) {
    return compare_values(a, cast_or_throw(b, a.type, "a comparison"));
  }
  throw NotEvaluable("cannot compare " + type_name(a.type) + " with " + type_name(b.type));
}

Truth compare_truth(CompareOp op, const Value& a, const Value& b) {
  const auto order = compare_values(a, b);
  if (op == CompareOp::NullSafeEq) {
    if (a.is_null() || b.is_null()) return truth_of(a.is_null() && b.is_null());
    return truth_of(*order == 0);
  }
  if (!order) return Truth::Null;
  switch (op) {
    case CompareOp::Eq: return truth_of(*order == 0);
    case CompareOp::Ne: return truth_of(*order != 0);
    case CompareOp::Lt: return truth_of(*order < 0);
    case CompareOp::Le: return truth_of(*order <= 0);
    case CompareOp::Gt: return truth_of(*order > 0);
    case CompareOp::Ge: return truth_of(*order >= 0);
    case CompareOp::NullSafeEq: break;
  }
  return Truth::Null;
}

class Evaluator {
 public:
  Evaluator(const Row& row, const CallValues& calls) : row_(row), calls_(calls) {}

  Value value(const Expr& e) {
    if (is_predicate_kind(e.kind)) return value_of_truth(truth(e));
    switch (e.kind) {
      case ExprKind::Literal: return e.literal;
      case ExprKind::Column: return column(e);
      case ExprKind::Arith: return arith(e);
      case ExprKind::Cast: return cast_or_throw(value(*e.children[0]), e.cast_type, "CAST");
      case ExprKind::Call: return call(e);
      case ExprKind::Case: return case_value(e);
      default: break;
    }
    throw std::invalid_argument("unexpected expression kind");
  }

  Truth truth(const Expr& e) {
    switch (e.kind) {
      case ExprKind::Compare:
        return compare_truth(e.cmp_op, value(*e.children[0]), value(*e.children[1]));
      case ExprKind::And: return connective(e, Truth::False, truth_and);
      case ExprKind::Or: return connective(e, Truth::True, truth_or);
      case ExprKind::Not: return truth_not(truth(*e.children[0]));
      case ExprKind::IsNull: return truth_of(value(*e.children[0]).is_null());
      case ExprKind::IsNotNull: return truth_of(!value(*e.children[0]).is_null());
      case ExprKind::In: return in_list(e);
      case ExprKind::Like: return like(e);
      case ExprKind::RLike: return rlike(e);
      case ExprKind::LikeAny: return like_quantified(e, Truth::True);
      case ExprKind::LikeAll: return like_quantified(e, Truth::False);
      case ExprKind::InSubquery: throw NotEvaluable("a subquery reads the table, not one row");
      case ExprKind::Between: {
        const Value v = value(*e.children[0]);
        return truth_and(compare_truth(CompareOp::Ge, v, value(*e.children[1])),
                         compare_truth(CompareOp::Le, v, value(*e.children[2])));
      }
      default: return truth_of_value(value(e));
    }
  }

 private:
  Value column(const Expr& e) const {
    if (e.leaf < 0) throw std::invalid_argument("column " + path_to_sql(e.path) + " is not bound");
    if (e.leaf >= static_cast<int>(row_.size())) return Value::null(e.type);
    return row_[e.leaf];
  }

  // AND / OR: a side that decides (`dominant`) settles the result even when the other side
  // cannot be evaluated, exactly as it would in Spark.
  Truth connective(const Expr& e, Truth dominant, Truth (*combine)(Truth, Truth)) {
    std::optional<Truth> sides[2];
    std::optional<NotEvaluable> failure;
    for (int i = 0; i < 2; ++i) {
      try {
        sides[i] = truth(*e.children[i]);
        if (*sides[i] == dominant) return dominant;
      } catch (const NotEvaluable& why) {
        failure = why;
      }
    }
    if (failure) throw *failure;
    return combine(*sides[0], *sides[1]);
  }

  Truth in_list(const Expr& e) {
    const Value v = value(*e.children[0]);
    bool saw_null = false;
    for (size_t i = 1; i < e.children.size(); ++i) {
      const Truth t = compare_truth(CompareOp::Eq, v, value(*e.children[i]));
      if (t == Truth::True) return Truth::True;
      saw_null = saw_null || t == Truth::Null;
    }
    return saw_null ? Truth::Null : Truth::False;
  }

  Truth like(const Expr& e) { return like_truth(value(*e.children[0]), value(*e.children[1]), like_escape(e)); }

  static Truth like_truth(const Value& text, const Value& pattern, char32_t escape) {
    if (text.is_null() || pattern.is_null()) return Truth::Null;
    const auto match = like_match(string_of(text), string_of(pattern), escape);
    if (!match) throw NotEvaluable("LIKE pattern misuses its escape character");
    return truth_of(*match == LikeMatch::Match);
  }

  // LIKE ANY: TRUE on a match, else NULL if a pattern is NULL (`decisive` TRUE); LIKE ALL: FALSE
  // on a mismatch, else NULL if a pattern is NULL (`decisive` FALSE). A NULL value gives NULL.
  Truth like_quantified(const Expr& e, Truth decisive) {
    const Value text = value(*e.children[0]);
    if (text.is_null()) return Truth::Null;
    bool saw_null = false;
    for (size_t i = 1; i < e.children.size(); ++i) {
      const Truth t = like_truth(text, value(*e.children[i]), U'\\');
      if (t == decisive) return decisive;
      saw_null = saw_null || t == Truth::Null;
    }
    return saw_null ? Truth::Null : truth_not(decisive);
  }

  // Java's Matcher.find(), as far as regex.h models it.
  Truth rlike(const Expr& e) {
    const Value text = value(*e.children[0]);
    const Value pattern = value(*e.children[1]);
    if (text.is_null() || pattern.is_null()) return Truth::Null;
    const auto found = regex_find(string_of(text), string_of(pattern));
    if (!found) throw NotEvaluable("RLIKE pattern " + to_sql_literal(pattern) + " is not modelled");
    return truth_of(*found);
  }

  // The first branch whose condition is TRUE (NULL is not), else ELSE, else NULL.
  Value case_value(const Expr& e) {
    const size_t n = e.children.size();
    for (size_t i = 0; i + 1 < n; i += 2) {
      if (truth(*e.children[i]) == Truth::True) return as_result(value(*e.children[i + 1]), e);
    }
    if (n % 2 == 1) return as_result(value(*e.children[n - 1]), e);
    return Value::null(e.type);
  }

  // A branch's value in the node's (common) type.
  static Value as_result(const Value& v, const Expr& e) {
    if (v.is_null()) return Value::null(e.type);
    if (e.type.kind == TypeKind::Null || v.type == e.type) return v;
    return cast_or_throw(v, e.type, "a branch");
  }

  Value arith(const Expr& e) {
    const Value a = value(*e.children[0]);
    const Value b = e.children.size() > 1 ? value(*e.children[1]) : a;
    DataType result = e.type;
    if (result.kind == TypeKind::Null) result = arithmetic_result_type(e.arith_op, a.type, b.type);
    if (result.kind == TypeKind::Null) {
      if (a.is_null() || b.is_null()) return Value::null();
      throw NotEvaluable(std::string("arithmetic ") + arith_op_sql(e.arith_op) + " on " +
                         type_name(a.type));
    }
    return arithmetic(e.arith_op, a, b, result);
  }

  static std::string string_of(const Value& v) {
    if (v.type.kind == TypeKind::String || v.type.kind == TypeKind::Binary) return v.as_string();
    return spark_string_of(v);
  }

  Value call(const Expr& e);

  std::vector<Value> arguments(const Expr& e) {
    std::vector<Value> args;
    for (const ExprPtr& c : e.children) args.push_back(value(*c));
    return args;
  }

  const Row& row_;
  const CallValues& calls_;
};

Value ascii_case(const std::string& name, const Value& v, bool upper) {
  const std::string& s = v.as_string();
  // Java's full Unicode case mapping is not modelled.
  if (std::any_of(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) >= 0x80; })) {
    throw NotEvaluable(name + " on non-ASCII text");
  }
  return Value::string(upper ? ascii_upper(s) : ascii_lower(s));
}

// Spark's UTF8String.substringSQL: 1-based, 0 acts as 1, negative counts from the end.
Value substring(const std::string& s, int64_t pos, int64_t length) {
  const std::vector<char32_t> cps = decode_utf8(s);
  const auto n = static_cast<int64_t>(cps.size());
  int64_t start = pos > 0 ? pos - 1 : (pos < 0 ? n + pos : 0);
  const int64_t end = std::min(n, start + std::min<int64_t>(length, INT32_MAX));
  start = std::max<int64_t>(start, 0);
  if (start >= end) return Value::string("");
  return Value::string(encode_utf8(std::vector<char32_t>(cps.begin() + start, cps.begin() + end)));
}

std::string trim_spaces(const std::string& s, bool left, bool right) {
  size_t b = 0, e = s.size();
  while (left && b < e && s[b] == ' ') ++b;
  while (right && e > b && s[e - 1] == ' ') --e;
  return s.substr(b, e - b);
}

bool any_null(const std::vector<Value>& args) {
  return std::any_of(args.begin(), args.end(), [](const Value& v) { return v.is_null(); });
}

Value abs_value(const Value& v) {
  if (is_integral(v.type.kind)) {
    return v.as_int() < 0 ? arithmetic(ArithOp::Neg, v, v, v.type) : v;  // abs(MIN) wraps to MIN
  }
  if (is_floating(v.type.kind)) return Value::floating(v.type.kind, std::fabs(v.as_double()));
  if (v.type.kind == TypeKind::Decimal) {
    Decimal d = v.as_decimal();
    if (d.unscaled < 0) d.unscaled = -d.unscaled;
    return Value::decimal(d, v.type.precision);
  }
  throw NotEvaluable("abs of " + type_name(v.type));
}

// Spark's DateAdd / DateSub: the start as a date, plus or minus the days in 32-bit arithmetic
// (which wraps, as Spark's Int does).
Value date_shift(const Value& start, const Value& days, bool subtract) {
  const Value date = cast_or_throw(start, DataType::of(TypeKind::Date), "date_add");
  if (date.is_null()) return date;
  if (!is_integral(days.type.kind)) throw NotEvaluable("date_add with a non-integral number of days");
  const auto d = static_cast<uint32_t>(static_cast<int32_t>(date.as_int()));
  const auto n = static_cast<uint32_t>(static_cast<int32_t>(days.as_int()));
  return Value::integral(TypeKind::Date, static_cast<int32_t>(subtract ? d - n : d + n));
}

// Spark's Hex takes a long, binary or string (its ImplicitCastInputTypes): another number is cast
// to long, any other atomic value to string. A long gives its two's-complement digits without
// leading zeros (Long.toHexString), bytes two digits each; digits are upper case.
Value hex_value(const Value& v) {
  const TypeKind k = v.type.kind;
  if (k == TypeKind::String || k == TypeKind::Binary) return Value::string(hex_upper(v.as_string()));
  if (!is_numeric(k)) return Value::string(hex_upper(spark_string_of(v)));
  const Value number = cast_or_throw(v, DataType::of(TypeKind::Long), "hex");
  if (number.is_null()) return Value::null(DataType::of(TypeKind::String));
  auto bits = static_cast<uint64_t>(number.as_int());
  std::string big_endian(8, '\0');
  for (int i = 7; i >= 0; --i, bits >>= 8) big_endian[i] = static_cast<char>(bits & 0xFF);
  std::string digits = hex_upper(big_endian);
  digits.erase(0, std::min(digits.find_first_not_of('0'), digits.size() - 1));
  return Value::string(digits);
}

int64_t int_argument(const Value& v, const std::string& function) {
  if (!is_integral(v.type.kind)) throw NotEvaluable(function + " with a non-integral position");
  return v.as_int();
}

Value Evaluator::call(const Expr& e) {
  const std::string& f = e.function;
  if (const auto given = calls_.find(&e); given != calls_.end()) return given->second;
  if (!e.deterministic || !is_deterministic_function(f)) {
    throw NotEvaluable(f + " is not deterministic");
  }
  if (f == "coalesce" || f == "ifnull" || f == "nvl") {
    for (const ExprPtr& c : e.children) {
      Value v = value(*c);
      if (!v.is_null()) return as_result(v, e);
    }
    return Value::null(e.type);
  }
  // Spark's If, and NVL2 and NULLIF as the If they are replaced by.
  if (f == "if") {
    return as_result(value(*e.children[truth(*e.children[0]) == Truth::True ? 1 : 2]), e);
  }
  if (f == "nvl2") return as_result(value(*e.children[value(*e.children[0]).is_null() ? 2 : 1]), e);
  if (f == "nullif") {
    const Value a = value(*e.children[0]);
    if (compare_truth(CompareOp::Eq, a, value(*e.children[1])) == Truth::True) return Value::null(e.type);
    return as_result(a, e);
  }
  const std::vector<Value> args = arguments(e);
  const DataType string_type = DataType::of(TypeKind::String);
  if (f == "concat") {
    if (any_null(args)) return Value::null(string_type);
    std::string out;
    for (const Value& v : args) out += string_of(v);
    return Value::string(out);
  }
  if (args.empty()) throw NotEvaluable(f);
  const Value& first = args[0];
  const DataType null_type = e.type.kind == TypeKind::Null ? first.type : e.type;
  if (any_null(args)) return Value::null(null_type);
  if (f == "abs") return abs_value(first);
  if (f == "hex") return hex_value(first);
  if (f == "date_add" || f == "date_sub") return date_shift(first, args[1], f == "date_sub");
  if (f == "isnan") {
    return Value::boolean(is_floating(first.type.kind) && std::isnan(first.as_double()));
  }
  const std::string text = string_of(first);
  if (f == "upper" || f == "ucase") return ascii_case(f, Value::string(text), true);
  if (f == "lower" || f == "lcase") return ascii_case(f, Value::string(text), false);
  if (f == "length" || f == "char_length" || f == "character_length") {
    const auto n = first.type.kind == TypeKind::Binary ? text.size() : decode_utf8(text).size();
    return Value::integral(TypeKind::Int, static_cast<int64_t>(n));
  }
  if (f == "trim") return Value::string(trim_spaces(text, true, true));
  if (f == "ltrim") return Value::string(trim_spaces(text, true, false));
  if (f == "rtrim") return Value::string(trim_spaces(text, false, true));
  if (f == "substr" || f == "substring") {
    if (args.size() < 2) throw NotEvaluable(f);
    const int64_t length = args.size() > 2 ? int_argument(args[2], f) : INT32_MAX;
    return substring(text, int_argument(args[1], f), length);
  }
  if ((f == "startswith" || f == "endswith" || f == "contains") && args.size() == 2) {
    const std::string needle = string_of(args[1]);
    if (f == "contains") return Value::boolean(text.find(needle) != std::string::npos);
    if (needle.size() > text.size()) return Value::boolean(false);
    const size_t at = f == "startswith" ? 0 : text.size() - needle.size();
    return Value::boolean(text.compare(at, needle.size(), needle) == 0);
  }
  throw NotEvaluable(f);
}

}  // namespace

Value evaluate_value(const Expr& e, const Row& row) { return evaluate_value(e, row, {}); }

Truth evaluate(const Expr& e, const Row& row) { return evaluate(e, row, {}); }

Value evaluate_value(const Expr& e, const Row& row, const CallValues& calls) { return Evaluator(row, calls).value(e); }

Truth evaluate(const Expr& e, const Row& row, const CallValues& calls) { return Evaluator(row, calls).truth(e); }

}  // namespace skipsound
