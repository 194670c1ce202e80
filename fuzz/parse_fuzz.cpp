// Parses and binds arbitrary bytes. Bad input must end in InputError, never in a crash, a hang
// or another exception; whatever binds must print back to SQL that binds to the same IR.
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <string_view>

#include <nlohmann/json.hpp>

#include "fuzz/fuzz_fields.h"
#include "model/sql/binder.h"
#include "model/sql/printer.h"

namespace {

using namespace skipsound;

using fuzz::field;

const Schema& fuzz_schema() {
  static const Schema schema({
      field("a", DataType::of(TypeKind::Int)),
      field("b", DataType::of(TypeKind::Boolean)),
      field("l", DataType::of(TypeKind::Long)),
      field("d", DataType::of(TypeKind::Double)),
      field("dec", DataType::decimal(10, 2)),
      field("s", DataType::of(TypeKind::String)),
      field("dt", DataType::of(TypeKind::Date)),
      field("ts", DataType::of(TypeKind::Timestamp)),
      field("bin", DataType::of(TypeKind::Binary)),
      field("n", DataType{TypeKind::Struct, 0, 0, {field("x", DataType::of(TypeKind::Int))}}),
  });
  return schema;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  ExprPtr bound;
  try {
    bound = parse_and_bind(text, fuzz_schema());
  } catch (const InputError&) {
    return 0;
  }
  const std::string sql = to_sql(bound);
  try {
    if (!same_expr(parse_and_bind(sql, fuzz_schema()), bound)) {
      std::cerr << "round trip differs:\n  input: " << text << "\n  sql:   " << sql << "\n";
      std::abort();
    }
  } catch (const InputError& e) {
    std::cerr << "printed SQL does not re-parse:\n  input: " << text << "\n" << e.render() << "\n";
    std::abort();
  }
  to_json(bound).dump();
  return 0;
}
