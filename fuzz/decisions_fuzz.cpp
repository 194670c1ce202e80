// Writes arbitrary bytes as a decisions file (JSON Lines for `skipsound check --decisions`) and
// judges it. Every line parses or the run ends in an input error naming the file and a line of
// it ("decisions.jsonl:N: ..."); what parses is judged by the oracle without an internal error.
// Z3's budget per query is small so that one input stays fast; its unknowns are fine here.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "model/sql/schema.h"
#include "model/values/input_error.h"
#include "cli/check_command.h"
#include "model/values/scratch_directory.h"

namespace {

namespace fs = std::filesystem;
using namespace skipsound;

// The file sits two folders below a link to the repository's tests/fixtures, so that the seed
// corpus's live-file lines ("table": "../../fixtures/delta-logs/...") load real tables.
// The folder is this run's own, removed when it ends.
fs::path make_decisions_file() {
  static const ScratchDirectory scratch("decisions-fuzz");
  const fs::path& root = scratch.path();
  fs::create_directories(root / "corpus" / "decisions");
  fs::create_directory_symlink(fs::path(SKIPSOUND_SOURCE_DIR) / "tests" / "fixtures", root / "fixtures");
  return root / "corpus" / "decisions" / "decisions.jsonl";
}

const fs::path& decisions_file() {
  static const fs::path file = make_decisions_file();
  return file;
}

// The error must start with the file and a line number within the file.
void require_located(const std::string& message, size_t line_count) {
  const std::string prefix = decisions_file().string() + ":";
  size_t line = 0;
  if (message.rfind(prefix, 0) == 0) {
    std::istringstream rest(message.substr(prefix.size()));
    rest >> line;
  }
  if (line == 0 || line > line_count) {
    std::cerr << "decisions error without file:line (" << line_count << " lines): " << message << "\n";
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::ofstream(decisions_file(), std::ios::binary | std::ios::trunc) << text;
  const size_t line_count = std::count(text.begin(), text.end(), '\n') + (text.empty() || text.back() == '\n' ? 0 : 1);
  cli::CheckArguments args;
  args.decisions_file = decisions_file().string();
  args.oracle.limits.resource_limit = 20'000;
  std::ostringstream out, err;
  try {
    cli::run_check(args, out, err);
    // Bad lines are reported on stderr, one "error: FILE:LINE: ..." each (then its caret lines).
    std::istringstream reported(err.str());
    for (std::string line; std::getline(reported, line);) {
      if (line.rfind("error: ", 0) == 0) require_located(line.substr(7), std::max<size_t>(line_count, 1));
    }
  } catch (const InputError& e) {
    require_located(e.message(), std::max<size_t>(line_count, 1));
  } catch (const SchemaError& e) {
    std::cerr << "schema error escaped the decisions reader: " << e.what() << "\n";
    std::abort();
  } catch (const std::exception& e) {
    std::cerr << "internal error judging decisions: " << e.what() << "\n";
    std::abort();
  }
  return 0;
}
