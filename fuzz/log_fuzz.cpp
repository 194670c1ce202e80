// Writes arbitrary bytes as a Delta log (commit files separated by a line "----"; the last
// piece, when it starts with "CHECKPOINT ", becomes _last_checkpoint) and loads the table. Bad
// input must end in InputError, never a crash, a hang or another exception; every live file's
// parsed stats must print back to JSON that reads as the same stats.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "model/log/delta_log.h"
#include "model/values/input_error.h"
#include "model/values/scratch_directory.h"
#include "model/values/exact_json.h"

namespace {

namespace fs = std::filesystem;
using namespace skipsound;

std::vector<std::string> pieces(const std::string& text) {
  std::vector<std::string> out;
  size_t start = 0;
  for (size_t sep; (sep = text.find("\n----\n", start)) != std::string::npos; start = sep + 6) {
    out.push_back(text.substr(start, sep - start));
  }
  out.push_back(text.substr(start));
  return out;
}

// In a folder of this run's own, removed when it ends.
fs::path table_dir() {
  static const ScratchDirectory scratch("log-fuzz");
  return scratch.path() / "table";
}

void write_log(const std::vector<std::string>& commits) {
  const fs::path log = table_dir() / "_delta_log";
  fs::remove_all(table_dir());
  fs::create_directories(log);
  for (size_t v = 0; v < commits.size(); ++v) {
    const std::string& piece = commits[v];
    if (v + 1 == commits.size() && piece.rfind("CHECKPOINT ", 0) == 0) {
      std::ofstream(log / "_last_checkpoint", std::ios::binary) << piece.substr(11);
      break;
    }
    char name[32];
    std::snprintf(name, sizeof name, "%020zu.json", v);
    std::ofstream(log / name, std::ios::binary) << piece;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  write_log(pieces(std::string(reinterpret_cast<const char*>(data), size)));
  DeltaTable table;
  try {
    table = load_delta_table(table_dir().string());
  } catch (const InputError&) {
    return 0;
  }
  const Schema& schema = table.metadata.schema;
  for (const LiveFile& file : table.files) {
    if (!file.stats) continue;
    const std::string printed = dump_json(stats_to_json(*file.stats, schema, table.stats_naming()));
    try {
      if (!(stats_from_json_text(printed, schema, table.stats_naming()) == *file.stats)) {
        std::cerr << "stats of " << file.add.path << " do not round-trip: " << printed << "\n";
        std::abort();
      }
    } catch (const InputError& e) {
      std::cerr << "stats of " << file.add.path << " do not read back: " << e.render() << "\n";
      std::abort();
    }
  }
  return 0;
}
