// Parses arbitrary bytes as a scenario file (proofs/scenario/scenario.h) and replays what parses. Bad input
// must end in a declared input error naming "fuzz.scn:<line>:", a line of the input, never a
// crash, a hang or another exception. The parser finds most; the run finds what only the log's
// versions show (a start or RESTORE version not reached, a file or feature the snapshot lacks)
// and names the transaction's line. Otherwise the scenario replays through the operations, the
// conflict checker and the serial oracle without any other exception (`skipsound scenario` would
// exit 3) and without one that the conflict filter swallowed. A verdict that differs from the
// file's `expect` lines is no failure here: the fuzzer writes arbitrary expectations.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <sstream>
#include <string>
#include <string_view>

#include "model/sql/schema.h"
#include "model/values/input_error.h"
#include "proofs/scenario/scenario.h"

namespace {

// The error must start with "fuzz.scn:<line>:", the line within the input (the last line for
// what the whole file lacks, 0 when it has no line).
void require_located(const std::string& message, std::string_view text) {
  const std::string prefix = "fuzz.scn:";
  size_t line = 0;
  bool located = false;
  if (message.rfind(prefix, 0) == 0) {
    std::istringstream rest(message.substr(prefix.size()));
    located = static_cast<bool>(rest >> line) && rest.get() == ':';
  }
  const size_t line_count = static_cast<size_t>(std::count(text.begin(), text.end(), '\n')) +
                            (text.empty() || text.back() == '\n' ? 0 : 1);
  if (!located || line > line_count || (line == 0 && line_count > 0)) {
    std::cerr << "scenario error without fuzz.scn:<line> (" << line_count << " lines): " << message << "\n";
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace skipsound;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  Scenario scenario;
  try {
    scenario = parse_scenario(text, "fuzz.scn");
  } catch (const InputError& e) {
    require_located(e.message(), text);
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
  } catch (const InputError& e) {
    require_located(e.message(), text);
  } catch (const std::exception& e) {
    std::cerr << "a scenario that parsed did not replay: " << e.what() << "\n";
    std::abort();
  }
  return 0;
}
