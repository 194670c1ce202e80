// The production per-file decision (checker/: read_stat, verify_stats, evaluate_skip and the keep
// rule, docs/semantics.md §5.3) over a SymbolicFile, mutants included. It mirrors the concrete code step for step;
// tests/proofs checks the two agree on concrete stats, and every counterexample a theorem finds is
// replayed through the concrete code.
#pragma once
#include <functional>
#include <optional>
#include <set>

#include <z3++.h>

#include "checker/skipping_expr.h"
#include "smt/symbolic_file.h"

namespace skipsound::smt {

class SymbolicSkipping {
 public:
  // `bind_literal` gives a literal a symbolic value (nullopt: the literal itself); the rule
  // theorems bind their placeholder literals with it.
  using LiteralBinding = std::function<std::optional<SymValue>(const Value&)>;
  SymbolicSkipping(const SymbolicFile& file, const Schema& schema, const CodePointMap& alphabet,
                   Mutant mutant, LiteralBinding bind_literal = {});

  // A stat as read_stat reads it: absent = NULL, a timestamp max bumped by 1 ms (saturating).
  SymValue read_stat(const StatRef& s) const;
  // verify_stats: every referenced stat present; a min/max also passes when nullCount = numRecords.
  z3::expr verified(const std::set<StatRef>& referenced) const;
  // evaluate_skip in Spark order with three-valued logic. Throws std::invalid_argument on
  // operands the concrete evaluator could not compare either.
  SymValue evaluate(const SkipExpr& e) const;
  // The file is skipped: NOT keep, keep = (expr IS TRUE) OR NOT verified.
  z3::expr skips(const SkippingPredicate& p) const;

 private:
  SymValue compare(const SkipExpr& e) const;

  const SymbolicFile& file_;
  const Schema& schema_;
  const CodePointMap& alphabet_;
  Mutant mutant_;
  LiteralBinding bind_literal_;
};

}  // namespace skipsound::smt
