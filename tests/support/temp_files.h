// Files the CLI tests hand to skipsound, under the system's temporary folder and named for this
// process: CTest runs the tests of one file side by side, each in a process of its own, and two
// of them writing one fixed name raced (one read the other's half-written schema).
#pragma once
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace skipsound::test {

// Writes `text` to the process's file `name` and returns its path.
inline std::string temp_file(const std::string& name, const std::string& text) {
  const auto path = std::filesystem::temp_directory_path() / ("skipsound_test_" + std::to_string(::getpid()) + "_" + name);
  std::ofstream(path, std::ios::binary) << text;
  return path.string();
}

}  // namespace skipsound::test
