// Scenario files: a table, concurrent transactions, a commit order and the verdict expected for
// each transaction, replayed through the operations, the conflict checker and the serial oracle.
//
// Format (one directive per line; blank lines and lines starting with '#' are ignored;
// keywords are case-insensitive; table directives come before the first `file` line):
//
//   schema: id long, x int, p string        columns and Spark SQL types (top-level only)
//   partitioned by: p                       partition columns, comma-separated
//   property numIndexedCols: 0              delta.dataSkippingNumIndexedCols (default 32, -1 all)
//   property statsColumns: id, x            delta.dataSkippingStatsColumns
//   property deletionVectors: on            DML writes deletion vectors (default off: copy-on-write)
//   property isolation: WriteSerializable   Serializable (default) or WriteSerializable
//   flag conflictDataSkipping: off          the seeds' feature (default on)
//   mutant: append-suppression              a named unsound variant (default none); it acts
//                                           wherever its code runs: the checker's scans and
//                                           conflict checks, and the stats every file (initial
//                                           or written by a transaction) is given
//
//   file f1: [{"id": 1, "x": 5}]            an initial file with its rows as JSON objects
//   file f2 nostats: range id 0 100 {"x":3} rows id = 0..99 (other columns from the object,
//                                           else NULL); `nostats`: written without stats
//   file f3 deleted=2,3: [...]              with a deletion vector over physical rows 2 and 3
//                                           (needs deletionVectors on): stats widened as Delta
//                                           widens them when it attaches a DV
//
//   T1: UPDATE SET x = 15 WHERE id = 1      a transaction and one operation; more lines with the
//   T2 [whole-table-read]: DELETE WHERE x > 10   same name add more scans (at most one write).
//                                           Options in brackets: whole-table-read (also records
//                                           a whole-table read), not-blind (commit info says
//                                           isBlindAppend=false), no-stats (writes without stats),
//                                           blind-unknown (commit info without isBlindAppend)
//   Operations (predicates in the SQL syntax of model/sql/parser.h):
//     INSERT <rows>                         rows as in `file`: a JSON array or `range ...`
//     SELECT [WHERE <predicate>]            a read only
//     DELETE [WHERE <predicate>]
//     UPDATE SET c = <expr>[, ...] [WHERE <predicate>]
//     MERGE ON <key column> USING <rows>    upsert: matched rows replaced, the rest inserted
//     OPTIMIZE                              compaction
//     OPTIMIZE CLUSTER BY <column> [ROWS PER FILE <n>]
//
//   commit: T1, T2                          the order in which they try to commit; every
//                                           transaction starts from the initial table
//   expect T1: commit                       commit | wrong-result | missed-conflict |
//   expect T2: abort ConcurrentAppendException   abort <Exception> | false-conflict <Exception>
#pragma once
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "checker/conflict_checker.h"
#include "model/table/operations.h"
#include "model/table/table.h"
#include "model/table/transaction.h"
#include "proofs/commit_sequence.h"
#include "proofs/schedule_verdict.h"

namespace skipsound {

struct ScenarioTransaction {
  std::string name;
  std::vector<Operation> operations;
  WriterSettings settings;
};

struct ExpectedVerdict {
  VerdictKind kind = VerdictKind::SerializableCommit;
  std::optional<ConflictKind> exception;  // for abort and false-conflict
  bool operator==(const ExpectedVerdict& o) const = default;
};
std::string expected_verdict_text(const ExpectedVerdict& v);  // "abort ConcurrentAppendException"

struct Scenario {
  std::string source;  // file name, for reports
  Table table;
  std::vector<ScenarioTransaction> transactions;
  std::vector<size_t> commit_order;
  ConflictCheckOptions options;
  std::map<size_t, ExpectedVerdict> expected;  // by transaction index
};

// Throws InputError "<source>:<line>: ..." on any malformed directive.
Scenario parse_scenario(std::string_view text, const std::string& source);
Scenario load_scenario(const std::string& path);

struct ScenarioRun {
  std::vector<Transaction> transactions;
  ScheduleRun schedule;
  std::vector<TransactionVerdict> verdicts;
  std::vector<std::string> mismatches;  // one line per transaction whose verdict differs, and
                                        // one per unexpected error inside the checker

  const TransactionVerdict* verdict_of(size_t transaction) const;
};

// The conflict checks whose conflict filter kept every file because of an exception that is not
// a declared input error (Delta's contract, but in the harness it hides a bug): one line each,
// "T2 vs T1: <the exception>".
std::vector<std::string> unexpected_errors(const ScheduleRun& schedule,
                                           const std::vector<Transaction>& transactions);

// Runs the transactions on the initial table, commits them in order and judges every attempt.
ScenarioRun run_scenario(const Scenario& scenario);

}  // namespace skipsound
