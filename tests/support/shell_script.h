// Runs a /bin/sh script and collects what it prints and its exit status: how the CLI tests run
// the built program as a user would. Start the script with `exec 2>&1` to collect stderr too.
#pragma once
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>

namespace skipsound::test {

struct ScriptOutcome {
  int exit_code = -1;  // -1: not started, or ended by a signal
  std::string output;
};

inline ScriptOutcome run_script(const std::string& script) {
  ScriptOutcome outcome;
  FILE* pipe = ::popen(script.c_str(), "r");
  if (!pipe) return outcome;
  std::array<char, 4096> buffer{};
  for (size_t n; (n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0;) outcome.output.append(buffer.data(), n);
  const int status = ::pclose(pipe);
  outcome.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return outcome;
}

}  // namespace skipsound::test
