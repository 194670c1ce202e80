// The Spark SQL WHERE-subset grammar (docs/semantics.md §3.1), implemented with Boost.Spirit X3 in parser.cpp.
#pragma once
#include <optional>
#include <string>
#include <string_view>

#include "model/sql/expr.h"
#include "model/values/input_error.h"

namespace skipsound {

// Parses a predicate into unbound IR. Throws InputError with the 1-based column on bad input:
// empty input, unterminated string, invalid UTF-8, trailing garbage, nesting > kMaxNestingDepth.
ExprPtr parse_predicate(std::string_view text);

// The literal that `CAST(<operand> AS <to>)` denotes when to_sql_literal prints exactly that form
// (typed NULLs, NaN/Infinity, decimals of a non-natural precision); nullopt otherwise. The parser
// folds such casts into literals, and the printer parenthesises a Cast's operand when it would.
std::optional<Value> folded_cast_literal(const Value& operand, const DataType& to);

// Words the grammar reserves; a column named like one must be backquoted.
bool is_reserved_word(const std::string& word);

}  // namespace skipsound
