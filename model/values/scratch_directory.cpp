#include "model/values/scratch_directory.h"

#include <stdlib.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <utility>

namespace skipsound {

ScratchDirectory::ScratchDirectory(const std::string& purpose) {
  std::string pattern = (std::filesystem::temp_directory_path() / ("skipsound-" + purpose + "-XXXXXX")).string();
  if (mkdtemp(pattern.data()) == nullptr) {
    throw std::runtime_error("cannot make a directory from " + pattern + ": " + std::strerror(errno));
  }
  path_ = pattern;
}

ScratchDirectory::ScratchDirectory(ScratchDirectory&& other) noexcept : path_(std::move(other.path_)) {
  other.path_.clear();
}

ScratchDirectory::~ScratchDirectory() {
  std::error_code ignored;  // a folder left behind is not worth a crash on the way out
  if (!path_.empty()) std::filesystem::remove_all(path_, ignored);
}

}  // namespace skipsound
