// What the rule theorems prove (docs/semantics.md §5.3, §6.6): one predicate template per rule of the skipping
// table and type it applies to, and the exhaustive composition sweep. A template is a bound
// predicate whose literals are placeholders ("sentinels"); the theorem prover replaces each
// sentinel by a symbolic literal, so the builder runs once on the template and its output is
// never re-typed by hand.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/sql/expr.h"
#include "model/mutants/mutant.h"
#include "proofs/rules/predicate_template.h"

namespace skipsound {

// Every docs/semantics.md §5.3 rule on every type it applies to (types where a rule gives "none" included: the
// theorem then says every file is kept).
std::vector<PredicateTemplate> rule_templates();

// AND/OR/NOT trees with at most `max_connectives` connectives (so nesting depth <= that) over
// atoms on two columns (int c0, string c1): comparisons, IS [NOT] NULL, IN, LIKE prefix, <=>,
// BETWEEN; AND/OR are enumerated up to commutativity. Every atom occurrence gets its own literals.
std::vector<PredicateTemplate> composition_templates(int max_connectives = 3);

// Whether a per-file mutant is expected to break this rule, so `prove --mutant` must find a
// counterexample for it (derived from the rule's shape and type, never from a proof run).
bool expected_to_break(const PredicateTemplate& t, Mutant mutant);

}  // namespace skipsound
