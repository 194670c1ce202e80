// The active mutant of a mutant-schema build (docs/mutation.md, "Mutant schemata"). Only the
// scratch copies skipsound-mutate compiles include this header; the project's own sources never
// do, so the normal build neither reads the variable nor pays for the choice.
#pragma once
#include <cstdlib>

// The mutant id SKIPSOUND_MUTANT_ID names, read once per process; -1 (no mutant) when unset.
inline long skipsound_mutant_id() {
  static const long id = [] {
    const char* text = std::getenv("SKIPSOUND_MUTANT_ID");
    return text ? std::strtol(text, nullptr, 10) : -1L;
  }();
  return id;
}
