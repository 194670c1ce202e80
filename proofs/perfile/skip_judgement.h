// Judging one file's KEEP/SKIP decision — skipsound's own or another engine's — with the Z3
// oracle (docs/semantics.md §6.1: a skip is sound only when Z3 proves that no row consistent with the file's
// stats makes the predicate TRUE), and reporting it: one line per file, and for an unsound skip
// an Alive2-style block (docs/semantics.md §9).
#pragma once
#include <array>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "checker/file_decision.h"
#include "smt/oracle_result.h"
#include "smt/oracle_stats_reader.h"

namespace skipsound::cli {

// A decision judged on the stats alone, as `skipsound check` sees a file: Z3's answer decides.
// per_file_properties.h's DecisionOutcome judges generated files whose rows are known as well, so
// it separates a skip a live row refutes from one only Z3 refutes, rejects Z3 witnesses the rows
// disprove, and counts skips Z3 was not asked about: a finer classification, not the same one.
enum class Judgement {
  ProvedSkip,     // skipped, and Z3 proved it
  Keep,           // kept, and Z3 found a row that may match
  MissedSkip,     // kept although no consistent row can match: a cost, not a bug
  UnsoundSkip,    // skipped, but Z3 found a (re-checked) consistent row that matches
  Unknown,        // Z3 could not decide; never a licence to skip
  InternalError,  // Z3 and the Z3-free re-check disagree: a bug in skipsound
  // No writer produces the file's stats (under the string prefix length in use), so no row can be
  // in it: a skip is not unsound, a keep not a miss. Reported, never a finding: the stats come
  // from outside (or the prefix length given does not match the writer's).
  ImpossibleStats,
  // The oracle's own reading of the stats text (smt/oracle_stats_reader.h) differs from the
  // production reader's: whatever was decided, it was decided on values the text does not hold.
  Decode,
};
inline constexpr int kJudgementCount = 8;
const char* judgement_name(Judgement j);  // "proved skip", "keep", ..., "UNSOUND SKIP", "impossible stats", "DECODE"
// Unsound skips, decode differences and internal errors fail a run (exit status 1).
bool is_finding(Judgement j);

Judgement judge(FileVerdict decision, const smt::OracleResult& oracle);
// As above, but Decode when the two readers read the stats differently.
Judgement judge(FileVerdict decision, const smt::OracleResult& oracle, const std::vector<smt::DecodeDifference>& decode);

// One file's decision as it was taken and judged.
struct JudgedFile {
  std::string name;       // the file's path, or "line N" of a decisions file
  std::string predicate;  // as given
  const Schema* schema = nullptr;
  const FileStats* stats = nullptr;  // nullptr: the file has no stats
  FileVerdict decision = FileVerdict::Keep;
  std::string decided_by;            // "skipsound", "skipsound (mutant le-as-lt)", "the judged engine"
  FileDecision production;           // skipsound's own decision, with expression and evaluation
  smt::OracleResult oracle;                 // on the oracle's own reading of the stats
  Judgement judgement = Judgement::Unknown;
  std::vector<smt::DecodeDifference> decode;  // where the production reader read the text differently
};

// "SKIP, proved (stats.x.max = 20; pred: x > 30)", "KEEP (a row may match: {"x":25})",
// "KEEP, missed skip (no row can match: …)", "UNSOUND SKIP (witness row {"x":30})",
// "UNKNOWN (z3: timeout)", "IMPOSSIBLE STATS (SKIP not judged: no writer stores …)",
// "DECODE (maxValues.d: written …, the oracle reads …, the production reader …; SKIP, proved … on the oracle's reading)".
std::string judgement_line(const JudgedFile& file);

// The line, and for an unsound skip the Alive2-style report: headline, predicate, the file's
// stats, the witness row, the skipping expression and how it evaluated, and a one-line verdict.
void print_judged_file(std::ostream& out, const JudgedFile& file);
nlohmann::json judged_file_json(const JudgedFile& file);

class JudgementTally {
 public:
  void add(Judgement j) { ++counts_[static_cast<size_t>(j)]; }
  int count(Judgement j) const { return counts_[static_cast<size_t>(j)]; }
  bool has_finding() const;
  // "Summary: 3 files: 1 proved skip, 1 keep, 0 missed skip, 1 UNSOUND SKIP, 0 unknown"
  std::string summary_line() const;
  nlohmann::json json() const;

 private:
  std::array<int, kJudgementCount> counts_{};
};

}  // namespace skipsound::cli
