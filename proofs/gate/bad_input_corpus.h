// The bad-input corpus (tests/corpus/bad-inputs/cases.txt): malformed inputs of every kind, each a
// `skipsound` run that must end with its exit status (2: bad input) and a message that names where
// the input is wrong — never a crash, a hang or an internal error. The gate runs it with its own
// binary beside the scenario corpus: a reader that takes a negative numRecords, a non-boolean
// tightBounds or a log with a gap as valid reads statistics nobody wrote, and every skip decided
// from them is unfounded (docs/semantics.md §4.7: the reader's refusals).
//
// A case is data, never a command: the arguments skipsound gets, as a list, run without a shell
// (common/subprocess.h). A corpus folder may come from anyone (a pull request, a bug report), and the
// gate runs it with the rights of whoever runs the gate; so nothing in it is ever run but
// skipsound, and no text of it is ever read as shell syntax. The format is docs/cli.md's ("Bad
// input"): one JSON object per line,
//   {"name": "stats-truncated", "args": ["check", "--stats", {"contents": "stats/truncated.json"}, "i > 1"],
//    "exit": 2, "message": "stats: not valid JSON"}
// with, optionally, "stdin": {"file": FILE} or {"generated": NAME}.
#pragma once
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace skipsound {

// One argument of a case, or its stdin.
struct BadInputSource {
  enum class Kind {
    Text,       // the text itself (an argument only)
    Contents,   // the bytes of a file in the case folder (as an argument: {"contents": FILE})
    File,       // a file in the case folder (stdin only: {"file": FILE})
    Generated,  // an input too big to keep in the corpus, made for the run ({"generated": NAME}): as
                // an argument its path, as stdin its bytes
  };
  Kind kind = Kind::Text;
  std::string value;  // the text, the file's name relative to the case folder, or the generated input's name
};

struct BadInputCase {
  std::string name;  // "stats-negative-records"; its kind is the part before the first '-'
  std::vector<BadInputSource> arguments;       // after the binary's name
  std::optional<BadInputSource> standard_input;  // none: /dev/null
  int exit_status = 0;
  std::string message;  // the output must contain it
  size_t line = 0;      // in cases.txt
};

// The cases of `dir`/cases.txt, in file order. Throws InputError naming cases.txt:line for a line
// that is not such a case: not a JSON object, a missing or unknown key, an argument that is neither
// a string nor one of the two objects, a file outside the folder or missing, an unknown generated
// input, an exit status outside 0..255.
std::vector<BadInputCase> load_bad_input_cases(const std::filesystem::path& dir);

// The case as one line for a report: `skipsound parse --schema schemas/simple.json
// <contents of predicates/empty.txt>`. For a reader; it is never run.
std::string bad_input_command_line(const BadInputCase& c);

struct BadInputRun {
  int exit_status = -1;  // -1: it did not exit (a signal, the hang limit, or it could not start)
  std::string output;    // stdout and stderr
  std::vector<std::string> problems;  // empty: as the case expects
  double seconds = 0;
};

// Runs one case with `binary` in the case folder `dir` (relative names in its arguments are
// relative to it), killing it past `hang_limit_seconds`. Generated inputs are made in a scratch
// folder of the run's own and removed with it.
BadInputRun run_bad_input_case(const BadInputCase& c, const std::filesystem::path& dir, const std::string& binary,
                               int hang_limit_seconds);

}  // namespace skipsound
