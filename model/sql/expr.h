// The predicate IR (docs/semantics.md §3.1): what the X3 parser produces, the binder types, the printer prints,
// the evaluator runs, the skipping builder translates and smt/ encodes.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "model/sql/schema.h"
#include "model/values/value.h"

namespace skipsound {

enum class ExprKind {
  Literal,    // literal
  Column,     // path (and, once bound, leaf)
  Compare,    // cmp_op; children: lhs, rhs
  And,        // children: lhs, rhs
  Or,         // children: lhs, rhs
  Not,        // children: operand
  IsNull,     // children: operand
  IsNotNull,  // children: operand
  In,         // children: value, item1..itemN   (NOT IN parses as Not(In))
  Like,       // children: value, pattern[, escape] (NOT LIKE parses as Not(Like)); the escape is a
              // one-character string literal, present only when written with ESCAPE
  Between,    // children: value, low, high      (NOT BETWEEN parses as Not(Between))
  Arith,      // arith_op; children: lhs, rhs; Neg has one child
  Cast,       // cast_type; children: operand
  Call,       // function; children: arguments
  RLike,      // children: value, regex          (RLIKE / REGEXP; NOT RLIKE parses as Not(RLike))
  LikeAny,    // children: value, pattern1..N    (Spark's LikeAny: some pattern matches)
  LikeAll,    // children: value, pattern1..N    (Spark's LikeAll: every pattern matches)
  Case,       // children: when1, then1, ..., whenN, thenN[, else]  (an odd count has an ELSE)
  InSubquery, // children: value, selected column[, condition]: `value IN (SELECT column FROM t
              // [WHERE condition])` over the table itself (NOT IN parses as Not(InSubquery)). No
              // row decides it alone: the operation that reads it resolves it against its snapshot
              // (docs/semantics.md §3.1, §10.2 (c)).
};

enum class CompareOp { Eq, NullSafeEq, Ne, Lt, Le, Gt, Ge };
enum class ArithOp { Add, Sub, Mul, Div, Mod, Neg };

const char* compare_op_sql(CompareOp op);  // "=", "<=>", "<>", "<", "<=", ">", ">="
const char* arith_op_sql(ArithOp op);      // "+", "-", "*", "/", "%", "-" (Neg)
// a op b  <=>  b flip(op) a
CompareOp flip(CompareOp op);
// NOT (a op b) <=> a negate(op) b for the ordered comparisons and =/<>; not defined for <=>.
CompareOp negate(CompareOp op);

struct Expr;
using ExprPtr = std::shared_ptr<const Expr>;

struct Expr {
  ExprKind kind = ExprKind::Literal;
  Value literal;                   // Literal
  ColumnPath path;                 // Column: as written until bound, the schema's names after
  int leaf = -1;                   // Column, bound: the schema leaf ordinal
  CompareOp cmp_op = CompareOp::Eq;
  ArithOp arith_op = ArithOp::Add;
  DataType cast_type;              // Cast
  std::string function;            // Call: lower-case name
  bool deterministic = true;       // Call: false for rand(), uuid(), ...
  bool unknown_form = false;       // IsNull/IsNotNull written IS [NOT] UNKNOWN: a boolean operand
  std::vector<ExprPtr> children;
  DataType type;                   // result type once bound (Null kind before binding)
  int position = 0;                // 1-based column in the source text, 0 when synthesised

  // Structural equality ignoring `position` (the printer cannot reproduce it).
  bool operator==(const Expr& o) const;
};

bool same_expr(const ExprPtr& a, const ExprPtr& b);  // deep equality, null-safe

// Constructors for synthesised IR (tests, generators, rewrites). `position` stays 0.
ExprPtr make_literal(Value v);
ExprPtr make_column(ColumnPath path);
ExprPtr make_compare(CompareOp op, ExprPtr lhs, ExprPtr rhs);
ExprPtr make_and(ExprPtr lhs, ExprPtr rhs);
ExprPtr make_or(ExprPtr lhs, ExprPtr rhs);
ExprPtr make_not(ExprPtr e);
ExprPtr make_is_null(ExprPtr e);
ExprPtr make_is_not_null(ExprPtr e);
ExprPtr make_in(ExprPtr value, std::vector<ExprPtr> items);
ExprPtr make_like(ExprPtr value, ExprPtr pattern);
ExprPtr make_like_escape(ExprPtr value, ExprPtr pattern, char32_t escape);
ExprPtr make_rlike(ExprPtr value, ExprPtr regex);
ExprPtr make_like_any(ExprPtr value, std::vector<ExprPtr> patterns);
ExprPtr make_like_all(ExprPtr value, std::vector<ExprPtr> patterns);
// whens_thens: condition, result pairs; otherwise: the ELSE result or nullptr.
ExprPtr make_case(std::vector<std::pair<ExprPtr, ExprPtr>> whens_thens, ExprPtr otherwise);
ExprPtr make_is_unknown(ExprPtr e, bool negated);
ExprPtr make_between(ExprPtr value, ExprPtr low, ExprPtr high);
ExprPtr make_arith(ArithOp op, std::vector<ExprPtr> operands);
ExprPtr make_cast(ExprPtr e, DataType to);
ExprPtr make_call(std::string function, std::vector<ExprPtr> args);
// condition: nullptr for a subquery without WHERE.
ExprPtr make_in_subquery(ExprPtr value, ExprPtr selected, ExprPtr condition);
bool contains_subquery(const Expr& e);

// The escape character of a Like node: its ESCAPE literal's, or Spark's default backslash.
char32_t like_escape(const Expr& like);

// Functions the parser knows, with their determinism; unknown names are an error.
bool is_known_function(const std::string& lower_name);
bool is_deterministic_function(const std::string& lower_name);

// How the binder types a call's result.
enum class FunctionResult {
  String,         // upper(s), concat(...), uuid()
  Int,            // length(s), year(d)
  Long,           // monotonically_increasing_id()
  Double,         // rand(), sqrt(x)
  Boolean,        // isnan(x), startswith(s, p)
  Date,           // current_date(), to_date(s)
  Timestamp,      // current_timestamp(), now()
  CommonOfBranches,  // if(c, a, b), nvl2(x, a, b): the common type of the arguments after the first
  SameAsFirst,    // abs(x), round(x), shuffle(a)
  CommonOfArgs,   // coalesce(...), greatest(...): the arguments' common type (binder.cpp)
};

struct FunctionInfo {
  const char* name;  // lower case
  bool deterministic;
  int min_args;
  int max_args;  // -1: variadic
  FunctionResult result;
};

// nullptr for an unknown function.
const FunctionInfo* find_function(const std::string& lower_name);

// current_date(), current_timestamp(), now(): one value per query (Spark's ComputeCurrentTime
// replaces every occurrence in a query by the same literal), unknown to the model; they are
// non-deterministic across queries (docs/semantics.md §3.2).
bool is_query_time_function(const std::string& lower_name);

// Deepest nesting the parser and binder accept (docs/semantics.md §3.3).
inline constexpr int kMaxNestingDepth = 256;
// Deepest IR tree the parser and binder accept. Operator chains (a AND b AND ...) build left-deep
// trees without any parentheses; every tree walker recurses, so the depth must stay bounded.
inline constexpr int kMaxExprDepth = 16384;

}  // namespace skipsound
