// A folder of one's own under the system's temporary folder ($TMPDIR), made by mkdtemp and
// removed with everything in it at the end. Never a fixed name there: two processes would share
// it, and another user could put a symlink in its place first. It lives at the bottom of model/
// so that every module, and every test binary, can use the one class.
#pragma once
#include <filesystem>
#include <string>

namespace skipsound {

class ScratchDirectory {
 public:
  // Named "skipsound-<purpose>-XXXXXX". Throws std::runtime_error when none can be made.
  explicit ScratchDirectory(const std::string& purpose = "scratch");
  ScratchDirectory(ScratchDirectory&& other) noexcept;
  ScratchDirectory& operator=(ScratchDirectory&&) = delete;
  ScratchDirectory(const ScratchDirectory&) = delete;
  ~ScratchDirectory();

  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace skipsound
