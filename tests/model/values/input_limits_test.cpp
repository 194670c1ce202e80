// read_bounded_file: whole files up to the limit, an InputError naming the file beyond it.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "model/values/input_error.h"
#include "model/values/input_limits.h"
#include "model/values/scratch_directory.h"

namespace skipsound {
namespace {

namespace fs = std::filesystem;

std::string error_of(const fs::path& path, std::uintmax_t limit) {
  try {
    read_bounded_file(path, limit);
  } catch (const InputError& e) {
    return e.message();
  }
  return "read";
}

TEST(ReadBoundedFile, ReadsUpToTheLimitAndRefusesBeyondIt) {
  const ScratchDirectory dir("test");
  const fs::path file = dir.path() / "input.txt";
  std::ofstream(file, std::ios::binary) << std::string(70'000, 'x');  // more than one read chunk
  EXPECT_EQ(read_bounded_file(file, 70'000), std::string(70'000, 'x'));
  EXPECT_EQ(error_of(file, 69'999), file.string() + " is 70000 bytes, more than the limit of 69999 bytes");
  EXPECT_EQ(error_of(file, 1u << 20), "read");
  fs::remove(file);
  EXPECT_EQ(error_of(file, 1u << 20), "cannot read " + file.string());
  EXPECT_EQ(error_of(dir.path(), 1u << 20), "cannot read " + dir.path().string() + ": a folder");
}

TEST(ReadBoundedFile, SizesInMessages) {
  EXPECT_EQ(byte_size_text(64u << 20), "64 MiB");
  EXPECT_EQ(byte_size_text(1000), "1000 bytes");
}

}  // namespace
}  // namespace skipsound
