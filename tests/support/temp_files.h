// Files the CLI tests hand to skipsound, in a scratch folder of this test process's own that is
// removed when the process ends: CTest runs the tests of one file side by side, each in a process
// of its own, and two of them writing one fixed name raced (one read the other's half-written
// schema).
#pragma once
#include <fstream>
#include <string>

#include "model/values/scratch_directory.h"

namespace skipsound::test {

// Writes `text` to the file `name` of the process's scratch folder and returns its path.
inline std::string temp_file(const std::string& name, const std::string& text) {
  static const ScratchDirectory dir("test");
  const auto path = dir.path() / name;
  std::ofstream(path, std::ios::binary) << text;
  return path.string();
}

}  // namespace skipsound::test
