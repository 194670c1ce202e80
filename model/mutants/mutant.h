// Named, known-unsound variants of the production logic (docs/semantics.md §8), switchable at run time.
// Each is a one-line deviation inside the real code path, never a copy of it. This file is their
// one catalogue: each mutant's name, the real bug class it stands for and the code paths it
// changes (a per-file mutant changes the concrete code and the symbolic mirror the rule theorems
// encode, so both switch on it).
#pragma once
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace skipsound {

enum class Mutant {
  None,
  SkipMissingStats,
  TrustWideNullcount,
  NoTimestampMaxBump,
  StringMaxPlainPrefix,
  IeeeNanOrder,
  LeAsLt,
  AppendSuppression,
  AndAcrossReads,
  SkipWholeTableRead,
  EmptyReadsSkipAll,
  DecimalStatsUnscaled,
  DecimalStatsAsDouble,
  TimestampOffsetAsUtc,
  StatsByLogicalName,
  PartitionNullAsEmpty,
  RemoveByPathOnly,
  RemoveIgnoresDv,
  AbsentLeafNullcountZero,
  WideningCountsNewDv,
  SnapshotIgnoresDatachange,
  UnknownBlindAsBlind,
  DeleteReadComparesDv,
  // docs/semantics.md §10.7: the row-level-concurrency tiers.
  Case2NoRepoint,
  Case2MergeOnOverlap,
  Case2BaseIsDvWin,
  Case2NoMonotonicity,
  Case2NonlocalLoser,
  Case1bWrongImage,
  Case1bCountDiff,
  NodatachangeDeleteDelete,
  Case3NoRepoint,
  ValueexactEmptyReadDrops,
  ValueexactAndAcrossReads,
  Case2NoBaseSubtract,
};

// Per-file mutants change one file's KEEP/SKIP (or the stats it was written with), in the
// concrete code and its symbolic mirror; input-path mutants change what a reader makes of the log
// text (stats, partition values, log replay) or what a writer records, so per-file cases that go
// through the log find them and the rule theorems cannot; conflict-time mutants change which
// files a conflict check looks at or which check runs; row-level mutants change the tiers of
// docs/semantics.md §10.1–§10.4 (value-exact, Case 2 DV union, Case 1b, Case 3) and are unsound; a liveness
// mutant is sound but aborts more (it must show as a higher false-conflict rate, never a missed
// conflict).
enum class MutantScope { PerFile, InputPath, ConflictTime, RowLevel, Liveness };

// The code paths a mutant may switch, each in one source file.
enum class CodePath {
  StatsWriter,        // the string max a writer records
  SkippingBuilder,    // the skipping expression built for a predicate
  StatsVerification,  // which stats a skip needs present
  SkipEvaluation,     // reading stats and comparing them
  ConflictFilter,     // which of a winner's files a loser's reads are checked against
  SymbolicWriter,     // the rule theorems' symbolic writer
  SymbolicDecision,   // the rule theorems' symbolic read, verification and comparison
  StatsReader,        // reading a stats JSON text into values
  NullCountWriter,    // the nullCount a writer records
  LogReplay,          // reconciling add and remove actions into live files
  PartitionValues,    // reading partition values from their text
  ConflictChecker,    // isolation, the order of the checks and the delete/read and delete/delete sets
  ValueExactTier,     // the row-reading tier on the stats survivors
  DvUnion,            // Case 2: same-file deletion-vector reconciliation
  RemovedRows,        // Case 1b: the delete/read check on the rows a winner removed
  DvWidening,         // the stats a DV DELETE, UPDATE or MERGE widens before it attaches the new DV
};

struct CodePathInfo {
  CodePath path;
  const char* name;    // "skip evaluation"
  const char* source;  // the file the switch lives in, from the source root
};

struct MutantInfo {
  Mutant mutant;
  const char* name;       // "skip-missing-stats", as on the command line
  MutantScope scope;
  const char* deviation;  // what the code does instead
  const char* bug_class;  // the real bug it stands for
  std::vector<CodePath> paths;
};

std::span<const MutantInfo> mutant_catalogue();  // every mutant except None
const MutantInfo& mutant_info(Mutant m);          // m != None
std::span<const CodePathInfo> code_paths();
const CodePathInfo& code_path_info(CodePath p);

const char* mutant_name(Mutant m);  // "append-suppression", ..., "none"
std::optional<Mutant> mutant_from_name(std::string_view name);  // "none" gives Mutant::None
// The one message for a name mutant_from_name does not know: "unknown mutant 'x'".
std::string unknown_mutant_message(std::string_view name);
const std::vector<Mutant>& all_mutants();  // every mutant except None, in catalogue order
bool is_per_file_mutant(Mutant m);
bool is_input_path_mutant(Mutant m);
bool is_conflict_mutant(Mutant m);  // conflict-time, row-level or liveness
// The names of the mutants in `scope` (or in a list), comma-separated, for help texts.
std::string mutant_names(MutantScope scope);
std::string mutant_names(const std::vector<Mutant>& mutants);

}  // namespace skipsound
