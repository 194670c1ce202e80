// The one way skipsound runs another program: posix_spawn, never a shell, so no argument is ever
// read as shell syntax; stdout and stderr captured together; a deadline after which the process is
// killed. The second solver (smt/second_solver.h) and the gate's bad-input corpus
// (proofs/gate/bad_input_corpus.h) both run programs through it. It lives in smt/ because the second
// solver is the lowest code that runs a program and proofs/ already depends on smt/; it includes
// no Z3 and nothing of skipsound, so that dependency stays one way. (The mutation tool links
// nothing of skipsound and keeps its own runner.)
#pragma once
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace skipsound::smt {

struct ProcessRequest {
  ProcessRequest(std::vector<std::string> argv, int deadline_ms = 10'000)
      : argv(std::move(argv)), deadline_ms(deadline_ms) {}

  // argv[0] is looked up on PATH unless it holds a '/'; a relative one with a '/' is taken from
  // working_dir.
  std::vector<std::string> argv;
  int deadline_ms;  // killed (SIGKILL) once it has passed
  std::filesystem::path working_dir;  // empty: this process's
  // Whose bytes reach the process's stdin through a pipe, as `cat FILE | program` would give them;
  // none: /dev/null.
  std::optional<std::filesystem::path> stdin_file;
};

struct ProcessOutput {
  std::string text;  // stdout and stderr together
  int status = 0;    // as waitpid gives it
  bool killed = false;  // past the deadline
  std::string spawn_error;  // it could not be started (then nothing else is set)
  double seconds = 0;       // start to exit

  // Its exit status; none when it could not start, was killed or ended by a signal.
  std::optional<int> exit_status() const;
};

// Runs the request and waits for it. Thread-safe: posix_spawn, not fork, and no process-wide state
// (a reader that stops early gives an EPIPE, never a SIGPIPE that would end this process).
ProcessOutput run_process(const ProcessRequest& request);

}  // namespace skipsound::smt
