// Prints IR back to SQL such that parse(print(e)) == e, and to JSON; and in DataFusion's dialect,
// the SQL delta-rs's predicates are written in (its engine driver, docs/engines.md).
#pragma once
#include <stdexcept>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "model/sql/expr.h"

namespace skipsound {

enum class SqlDialect { Spark, DataFusion };

// A form the dialect cannot say with the same meaning (a function, `/`, LIKE ANY): what it is.
struct UnsupportedInDialect : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

// Spark's is the parser's own dialect (the round trip above); DataFusion's throws
// UnsupportedInDialect.
std::string to_sql(const ExprPtr& e, SqlDialect dialect = SqlDialect::Spark);
nlohmann::json to_json(const ExprPtr& e);

}  // namespace skipsound
