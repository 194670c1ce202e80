#include "model/coverage/coverage.h"

#include <array>
#include <atomic>

namespace skipsound::coverage {

namespace {

using enum Probe;

// docs/semantics.md §4–§7 as rows; the order is the enum's (checked by a test).
constexpr ProbeInfo kProbes[] = {
    {WriterFile, "§4 writer", "numRecords = rows"},
    {WriterNullCount, "§4 writer", "nullCount for an indexed leaf"},
    {WriterAbsentLeaf, "§4 writer", "a leaf absent from the data: nullCount = numRecords"},
    {WriterMinMax, "§4 writer", "min/max of a numeric, date, timestamp or string leaf"},
    {WriterNoMinMaxForType, "§4 writer", "no min/max for boolean, binary, arrays, maps"},
    {WriterNotIndexed, "§4 writer", "a leaf past numIndexedCols or outside statsColumns: no stats"},
    {WriterStatsColumns, "§4 writer", "dataSkippingStatsColumns overrides numIndexedCols"},
    {WriterPartitionColumn, "§4 writer", "partition columns get no stats"},
    {WriterTimestampFloor, "§4 writer", "timestamps floored to the millisecond"},
    {WriterStringMinPrefix, "§4 writer", "string min cut to N code points"},
    {WriterStringMaxTieBreak, "§4 writer", "string max cut with the U+007F / U+10FFFF tie-breaker"},
    {WriterStringMaxOmitted, "§4 writer", "string max omitted past 2N"},
    {WriterNaNMax, "§4 writer", "a NaN makes the max NaN"},
    {WidenForDv, "§4 writer", "DV widening: tightBounds false"},
    {WidenNullCountAllNull, "§4 writer", "DV widening: nullCount := numRecords for an all-null column"},
    {WidenAlreadyWide, "§4 writer", "DV widening of wide stats keeps nullCount"},
    {ReaderStatsText, "§4 reader", "stats JSON text read"},
    {ReaderPhysicalNames, "§4 reader", "stats keyed by physical names (column mapping)"},
    {ReaderUnknownKey, "§4 reader", "an unknown stats key skipped"},
    {ReaderDecimalString, "§4 reader", "a decimal stat as a JSON string"},
    {ReaderDecimalNumber, "§4 reader", "a decimal stat as a JSON number"},
    {ReaderTimestampOffset, "§4 reader", "a timestamp stat with a zone offset converted to UTC"},
    {ReaderSpecialFloat, "§4 reader", "NaN or ±Infinity stat as a string"},
    {ReaderTimestampMaxBump, "§4 reader", "a timestamp max read + 1 ms"},
    {ReaderWideNullCount, "§4 reader", "wide stats: nullCount read as all / none / unknown"},
    {LogRemoveReconciled, "§4 reader", "log replay: a remove cancels the add of its (path, DV)"},
    {LogDeletionVector, "§4 reader", "log replay: a live file with a deletion vector"},
    {LogDirectory, "§4 reader", "a table directory: its JSON commits listed, ordered and read"},
    {LogEarlierVersion, "§4 reader", "a table directory read at a version before its latest (time travel)"},
    {PartitionValueNull, "§4 reader", "a null partition value reads NULL"},
    {PartitionValueTyped, "§4 reader", "a partition value typed from its text"},
    {RuleLiteralsOnly, "§5 rule", "only literals: none"},
    {RuleAnd, "§5 rule", "a AND b"},
    {RuleAndOneSide, "§5 rule", "a AND b, one side none: the other alone"},
    {RuleOr, "§5 rule", "a OR b"},
    {RuleNotJunction, "§5 rule", "NOT (a AND b), NOT (a OR b): De Morgan"},
    {RuleNotNot, "§5 rule", "NOT NOT e"},
    {RuleIsNull, "§5 rule", "c IS NULL"},
    {RuleIsNotNull, "§5 rule", "c IS NOT NULL"},
    {RuleExprIsNull, "§5 rule", "e IS NULL over a strict expression"},
    {RuleJunctionIsNull, "§5 rule", "(a AND b) IS NULL, (a OR b) IS NULL"},
    {RuleBareBoolean, "§5 rule", "a bare boolean column: none"},
    {RuleEq, "§5 rule", "c = v"},
    {RuleNe, "§5 rule", "c <> v, NOT c = v"},
    {RuleRange, "§5 rule", "c < v, c <= v, c > v, c >= v"},
    {RuleLiteralLeft, "§5 rule", "literal on the left: operands swapped"},
    {RuleNotCompare, "§5 rule", "NOT c < v etc.: the complementary comparison"},
    {RuleNullSafeEq, "§5 rule", "c <=> v, v not NULL"},
    {RuleNullSafeNull, "§5 rule", "c <=> NULL, NOT (c <=> NULL)"},
    {RuleNotNullSafeEq, "§5 rule", "NOT (c <=> v), v not NULL"},
    {RuleStartsWith, "§5 rule", "c LIKE 's%' (starts-with)"},
    {RuleIn, "§5 rule", "c IN (v1…vn)"},
    {RuleInAllNull, "§5 rule", "c IN (NULL…): FALSE"},
    {RuleBetween, "§5 rule", "c BETWEEN x AND y"},
    {RuleNoneOther, "§5 rule", "NOT IN, NOT LIKE, column vs column, casts, functions, arithmetic: none"},
    {RuleNoMinMax, "§5 rule", "a stat the table never collects: none"},
    {VerifyMissingStat, "§5 verify", "a referenced stat missing: verification fails, kept"},
    {VerifyAllNullPasses, "§5 verify", "min/max absent but nullCount = numRecords: passes"},
    {KeepExpressionTrue, "§5 keep", "kept: the skipping expression is TRUE"},
    {SkipDecided, "§5 keep", "skipped: expression not TRUE and verification passed"},
    {KeepEvaluationError, "§5 keep", "an evaluation error keeps the file", Need::Unreachable,
     "binding refuses every comparison whose operands the evaluator cannot order"},
    {FilterIneligibleDropped, "§5 filters", "non-deterministic and metadata filters dropped"},
    {FilterPartition, "§5 filters", "a partition filter evaluated on partition values"},
    {ConflictWholeTableRead, "§5 conflict", "whole-table read: every added file kept"},
    {ConflictNoReadPredicate, "§5 conflict", "no recorded read predicate: every added file kept"},
    {ConflictSeveralReads, "§5 conflict", "several reads: a file survives any read"},
    {ConflictReadWithoutFilter, "§5 conflict", "a read without a buildable data filter keeps every file"},
    {ConflictPartitionStep, "§5 conflict", "partition step after the data step"},
    {ConflictFlagOff, "§5 conflict", "feature flag off: partition-only append check"},
    {ConflictErrorKeepsAll, "§5 conflict", "an error keeps every file", Need::Unreachable,
     "binding refuses every comparison whose operands the evaluator cannot order"},
    {CheckProtocol, "§7 check", "1 protocol check ran"},
    {CheckProtocolConflict, "§7 check", "ProtocolChangedException"},
    {CheckMetadata, "§7 check", "2 metadata check ran"},
    {CheckMetadataConflict, "§7 check", "MetadataChangedException"},
    {CheckTransactions, "§7 check", "3-4 domain metadata and app transaction checks ran"},
    {CheckTransactionsConflict, "§7 check", "ConcurrentTransactionException"},
    {CheckAppend, "§7 check", "5 append check ran"},
    {CheckAppendBlindLoser, "§7 check", "append check: the loser is a blind append"},
    {CheckAppendConflict, "§7 check", "ConcurrentAppendException"},
    {CheckDeleteRead, "§7 check", "6 delete/read check ran"},
    {CheckDeleteReadConflict, "§7 check", "ConcurrentDeleteReadException"},
    {CheckDeleteDelete, "§7 check", "7 delete/delete check ran"},
    // Every remove the model commits follows a scan of that file, so delete/read fires first:
    // only a delete/read bug (delete-read-compares-dv) lets delete/delete decide.
    {CheckDeleteDeleteConflict, "§7 check", "ConcurrentDeleteDeleteException", Need::Finding},
    {Case3ReadsFollowCompaction, "§10 tier", "Case 3: the loser's reads follow a compaction"},
    {IsolationSerializable, "§7 isolation", "Serializable"},
    {IsolationWriteSerializable, "§7 isolation", "WriteSerializable"},
    {IsolationWriteSerializableBlindWinner, "§7 isolation", "WriteSerializable: a blind-append winner's adds unchecked"},
    {IsolationSnapshot, "§7 isolation", "SnapshotIsolation (no dataChange)"},
    {OutcomeKept, "§6 per-file", "kept"},
    {OutcomeMissedSkip, "§6 per-file", "missed-skip"},
    {OutcomeSoundSkip, "§6 per-file", "sound-skip"},
    {OutcomeSkipUnconfirmed, "§6 per-file", "skip-unconfirmed (Z3 unknown)"},
    {OutcomeUnsoundSkip, "§6 per-file", "UNSOUND SKIP", Need::Finding},
    {OutcomeSkipWithoutProof, "§6 per-file", "SKIP WITHOUT PROOF", Need::Finding},
    {OutcomeWitnessRejected, "§6 per-file", "WITNESS REJECTED", Need::Finding},
    {OutcomeOracleError, "§6 per-file", "ORACLE ERROR", Need::Finding},
    {SerialCommit, "§6 serial", "commit explained by history order"},
    {SerialCommitOtherOrder, "§6 serial", "commit explained by another allowed order"},
    {SerialAbort, "§6 serial", "abort no order would have allowed"},
    {SerialFalseConflict, "§6 serial", "false conflict"},
    {SerialMissedConflict, "§6 serial", "MISSED CONFLICT", Need::Finding},
    {SerialWrongResult, "§6 serial", "WRONG RESULT", Need::Finding},
};
static_assert(std::size(kProbes) == kProbeCount, "one catalogue row per probe");

struct Counters {
  std::array<std::atomic<uint64_t>, kProbeCount> hits{};
  std::array<std::atomic<uint64_t>, kProbeCount> skips{};
};

Counters& counters() {
  static Counters c;
  return c;
}

std::vector<uint64_t> read(const std::array<std::atomic<uint64_t>, kProbeCount>& from) {
  std::vector<uint64_t> out(kProbeCount);
  for (size_t i = 0; i < kProbeCount; ++i) out[i] = from[i].load(std::memory_order_relaxed);
  return out;
}

}  // namespace

std::span<const ProbeInfo> probe_catalogue() { return kProbes; }

void hit(Probe p) { counters().hits[static_cast<size_t>(p)].fetch_add(1, std::memory_order_relaxed); }

void decided_skip(Probe p) { counters().skips[static_cast<size_t>(p)].fetch_add(1, std::memory_order_relaxed); }

Counts Counts::since(const Counts& earlier) const {
  Counts out{hits, skips};
  for (size_t i = 0; i < kProbeCount; ++i) {
    out.hits[i] -= earlier.hits[i];
    out.skips[i] -= earlier.skips[i];
  }
  return out;
}

Counts snapshot() { return Counts{read(counters().hits), read(counters().skips)}; }

}  // namespace skipsound::coverage
