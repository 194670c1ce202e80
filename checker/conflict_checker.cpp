#include "checker/conflict_checker.h"

#include <algorithm>
#include <set>

#include "checker/removed_rows.h"
#include "checker/scan_planner.h"
#include "checker/stats_eligibility.h"
#include "model/coverage/coverage.h"
#include "model/mutants/fault_injection.h"
#include "model/values/enum_names.h"

namespace skipsound {

namespace {

constexpr EnumNames kExceptionNames{std::to_array<EnumName<ConflictKind>>({
    {ConflictKind::ProtocolChanged, "ProtocolChangedException"},
    {ConflictKind::MetadataChanged, "MetadataChangedException"},
    {ConflictKind::ConcurrentTransaction, "ConcurrentTransactionException"},
    {ConflictKind::ConcurrentAppend, "ConcurrentAppendException"},
    {ConflictKind::ConcurrentDeleteRead, "ConcurrentDeleteReadException"},
    {ConflictKind::ConcurrentDeleteDelete, "ConcurrentDeleteDeleteException"},
})};

}  // namespace

const char* exception_name(ConflictKind kind) { return kExceptionNames.name(kind); }

std::optional<ConflictKind> conflict_kind_from_exception_name(std::string_view name) {
  return kExceptionNames.value(name);
}

IsolationLevel isolation_to_use(const Commit& commit, IsolationLevel table_level) {
  // Row-tracking domain metadata is the one non-file action that still allows the downgrade.
  const bool only_file_actions =
      std::all_of(commit.other_actions.begin(), commit.other_actions.end(), [](const Action& a) {
        const auto* domain = std::get_if<DomainMetadata>(&a);
        return domain && domain->domain == "delta.rowTracking";
      });
  if (!only_file_actions) return table_level;
  const bool data_changed =
      std::any_of(commit.adds.begin(), commit.adds.end(),
                  [](const TableFile& f) { return f.data_change; }) ||
      std::any_of(commit.removes.begin(), commit.removes.end(),
                  [](const FileRemoval& r) { return r.data_change; });
  if (data_changed && !fault_active(Mutant::SnapshotIgnoresDatachange)) return table_level;
  if (table_level == IsolationLevel::WriteSerializable && commit.changes_data) return table_level;
  return IsolationLevel::SnapshotIsolation;
}

namespace {

using coverage::Probe;

coverage::Probe isolation_probe(IsolationLevel level) {
  switch (level) {
    case IsolationLevel::Serializable: return Probe::IsolationSerializable;
    case IsolationLevel::WriteSerializable: return Probe::IsolationWriteSerializable;
    case IsolationLevel::SnapshotIsolation: return Probe::IsolationSnapshot;
  }
  return Probe::IsolationSerializable;
}

// Counts a check as run, and as failed when it returns a conflict.
std::optional<Conflict> counted(Probe ran, Probe failed, std::optional<Conflict> outcome) {
  coverage::hit(ran);
  if (outcome) coverage::hit(failed);
  return outcome;
}

template <class A>
std::vector<const A*> actions_of(const Commit& commit) {
  std::vector<const A*> found;
  for (const Action& a : commit.other_actions) {
    if (const auto* typed = std::get_if<A>(&a)) found.push_back(typed);
  }
  return found;
}

std::set<std::string> features(const Protocol& p) {
  std::set<std::string> all;
  if (p.reader_features) all.insert(p.reader_features->begin(), p.reader_features->end());
  if (p.writer_features) all.insert(p.writer_features->begin(), p.writer_features->end());
  return all;
}

// Features whose enablement must abort every concurrent transaction (Delta marks them with
// failConcurrentTransactionsAtUpgrade).
const std::set<std::string>& features_failing_concurrent_transactions() {
  static const std::set<std::string> kFeatures = {"catalogManaged", "catalogOwned-preview"};
  return kFeatures;
}

std::optional<Conflict> check_protocol(const Transaction& loser, const Table& snapshot,
                                       const Commit& winner) {
  for (const Protocol* protocol : actions_of<Protocol>(winner)) {
    if (loser.commit.has_protocol()) {
      return Conflict{ConflictKind::ProtocolChanged, "both transactions change the protocol", {}};
    }
    const std::set<std::string> before = features(snapshot.protocol());
    const std::set<std::string> after = features(*protocol);
    for (const std::string& f : before) {
      if (!after.count(f)) {
        return Conflict{ConflictKind::ProtocolChanged, "the winner removes feature " + f, {}};
      }
    }
    for (const std::string& f : after) {
      if (!before.count(f) && features_failing_concurrent_transactions().count(f)) {
        return Conflict{ConflictKind::ProtocolChanged,
                        "the winner adds feature " + f + ", which fails concurrent transactions", {}};
      }
    }
  }
  return std::nullopt;
}

// Configuration keys whose enablement concurrent transactions tolerate.
bool allow_listed_configuration(const std::string& key) {
  static const std::set<std::string> kKeys = {
      "delta.enableRowTracking", "delta.rowTracking.materializedRowIdColumnName",
      "delta.rowTracking.materializedRowCommitVersionColumnName", "delta.columnMapping.mode",
      "delta.columnMapping.maxColumnId", "delta.enableDeletionVectors"};
  return kKeys.count(key) > 0;
}

bool tolerated_metadata_change(const Metadata& before, const Metadata& after) {
  if (!(before.schema == after.schema) || before.partition_columns != after.partition_columns) {
    return false;
  }
  std::set<std::string> keys;
  for (const auto& [k, v] : before.configuration) keys.insert(k);
  for (const auto& [k, v] : after.configuration) keys.insert(k);
  return std::all_of(keys.begin(), keys.end(), [&](const std::string& key) {
    return before.config(key) == after.config(key) || allow_listed_configuration(key);
  });
}

std::optional<Conflict> check_metadata(const Table& snapshot, const Commit& winner) {
  const std::vector<const Metadata*> changes = actions_of<Metadata>(winner);
  if (changes.empty()) return std::nullopt;  // the snapshot's metadata costs a schema's JSON text
  const Metadata before = snapshot.metadata();
  for (const Metadata* metadata : changes) {
    if (!tolerated_metadata_change(before, *metadata)) {
      return Conflict{ConflictKind::MetadataChanged, "the winner changed the table's metadata", {}};
    }
  }
  return std::nullopt;
}

std::optional<Conflict> check_domains_and_app_ids(const Transaction& loser, const Commit& winner) {
  for (const DomainMetadata* won : actions_of<DomainMetadata>(winner)) {
    for (const DomainMetadata* mine : actions_of<DomainMetadata>(loser.commit)) {
      if (won->domain == mine->domain) {
        return Conflict{ConflictKind::ConcurrentTransaction,
                        "both commit domain metadata '" + won->domain + "'", {}};
      }
    }
  }
  for (const Txn* txn : actions_of<Txn>(winner)) {
    if (loser.reads.app_ids.count(txn->app_id)) {
      return Conflict{ConflictKind::ConcurrentTransaction,
                      "the winner wrote txn app id '" + txn->app_id + "' that the loser read", {}};
    }
  }
  return std::nullopt;
}

WinnerOperation winner_operation(const Commit& winner) {
  const std::string op = winner.info.operation.value_or("");
  if (op == "UPDATE") return WinnerOperation::Update;
  if (op == "DELETE") return WinnerOperation::Delete;
  return WinnerOperation::Other;
}

LoserReads loser_reads(const Transaction& loser, const StatsEligibility& eligibility) {
  LoserReads reads;
  reads.whole_table = loser.reads.whole_table;
  for (const ExprPtr& condition : loser.reads.predicates) {
    reads.reads.push_back(condition ? classify_filters(condition, eligibility).read
                                    : ReadPredicate{});
  }
  return reads;
}

bool removes_path(const Commit& commit, const std::string& path) {
  return std::any_of(commit.removes.begin(), commit.removes.end(), [&](const FileRemoval& r) { return r.path == path; });
}

// `hidden` are the paths Case 2 reconciled: their adds are no candidates. The candidates point
// into `winner`'s own adds (the caller keeps them), never into a pruned copy.
ConflictCheck check_appends(const Transaction& loser, const Table& snapshot, const Commit& winner,
                            const std::vector<std::string>& hidden, const ConflictCheckOptions& options) {
  coverage::hit(Probe::CheckAppend);
  if (loser.commit.is_blind_append()) {
    coverage::hit(Probe::CheckAppendBlindLoser);
    return {NoConflict{"append check: the loser is a blind append"}, {}};
  }
  const IsolationLevel isolation =
      isolation_to_use(loser.commit, snapshot.properties().isolation);
  // Unknown counts as not blind (docs/semantics.md §7.2), unless unknown-blind-as-blind reads it as blind.
  const bool winner_blind = fault_active(Mutant::UnknownBlindAsBlind)
                                ? winner.info.is_blind_append.value_or(true)
                                : winner.is_blind_append();
  const bool checks_adds =
      isolation == IsolationLevel::Serializable ||
      (isolation == IsolationLevel::WriteSerializable && (!winner_blind || loser.commit.has_metadata()));
  coverage::hit(isolation_probe(isolation));
  if (isolation == IsolationLevel::WriteSerializable && !checks_adds) coverage::hit(Probe::IsolationWriteSerializableBlindWinner);
  const std::string level = isolation_level_name(isolation);
  AppendCheck check;
  check.added = candidate_files(winner.adds, snapshot.schema());
  std::erase_if(check.added, [&](const CandidateFile& f) {
    return std::find(hidden.begin(), hidden.end(), f.path) != hidden.end() ||
           // case1b-count-diff's skip-same-path-readd: a re-add of a removed path taken for the same rows.
           (fault_active(Mutant::Case1bCountDiff) && removes_path(winner, f.path));
  });
  if (!checks_adds || check.added.empty()) {
    return {NoConflict{"append check (" + level + "): no added file to check"}, {}};
  }
  const StatsEligibility eligibility(snapshot.schema(), snapshot.properties().stats);
  check.filtered = filter_conflict_candidates(
      loser_reads(loser, eligibility), check.added, eligibility,
      ConflictFilterOptions{options.conflict_data_skipping, winner_operation(winner),
                            options.value_exact, options.exclude_no_data_change});
  for (const CandidateOutcome& file : check.filtered.files) {
    if (file.verdict == CandidateVerdict::Survives) {
      coverage::hit(Probe::CheckAppendConflict);
      return {Conflict{ConflictKind::ConcurrentAppend, "added file " + file.path + " (" + level + "): " + file.reason,
                       file.path},
              std::move(check)};
    }
  }
  ConflictOutcome none = NoConflict{"append check (" + level + "): " + check.filtered.summary};
  return {std::move(none), std::move(check)};
}

// Paths are compared without their deletion vectors (docs/semantics.md §7.1); the
// delete-read-compares-dv mutant keys a removal as the log replay does, by path and DV.
std::string removal_key(const FileRemoval& removed) {
  if (!fault_active(Mutant::DeleteReadComparesDv) || removed.deleted.empty()) return removed.path;
  return removed.path + "#dv" + std::to_string(removed.deleted.size());
}

bool writes_path(const Commit& commit, const std::string& path) {
  return removes_path(commit, path) ||
         std::any_of(commit.adds.begin(), commit.adds.end(), [&](const TableFile& f) { return f.path == path; });
}

// docs/semantics.md §10.4: a loser that commits no remove and no DV-carrying add does not see the winner's
// dataChange=false removes (nodatachange-delete-delete: no loser does).
std::vector<FileRemoval> removes_for_delete_read(const Transaction& loser, const Commit& winner,
                                                 const ConflictCheckOptions& options) {
  std::vector<FileRemoval> removes = winner.removes;
  const bool append_only = loser.commit.removes.empty() &&
                           std::none_of(loser.commit.adds.begin(), loser.commit.adds.end(),
                                        [](const TableFile& f) { return !f.deleted.empty(); });
  if (options.exclude_no_data_change && (append_only || fault_active(Mutant::NodatachangeDeleteDelete))) {
    std::erase_if(removes, [](const FileRemoval& r) { return !r.data_change; });
  }
  return removes;
}

std::optional<Conflict> check_delete_read(const Transaction& loser, const Table& snapshot, const Commit& winner,
                                          const ConflictCheckOptions& options, std::vector<std::string>& notes) {
  const std::vector<FileRemoval> removes = removes_for_delete_read(loser, winner, options);
  for (const FileRemoval& removed : removes) {
    const auto& read = loser.reads.files;
    if (std::find(read.begin(), read.end(), removal_key(removed)) == read.end()) continue;
    // docs/semantics.md §10.3, §10.8: Case 1b judges the files the loser read and did not write.
    if (options.removed_rows && !loser.reads.whole_table && !writes_path(loser.commit, removed.path)) {
      const RemovedRowsResult rows = judge_removed_rows(loser, snapshot, winner, removed);
      if (rows.verdict == RemovedRowsVerdict::NoMatch) {
        notes.push_back(rows.reason);
        continue;
      }
      return Conflict{ConflictKind::ConcurrentDeleteRead,
                      "the winner removed " + removed.path + ", which the loser read (Case 1b: " + rows.reason + ")",
                      removed.path};
    }
    return Conflict{ConflictKind::ConcurrentDeleteRead,
                    "the winner removed " + removed.path + ", which the loser read", removed.path};
  }
  if (!removes.empty() && loser.reads.whole_table) {
    return Conflict{ConflictKind::ConcurrentDeleteRead,
                    "the winner removed " + removes.front().path + " and the loser read the whole table",
                    removes.front().path};
  }
  return std::nullopt;
}

std::optional<Conflict> check_delete_delete(const Transaction& loser, const Commit& winner,
                                            const ConflictCheckOptions& options) {
  for (const FileRemoval& removed : winner.removes) {
    if (fault_active(Mutant::NodatachangeDeleteDelete) && options.exclude_no_data_change && !removed.data_change) {
      continue;
    }
    for (const FileRemoval& mine : loser.commit.removes) {
      if (mine.path == removed.path) {
        return Conflict{ConflictKind::ConcurrentDeleteDelete, "both transactions removed " + removed.path,
                        removed.path};
      }
    }
  }
  return std::nullopt;
}

bool reads_path(const ReadSet& reads, const std::string& path) {
  return std::find(reads.files.begin(), reads.files.end(), path) != reads.files.end();
}

// docs/semantics.md §10.4, the relocation guard: the rows the loser read from a file that a
// dataChange=false winner compacted now live in that winner's dataChange=false adds, so the
// loser's read set follows them there, and a later winner that deletes from the compacted file
// fails delete/read. case3-no-repoint (Case 3 as Delta's proposal wrote it, docs/delta-conformance.md) leaves the reads behind.
std::optional<ReadSet> follow_relocated_reads(const Transaction& loser, const Commit& winner,
                                              const ConflictCheckOptions& options, std::vector<std::string>& notes) {
  if (!options.exclude_no_data_change || fault_active(Mutant::Case3NoRepoint)) return std::nullopt;
  std::string relocated;
  for (const FileRemoval& removed : winner.removes) {
    if (!removed.data_change && reads_path(loser.reads, removed.path)) relocated += (relocated.empty() ? "" : ", ") + removed.path;
  }
  if (relocated.empty()) return std::nullopt;
  coverage::hit(Probe::Case3ReadsFollowCompaction);
  ReadSet reads = loser.reads;
  std::string targets;
  for (const TableFile& add : winner.adds) {
    if (add.data_change || reads_path(reads, add.path)) continue;
    reads.files.push_back(add.path);
    targets += (targets.empty() ? "" : ", ") + add.path;
  }
  notes.push_back("Case 3: the loser's reads of " + relocated + " follow the compacted rows to " +
                  (targets.empty() ? std::string("no new file") : targets));
  return reads;
}

// The loser and winner the delete checks see: after Case 2, the rebased loser and the winner
// without the reconciled paths (docs/semantics.md §10.2); the append check hides those paths itself.
struct FileCheckInputs {
  Transaction loser;
  Commit winner;
};

FileCheckInputs reconcile(const Transaction& loser, const Table& snapshot, const Commit& winner,
                          const ConflictCheckOptions& options, ConflictCheck& check) {
  if (!options.row_level_concurrency || !snapshot.properties().deletion_vectors) return {loser, winner};
  DvReconciliation r = reconcile_deletion_vectors(loser, winner);
  if (!r.note.empty()) check.tier_notes.push_back(r.note);
  check.case2_refusal = std::move(r.refusal);
  if (r.reconciled_paths.empty()) return {loser, winner};
  Transaction rebased = loser;
  rebased.commit = r.loser_commit;
  rebased.reads = r.loser_reads;
  check.reconciled_paths = std::move(r.reconciled_paths);
  check.rebased_commit = std::move(r.loser_commit);
  check.rebased_reads = std::move(r.loser_reads);
  return {std::move(rebased), std::move(r.winner_view)};
}

std::string with_notes(std::string note, const std::vector<std::string>& notes) {
  for (const std::string& n : notes) note += "; " + n;
  return note;
}

}  // namespace

ConflictCheck check_conflict(const Transaction& loser, const Table& loser_snapshot, const Commit& winner,
                             const ConflictCheckOptions& options) {
  if (auto c = counted(Probe::CheckProtocol, Probe::CheckProtocolConflict, check_protocol(loser, loser_snapshot, winner))) {
    return {*c, {}};
  }
  if (auto c = counted(Probe::CheckMetadata, Probe::CheckMetadataConflict, check_metadata(loser_snapshot, winner))) {
    return {*c, {}};
  }
  if (auto c = counted(Probe::CheckTransactions, Probe::CheckTransactionsConflict,
                       check_domains_and_app_ids(loser, winner))) {
    return {*c, {}};
  }
  ConflictCheck check;
  const FileCheckInputs inputs = reconcile(loser, loser_snapshot, winner, options, check);
  ConflictCheck appends = check_appends(inputs.loser, loser_snapshot, winner, check.reconciled_paths, options);
  check.append = std::move(appends.append);
  check.outcome = std::move(appends.outcome);
  if (std::holds_alternative<Conflict>(check.outcome)) return check;
  if (auto c = counted(Probe::CheckDeleteRead, Probe::CheckDeleteReadConflict,
                       check_delete_read(inputs.loser, loser_snapshot, inputs.winner, options, check.tier_notes))) {
    check.outcome = *c;
  } else if (auto d = counted(Probe::CheckDeleteDelete, Probe::CheckDeleteDeleteConflict,
                              check_delete_delete(inputs.loser, inputs.winner, options))) {
    check.outcome = *d;
  } else {
    if (auto reads = follow_relocated_reads(inputs.loser, inputs.winner, options, check.tier_notes)) {
      check.rebased_reads = std::move(*reads);
    }
    check.outcome = NoConflict{with_notes(std::get<NoConflict>(check.outcome).note, check.tier_notes)};
  }
  return check;
}

}  // namespace skipsound
