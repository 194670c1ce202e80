// RapidCheck generator for read predicates over one table, sized and recursive, covering every
// form of docs/semantics.md §3.1 and biased towards the given file's bounds so that skipping decisions are
// close calls. Predicates come out bound (model/sql/binder.h), ready for the evaluator and checker.
#pragma once
#include <string>

#include <rapidcheck.h>

#include "generators/file_gen.h"
#include "generators/schema_gen.h"
#include "model/sql/expr.h"

namespace skipsound::generators {

// Nesting depth grows with RapidCheck's size: depth = size / 25 (0..4 at the default max size).
rc::Gen<ExprPtr> predicate_for(const TableShape& table, const GeneratedFile& file);

// The form of the predicate's top node for case classification: "compare", "in", "like-prefix",
// "and", "is-null(expr)", ... (one of predicate_forms()).
std::string predicate_form(const Expr& e);
const std::vector<std::string>& predicate_forms();

}  // namespace skipsound::generators
