#include "smt/second_solver.h"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "common/subprocess.h"

namespace skipsound::smt {

namespace {

using Clock = std::chrono::steady_clock;

// A grace period past the solver's own limit before the process is killed.
constexpr int kKillAfterMs = 1000;

// A temporary .smt2 file removed on every exit path.
class TemporaryQuery {
 public:
  explicit TemporaryQuery(const std::string& text) {
    std::string pattern = (std::filesystem::temp_directory_path() / "skipsound-query-XXXXXX.smt2").string();
    const int fd = mkstemps(pattern.data(), 5);
    if (fd < 0) return;
    close(fd);
    path_ = pattern;
    std::ofstream(path_, std::ios::binary) << text;
  }
  ~TemporaryQuery() {
    if (!path_.empty()) std::filesystem::remove(path_);
  }
  TemporaryQuery(const TemporaryQuery&) = delete;
  TemporaryQuery& operator=(const TemporaryQuery&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

std::string first_line(const std::string& text) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    if (!line.empty()) return line;
  }
  return {};
}

std::string exit_description(const ProcessOutput& p) {
  if (WIFSIGNALED(p.status)) return "killed by signal " + std::to_string(WTERMSIG(p.status));
  return "exit status " + std::to_string(WEXITSTATUS(p.status));
}

// cvc5 answers `(get-info :reason-unknown)` after an unknown with "(:reason-unknown timeout)".
std::string unknown_reason(const std::string& text) {
  const std::string key = ":reason-unknown ";
  const size_t at = text.find(key);
  if (at == std::string::npos) return "no reason given";
  const size_t start = at + key.size();
  const size_t end = text.find(')', start);
  return text.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

SecondAnswer interpret(const ProcessOutput& p, unsigned time_limit_ms) {
  SecondAnswer a;
  if (!p.spawn_error.empty()) {
    a.reason = "cannot run " + p.spawn_error;
    return a;
  }
  if (p.killed) {
    a.verdict = SecondVerdict::Unknown;
    a.reason = "killed past the time limit (" + std::to_string(time_limit_ms) + " ms)";
    return a;
  }
  const std::string answer = first_line(p.text);
  if (answer == "sat") a.verdict = SecondVerdict::Sat;
  else if (answer == "unsat") a.verdict = SecondVerdict::Unsat;
  else if (answer == "unknown") {
    a.verdict = SecondVerdict::Unknown;
    a.reason = unknown_reason(p.text);
  } else {
    a.reason = (answer.empty() ? "no answer" : answer) + " (" + exit_description(p) + ")";
  }
  return a;
}

// cvc5 on `text`, which holds `queries` check-sat commands, each with the per-query time limit.
ProcessOutput run_solver(const SecondSolverOptions& options, const std::string& text, size_t queries) {
  const TemporaryQuery query(text);
  if (query.path().empty()) {
    ProcessOutput refused;
    refused.spawn_error = "cannot write a temporary query file";
    return refused;
  }
  const size_t deadline_ms = std::min<size_t>(size_t{options.time_limit_ms} * queries + kKillAfterMs, INT_MAX);
  return run_process(
      {{options.command, "--lang", "smt2", "--tlimit-per=" + std::to_string(options.time_limit_ms), query.path()},
       static_cast<int>(deadline_ms)});
}

}  // namespace

const char* second_verdict_name(SecondVerdict v) {
  switch (v) {
    case SecondVerdict::Sat: return "sat";
    case SecondVerdict::Unsat: return "unsat";
    case SecondVerdict::Unknown: return "unknown";
    case SecondVerdict::Error: return "error";
  }
  return "?";
}

std::string cvc5_smt2(const std::string& z3_smt2) {
  std::string out = "(set-logic ALL)\n(set-option :strings-exp true)\n";
  std::istringstream in(z3_smt2);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("(set-info :status", 0) == 0) continue;
    out += line;
    out += '\n';
  }
  return out;
}

SecondSolver::SecondSolver(SecondSolverOptions options) : options_(std::move(options)) {}

bool SecondSolver::available() const {
  return run_process({{options_.command, "--version"}}).exit_status() == 0;
}

std::string SecondSolver::describe() const {
  return options_.command + " --lang smt2 --tlimit-per=" + std::to_string(options_.time_limit_ms);
}

SecondAnswer SecondSolver::ask(const std::string& z3_smt2) const {
  const Clock::time_point start = Clock::now();
  // Asked only so that an unknown comes with its reason; after sat/unsat cvc5 prints an error
  // line that is ignored.
  SecondAnswer answer = interpret(run_solver(options_, cvc5_smt2(z3_smt2) + "(get-info :reason-unknown)\n", 1), options_.time_limit_ms);
  answer.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return answer;
}

std::vector<SecondAnswer> SecondSolver::ask_all(const std::vector<std::string>& z3_smt2) const {
  if (z3_smt2.size() <= 1) {
    std::vector<SecondAnswer> answers;
    for (const std::string& q : z3_smt2) answers.push_back(ask(q));
    return answers;
  }
  const Clock::time_point start = Clock::now();
  std::string text;
  for (const std::string& q : z3_smt2) text += cvc5_smt2(q) + "(reset)\n";
  const ProcessOutput p = run_solver(options_, text, z3_smt2.size());
  const double share = std::chrono::duration<double>(Clock::now() - start).count() / static_cast<double>(z3_smt2.size());
  std::istringstream lines(p.killed ? std::string() : p.text);
  std::vector<SecondAnswer> answers;
  for (const std::string& q : z3_smt2) {
    std::string line;
    std::getline(lines, line);
    SecondAnswer a;
    if (line == "sat" || line == "unsat") {
      a.verdict = line == "sat" ? SecondVerdict::Sat : SecondVerdict::Unsat;
      a.seconds = share;
    } else {
      a = ask(q);
    }
    answers.push_back(std::move(a));
  }
  return answers;
}

}  // namespace skipsound::smt
