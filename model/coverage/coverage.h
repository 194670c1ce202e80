// What a run reached: one counter per docs/semantics.md rule and path the gate must exercise —
// the §4 writer rules and reader paths, the §5 skipping rules (with how often each took part in a
// skip), verification and conflict-time guards, the §7 checks and isolation levels, the §6 oracle
// outcomes. The code under test bumps them where the rule is applied; the gate reads the totals
// before and after its run and fails on a required row it never reached (proofs/gate/gate_coverage.h).
//
// Counters are relaxed atomics: cheap on the hot paths, safe from every worker thread, and their
// totals are deterministic whenever the work is (the gate's is, for a seed and a trial budget).
#pragma once
#include <cstdint>
#include <span>
#include <vector>

namespace skipsound::coverage {

enum class Probe : uint16_t {
  // §4 writer
  WriterFile,
  WriterNullCount,
  WriterAbsentLeaf,
  WriterMinMax,
  WriterNoMinMaxForType,
  WriterNotIndexed,
  WriterStatsColumns,
  WriterPartitionColumn,
  WriterTimestampFloor,
  WriterStringMinPrefix,
  WriterStringMaxTieBreak,
  WriterStringMaxOmitted,
  WriterNaNMax,
  WidenForDv,
  WidenNullCountAllNull,
  WidenAlreadyWide,
  // §4 reader
  ReaderStatsText,
  ReaderPhysicalNames,
  ReaderUnknownKey,
  ReaderDecimalString,
  ReaderDecimalNumber,
  ReaderTimestampOffset,
  ReaderSpecialFloat,
  ReaderTimestampMaxBump,
  ReaderWideNullCount,
  LogRemoveReconciled,
  LogDeletionVector,
  LogDirectory,
  LogEarlierVersion,
  PartitionValueNull,
  PartitionValueTyped,
  // §5 builder rules, in the order of the table
  RuleLiteralsOnly,
  RuleAnd,
  RuleAndOneSide,
  RuleOr,
  RuleNotJunction,
  RuleNotNot,
  RuleIsNull,
  RuleIsNotNull,
  RuleExprIsNull,
  RuleJunctionIsNull,
  RuleBareBoolean,
  RuleEq,
  RuleNe,
  RuleRange,
  RuleLiteralLeft,
  RuleNotCompare,
  RuleNullSafeEq,
  RuleNullSafeNull,
  RuleNotNullSafeEq,
  RuleStartsWith,
  RuleIn,
  RuleInAllNull,
  RuleBetween,
  RuleNoneOther,
  RuleNoMinMax,
  // §5 verification, keep rule, filters and conflict time
  VerifyMissingStat,
  VerifyAllNullPasses,
  KeepExpressionTrue,
  SkipDecided,
  KeepEvaluationError,
  FilterIneligibleDropped,
  FilterPartition,
  ConflictWholeTableRead,
  ConflictNoReadPredicate,
  ConflictSeveralReads,
  ConflictReadWithoutFilter,
  ConflictPartitionStep,
  ConflictFlagOff,
  ConflictErrorKeepsAll,
  // §7 checks and isolation
  CheckProtocol,
  CheckProtocolConflict,
  CheckMetadata,
  CheckMetadataConflict,
  CheckTransactions,
  CheckTransactionsConflict,
  CheckAppend,
  CheckAppendBlindLoser,
  CheckAppendConflict,
  CheckDeleteRead,
  CheckDeleteReadConflict,
  CheckDeleteDelete,
  CheckDeleteDeleteConflict,
  Case3ReadsFollowCompaction,
  IsolationSerializable,
  IsolationWriteSerializable,
  IsolationWriteSerializableBlindWinner,
  IsolationSnapshot,
  // §6 oracle outcomes
  OutcomeKept,
  OutcomeMissedSkip,
  OutcomeSoundSkip,
  OutcomeSkipUnconfirmed,
  OutcomeUnsoundSkip,
  OutcomeSkipWithoutProof,
  OutcomeWitnessRejected,
  OutcomeOracleError,
  SerialCommit,
  SerialCommitOtherOrder,
  SerialAbort,
  SerialFalseConflict,
  SerialMissedConflict,
  SerialWrongResult,
  Count,  // not a probe
};

inline constexpr size_t kProbeCount = static_cast<size_t>(Probe::Count);

// Whether the default gate must reach a row: Required ones fail it when never hit; Finding rows
// are oracle outcomes that only a bug (the mutant matrix's) produces; Unreachable rows are listed
// with why the gate's generators cannot reach them.
enum class Need { Required, Finding, Unreachable };

struct ProbeInfo {
  Probe probe;
  const char* section;  // "§4 writer", "§5 rule", ...
  const char* name;     // what was reached
  Need need = Need::Required;
  const char* why = "";  // for Unreachable rows
};

std::span<const ProbeInfo> probe_catalogue();  // every probe, in enum order

void hit(Probe p);
// A §5 rule took part in a skipping expression that skipped a file.
void decided_skip(Probe p);

struct Counts {
  std::vector<uint64_t> hits;   // by probe
  std::vector<uint64_t> skips;  // by probe (§5 rules only)
  Counts since(const Counts& earlier) const;  // this minus earlier
};
Counts snapshot();

}  // namespace skipsound::coverage
