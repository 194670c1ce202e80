#include "model/mutants/mutant.h"

#include <stdexcept>

namespace skipsound {

namespace {

constexpr CodePathInfo kCodePaths[] = {
    {CodePath::StatsWriter, "stats writer", "model/stats/string_truncation.cpp"},
    {CodePath::SkippingBuilder, "skipping builder", "checker/skipping_builder.cpp"},
    {CodePath::StatsVerification, "stats verification", "checker/stats_verification.cpp"},
    {CodePath::SkipEvaluation, "skip evaluation", "checker/skipping_expr.cpp"},
    {CodePath::ConflictFilter, "conflict filter", "checker/conflict_filter.cpp"},
    {CodePath::SymbolicWriter, "symbolic writer", "smt/symbolic_file.cpp"},
    {CodePath::SymbolicDecision, "symbolic decision", "smt/symbolic/symbolic_skipping.cpp"},
    {CodePath::StatsReader, "stats reader", "model/stats/stats.cpp"},
    {CodePath::NullCountWriter, "nullCount writer", "model/stats/stats_collection.cpp"},
    {CodePath::LogReplay, "log replay", "model/log/delta_log.cpp"},
    {CodePath::PartitionValues, "partition values", "model/log/delta_log.cpp"},
    {CodePath::ConflictChecker, "conflict checker", "checker/conflict_checker.cpp"},
    {CodePath::ValueExactTier, "value-exact tier", "checker/value_exact_tier.cpp"},
    {CodePath::DvUnion, "DV union", "checker/dv_union.cpp"},
    {CodePath::RemovedRows, "removed rows", "checker/removed_rows.cpp"},
    {CodePath::DvWidening, "DV widening", "model/table/operations.cpp"},
};

// docs/semantics.md §8's table, as data. Built on first use: tests name their cases from it while
// static objects are still being initialized.
const std::vector<MutantInfo>& catalogue() {
  static const std::vector<MutantInfo> entries = {
    {Mutant::SkipMissingStats, "skip-missing-stats", MutantScope::PerFile,
     "verification always passes: a missing stat no longer keeps the file",
     "trusting absent stats as \"cannot match\" (engines that write no stats, columns past the indexed count, a "
     "string max omitted past 2N)",
     {CodePath::StatsVerification, CodePath::SymbolicDecision}},
    {Mutant::TrustWideNullcount, "trust-wide-nullcount", MutantScope::PerFile,
     "wide (DV) stats' nullCount read as the live null count",
     "reading the tri-state nullCount of files with a deletion vector as an exact live count",
     {CodePath::SkipEvaluation, CodePath::SymbolicDecision}},
    {Mutant::NoTimestampMaxBump, "no-timestamp-max-bump", MutantScope::PerFile,
     "no +1 ms on a timestamp max",
     "forgetting that writers floor timestamps to the millisecond",
     {CodePath::SkipEvaluation, CodePath::SymbolicDecision}},
    {Mutant::StringMaxPlainPrefix, "string-max-plain-prefix", MutantScope::PerFile,
     "the writer stores the plain N-code-point prefix as the string max",
     "truncating a max like a min, so the stored max sorts below the true max",
     {CodePath::StatsWriter, CodePath::SymbolicWriter}},
    {Mutant::IeeeNanOrder, "ieee-nan-order", MutantScope::PerFile,
     "stats comparisons involving NaN follow IEEE order (all false)",
     "comparing floating stats with the language's native order instead of Spark's total order",
     {CodePath::SkipEvaluation, CodePath::SymbolicDecision}},
    {Mutant::LeAsLt, "le-as-lt", MutantScope::PerFile,
     "c >= v builds max(c) > v and c <= v builds min(c) < v",
     "an off-by-one at the boundary: a file whose max equals v is skipped",
     // The theorems encode the builder's own output, so the builder's switch reaches them too.
     {CodePath::SkippingBuilder}},
    {Mutant::AppendSuppression, "append-suppression", MutantScope::ConflictTime,
     "an UPDATE/DELETE winner's added files skip the append check",
     "skipping the image files of rewrite-only DML winners by operation type (write skew)",
     {CodePath::ConflictFilter}},
    {Mutant::AndAcrossReads, "and-across-reads", MutantScope::ConflictTime,
     "a file must survive every read (AND), not any (OR)",
     "flattening all reads' filters into one predicate",
     {CodePath::ConflictFilter}},
    {Mutant::SkipWholeTableRead, "skip-whole-table-read", MutantScope::ConflictTime,
     "data skipping applied even when the loser read the whole table",
     "dropping the whole-table guard",
     {CodePath::ConflictFilter}},
    {Mutant::EmptyReadsSkipAll, "empty-reads-skip-all", MutantScope::ConflictTime,
     "a loser with no recorded read predicate keeps no file",
     "an empty read set giving an empty survivor set",
     {CodePath::ConflictFilter}},
    {Mutant::DecimalStatsUnscaled, "decimal-stats-unscaled", MutantScope::InputPath,
     "a decimal stat's digits are read as the unscaled value at the column's scale: 1.5 in decimal(5,2) "
     "reads 0.15",
     "reading a decimal stat with the wrong scale (the text's own scale taken for the column's, as readers "
     "that parse a BigDecimal string into an unscaled integer do)",
     {CodePath::StatsReader}},
    {Mutant::DecimalStatsAsDouble, "decimal-stats-as-double", MutantScope::InputPath,
     "a decimal stat written as a JSON number is read through the nearest double: 123456789012345678 in "
     "decimal(18,0) reads 123456789012345680",
     "parsing decimal stats as floats (readers that take every JSON number as a double before converting it "
     "to the column's type, as delta-rs once did)",
     {CodePath::StatsReader}},
    {Mutant::TimestampOffsetAsUtc, "timestamp-offset-as-utc", MutantScope::InputPath,
     "a timestamp stat written with a zone offset (…-08:00) is read as if its wall-clock time were UTC",
     "dropping the zone offset of a timestamp stat (writers that log local time with an offset)",
     {CodePath::StatsReader}},
    {Mutant::StatsByLogicalName, "stats-by-logical-name", MutantScope::InputPath,
     "under column mapping, stats are looked up by logical instead of physical column names",
     "column mapping: after RENAME COLUMN the stats of the column that once had this name are read",
     {CodePath::StatsReader}},
    {Mutant::PartitionNullAsEmpty, "partition-null-as-empty", MutantScope::InputPath,
     "a JSON null partition value of a string column reads as the empty string, not NULL",
     "partition value \"\" vs NULL confusion (Hive's __HIVE_DEFAULT_PARTITION__ and Delta's null read as text)",
     {CodePath::PartitionValues}},
    {Mutant::RemoveByPathOnly, "remove-by-path-only", MutantScope::InputPath,
     "log replay reconciles a remove by its path alone, dropping every live DV version of that path",
     "reconciling remove actions by path instead of (path, DV id): a DV update whose add precedes its remove "
     "in the commit loses the file",
     {CodePath::LogReplay}},
    {Mutant::RemoveIgnoresDv, "remove-ignores-dv", MutantScope::InputPath,
     "log replay ignores a remove's deletion vector, so remove(P, dv) cancels add(P) without a DV only",
     "dropping the DV from a remove's key: the old DV version of a file stays live beside the new one",
     {CodePath::LogReplay}},
    {Mutant::AbsentLeafNullcountZero, "absent-leaf-nullcount-zero", MutantScope::InputPath,
     "a leaf absent from the written data gets nullCount 0 instead of numRecords",
     "a column added after a file was written (or not in its data) recorded as having no nulls",
     {CodePath::NullCountWriter}},
    {Mutant::WideningCountsNewDv, "widening-counts-new-dv", MutantScope::InputPath,
     "a DV delete widens the stats with the new DV's cardinality where the previous one belongs, so a column "
     "whose NULLs equal the new live count reads all null",
     "a wrong nullCount after DV widening: a column marked all null while a live row still holds a value, so "
     "IS NOT NULL skips the file",
     {CodePath::DvWidening}},
    {Mutant::SnapshotIgnoresDatachange, "snapshot-ignores-datachange", MutantScope::ConflictTime,
     "every commit of file actions only drops to SnapshotIsolation, whatever its dataChange flags",
     "the SnapshotIsolation downgrade without its dataChange condition: DML losers skip the append check",
     {CodePath::ConflictChecker}},
    {Mutant::UnknownBlindAsBlind, "unknown-blind-as-blind", MutantScope::ConflictTime,
     "under WriteSerializable, a winner whose commit info lacks isBlindAppend counts as a blind append",
     "reading an absent isBlindAppend (engines that do not write it) as true",
     {CodePath::ConflictChecker}},
    {Mutant::DeleteReadComparesDv, "delete-read-compares-dv", MutantScope::ConflictTime,
     "the delete/read check compares a removed path together with its DV id against the paths read",
     "keying the delete/read check by the log replay's (path, DV) key: a removed file that had a DV is never "
     "matched with the read",
     {CodePath::ConflictChecker}},
    {Mutant::Case2NoRepoint, "case2-no-repoint", MutantScope::RowLevel,
     "Case 2 merges the DVs but the loser's remove keeps its own dv_base",
     "a stale tombstone: remove(P, dv_base) cancels nothing once the winner replaced it, so the winner's (P, dv_win) "
     "stays live beside the merged file (rows resurrected and duplicated)",
     {CodePath::DvUnion}},
    {Mutant::Case2MergeOnOverlap, "case2-merge-on-overlap", MutantScope::RowLevel,
     "Case 2 reconciles a path even when both deleted the same new position",
     "treating position deletes as commutative for a rewriting loser (its new image of the row survives the "
     "winner's delete)",
     {CodePath::DvUnion}},
    {Mutant::Case2BaseIsDvWin, "case2-base-is-dv_win", MutantScope::RowLevel,
     "the overlap subtracts dv_win instead of dv_base, so it is always empty",
     "taking the wrong base DV for the overlap test",
     {CodePath::DvUnion}},
    {Mutant::Case2NoMonotonicity, "case2-no-monotonicity", MutantScope::RowLevel,
     "Case 2 assumes DVs only grow from the same base (Delta's proposal as written, docs/delta-conformance.md): no w0 = dv_base, dv_base ⊆ dv_win, "
     "dv_base ⊆ dv_cur check",
     "a RESTORE winner shrinks the DV; the union then deletes rows the history order keeps",
     {CodePath::DvUnion}},
    {Mutant::Case2NonlocalLoser, "case2-nonlocal-loser", MutantScope::RowLevel,
     "Case 2 reconciles whatever the loser read (Delta's proposal as written, docs/delta-conformance.md): no row-locality guard",
     "pruning the winner's remove also hides it from the loser's other reads of the file",
     {CodePath::DvUnion}},
    {Mutant::Case1bWrongImage, "case1b-wrong-image", MutantScope::RowLevel,
     "Case 1b evaluates the read on the winner's new values instead of the removed rows before the change",
     "judging a row moved out of the predicate on its new image, which the predicate no longer matches",
     {CodePath::RemovedRows}},
    {Mutant::Case1bCountDiff, "case1b-count-diff", MutantScope::RowLevel,
     "Case 1b compares match counts before and after (and the append check skips same-path re-adds)",
     "matches(pre) - matches(post) as counts: a non-monotone DV revives one matching row while removing another",
     {CodePath::RemovedRows, CodePath::ConflictChecker}},
    {Mutant::NodatachangeDeleteDelete, "nodatachange-delete-delete", MutantScope::RowLevel,
     "Case 3 drops dataChange=false removes also from delete/delete and from delete/read for DML losers",
     "trusting OPTIMIZE's removes against a loser that rewrote the same file",
     {CodePath::ConflictChecker}},
    {Mutant::Case3NoRepoint, "case3-no-repoint", MutantScope::RowLevel,
     "Case 3 as Delta's proposal wrote it: the loser's reads stay on the files a dataChange=false winner compacted",
     "checking delete/read by path after a compaction moved the rows read, so a later delete of them from the "
     "compacted file is never seen",
     {CodePath::ConflictChecker}},
    {Mutant::ValueexactEmptyReadDrops, "valueexact-empty-read-drops", MutantScope::RowLevel,
     "a read with no eligible data filter drops every survivor instead of keeping all",
     "reading an empty filter list as FALSE instead of TRUE",
     {CodePath::ValueExactTier}},
    {Mutant::ValueexactAndAcrossReads, "valueexact-and-across-reads", MutantScope::RowLevel,
     "the value-exact tier keeps the survivors only for a row matching every read (AND), not any (OR)",
     "flattening all reads' filters into one predicate in the row scan",
     {CodePath::ValueExactTier}},
    {Mutant::Case2NoBaseSubtract, "case2-no-base-subtract", MutantScope::Liveness,
     "the Case 2 overlap does not subtract dv_base, so deletions both inherited count as overlap",
     "a liveness bug: every file with a base DV aborts (false conflicts, never a missed one)",
     {CodePath::DvUnion}},
  };
  return entries;
}

}  // namespace

std::span<const MutantInfo> mutant_catalogue() { return catalogue(); }

const MutantInfo& mutant_info(Mutant m) {
  for (const MutantInfo& info : catalogue())
    if (info.mutant == m) return info;
  throw std::invalid_argument("no catalogue entry for this mutant");
}

std::span<const CodePathInfo> code_paths() { return kCodePaths; }

const CodePathInfo& code_path_info(CodePath p) {
  for (const CodePathInfo& info : kCodePaths)
    if (info.path == p) return info;
  throw std::invalid_argument("no such code path");
}

const char* mutant_name(Mutant m) { return m == Mutant::None ? "none" : mutant_info(m).name; }

std::optional<Mutant> mutant_from_name(std::string_view name) {
  if (name == "none") return Mutant::None;
  for (const MutantInfo& info : catalogue())
    if (name == info.name) return info.mutant;
  return std::nullopt;
}

std::string unknown_mutant_message(std::string_view name) {
  return "unknown mutant '" + std::string(name) + "'";
}

const std::vector<Mutant>& all_mutants() {
  static const std::vector<Mutant> mutants = [] {
    std::vector<Mutant> out;
    for (const MutantInfo& info : catalogue()) out.push_back(info.mutant);
    return out;
  }();
  return mutants;
}

bool is_per_file_mutant(Mutant m) { return m != Mutant::None && mutant_info(m).scope == MutantScope::PerFile; }

bool is_input_path_mutant(Mutant m) { return m != Mutant::None && mutant_info(m).scope == MutantScope::InputPath; }

bool is_conflict_mutant(Mutant m) {
  if (m == Mutant::None) return false;
  const MutantScope scope = mutant_info(m).scope;
  return scope == MutantScope::ConflictTime || scope == MutantScope::RowLevel || scope == MutantScope::Liveness;
}

std::string mutant_names(const std::vector<Mutant>& mutants) {
  std::string names;
  for (Mutant m : mutants) names += (names.empty() ? "" : ", ") + std::string(mutant_name(m));
  return names;
}

std::string mutant_names(MutantScope scope) {
  std::string names;
  for (const MutantInfo& info : catalogue())
    if (info.scope == scope) names += (names.empty() ? "" : ", ") + std::string(info.name);
  return names;
}

}  // namespace skipsound
