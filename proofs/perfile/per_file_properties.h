// The per-file soundness properties (docs/semantics.md §6.1), reusable by the RapidCheck suites, the corpus
// replayer and `skipsound explore`:
//   * ground truth: no live row of a skipped file makes the predicate TRUE (no solver);
//   * production skip => Z3 Unsat; a kept file Z3 proves skippable is a missed skip (a cost);
//   * every Z3 witness is re-validated by the model (evaluator TRUE, stats consistency);
//   * collected stats are consistent with the rows they came from (audit_stats).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "checker/scan_filter.h"
#include "generators/file_case.h"
#include "generators/file_gen.h"
#include "generators/schema_gen.h"
#include "model/sql/expr.h"
#include "model/mutants/mutant.h"
#include "proofs/perfile/per_file_log.h"
#include "smt/oracle.h"

namespace skipsound {

// ---- Stats audit: the claim next to the data (DuckDB's Verify(stats, rows) idea) ----

struct StatsMismatch {
  std::string claim;  // "max(c1) = 'ab'"
  std::string data;   // "row 2 (live): c1 = 'abc', above the max"
};

struct StatsAudit {
  Consistency verdict = Consistency::Consistent;
  std::vector<StatsMismatch> mismatches;
  std::string render() const;  // a two-column table, one mismatch a line
};

// Bounds must contain every live value (a timestamp max up to 999 µs below it, a string max
// possibly truncated above it); numRecords counts physical rows; nullCount is exact for tight
// stats without a DV and a tri-state (all / none / unknown) otherwise (docs/semantics.md §4.6).
StatsAudit audit_stats(const Schema& schema, const generators::GeneratedFile& file);

// ---- One (predicate, file) decision checked against the oracles ----

// With the file's rows known; skip_judgement.h's Judgement is the stats-only classification.
enum class DecisionOutcome {
  Kept,              // kept; Z3 found a re-validated witness, or was not asked
  MissedSkip,        // kept although Z3 proved no consistent row matches: a cost, not a bug
  SoundSkip,         // skipped; no live row matches and Z3 proved it (or was not asked)
  SkipUnconfirmed,   // skipped, no live row matches, Z3 answered Unknown
  UnsoundSkip,       // skipped, but a live row makes the predicate TRUE
  SkipWithoutProof,  // skipped, and Z3 found a row consistent with the stats that matches
  WitnessRejected,   // a Z3 witness fails the model's re-check: an oracle or model bug
  OracleError,       // the oracle disagrees with itself, or calls the writer's stats impossible
};
const char* outcome_name(DecisionOutcome o);  // "kept", "missed-skip", "UNSOUND SKIP", ...
// Unsound skips, skips Z3 refutes, rejected witnesses and oracle errors.
bool is_finding(DecisionOutcome o);

// Sampled: every skip, and the first kept decision of each case (keeps are many and cheap to
// get right; the sample still measures missed skips and re-validates witnesses).
enum class OracleUse { Never, SkipsOnly, Sampled, Always };

struct PerFileOptions {
  Mutant mutant = Mutant::None;  // the production logic's (and writer's) mutant
  OracleUse oracle_use = OracleUse::Always;
};

struct DecisionCheck {
  DecisionOutcome outcome = DecisionOutcome::Kept;
  ScanFileOutcome production;                // the checker's verdict with its explanation
  std::optional<smt::OracleResult> oracle;   // absent when not asked
  std::string oracle_smt2;                   // the query, when the oracle records it (record_smt2)
  std::optional<Row> witness;                // the row that refutes a skip, or Z3's row
  std::string witness_source;                // "live row 3", "Z3"
  std::string witness_problem;               // why a Z3 witness was rejected
  bool rows_not_evaluable = false;           // some live row made the evaluator give up
};

// `oracle` may be null (ground truth only). `predicate` is bound against the table's schema. The
// production decision reads the file from its log (proofs/perfile/per_file_log.h): `read` is that
// read-back, computed when not given.
DecisionCheck check_decision(const generators::TableShape& table, const generators::GeneratedFile& file,
                             const ExprPtr& predicate, smt::Oracle* oracle, const PerFileOptions& options);
DecisionCheck check_decision(const generators::TableShape& table, const generators::GeneratedFile& file,
                             const LogReadBack& read, const ExprPtr& predicate, smt::Oracle* oracle,
                             const PerFileOptions& options);

// Every predicate of a generated case, plus the audit of its stats against its rows and the
// comparison of its log's read-back with what was written.
struct CaseCheck {
  StatsAudit audit;
  LogReadBack log;
  std::vector<DecisionCheck> decisions;  // by predicate
  std::optional<size_t> first_finding;   // index into decisions
  bool stats_inconsistent() const { return audit.verdict == Consistency::Inconsistent; }
  bool failed() const { return stats_inconsistent() || !log.consistent() || first_finding.has_value(); }
};
CaseCheck check_case(const generators::FileCase& c, smt::Oracle* oracle, const PerFileOptions& options);

// What the oracle sees of a file: stats, DV cardinality, exact partition values.
FileEvidence file_evidence(const generators::TableShape& table, const generators::GeneratedFile& file);

// ---- Alive2-style finding ----

struct FindingOrigin {
  std::optional<uint64_t> seed;
  Mutant mutant = Mutant::None;
  std::string replay_command;  // e.g. "skipsound replay tests/corpus/files/x.json"
};

// A decision finding with everything render_finding shows, as data (the HTML report draws it).
struct DecisionFinding {
  std::string headline;  // render_finding's first line
  generators::TableShape table;
  generators::GeneratedFile file;
  ExprPtr predicate;
  DecisionCheck check;
  FindingOrigin origin;
};
// The headline of a decision outcome: "UNSOUND SKIP: ..." as render_finding's first line.
std::string decision_headline(DecisionOutcome outcome);

std::string render_finding(const generators::TableShape& table, const generators::GeneratedFile& file,
                           const ExprPtr& predicate, const DecisionCheck& check, const FindingOrigin& origin);

// The whole failure of a case: the stats audit table, the log read-back's differences and/or
// the first decision finding, each with the rows, the stats and where it came from.
std::string render_case_failure(const generators::FileCase& c, const CaseCheck& check, const FindingOrigin& origin);
// The file alone: schema, rows, stats, its log, mutant, seed and replay command.
std::string render_file(const generators::TableShape& table, const generators::GeneratedFile& file,
                        const LogReadBack& log, const FindingOrigin& origin);

}  // namespace skipsound
