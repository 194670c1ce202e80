// Parses arbitrary bytes as a scenario file (proofs/scenario.h) and replays what parses. Bad input
// must end in a declared input error from the parser, never a crash, a hang or another exception;
// a scenario that parses must replay through the operations, the conflict checker and the serial
// oracle without any exception (`skipsound scenario` would exit 3, or 2 without naming a line)
// and without one that the conflict filter swallowed. A verdict that differs from the file's
// `expect` lines is no failure here: the fuzzer writes arbitrary expectations.
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <string_view>

#include "model/sql/schema.h"
#include "model/values/input_error.h"
#include "proofs/scenario.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace skipsound;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  Scenario scenario;
  try {
    scenario = parse_scenario(text, "fuzz.scn");
  } catch (const InputError&) {
    return 0;
  } catch (const SchemaError&) {
    return 0;
  }
  try {
    const ScenarioRun run = run_scenario(scenario);
    for (const std::string& error : unexpected_errors(run.schedule, run.transactions)) {
      std::cerr << "the conflict filter hid an exception: " << error << "\n";
      std::abort();
    }
  } catch (const std::exception& e) {
    // Even an input error is a failure here: the parser must have refused, naming the line.
    std::cerr << "a scenario that parsed did not replay: " << e.what() << "\n";
    std::abort();
  }
  return 0;
}
