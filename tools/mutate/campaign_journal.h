// A campaign's journal (docs/mutation.md, "Resumable campaigns"): every mutant's record is
// appended, one JSON line, the moment it is judged, so a run stopped by --time-limit, a signal or
// a power cut loses at most the mutant it was running, and `--resume` continues it: the
// journal's records are taken as done and the plan runs the rest.
#pragma once
#include <string>
#include <vector>

#include "tools/mutate/mutation_report.h"

namespace skipsound::mutation {

class CampaignJournal {
 public:
  // The journal at `path`; when `resume`, with the records already in it (a torn last line, from
  // a run killed while writing it, is dropped). Throws std::runtime_error naming the line it
  // cannot read.
  CampaignJournal(std::string path, bool resume);

  // Empties the journal for a new campaign (not on --resume; nor for --list, which runs nothing).
  void start_afresh();

  const std::vector<MutantRecord>& earlier() const { return earlier_; }
  // The wall time of the sessions before this one (each up to its last record), and the CPU time
  // their builds and gates took.
  double earlier_wall_seconds() const { return earlier_wall_seconds_; }
  double earlier_cpu_seconds() const { return earlier_cpu_seconds_; }
  // Appends and flushes one record, judged `session_seconds` into this session, whose builds and
  // gates have taken `session_cpu_seconds` of CPU so far.
  void append(const MutantRecord& record, double session_seconds, double session_cpu_seconds);

 private:
  std::string path_;
  std::vector<MutantRecord> earlier_;
  double earlier_wall_seconds_ = 0;
  double earlier_cpu_seconds_ = 0;
  size_t session_ = 0;
};

}  // namespace skipsound::mutation
