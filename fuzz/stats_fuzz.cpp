// Reads arbitrary bytes as Delta stats JSON against one of a few schemas (the first byte picks
// it). Bad input must end in InputError, never a crash, a hang or another exception; stats that
// read must print back to JSON that reads as the same stats.
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "fuzz/fuzz_fields.h"
#include "model/stats/stats.h"
#include "model/values/input_error.h"
#include "model/values/exact_json.h"

namespace {

using namespace skipsound;

using fuzz::field;

const std::vector<Schema>& schemas() {
  static const std::vector<Schema> all = {
      Schema({field("i", DataType::of(TypeKind::Int)), field("s", DataType::of(TypeKind::String))}),
      Schema({field("d", DataType::of(TypeKind::Double)), field("f", DataType::of(TypeKind::Float)),
              field("dec", DataType::decimal(38, 10)), field("small", DataType::decimal(5, 2))}),
      Schema({field("dt", DataType::of(TypeKind::Date)), field("ts", DataType::of(TypeKind::Timestamp)),
              field("ntz", DataType::of(TypeKind::TimestampNtz)), field("b", DataType::of(TypeKind::Boolean))}),
      Schema({field("n", DataType{TypeKind::Struct, 0, 0,
                                  {field("x", DataType::of(TypeKind::Long)),
                                   field("m", DataType{TypeKind::Struct, 0, 0, {field("y", DataType::of(TypeKind::Short))}})}}),
              field("by", DataType::of(TypeKind::Byte))}),
  };
  return all;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const Schema& schema = schemas()[data[0] % schemas().size()];
  const std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
  FileStats stats;
  try {
    stats = stats_from_json_text(text, schema);
  } catch (const InputError&) {
    return 0;
  }
  const std::string printed = dump_json(stats_to_json(stats, schema));
  try {
    if (!(stats_from_json_text(printed, schema) == stats)) {
      std::cerr << "round trip differs:\n  input:   " << text << "\n  printed: " << printed << "\n";
      std::abort();
    }
  } catch (const InputError& e) {
    std::cerr << "printed stats do not read back:\n  input: " << text << "\n" << e.render() << "\n";
    std::abort();
  }
  return 0;
}
