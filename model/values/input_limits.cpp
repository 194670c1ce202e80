#include "model/values/input_limits.h"

#include <fstream>
#include <system_error>

#include "model/values/input_error.h"

namespace skipsound {

std::string byte_size_text(std::uintmax_t bytes) {
  if (bytes % (1u << 20) == 0) return std::to_string(bytes >> 20) + " MiB";
  return std::to_string(bytes) + " bytes";
}

std::string read_bounded_file(const std::filesystem::path& path, std::uintmax_t limit) {
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) throw InputError("cannot read " + path.string() + ": a folder");
  // Pipes and devices have no size: the chunked read below bounds them.
  const bool sized = std::filesystem::is_regular_file(path, error);
  const std::uintmax_t size = sized ? std::filesystem::file_size(path, error) : 0;
  if (sized && !error && size > limit) {
    throw InputError(path.string() + " is " + std::to_string(size) + " bytes, more than the limit of " +
                     byte_size_text(limit));
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("cannot read " + path.string());
  // In chunks, so that a file that grows while it is read still stops at the limit.
  std::string text;
  text.reserve(static_cast<size_t>(size));
  char chunk[1 << 16];
  while (in.read(chunk, sizeof chunk) || in.gcount() > 0) {
    text.append(chunk, static_cast<size_t>(in.gcount()));
    if (text.size() > limit) throw InputError(path.string() + " is more than the limit of " + byte_size_text(limit));
  }
  return text;
}

}  // namespace skipsound
