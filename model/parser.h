// The Spark SQL WHERE-subset grammar (SPEC §3), implemented with Boost.Spirit X3 in parser.cpp.
#pragma once
#include <string_view>

#include "model/expr.h"
#include "model/input_error.h"

namespace skipsound {

// Parses a predicate into unbound IR. Throws InputError with the 1-based column on bad input:
// empty input, unterminated string, invalid UTF-8, trailing garbage, nesting > kMaxNestingDepth.
ExprPtr parse_predicate(std::string_view text);

}  // namespace skipsound
