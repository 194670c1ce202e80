// The one way skipsound and its tools run another program: posix_spawn, never a shell, so no
// argument is ever read as shell syntax; stdout and stderr together, captured or written to a
// file; a deadline after which the process (or its whole process group) is killed. The second
// solver (smt/second_solver.h), the gate's bad-input corpus (proofs/gate/bad_input_corpus.h) and
// the mutation tool's build and gate runs (tools/mutate/mutant_run.h) all run programs through it.
// It includes nothing of skipsound, so the mutation tool, which links none of it, links this.
#pragma once
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace skipsound {

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
  // Where stdout and stderr go instead of ProcessOutput::text (truncated first).
  std::optional<std::filesystem::path> output_file;
  // The process leads a process group of its own: the deadline kills the whole group, and so does
  // its end (whatever it left running), as a build's compilers would be.
  bool own_process_group = false;
  // Called with the process id once it runs (a signal handler that must kill it, say).
  std::function<void(int pid)> on_start;
};

struct ProcessOutput {
  std::string text;  // stdout and stderr together (empty with an output_file)
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

}  // namespace skipsound
