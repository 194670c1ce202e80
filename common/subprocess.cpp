#include "common/subprocess.h"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>

extern char** environ;

namespace skipsound {

namespace {

using Clock = std::chrono::steady_clock;

// Closes a file descriptor on every exit path.
class FileDescriptor {
 public:
  explicit FileDescriptor(int fd = -1) : fd_(fd) {}
  ~FileDescriptor() { reset(); }
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  int get() const { return fd_; }
  bool is_open() const { return fd_ >= 0; }
  void reset(int fd = -1) {
    if (fd_ >= 0) close(fd_);
    fd_ = fd;
  }

 private:
  int fd_;
};

struct Pipe {
  FileDescriptor read_end;
  FileDescriptor write_end;
};

// Both ends close on exec: a process another thread spawns meanwhile inherits neither.
bool open_pipe(Pipe& p, std::string& error) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) {
    error = std::string("pipe: ") + std::strerror(errno);
    return false;
  }
  p.read_end.reset(fds[0]);
  p.write_end.reset(fds[1]);
  return true;
}

// SIGPIPE held back in this thread while it writes to a pipe whose reader may have exited: the
// write fails with EPIPE instead of ending the whole program, and the SIGPIPE it raised is taken
// off before the mask is restored.
class SigpipeHeldBack {
 public:
  SigpipeHeldBack() {
    sigemptyset(&pipe_);
    sigaddset(&pipe_, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_, &previous_);
  }
  ~SigpipeHeldBack() {
    if (!sigismember(&previous_, SIGPIPE)) {
      const timespec no_wait{0, 0};
      while (sigtimedwait(&pipe_, nullptr, &no_wait) == SIGPIPE) {
      }
    }
    pthread_sigmask(SIG_SETMASK, &previous_, nullptr);
  }
  SigpipeHeldBack(const SigpipeHeldBack&) = delete;
  SigpipeHeldBack& operator=(const SigpipeHeldBack&) = delete;

 private:
  sigset_t pipe_;
  sigset_t previous_;
};

// Copies a file into the process's stdin a chunk at a time, as far as the pipe takes it without
// blocking; the pipe is closed at the file's end or when the process stops reading.
class StdinFeeder {
 public:
  StdinFeeder(FileDescriptor& file, FileDescriptor& pipe) : file_(file), pipe_(pipe) {}

  int fd() const { return pipe_.get(); }  // -1 once fed

  void feed() {
    for (;;) {
      if (next_ == chunk_end_) {
        const ssize_t n = read(file_.get(), chunk_.data(), chunk_.size());
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return pipe_.reset();
        next_ = 0;
        chunk_end_ = static_cast<size_t>(n);
      }
      const ssize_t n = write(pipe_.get(), chunk_.data() + next_, chunk_end_ - next_);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0 && errno == EAGAIN) return;
      if (n < 0) return pipe_.reset();  // EPIPE: it has read what it wanted
      next_ += static_cast<size_t>(n);
    }
  }

 private:
  FileDescriptor& file_;
  FileDescriptor& pipe_;
  std::array<char, 1 << 16> chunk_{};
  size_t next_ = 0;
  size_t chunk_end_ = 0;
};

int milliseconds_until(Clock::time_point deadline) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
  return left <= 0 ? 0 : static_cast<int>(left);
}

// Starts the process with its stdout and stderr on `output`'s write end and its stdin on `input`'s
// read end (or /dev/null); returns its pid, or 0 with `error` set.
pid_t spawn(const ProcessRequest& r, const Pipe& output, const Pipe* input, std::string& error) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (r.output_file) {
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, r.output_file->c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  } else {
    posix_spawn_file_actions_adddup2(&actions, output.write_end.get(), STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&actions, output.write_end.get(), STDERR_FILENO);
  }
  if (input) {
    posix_spawn_file_actions_adddup2(&actions, input->read_end.get(), STDIN_FILENO);
  } else {
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  }
  if (!r.working_dir.empty()) posix_spawn_file_actions_addchdir_np(&actions, r.working_dir.c_str());
  // The program starts with no signal blocked and SIGPIPE at its default, whatever this thread has.
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  sigset_t none;
  sigset_t pipe_signal;
  sigemptyset(&none);
  sigemptyset(&pipe_signal);
  sigaddset(&pipe_signal, SIGPIPE);
  posix_spawnattr_setsigmask(&attributes, &none);
  posix_spawnattr_setsigdefault(&attributes, &pipe_signal);
  short flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF;
  if (r.own_process_group) {
    posix_spawnattr_setpgroup(&attributes, 0);
    flags |= POSIX_SPAWN_SETPGROUP;
  }
  posix_spawnattr_setflags(&attributes, flags);
  std::vector<char*> args;
  for (const std::string& a : r.argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, args[0], &actions, &attributes, args.data(), environ);
  posix_spawnattr_destroy(&attributes);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned == 0) return pid;
  error = r.argv[0] + ": " + std::strerror(spawned);
  return 0;
}

// Reads its output (and feeds its stdin) until it closes its output, or with no output to read
// until its stdin is fed, or until the deadline passes. `victim` is its pid, or minus its process
// group's.
void collect(pid_t victim, FileDescriptor& output, StdinFeeder* feeder, Clock::time_point deadline, ProcessOutput& out) {
  std::array<char, 4096> buffer{};
  for (;;) {
    if (!output.is_open() && (!feeder || feeder->fd() < 0)) return;
    const int left = milliseconds_until(deadline);
    if (left == 0) {
      kill(victim, SIGKILL);
      out.killed = true;
      return;
    }
    // poll passes over a negative descriptor: stdin once it is fed, or when there is none.
    std::array<pollfd, 2> watched{pollfd{output.get(), POLLIN, 0}, pollfd{feeder ? feeder->fd() : -1, POLLOUT, 0}};
    const int ready = poll(watched.data(), watched.size(), left);
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) continue;  // timed out: the next turn kills it
    if (watched[1].revents != 0) feeder->feed();
    if (watched[0].revents == 0) continue;
    const ssize_t n = read(output.get(), buffer.data(), buffer.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;  // end of output: the process has closed its side
    out.text.append(buffer.data(), static_cast<size_t>(n));
  }
}

// Reaps the process, killing it (its group: `victim`) if it is still running at the deadline (it
// may close its output and go on). The wait between looks grows from 2 ms to 50 ms: a short run
// ends soon after its exit, a long build is not woken hundreds of times a second.
void reap(pid_t pid, pid_t victim, Clock::time_point deadline, ProcessOutput& out) {
  std::chrono::milliseconds pause(2);
  for (;;) {
    const pid_t reaped = waitpid(pid, &out.status, out.killed ? 0 : WNOHANG);
    if (reaped == pid || (reaped < 0 && errno != EINTR)) return;
    if (reaped == 0 && milliseconds_until(deadline) == 0) {
      kill(victim, SIGKILL);
      out.killed = true;
    } else if (reaped == 0) {
      std::this_thread::sleep_for(std::min(pause, std::chrono::milliseconds(milliseconds_until(deadline) + 1)));
      pause = std::min(pause * 2, std::chrono::milliseconds(50));
    }
  }
}

}  // namespace

std::optional<int> ProcessOutput::exit_status() const {
  if (!spawn_error.empty() || killed || !WIFEXITED(status)) return std::nullopt;
  return WEXITSTATUS(status);
}

ProcessOutput run_process(const ProcessRequest& request) {
  ProcessOutput out;
  const Clock::time_point start = Clock::now();
  const Clock::time_point deadline = start + std::chrono::milliseconds(request.deadline_ms);
  FileDescriptor stdin_source;
  Pipe input;
  if (request.stdin_file) {
    stdin_source.reset(open(request.stdin_file->c_str(), O_RDONLY | O_CLOEXEC));
    if (!stdin_source.is_open()) {
      out.spawn_error = "cannot read " + request.stdin_file->string() + ": " + std::strerror(errno);
      return out;
    }
    if (!open_pipe(input, out.spawn_error)) return out;
    fcntl(input.write_end.get(), F_SETFL, O_NONBLOCK);  // our end only: the process reads as usual
  }
  Pipe output;
  if (!request.output_file && !open_pipe(output, out.spawn_error)) return out;
  const pid_t pid = spawn(request, output, request.stdin_file ? &input : nullptr, out.spawn_error);
  output.write_end.reset();
  input.read_end.reset();
  if (pid == 0) return out;
  if (request.on_start) request.on_start(pid);
  const pid_t victim = request.own_process_group ? -pid : pid;
  {
    const SigpipeHeldBack held;
    StdinFeeder feeder(stdin_source, input.write_end);
    collect(victim, output.read_end, request.stdin_file ? &feeder : nullptr, deadline, out);
  }
  input.write_end.reset();
  reap(pid, victim, deadline, out);
  if (request.own_process_group) kill(victim, SIGKILL);  // whatever it left running in its group
  out.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return out;
}

}  // namespace skipsound
