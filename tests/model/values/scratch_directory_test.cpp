// A scratch folder is private and goes with everything in it: two of them never share a name,
// and a moved one is removed once, by its new owner.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "model/values/scratch_directory.h"

namespace skipsound {
namespace {

TEST(ScratchDirectory, GoesWithEverythingInIt) {
  std::filesystem::path where;
  {
    ScratchDirectory dir("log");
    where = dir.path();
    std::filesystem::create_directory(where / "_delta_log");
    std::ofstream(where / "_delta_log" / "00000000000000000000.json") << "{}\n";
    ASSERT_TRUE(std::filesystem::is_directory(where));
    const ScratchDirectory moved(std::move(dir));
    EXPECT_EQ(moved.path(), where);
  }
  EXPECT_FALSE(std::filesystem::exists(where));
}

TEST(ScratchDirectory, IsAFreshFolderNamedForItsPurposeUnderTheTemporaryFolder) {
  const ScratchDirectory a("test");
  const ScratchDirectory b("test");
  EXPECT_NE(a.path(), b.path());
  EXPECT_TRUE(std::filesystem::equivalent(a.path().parent_path(), std::filesystem::temp_directory_path())) << a.path();
  EXPECT_EQ(a.path().filename().string().rfind("skipsound-test-", 0), 0u) << a.path();
  EXPECT_TRUE(std::filesystem::is_empty(a.path()));
  EXPECT_EQ(std::filesystem::status(a.path()).permissions(), std::filesystem::perms::owner_all);
}

}  // namespace
}  // namespace skipsound
