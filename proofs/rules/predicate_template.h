// A predicate template (docs/semantics.md §6.6's rule theorems): a bound predicate whose literals are
// placeholders ("sentinels"), each standing for one symbolic literal slot. The prover encodes the
// builder's skipping expression for the template once, with every sentinel bound to its slot.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "model/sql/expr.h"
#include "model/sql/schema.h"
#include "smt/symbolic/rule_query.h"

namespace skipsound {

using smt::LiteralSlot;
using smt::SlotShape;

struct PredicateTemplate {
  std::string rule;  // "c > v", "c IN (v1, v2)", or the composed predicate's SQL
  std::string type;  // the type of c (c0), "" for compositions
  std::shared_ptr<const Schema> schema;  // columns c0 and c1
  ExprPtr predicate;                     // bound against schema, literals are sentinels
  std::vector<LiteralSlot> slots;
  bool single_comparison = false;        // a candidate for the exactness converse
  bool non_strict_bound = false;         // its rule is max(c) >= v or min(c) <= v (le-as-lt)

  // What the solver encodes: the predicate with its slots.
  smt::SymbolicPredicate symbolic() const { return {schema, predicate, slots}; }
};

// The template with each sentinel replaced by the value at its slot index (LIKE patterns keep
// their trailing %).
ExprPtr instantiate(const PredicateTemplate& t, const std::vector<Value>& literals);

}  // namespace skipsound
