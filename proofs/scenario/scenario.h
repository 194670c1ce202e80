// Scenario files: a table, its committed history, concurrent transactions, the order in which
// they try to commit and the verdict expected for each, replayed through the operations, the
// conflict checker and the serial oracle. The format is scenario_format() (printed by
// `skipsound scenario --help` and quoted in docs/scenario-language.md).
#pragma once
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "checker/conflict_checker.h"
#include "model/mutants/mutant.h"
#include "model/table/operations.h"
#include "model/table/table.h"
#include "model/table/transaction.h"
#include "proofs/scenario/commit_sequence.h"
#include "proofs/scenario/live_stats_audit.h"
#include "proofs/scenario/schedule_verdict.h"

namespace skipsound {

// The scenario language, as `skipsound scenario --help` prints it.
const std::string& scenario_format();

struct ScenarioTransaction {
  std::string name;
  std::vector<Operation> operations;
  WriterSettings settings;
  std::optional<int64_t> start_version;  // `T3 @v1`; else the latest version where it is declared
  bool history_step = false;             // a `step:` line: runs and commits where it is written
  size_t bound_width = 0;                // columns its operations were bound against
  // `RESTORE TO VERSION n`, by operation index: that operation's restore_to is filled from
  // version n of the log when the transaction runs, the only time that version's files are known.
  std::map<size_t, int64_t> restore_versions;
  int line = 0;  // the line where it first appears: errors found only when it runs name it
};

// The file, in order: a transaction is declared (its snapshot is the latest version then,
// unless it names one) or tries to commit.
struct TimelineEvent {
  enum class Kind { Declare, Commit };
  Kind kind = Kind::Declare;
  size_t transaction = 0;
};

struct ExpectedVerdict {
  VerdictKind kind = VerdictKind::SerializableCommit;
  std::optional<ConflictKind> exception;  // for abort and false-conflict
  std::optional<std::string> winner;      // `by T1`: the commit it conflicts with
  std::optional<std::string> file;        // `on T1-1`: the path the conflict names
};
std::string expected_verdict_text(const ExpectedVerdict& v);  // "abort ConcurrentAppendException by T1"

// `expect T2 keeps from T1: T1-3, T1-4`: the winner's added files the append check keeps.
struct ExpectedSurvivors {
  size_t loser = 0;
  size_t winner = 0;
  std::vector<std::string> files;  // sorted
};

// `expect dv f0: 10, 20` or `expect dv f0: cardinality 2`: the DV the live add of that path
// carries at the end (docs/semantics.md §10.2).
struct ExpectedDv {
  std::string path;
  std::optional<DeletedRows> positions;  // sorted; empty: no DV
  std::optional<size_t> cardinality;     // instead of the positions
};

// What a file says about the findings of its run (the judgement of proofs/explorer/explorer.h
// judge_run: missed conflicts, wrong results, unjustified conflict-time skips, errors the conflict
// filter hid, log read-backs). Whatever it says, a finding an `expect T:` line names
// (`missed-conflict`, `wrong-result`) is judged by that line.
enum class FindingExpectation {
  Unstated,  // any other finding fails the file
  None,      // `expect findings: none`: the same, said outright (what `gate --out` writes)
  Killed,    // `expect mutant: killed`: the run must show a finding, and every finding is expected
};

struct Scenario {
  std::string source;  // file name, for reports
  Table table;         // the initial table (version 0)
  std::vector<ScenarioTransaction> transactions;  // history steps included
  std::vector<TimelineEvent> timeline;
  ConflictCheckOptions options;
  Mutant mutant = Mutant::None;    // `mutant:`; the run injects it (model/mutants/fault_injection.h)
  LogReplay log = LogReplay::Off;  // `log: replayed` or `log: directory` (proofs/scenario/log_mirror.h)
  std::map<size_t, ExpectedVerdict> expected;  // by transaction index
  std::vector<ExpectedSurvivors> expected_survivors;
  std::optional<std::vector<Row>> expected_table;  // `expect table:` the final live rows
  std::vector<ExpectedDv> expected_dvs;
  FindingExpectation findings = FindingExpectation::Unstated;

  // The transactions of the `commit:` lines, in order (history steps excluded).
  std::vector<size_t> commit_order() const;
};

// Throws InputError "<source>:<line>: ..." on any malformed directive. `mutant`, when given, runs
// the file under that mutant instead of the one its `mutant:` line names (`--mutant none`).
Scenario parse_scenario(std::string_view text, const std::string& source,
                        std::optional<Mutant> mutant = std::nullopt);
Scenario load_scenario(const std::string& path, std::optional<Mutant> mutant = std::nullopt);

// A winner's added file that a conflict check excluded although a row it holds (a live row) or
// may hold (the oracle's witness) matches one of the loser's reads: the file it should have kept.
struct WrongExclusion {
  size_t loser = 0;   // transaction indexes
  size_t winner = 0;
  std::string path;
  std::string read;              // the read the witness matches, as SQL
  std::optional<Row> witness;    // none when the oracle calls the file's stats impossible
  std::string witness_source;    // "live row 2 of T1-1", "Z3"
};

// A finding of a judged run, as proofs/explorer/explorer.h judge_run reports it.
struct RunFinding {
  std::string headline;  // "UNJUSTIFIED SKIP: T1's check against T2 excluded T2-1, but Z3 finds ..."
  std::string detail;    // for a skip: the read, the filter's reason and the oracle's answer
  std::optional<size_t> transaction;  // whose verdict it is (a missed conflict, a wrong result)
  bool expected = false;              // the file expects it (Scenario::findings, an `expect T:` line)
  // An unjustified skip's file; for a missed conflict, an excluded file holding a live row one of
  // the loser's reads matches (none when the conflict was missed elsewhere).
  std::optional<WrongExclusion> exclusion = {};
};

struct ScenarioRun {
  std::vector<Transaction> transactions;  // by scenario index; each run on its snapshot
  ScheduleRun schedule;
  std::vector<TransactionVerdict> verdicts;
  std::vector<std::string> mismatches;  // one line per expectation not met; once judged, one per
                                        // finding the file does not expect
  std::vector<RunFinding> findings;     // filled when the run is judged (explorer.h)
  std::vector<LiveStatsFinding> stats_audit;  // stats claims the live rows refute, after every commit

  const TransactionVerdict* verdict_of(size_t transaction) const;
};

// The conflict checks whose conflict filter kept every file because of an exception that is not
// a declared input error (Delta's contract, but in the harness it hides a bug): one line each,
// "T2 vs T1: <the exception>".
std::vector<std::string> unexpected_errors(const ScheduleRun& schedule,
                                           const std::vector<Transaction>& transactions);

// Walks the timeline: runs each transaction on its snapshot, commits it when the timeline says
// so, judges every attempt with the serial oracle and checks the `expect T:`, `keeps from`, table
// and DV expectations; its findings are judged apart (proofs/explorer/explorer.h
// run_judged_scenario). Throws InputError "<source>:<line>: ..." (the transaction's first line)
// when a transaction starts at a version the table has not reached or restores one its snapshot
// has not, removes a file its snapshot does not have, or an operation refuses its snapshot (e.g.
// DROP FEATURE of a feature the table lacks).
ScenarioRun run_scenario(const Scenario& scenario);

}  // namespace skipsound
