#include "smt/crash_containment.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <stdexcept>

namespace skipsound::smt {

namespace {

size_t thread_count() {
  size_t count = 0;
  std::error_code error;
  for (std::filesystem::directory_iterator it("/proc/self/task", error), end; !error && it != end; it.increment(error)) {
    ++count;
  }
  return count;
}

}  // namespace

std::optional<std::string> crash_in_copy(const std::function<void()>& query) {
  if (thread_count() > 1) {
    throw std::logic_error("crash containment forks the process: only a single-threaded caller may use it");
  }
  const pid_t child = fork();
  if (child < 0) throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
  if (child == 0) {
    // _exit: the copy must not flush the parent's buffered output or run its destructors. An
    // exception is no crash: the process re-runs the query and meets it itself.
    try {
      query();
    } catch (...) {
    }
    _exit(0);
  }
  int status = 0;
  while (waitpid(child, &status, 0) < 0) {
    if (errno != EINTR) throw std::runtime_error(std::string("waitpid: ") + std::strerror(errno));
  }
  if (WIFSIGNALED(status)) {
    const int signal = WTERMSIG(status);
    return "killed by signal " + std::to_string(signal) + " (" + strsignal(signal) + ")";
  }
  if (WEXITSTATUS(status) != 0) return "exit status " + std::to_string(WEXITSTATUS(status));
  return std::nullopt;
}

}  // namespace skipsound::smt
