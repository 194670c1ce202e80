#include "tools/mutate/mutant_run.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <csignal>
#include <deque>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "common/number_text.h"
#include "common/subprocess.h"
#include "tools/mutate/mutant_schema.h"

namespace skipsound::mutation {

namespace {

// What a signal handler needs, prepared before the patch so the handler only calls
// async-signal-safe functions (open, write, close, unlink, kill, raise).
struct LivePatch {
  const char* path = nullptr;
  const char* content = nullptr;
  size_t size = 0;
  const char* journal = nullptr;
};
std::atomic<LivePatch*> live_patch{nullptr};
// The gates and builds running now, one slot each (--jobs runs several at once).
constexpr size_t kChildSlots = 64;
std::array<std::atomic<pid_t>, kChildSlots> live_children{};

void write_all(int fd, const char* data, size_t size) {
  while (size > 0) {
    const ssize_t n = write(fd, data, size);
    if (n <= 0) return;
    data += n;
    size -= static_cast<size_t>(n);
  }
}

void restore_and_die(int signal_number) {
  for (std::atomic<pid_t>& child : live_children) {
    if (const pid_t pid = child.load()) kill(-pid, SIGKILL);
  }
  if (LivePatch* patch = live_patch.exchange(nullptr)) {
    const int fd = open(patch->path, O_WRONLY | O_TRUNC);
    if (fd >= 0) {
      write_all(fd, patch->content, patch->size);
      close(fd);
      unlink(patch->journal);
    }
  }
  std::signal(signal_number, SIG_DFL);
  raise(signal_number);
}

// Atomic: a reader (the compiler, an editor) never sees half a file.
void replace_file(const std::string& path, const std::string& content) {
  const std::string temporary = path + ".skipsound-mutate.tmp";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out << content;
    if (!out.flush()) throw std::runtime_error("cannot write " + temporary);
  }
  std::filesystem::rename(temporary, path);
}

// "per-file properties: 3 failing cases (first finding after 1.20 s of per-file)" from the gate's JSON.
std::string gate_first_failure(const std::string& json_path) {
  std::ifstream in(json_path);
  if (!in) return {};
  try {
    const nlohmann::json j = nlohmann::json::parse(in);
    std::string text = j.value("failures", nlohmann::json::array()).empty()
                           ? std::string()
                           : j["failures"].front().get<std::string>();
    for (const nlohmann::json& phase : j.value("phases", nlohmann::json::array())) {
      if (phase.contains("firstFinding") && !phase["firstFinding"].is_null()) {
        text += " (first finding after " + fixed(phase["firstFinding"].get<double>(), 2) + " s of " +
                phase.value("phase", "?") + ")";
        break;
      }
    }
    return text;
  } catch (const nlohmann::json::exception&) {
    return {};
  }
}

}  // namespace

ProcessResult run_process(const std::vector<std::string>& argv, double timeout_seconds, const std::string& log_path) {
  if (argv.empty()) throw std::invalid_argument("empty command");
  ProcessRequest request(argv, static_cast<int>(std::min(timeout_seconds * 1000, 1e9)));
  request.output_file = log_path;
  request.own_process_group = true;  // a build's compilers die with it
  std::atomic<pid_t>* slot = nullptr;
  request.on_start = [&slot](int pid) {
    for (std::atomic<pid_t>& child : live_children) {
      pid_t free = 0;
      if (child.compare_exchange_strong(free, pid)) {
        slot = &child;
        return;
      }
    }
  };
  const ProcessOutput out = skipsound::run_process(request);
  if (slot) *slot = 0;
  if (!out.spawn_error.empty()) std::ofstream(log_path, std::ios::app) << "cannot run " << out.spawn_error << "\n";
  return ProcessResult{out.exit_status(), out.killed, out.seconds};
}

std::string file_tail(const std::string& path, size_t lines) {
  std::ifstream in(path);
  std::deque<std::string> kept;
  for (std::string line; std::getline(in, line);) {
    kept.push_back(line);
    if (kept.size() > lines) kept.pop_front();
  }
  std::string out;
  for (const std::string& line : kept) out += line + "\n";
  return out;
}

SourcePatch::SourcePatch(std::string path, std::string original, const std::string& mutated, std::string journal)
    : path_(std::filesystem::absolute(path).string()), original_(std::move(original)), journal_(std::move(journal)) {
  if (live_patch.load()) throw std::logic_error("a source patch is already live");
  replace_file(journal_, path_ + "\n" + original_);
  static LivePatch patch;
  patch = {path_.c_str(), original_.data(), original_.size(), journal_.c_str()};
  live_patch = &patch;
  replace_file(path_, mutated);
}

SourcePatch::~SourcePatch() {
  live_patch = nullptr;
  try {
    replace_file(path_, original_);
    std::filesystem::remove(journal_);
  } catch (const std::exception&) {
    // The journal stays: the next start restores from it.
  }
}

std::optional<std::string> restore_interrupted(const std::string& journal) {
  if (!std::filesystem::exists(journal)) return std::nullopt;
  const std::string text = read_text_file(journal);
  const size_t newline = text.find('\n');
  if (newline == std::string::npos) throw std::runtime_error("damaged journal " + journal);
  const std::string path = text.substr(0, newline);
  replace_file(path, text.substr(newline + 1));
  std::filesystem::remove(journal);
  return path;
}

void install_restoring_signal_handlers() {
  for (int s : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) std::signal(s, restore_and_die);
}

const char* status_name(Status s) {
  switch (s) {
    case Status::Killed: return "killed";
    case Status::Survived: return "survived";
    case Status::Timeout: return "timeout";
    case Status::Crashed: return "crashed";
    case Status::BuildFailure: return "build-failure";
    case Status::NotCovered: return "not-covered";
  }
  return "?";
}

std::optional<Status> status_from_name(std::string_view name) {
  for (Status s : {Status::Killed, Status::Survived, Status::Timeout, Status::Crashed, Status::BuildFailure,
                   Status::NotCovered}) {
    if (name == status_name(s)) return s;
  }
  return std::nullopt;
}

Status classify_gate_exit(const ProcessResult& gate) {
  if (gate.timed_out) return Status::Timeout;
  if (gate.exit_code == 1) return Status::Killed;
  if (gate.exit_code == 0) return Status::Survived;
  return Status::Crashed;
}

std::string journal_path(const RunConfig& config) {
  return (std::filesystem::path(config.work_dir) / "restore-after-crash").string();
}

namespace {

MutantOutcome run_gate(const RunConfig& config, MutantOutcome outcome) {
  const std::string gate_log = (std::filesystem::path(config.work_dir) / "gate.log").string();
  if (!config.gate_json.empty()) std::filesystem::remove(config.gate_json);
  const ProcessResult gate = run_process(config.gate_command, config.gate_timeout, gate_log);
  outcome.status = classify_gate_exit(gate);
  outcome.exit_code = gate.exit_code;
  outcome.gate_seconds = gate.seconds;
  outcome.output_tail = file_tail(gate_log, config.tail_lines);
  if (outcome.status == Status::Killed && !config.gate_json.empty()) outcome.killed_by = gate_first_failure(config.gate_json);
  return outcome;
}

}  // namespace

MutantOutcome rebuild(const RunConfig& config) {
  std::filesystem::create_directories(config.work_dir);
  const std::string build_log = (std::filesystem::path(config.work_dir) / "build.log").string();
  MutantOutcome outcome;
  const ProcessResult build = run_process(config.build_command, config.build_timeout, build_log);
  outcome.build_seconds = build.seconds;
  if (build.exit_code != 0) {
    outcome.status = Status::BuildFailure;
    outcome.output_tail = file_tail(build_log, config.tail_lines);
  }
  return outcome;
}

MutantOutcome run_unmutated(const RunConfig& config) {
  const MutantOutcome built = rebuild(config);
  return built.status == Status::BuildFailure ? built : run_gate(config, built);
}

MutantOutcome run_schema_mutant(const RunConfig& config, long mutant_id, const std::string& reached_file) {
  std::filesystem::create_directories(config.work_dir);
  RunConfig chosen = config;
  std::vector<std::string> environment = {"env", std::string(kMutantIdVariable) + "=" + std::to_string(mutant_id)};
  if (!reached_file.empty()) {
    std::filesystem::remove(reached_file);
    // Absolute: the gate starts processes in other folders (the bad inputs), which append theirs.
    environment.push_back(std::string(kReachedVariable) + "=" + std::filesystem::absolute(reached_file).string());
  }
  chosen.gate_command.insert(chosen.gate_command.begin(), environment.begin(), environment.end());
  return run_gate(chosen, {});
}

MutantOutcome run_mutant(const RunConfig& config, const Candidate& candidate, const std::string& original_source) {
  std::filesystem::create_directories(config.work_dir);
  const std::string path = (std::filesystem::path(config.source_root) / candidate.file).string();
  const SourcePatch patch(path, original_source, apply_mutation(original_source, candidate.mutation),
                          journal_path(config));
  MutantOutcome outcome = run_unmutated(config);
  outcome.own_build = true;
  return outcome;
}

}  // namespace skipsound::mutation
