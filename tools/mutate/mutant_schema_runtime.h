// The active mutant of a mutant-schema build (docs/mutation.md, "Mutant schemata"). Only the
// scratch copies skipsound-mutate compiles include this header; the project's own sources never
// do, so the normal build neither reads the variables nor pays for the choice.
//
// SKIPSOUND_MUTANT_ID names the active mutant (unset: -1, none), read once per process. When
// SKIPSOUND_MUTANT_REACHED names a file, every mutant id whose site the process evaluated is
// appended to it at exit, one a line, in one write (processes the gate starts append theirs):
// a mutant no run reaches cannot change what the run does, so it is "not covered".
#pragma once
#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <string>

namespace skipsound_mutant_schema {

inline constexpr long kRecordedIds = 1 << 16;

struct Active {
  long id = -1;
  const char* reached_path = nullptr;
  std::atomic<bool> reached[kRecordedIds] = {};
};

inline void write_reached();

inline Active& active() {
  // Never destroyed: a site may be evaluated while static objects are.
  static Active* const state = [] {
    auto* s = new Active();
    if (const char* text = std::getenv("SKIPSOUND_MUTANT_ID")) s->id = std::strtol(text, nullptr, 10);
    s->reached_path = std::getenv("SKIPSOUND_MUTANT_REACHED");
    if (s->reached_path) std::atexit(write_reached);
    return s;
  }();
  return *state;
}

inline void write_reached() {
  Active& a = active();
  std::string text;
  for (long id = 0; id < kRecordedIds; ++id) {
    if (a.reached[id].load(std::memory_order_relaxed)) text += std::to_string(id) + "\n";
  }
  const int fd = ::open(a.reached_path, O_WRONLY | O_CREAT | O_APPEND, 0644);
  if (fd < 0) return;
  [[maybe_unused]] const ssize_t written = ::write(fd, text.data(), text.size());
  ::close(fd);
}

}  // namespace skipsound_mutant_schema

// Whether mutant `id` is the active one (and, when recording, that its site was reached).
inline bool skipsound_mutant_is(long id) {
  skipsound_mutant_schema::Active& a = skipsound_mutant_schema::active();
  if (a.reached_path && id >= 0 && id < skipsound_mutant_schema::kRecordedIds) {
    a.reached[id].store(true, std::memory_order_relaxed);
  }
  return a.id == id;
}
