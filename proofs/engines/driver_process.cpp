#include "proofs/engines/driver_process.h"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <sstream>

extern char** environ;

namespace skipsound::engines {

namespace {

using Clock = std::chrono::steady_clock;

int milliseconds_until(Clock::time_point deadline) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
  return left <= 0 ? 0 : static_cast<int>(left);
}

// Writes all of `text`; false when the driver has closed its stdin (EPIPE, SIGPIPE held back).
bool write_all(int fd, const std::string& text) {
  sigset_t pipe_signal, previous;
  sigemptyset(&pipe_signal);
  sigaddset(&pipe_signal, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe_signal, &previous);
  size_t done = 0;
  bool ok = true;
  while (done < text.size()) {
    const ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      ok = false;
      break;
    }
    done += static_cast<size_t>(n);
  }
  if (!sigismember(&previous, SIGPIPE)) {
    const timespec no_wait{0, 0};
    while (sigtimedwait(&pipe_signal, nullptr, &no_wait) == SIGPIPE) {
    }
  }
  pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  return ok;
}

}  // namespace

const char* exchange_failure_name(ExchangeFailure f) {
  switch (f) {
    case ExchangeFailure::None: return "none";
    case ExchangeFailure::SpawnFailed: return "could not start";
    case ExchangeFailure::Died: return "died";
    case ExchangeFailure::TimedOut: return "timed out";
    case ExchangeFailure::NotJson: return "answered with no JSON object";
  }
  return "?";
}

DriverProcess::DriverProcess(DriverCommand command) : command_(std::move(command)) {}

DriverProcess::~DriverProcess() { stop(); }

bool DriverProcess::start(std::string& error) {
  int in[2], out[2];
  if (pipe2(in, O_CLOEXEC) != 0 || pipe2(out, O_CLOEXEC) != 0) {
    error = std::string("pipe: ") + std::strerror(errno);
    return false;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in[0], STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
  const std::string err = command_.stderr_file.empty() ? "/dev/null" : command_.stderr_file.string();
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, err.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  sigset_t none, pipe_signal;
  sigemptyset(&none);
  sigemptyset(&pipe_signal);
  sigaddset(&pipe_signal, SIGPIPE);
  posix_spawnattr_setsigmask(&attributes, &none);
  posix_spawnattr_setsigdefault(&attributes, &pipe_signal);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  std::vector<char*> args;
  for (const std::string& a : command_.argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int rc = command_.argv.empty() ? ENOENT
                                       : posix_spawnp(&pid, args[0], &actions, &attributes, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  close(in[0]);
  close(out[1]);
  if (rc != 0) {
    close(in[1]);
    close(out[0]);
    error = (command_.argv.empty() ? std::string("no driver command") : command_.argv[0]) + ": " + std::strerror(rc);
    return false;
  }
  pid_ = pid;
  to_driver_ = in[1];
  from_driver_ = out[0];
  pending_.clear();
  ++starts_;
  return true;
}

void DriverProcess::stop() {
  if (to_driver_ >= 0) close(to_driver_);
  if (from_driver_ >= 0) close(from_driver_);
  to_driver_ = from_driver_ = -1;
  if (pid_ > 0) {
    kill(pid_, SIGKILL);
    int status = 0;
    while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
  }
  pid_ = 0;
}

std::string DriverProcess::stderr_tail() const {
  if (command_.stderr_file.empty()) return "";
  std::ifstream in(command_.stderr_file);
  std::stringstream all;
  all << in.rdbuf();
  const std::string text = all.str();
  constexpr size_t kTail = 2000;
  return text.size() > kTail ? text.substr(text.size() - kTail) : text;
}

DriverReply DriverProcess::exchange(const std::string& line) {
  const auto started = Clock::now();
  const auto deadline = started + std::chrono::milliseconds(command_.deadline_ms);
  DriverReply reply;
  const auto fail = [&](ExchangeFailure f, std::string detail) {
    stop();
    reply.failure = f;
    reply.detail = std::move(detail);
    const std::string tail = stderr_tail();
    if (!tail.empty()) reply.detail += "\nthe driver's stderr ends:\n" + tail;
    reply.seconds = std::chrono::duration<double>(Clock::now() - started).count();
    return reply;
  };
  if (pid_ == 0) {
    std::string error;
    if (!start(error)) return fail(ExchangeFailure::SpawnFailed, error);
  }
  if (!write_all(to_driver_, line + "\n")) return fail(ExchangeFailure::Died, "its stdin closed");
  for (;;) {
    const size_t newline = pending_.find('\n');
    if (newline != std::string::npos) {
      std::string answer = pending_.substr(0, newline);
      pending_.erase(0, newline + 1);
      reply.seconds = std::chrono::duration<double>(Clock::now() - started).count();
      try {
        reply.response = nlohmann::json::parse(answer);
      } catch (const nlohmann::json::exception&) {
      }
      if (!reply.response.is_object()) {
        constexpr size_t kShown = 300;
        return fail(ExchangeFailure::NotJson, "it answered: " + answer.substr(0, kShown));
      }
      return reply;
    }
    pollfd p{from_driver_, POLLIN, 0};
    const int ready = poll(&p, 1, milliseconds_until(deadline));
    if (ready < 0 && errno == EINTR) continue;
    if (ready == 0) {
      return fail(ExchangeFailure::TimedOut, "no answer within " + std::to_string(command_.deadline_ms) + " ms");
    }
    char chunk[1 << 16];
    const ssize_t n = read(from_driver_, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return fail(ExchangeFailure::Died, "its stdout closed after " + std::to_string(pending_.size()) + " bytes");
    pending_.append(chunk, static_cast<size_t>(n));
  }
}

}  // namespace skipsound::engines
