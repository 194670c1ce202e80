// skipsound-mutate's report: the mutation score, a table per operator and per file, and every
// survivor with its triage (tools/mutate/triage.json: equivalent, with why, or a gap), in
// Markdown for people and JSON for tools.
//
// Score = detected / (detected + survivors not triaged equivalent), where detected counts killed,
// timed-out and crashed mutants; build failures are not mutants and count nowhere.
#pragma once
#include <optional>
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
  double baseline_build_seconds = 0;
  double baseline_gate_seconds = 0;
  double wall_seconds = 0;
  bool stopped_by_time_limit = false;
};

struct Score {
  size_t detected = 0;
  size_t survived = 0;
  size_t equivalent = 0;   // survivors triaged equivalent
  size_t build_failures = 0;
  double percent() const;  // of non-equivalent mutants, detected; 100 when there are none
};

Score score_of(const std::vector<MutantRecord>& records, const std::vector<TriageEntry>& triage);
const TriageEntry* triage_of(const MutantRecord& record, const std::vector<TriageEntry>& triage);

std::string report_markdown(const RunSummary& run, const std::vector<MutantRecord>& records,
                            const std::vector<TriageEntry>& triage);
nlohmann::json report_json(const RunSummary& run, const std::vector<MutantRecord>& records,
                           const std::vector<TriageEntry>& triage);

// A run read back from its report_json (to render it again with a newer triage); throws
// std::runtime_error naming the first field it cannot read.
struct RecordedRun {
  RunSummary summary;
  std::vector<MutantRecord> records;
};
RecordedRun read_report_json(const nlohmann::json& report);

// Choosing mutants by an earlier run. A recorded mutant and a candidate are the same mutation when
// file, operator and text agree (line numbers move as the source is edited).
std::vector<Candidate> survivors_among(const std::vector<Candidate>& candidates, const RecordedRun& recorded);
std::vector<Candidate> not_run_in(std::vector<Candidate> candidates, const RecordedRun& recorded);

}  // namespace skipsound::mutation
