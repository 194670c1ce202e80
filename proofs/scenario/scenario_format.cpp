// The scenario language's format text: the one description of the syntax, printed by `skipsound
// scenario --help` and quoted in docs/scenario-language.md.
#include "proofs/scenario/scenario.h"

#include "proofs/oracles/serial_oracle.h"

namespace skipsound {

const std::string& scenario_format() {
  static const std::string kFormat = R"FORMAT(Format (one directive per line; blank lines and lines starting with '#' are ignored; keywords
are case-insensitive; the file is a timeline, read top to bottom):

 The table (before the first file, step or transaction)
  schema: id long, x int, p string        columns and Spark SQL types (top-level only)
  partitioned by: p                       partition columns, comma-separated
  property numIndexedCols: 0              delta.dataSkippingNumIndexedCols (default 32, -1 all)
  property statsColumns: id, x            delta.dataSkippingStatsColumns
  property deletionVectors: on            DML writes deletion vectors (default off: copy-on-write)
  property isolation: WriteSerializable   Serializable (default) or WriteSerializable
  property delta.appendOnly: false        any other delta.* key: kept in the configuration
  flag conflictDataSkipping: off          the seeds' feature (default on)
  flag valueExact: off                    docs/semantics.md §10's tiers: valueExact (§10.1,
  flag rowLevelConcurrency: off           default on), rowLevelConcurrency (Case 2, §10.2,
  flag removedRows: on                    on), removedRows (Case 1b, §10.3, off),
  flag excludeNoDataChangeFiles: on       excludeNoDataChangeFiles (Case 3, §10.4, off)
  log: replayed                           every commit is also written as Delta log text and the
                                          log replayed by the production reader: the checker
                                          sees a winner's files as the reader made them, and a
                                          replay that differs from the model is a finding
  log: directory                          the same, but the commits are files of a table
                                          directory of the run's own (each with the `.crc`
                                          file Delta writes beside it), loaded as `--table`
                                          loads one, at the latest version and, by time
                                          travel, the one before it; a warning is a finding
  mutant: append-suppression              a named unsound variant (default none); it acts
                                          wherever its code runs: the checker's scans and
                                          conflict checks, and the stats every file is given

 Initial files (version 0)
  file f1: [{"id": 1, "x": 5}]            a file with its rows as JSON objects
  file f2 nostats: range id 0 100 {"x":3} rows id = 0..99 (other columns from the object,
                                          else NULL); `nostats`: written without stats
  file f3 nostats=x,p: [...]              stats for every column but x and p
  file f4 deleted=2,3: [...]              with a deletion vector over physical rows 2 and 3
                                          (needs deletionVectors on), stats widened as Delta does
  stats f1: {"numRecords": 1, ...}        f1's stats replaced by raw Delta stats JSON

 History and transactions
  step: <operation>                       committed history: runs on the latest version and
                                          commits at once (named S1, S2, ... in reports)
  T1: UPDATE SET x = 15 WHERE id = 1      a transaction, started at the latest version where
                                          it first appears; more lines with the same name add
                                          operations (at most one data or ALTER operation)
  T3 @v1: DELETE WHERE x > 10             started at version 1
  T2 [whole-table-read]: DELETE           options in brackets: whole-table-read (also records
                                          a whole-table read), not-blind (commit info says
                                          isBlindAppend=false), no-stats (writes without
                                          stats), source-key-read (a MERGE also records
                                          t.k IN (source keys): tighter than Delta's read),
                                          blind-unknown (commit info without isBlindAppend),
                                          no-data-change (every file action says
                                          dataChange=false, whatever it does: breaks the
                                          precondition of Case 3, docs/semantics.md §10.4),
                                          seed=<n> (rand() without a seed of its own draws
                                          from n, per file and live row; default 0)
  Operations (predicates in the SQL syntax of model/sql/parser.h):
    INSERT <rows> [ROWS PER FILE <n>]     rows as in `file`: a JSON array or `range ...`;
                                          one file per n rows (and per partition)
    SELECT [WHERE <predicate>]            a read only
    DELETE [WHERE <predicate>]
    UPDATE SET c = <expr>[, ...] [WHERE <predicate>]
    INSERT SELECT [SET c = <expr>, ...] [WHERE <predicate>]
                                          appends a copy of each row WHERE matches, SET's
                                          columns replaced: INSERT INTO t SELECT ... FROM t
    RESTORE TO VERSION <n>                back to version n's live files, (path, DV) each
                                          (DVs may shrink); records a whole-table read
    MERGE USING <rows> ON <condition>     target columns as t.c, source columns as s.c (the
      WHEN MATCHED [AND <cond>] THEN      source has the table's columns); clauses in order:
        UPDATE SET c = <expr>, ... | UPDATE SET * | DELETE
      WHEN NOT MATCHED [AND <cond>] THEN
        INSERT * | INSERT (c, ...) VALUES (<expr>, ...)
                                          records ON's target-only conjuncts (and, MATCHED
                                          clauses only, the OR of theirs), as Delta does
    MERGE ON <key> USING <rows>           upsert: ON t.key = s.key, UPDATE SET *, INSERT *
    OPTIMIZE [FILES f1, f2]               compaction, of the named files only with FILES
    OPTIMIZE [FILES ...] CLUSTER BY <column> [ROWS PER FILE <n>]
    ALTER TABLE SET TBLPROPERTIES ('k' = 'v', ...)   a metaData action; delta.feature.<f> =
                                          supported and delta.min{Reader,Writer}Version add a
                                          protocol action
    ALTER TABLE ADD COLUMNS (c type, ...) columns at the end; earlier rows read them as NULL
    ALTER TABLE DROP FEATURE <feature>    a protocol action without the feature
    ADD FILE <name> [NOSTATS] [<rows>]    an explicit add action (no rows: an empty file)
    REMOVE FILE <name>                    an explicit remove of a live file, nothing read
    SET TXN <app id> VERSION <n>          reads the app id's version, commits txn(app id, n)
    SET DOMAIN <domain> [<JSON>]          commits domainMetadata(domain, configuration)

 Commits and expectations
  commit: T1, T2                          they try to commit, in this order, here on the
                                          timeline; more commit lines may follow
  expect T1: commit                       commit | wrong-result | missed-conflict |
  expect T2: abort ConcurrentAppendException   abort <Exception> | false-conflict <Exception>,
  expect T3: abort ConcurrentAppendException by T1 on T1-1   optionally naming the winner
                                          and the file the exception names
  expect T2 keeps from T1: T1-3, T1-4     the winner's added files T2's append check keeps
  expect table: <rows>                    the live rows at the end, as a multiset
  expect dv f0: 10, 20                    the one live add of f0 at the end has exactly this
                                          DV (physical positions; `none`: no DV)
  expect dv f0: cardinality 2             ... or a DV of that many positions

 Findings (every run is judged as the explorer judges a trial: the serial oracle's missed
 conflicts and wrong results, every conflict-time skip put to the per-file oracle, an error the
 conflict filter hid behind a keep, a log that reads back otherwise; each fails the file unless
 an `expect T:` line above names it or the file expects it here)
  expect findings: none                   says so outright: what `gate --out` writes, so that a
                                          saved finding fails while the bug is there
  expect mutant: killed                   the run must show a finding under the file's mutant,
                                          and every finding is expected: a pinned kill
)FORMAT";
  return kFormat;
}

std::string expected_verdict_text(const ExpectedVerdict& v) {
  std::string text = verdict_kind_name(v.kind);
  if (v.exception) text += std::string(" ") + exception_name(*v.exception);
  if (v.winner) text += " by " + *v.winner;
  if (v.file) text += " on " + (v.file->empty() ? std::string("(no file)") : *v.file);
  return text;
}

}  // namespace skipsound
