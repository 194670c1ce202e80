// Reads arbitrary bytes as a Spark schema JSON. Bad input must end in SchemaError or InputError,
// never a crash, a hang or another exception; a schema that reads must print back to JSON that
// reads as the same schema.
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "model/sql/schema.h"
#include "model/values/input_error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace skipsound;
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::optional<Schema> schema;
  try {
    schema = Schema::from_json_text(text);
  } catch (const SchemaError&) {
    return 0;
  } catch (const InputError&) {
    return 0;
  }
  const std::string printed = schema->to_json().dump();
  try {
    if (!(Schema::from_json_text(printed) == *schema)) {
      std::cerr << "round trip differs:\n  input:   " << text << "\n  printed: " << printed << "\n";
      std::abort();
    }
  } catch (const SchemaError& e) {
    std::cerr << "printed schema does not read back:\n  input: " << text << "\n" << e.what() << "\n";
    std::abort();
  }
  return 0;
}
