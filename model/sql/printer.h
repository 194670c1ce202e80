// Prints IR back to SQL such that parse(print(e)) == e, and to JSON.
#pragma once
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "model/sql/expr.h"

namespace skipsound {

std::string to_sql(const ExprPtr& e);
nlohmann::json to_json(const ExprPtr& e);

}  // namespace skipsound
