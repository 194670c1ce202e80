// The built `skipsound` program run as a user runs it (tests/cli: SKIPSOUND_BINARY), through sh
// so that globs, quotes and `$(...)` mean what they mean in a shell.
#pragma once
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>

namespace skipsound::test {

struct ProcessOutcome {
  int exit_code = -1;  // -1: ended by a signal, or never started
  std::string output;  // stdout and stderr, interleaved
};

// Runs `skipsound <arguments>` from `directory`; a trailing shell comment (`# exit 1`) is a comment.
inline ProcessOutcome run_skipsound(const std::string& arguments, const std::string& directory) {
  const std::string script =
      "exec 2>&1\ncd '" + directory + "' || exit 99\n'" + std::string(SKIPSOUND_BINARY) + "' " + arguments + "\n";
  ProcessOutcome outcome;
  FILE* pipe = ::popen(script.c_str(), "r");
  if (!pipe) return outcome;
  std::array<char, 4096> buffer{};
  for (size_t n; (n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0;) outcome.output.append(buffer.data(), n);
  const int status = ::pclose(pipe);
  outcome.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return outcome;
}

// The gate narrowed to seconds for a CLI test: no rule proofs, no exhaustive phase, no second
// solver, 200 trials of value-moving worlds, and `empty_corpus` (an empty folder) as its corpus;
// the caller adds the mutants and the outputs.
inline std::string small_gate_arguments(const std::string& empty_corpus) {
  return "gate --skip-proofs --exhaustive 0 --cross-check none --threads 2 --budget 200 --category value-moving"
         " --corpus '" + empty_corpus + "'";
}

}  // namespace skipsound::test
