// The bad-input corpus (tests/corpus/bad-inputs/cases.txt): malformed inputs of every kind, each a
// `skipsound` command line that must end with its exit status (2: bad input) and a message that
// names where the input is wrong — never a crash, a hang or an internal error. The gate runs it
// with its own binary beside the scenario corpus: a reader that takes a negative numRecords, a
// non-boolean tightBounds or a log with a gap as valid reads statistics nobody wrote, and every
// skip decided from them is unfounded (docs/semantics.md §4: the reader's refusals).
#pragma once
#include <filesystem>
#include <string>
#include <vector>

namespace skipsound {

struct BadInputCase {
  std::string name;     // "stats-negative-records"; its kind is the part before the first '-'
  std::string command;  // run by /bin/sh in the corpus folder; {skipsound} is the binary under test
  int exit_status = 0;
  std::string message;  // the output must contain it
  size_t line = 0;      // in cases.txt
};

// The cases of `dir`/cases.txt, in file order. Throws InputError naming cases.txt:line for a
// line without its four fields, a bad exit status or a command without {skipsound}.
std::vector<BadInputCase> load_bad_input_cases(const std::filesystem::path& dir);

struct BadInputRun {
  int exit_status = -1;  // -1: ended by a signal
  std::string output;    // stdout and stderr
  std::vector<std::string> problems;  // empty: as the case expects
  double seconds = 0;
};

// Runs one case with `binary` for {skipsound}, from `dir`, under a hang limit of `hang_limit_seconds`
// (a hang ends with timeout's exit status 124, so it differs from the expected one).
BadInputRun run_bad_input_case(const BadInputCase& c, const std::filesystem::path& dir, const std::string& binary,
                               int hang_limit_seconds);

}  // namespace skipsound
