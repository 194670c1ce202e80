// Running one mutant: the mutated file is written in place and always restored — by the guard's
// destructor, by a signal handler (SIGINT, SIGTERM, SIGHUP, SIGQUIT), and after a SIGKILL or a
// power cut by restore_interrupted() on the next start, from a journal written before the patch.
// Then the build command rebuilds incrementally and the gate command runs under a timeout, each
// in its own process group (killed whole on timeout or signal), its output kept in a log file.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tools/mutate/mutation_plan.h"

namespace skipsound::mutation {

struct ProcessResult {
  std::optional<int> exit_code;  // nullopt when killed by a signal or the timeout
  bool timed_out = false;
  double seconds = 0;
};

// Runs argv (PATH-searched) with stdout and stderr to log_path, killed after timeout_seconds.
ProcessResult run_process(const std::vector<std::string>& argv, double timeout_seconds, const std::string& log_path);

// The last `lines` lines of a file (all of it when shorter).
std::string file_tail(const std::string& path, size_t lines);

// Writes `mutated` over `path` (journal first, then an atomic rename) and puts the original back
// when destroyed. One at a time: a second live guard throws std::logic_error.
class SourcePatch {
 public:
  SourcePatch(std::string path, std::string original, const std::string& mutated, std::string journal);
  ~SourcePatch();
  SourcePatch(const SourcePatch&) = delete;
  SourcePatch& operator=(const SourcePatch&) = delete;

 private:
  std::string path_;
  std::string original_;
  std::string journal_;
};

// Puts back a file a killed run left mutated; returns its path, or nullopt if there was none.
std::optional<std::string> restore_interrupted(const std::string& journal);

// Installs the handlers that restore the live patch and kill the live child before dying.
void install_restoring_signal_handlers();

// NotCovered: the schema build's unmutated gate run never reached the mutant's site, so the gate
// cannot tell it from the original; it is not run.
enum class Status { Killed, Survived, Timeout, Crashed, BuildFailure, NotCovered };
// "killed", "survived", "timeout", "crashed", "build-failure", "not-covered"
const char* status_name(Status s);
std::optional<Status> status_from_name(std::string_view name);
// Killed, timed out and crashed mutants were all noticed by the gate.
inline bool detected(Status s) { return s == Status::Killed || s == Status::Timeout || s == Status::Crashed; }

struct RunConfig {
  std::string source_root;
  std::vector<std::string> build_command;
  std::vector<std::string> gate_command;
  std::string gate_json;  // where the gate command writes its --json report; empty = none
  double build_timeout = 900;
  double gate_timeout = 120;
  std::string work_dir;   // logs and the journal
  size_t tail_lines = 25;
};

struct MutantOutcome {
  Status status = Status::Survived;
  std::optional<int> exit_code;
  double build_seconds = 0;
  double gate_seconds = 0;
  bool own_build = false;   // rebuilt for this mutant alone (its mutation has no schema)
  std::vector<std::string> gate_phases;  // the gate phases it ran in (tools/mutate/phase_blame.h); empty: all
  std::string killed_by;    // the gate's first failure and when it was found (from its JSON)
  std::string output_tail;  // the gate's (or, for a build failure, the build's) last lines
};

// Exit 1 is a kill, 0 a survivor; any other exit or a signal is a crash the gate noticed.
Status classify_gate_exit(const ProcessResult& gate);

// The build on the source as it is: BuildFailure, or Survived when it built.
MutantOutcome rebuild(const RunConfig& config);
// The build and the gate on the source as it is (the baseline a run needs to pass first).
MutantOutcome run_unmutated(const RunConfig& config);
MutantOutcome run_mutant(const RunConfig& config, const Candidate& candidate, const std::string& original_source);

// The gate alone, on a schema build (tools/mutate/schema_build.h) already built, with the mutant
// `mutant_id` active (-1: none): the gate command runs under `env SKIPSOUND_MUTANT_ID=<id>`, and,
// given `reached_file`, SKIPSOUND_MUTANT_REACHED=<reached_file> (the ids whose sites it reached).
MutantOutcome run_schema_mutant(const RunConfig& config, long mutant_id, const std::string& reached_file = "");

std::string journal_path(const RunConfig& config);

}  // namespace skipsound::mutation
