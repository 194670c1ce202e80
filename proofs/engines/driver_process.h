// An engine driver as a long-running child process (docs/engines.md): one JSON line out on its
// stdin, one JSON line back on its stdout, a deadline per exchange. Started with posix_spawn (no
// shell, as common/subprocess.h starts one-shot programs); a driver that dies, hangs past the
// deadline or answers with something that is not one JSON object is killed, the failure is
// returned as data, and the next exchange starts a fresh driver.
#pragma once
#include <sys/types.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace skipsound::engines {

struct DriverCommand {
  std::vector<std::string> argv;  // argv[0] looked up on PATH unless it holds a '/'
  int deadline_ms = 60'000;       // per exchange
  std::filesystem::path stderr_file;  // the driver's stderr goes here (empty: /dev/null)
};

enum class ExchangeFailure {
  None,
  SpawnFailed,  // the driver could not be started
  Died,         // its stdout closed before a whole line came
  TimedOut,     // no line before the deadline (the driver is killed)
  NotJson,      // the line is not a JSON object
};
const char* exchange_failure_name(ExchangeFailure f);  // "died", "timed out", ...

struct DriverReply {
  ExchangeFailure failure = ExchangeFailure::None;
  nlohmann::json response;  // the JSON object, when failure is None
  std::string detail;       // what went wrong: the spawn error, the line, the stderr's tail
  double seconds = 0;
};

class DriverProcess {
 public:
  explicit DriverProcess(DriverCommand command);
  ~DriverProcess();
  DriverProcess(const DriverProcess&) = delete;
  DriverProcess& operator=(const DriverProcess&) = delete;

  // Sends one line (no newline inside) and waits for one line back.
  DriverReply exchange(const std::string& line);
  size_t starts() const { return starts_; }  // processes started so far

 private:
  bool start(std::string& error);
  void stop();
  std::string stderr_tail() const;

  DriverCommand command_;
  pid_t pid_ = 0;
  int to_driver_ = -1;
  int from_driver_ = -1;
  std::string pending_;  // bytes read past the last line
  size_t starts_ = 0;
};

}  // namespace skipsound::engines
