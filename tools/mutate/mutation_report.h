// skipsound-mutate's report: the mutation score, a table per operator and per file, and every
// survivor with its triage (tools/mutate/triage.json: equivalent, with why, or a gap), in
// Markdown for people and JSON for tools.
//
// Score = detected / (detected + survivors and not-covered mutants not triaged equivalent), where
// detected counts killed, timed-out and crashed mutants; build failures are not mutants and count
// nowhere.
#pragma once
#include <optional>
#include <utility>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "tools/mutate/mutant_run.h"

namespace skipsound::mutation {

// A survivor is matched by file, operator and its line before and after (not the line number,
// which moves when the file is edited).
struct TriageEntry {
  std::string file;
  std::string op;
  std::string before;
  std::string after;
  std::string verdict;  // "equivalent" or "gap"
  std::string reason;
};

// Throws std::runtime_error naming the file, or the JSON path of a bad entry.
std::vector<TriageEntry> load_triage(const std::string& path);

struct MutantRecord {
  Candidate candidate;
  MutantOutcome outcome;
};

struct RunSummary {
  std::string command;               // how the run was started (paths relative to the source root)
  std::vector<std::string> files;
  size_t enumerated = 0;             // mutations of the files, before sampling
  size_t planned = 0;                // after filters, shard and --max-mutants
  uint64_t seed = 0;
  std::string gate_command;
  double schema_build_seconds = 0;   // the schema copy's build, all rounds
  size_t schema_left_out = 0;        // mutations of the files no schema could express
  double baseline_build_seconds = 0;
  double baseline_gate_seconds = 0;
  double wall_seconds = 0;
  double cpu_seconds = 0;            // of the builds and gates the run started (user + system)
  size_t jobs = 1;                   // mutants judged at once
  bool stopped_by_time_limit = false;
  bool sampled = false;              // --sample drew the planned mutants
  std::string changed_since;         // --changed-since: the files' mutations are those on changed lines
  size_t merged_runs = 1;            // runs (shards, slices) merged into this one
};

struct Score {
  size_t detected = 0;
  size_t survived = 0;
  size_t not_covered = 0;  // no unmutated gate run reaches them: undetected, and listed apart
  size_t equivalent = 0;   // survivors and not-covered mutants triaged equivalent
  size_t build_failures = 0;
  double percent() const;  // of non-equivalent mutants, detected; 100 when there are none
  // The 95 % confidence interval (Wilson) of the score of the scope a uniform sample came from, in percent.
  std::pair<double, double> interval95() const;
};

Score score_of(const std::vector<MutantRecord>& records, const std::vector<TriageEntry>& triage);
const TriageEntry* triage_of(const MutantRecord& record, const std::vector<TriageEntry>& triage);

std::string report_markdown(const RunSummary& run, const std::vector<MutantRecord>& records,
                            const std::vector<TriageEntry>& triage);
nlohmann::json report_json(const RunSummary& run, const std::vector<MutantRecord>& records,
                           const std::vector<TriageEntry>& triage);

// One mutant's entry in report_json and in a campaign journal, and back; mutant_from_json throws
// std::runtime_error naming what it cannot read. A record without "ownBuild" was made by a run
// before the schema build when `own_build_by_default`.
nlohmann::json mutant_json(const MutantRecord& record, const std::vector<TriageEntry>& triage);
MutantRecord mutant_from_json(const nlohmann::json& mutant, bool own_build_by_default);

// A run read back from its report_json (to render it again with a newer triage); throws
// std::runtime_error naming the first field it cannot read.
struct RecordedRun {
  RunSummary summary;
  std::vector<MutantRecord> records;
};
RecordedRun read_report_json(const nlohmann::json& report);

// Choosing mutants by an earlier run. A recorded mutant and a candidate are the same mutation when
// file, operator and text agree (line numbers move as the source is edited).
// Several runs as one (shards, time-limited slices): records concatenated, a mutant in two of
// them keeping the later record; counts and times summed.
RecordedRun merge_runs(const std::vector<RecordedRun>& runs);

// The same mutation: file, operator and text agree (line numbers move as the source is edited).
bool same_mutation(const Candidate& a, const Candidate& b);

std::vector<Candidate> survivors_among(const std::vector<Candidate>& candidates, const RecordedRun& recorded);
std::vector<Candidate> not_run_in(std::vector<Candidate> candidates, const RecordedRun& recorded);

}  // namespace skipsound::mutation
