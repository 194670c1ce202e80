// Three-valued encoding of the predicate IR (docs/semantics.md §2.3, §3.2) over a symbolic row. Exact for
// comparisons, <=>, IN (with NULL items), LIKE with or without ESCAPE and LIKE ANY / ALL (Z3
// regular expressions), BETWEEN, AND/OR/NOT (an untyped NULL there is the NULL truth value),
// IS [NOT] NULL / UNKNOWN, CASE, coalesce / nvl / ifnull / if / nvl2 / nullif whose branches share
// the result type, startswith with a literal prefix, date_add / date_sub on a date, and the
// arithmetic and numeric casts smt/numeric_encoding.h lists. Everything else — RLIKE, conversions
// of integral or decimal values to floating point, other casts, other deterministic function
// calls — is a fresh unconstrained value, NULL or not, so the encoding never rules out anything a
// row can do; `over_approximated()` then says so. A non-deterministic call is a free value of its
// type per occurrence, not an approximation: the witness carries its value and the model
// evaluator replays it. current_timestamp() / now() are one free value per query, current_date()
// its UTC day.
#pragma once
#include <functional>
#include <optional>
#include <set>
#include <string>

#include <z3++.h>

#include "model/sql/expr.h"
#include "smt/row_symbols.h"

namespace skipsound::smt {

// Code points of every string literal in `e` (for CodePointMap).
void collect_code_points(const Expr& e, std::set<char32_t>& out);

class ExprEncoder {
 public:
  ExprEncoder(z3::context& ctx, RowSymbols& row, const CodePointMap& alphabet);

  // Consulted before every node is encoded; nullopt = the usual encoding. The rule theorems use
  // it to give placeholder literals symbolic values (no constant codes, so no comparison is
  // expanded against them) and LIKE patterns symbolic prefixes.
  using NodeOverride = std::function<std::optional<SymValue>(const Expr&)>;
  void override_nodes(NodeOverride override_node) { override_ = std::move(override_node); }

  SymValue encode(const Expr& e);
  // "The predicate is TRUE on the row".
  z3::expr is_true(const Expr& predicate);

  bool over_approximated() const { return !approximations_.empty(); }
  const std::set<std::string>& approximations() const { return approximations_; }

  // Each occurrence of a non-deterministic call encoded so far, with its free value.
  struct CallOccurrence {
    const Expr* call;
    SymValue value;
  };
  const std::vector<CallOccurrence>& calls() const { return calls_; }

 private:
  SymValue encode_truth(const Expr& e);
  SymValue compare(const Expr& e);
  SymValue in_list(const Expr& e);
  SymValue like(const Expr& e);
  z3::expr like_regex(const std::vector<LikeElement>& elements) const;
  SymValue arithmetic(const Expr& e);
  SymValue cast(const Expr& e);
  SymValue call(const Expr& e);
  std::optional<SymValue> exact_call(const Expr& e);
  SymValue like_quantified(const Expr& e, bool any);
  SymValue case_value(const Expr& e);
  std::optional<SymValue> branch(const Expr& node, const Expr& branch);
  SymValue query_time(const Expr& e);
  SymValue fresh(const DataType& type, const std::string& why);
  SymValue truth(const z3::expr& is_null, const z3::expr& value) const;

  z3::context& ctx_;
  RowSymbols& row_;
  const CodePointMap& alphabet_;
  std::set<std::string> approximations_;
  int fresh_count_ = 0;
  NodeOverride override_;
  std::vector<CallOccurrence> calls_;
  std::optional<z3::expr> query_timestamp_;  // current_timestamp() of this query, once used
};

// Three-valued connectives on Bool SymValues (shared with the skipping-expression encoder).
z3::expr truth_is_true(const SymValue& v);
z3::expr truth_is_false(const SymValue& v);
SymValue truth_and(const SymValue& a, const SymValue& b);
SymValue truth_or(const SymValue& a, const SymValue& b);
SymValue truth_not(const SymValue& a);
// a op b with NULL propagation (never NULL for <=>); nullopt when the domains cannot be ordered.
std::optional<SymValue> sym_compare(CompareOp op, const SymValue& a, const SymValue& b);

}  // namespace skipsound::smt
