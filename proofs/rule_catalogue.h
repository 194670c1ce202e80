// What the rule theorems prove (SPEC §5, §6): one predicate template per rule of the skipping
// table and type it applies to, and the exhaustive composition sweep. A template is a bound
// predicate whose literals are placeholders ("sentinels"); the theorem prover replaces each
// sentinel by a symbolic literal, so the builder runs once on the template and its output is
// never re-typed by hand.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/expr.h"
#include "model/mutant.h"

namespace skipsound {

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

// Every SPEC §5 rule on every type it applies to (types where a rule gives "none" included: the
// theorem then says every file is kept).
std::vector<PredicateTemplate> rule_templates();

// AND/OR/NOT trees with at most `max_connectives` connectives (so nesting depth <= that) over
// atoms on two columns (int c0, string c1): comparisons, IS [NOT] NULL, IN, LIKE prefix, <=>,
// BETWEEN; AND/OR are enumerated up to commutativity. Every atom occurrence gets its own literals.
std::vector<PredicateTemplate> composition_templates(int max_connectives = 3);

// The template with each sentinel replaced by the value at its slot index (LIKE patterns keep
// their trailing %).
ExprPtr instantiate(const PredicateTemplate& t, const std::vector<Value>& literals);

// Whether a per-file mutant is expected to break this rule, so `prove --mutant` must find a
// counterexample for it (derived from the rule's shape and type, never from a proof run).
bool expected_to_break(const PredicateTemplate& t, Mutant mutant);

}  // namespace skipsound
