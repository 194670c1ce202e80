// A predicate template (docs/semantics.md §6's rule theorems): a bound predicate whose literals are
// placeholders ("sentinels"), each standing for one symbolic literal slot. The prover encodes the
// builder's skipping expression for the template once, with every sentinel bound to its slot.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/sql/expr.h"
#include "model/sql/schema.h"

namespace skipsound::smt {

enum class SlotShape {
  Free,        // any non-null value of the slot's type
  LikePrefix,  // a LIKE 's%' prefix: as long as the sentinel, no wildcard or escape character
};

struct LiteralSlot {
  Value sentinel;
  SlotShape shape = SlotShape::Free;
  // IN lists: this slot is >= that earlier slot in Spark order. IN is symmetric in its items, so
  // ordering them loses no generality, and the builder's choice of the list's min and max (made
  // on the sentinels, which grow with the slot index) stays right for every symbolic value.
  std::optional<size_t> not_below;
};

struct PredicateTemplate {
  std::string rule;  // "c > v", "c IN (v1, v2)", or the composed predicate's SQL
  std::string type;  // the type of c (c0), "" for compositions
  std::shared_ptr<const Schema> schema;  // columns c0 and c1
  ExprPtr predicate;                     // bound against schema, literals are sentinels
  std::vector<LiteralSlot> slots;
  bool single_comparison = false;        // a candidate for the exactness converse
  bool non_strict_bound = false;         // its rule is max(c) >= v or min(c) <= v (le-as-lt)
};

// The template with each sentinel replaced by the value at its slot index (LIKE patterns keep
// their trailing %).
ExprPtr instantiate(const PredicateTemplate& t, const std::vector<Value>& literals);

}  // namespace skipsound::smt
