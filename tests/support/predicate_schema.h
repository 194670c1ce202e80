// The schema the parser, binder and printer suites bind against (also used by the CLI tests).
#pragma once
#include <fstream>
#include <sstream>
#include <string>

#include "model/sql/schema.h"

namespace skipsound::testing {

inline std::string predicate_schema_path() {
  return std::string(SKIPSOUND_SOURCE_DIR) + "/tests/corpus/schemas/predicates.json";
}

inline const Schema& predicate_schema() {
  static const Schema schema = [] {
    std::ifstream in(predicate_schema_path());
    std::stringstream text;
    text << in.rdbuf();
    return Schema::from_json_text(text.str());
  }();
  return schema;
}

}  // namespace skipsound::testing
