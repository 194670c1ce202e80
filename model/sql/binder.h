// Resolves names against a schema, types every node and applies Spark's literal widening.
#pragma once
#include <string_view>

#include "model/sql/expr.h"
#include "model/values/input_error.h"

namespace skipsound {

// Throws InputError (with the node's position and `source` for the caret line) on unknown
// columns (suggesting the nearest name), struct columns used as values, and type mismatches.
ExprPtr bind(const ExprPtr& unbound, const Schema& schema, std::string_view source = {});

// parse + bind.
ExprPtr parse_and_bind(std::string_view text, const Schema& schema);

}  // namespace skipsound
