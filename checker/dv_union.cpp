#include "checker/dv_union.h"

#include <algorithm>
#include <map>

#include "checker/filter_classification.h"
#include "model/mutants/fault_injection.h"
#include "model/table/deletion_vector.h"

namespace skipsound {

namespace {

// A path's deletion-vector update within one commit: exactly one remove and one add of it.
struct DvUpdate {
  const FileRemoval* remove = nullptr;
  const TableFile* add = nullptr;
};

// Paths with exactly one remove and exactly one add in `commit` (§10.2 "shared" needs both sides so).
std::map<std::string, DvUpdate> dv_updates(const Commit& commit) {
  std::map<std::string, int> removes, adds;
  for (const FileRemoval& r : commit.removes) ++removes[r.path];
  for (const TableFile& a : commit.adds) ++adds[a.path];
  std::map<std::string, DvUpdate> updates;
  for (const FileRemoval& r : commit.removes) {
    if (removes[r.path] == 1 && adds[r.path] == 1) updates[r.path].remove = &r;
  }
  for (const TableFile& a : commit.adds) {
    if (updates.count(a.path)) updates[a.path].add = &a;
  }
  return updates;
}

// §10.2 (a) and (b) for one shared path, with the mutants' deviations; empty = it reconciles.
std::string path_failure(const DvUpdate& winner, const DvUpdate& loser) {
  const DeletedRows& w0 = winner.remove->deleted;
  const DeletedRows& dv_win = winner.add->deleted;
  const DeletedRows& dv_base = loser.remove->deleted;
  const DeletedRows& dv_cur = loser.add->deleted;
  if (!fault_active(Mutant::Case2NoMonotonicity)) {
    if (w0 != dv_base) return "the winner's remove names another DV than the loser's base";
    if (!dv_includes(dv_win, dv_base) || !dv_includes(dv_cur, dv_base)) return "a DV does not grow from the base";
  }
  if (fault_active(Mutant::Case2MergeOnOverlap)) return "";
  const DeletedRows& subtracted = fault_active(Mutant::Case2BaseIsDvWin)      ? dv_win
                                  : fault_active(Mutant::Case2NoBaseSubtract) ? DeletedRows{}
                                                                          : dv_base;
  if (!dv_minus(dv_intersection(dv_win, dv_cur), subtracted).empty()) return "both deleted the same new position";
  return "";
}

void rewrite_path(const std::string& path, const DvUpdate& winner, DvReconciliation& out) {
  for (TableFile& add : out.loser_commit.adds) {
    if (add.path != path) continue;
    add.deleted = dv_union(winner.add->deleted, add.deleted);
    add.data_change = true;
    if (add.stats) add.stats->tight_bounds = false;
  }
  if (!fault_active(Mutant::Case2NoRepoint)) {
    for (FileRemoval& remove : out.loser_commit.removes) {
      if (remove.path == path) remove.deleted = winner.add->deleted;
    }
  }
  std::erase(out.loser_reads.files, path);
  std::erase_if(out.winner_view.adds, [&](const TableFile& f) { return f.path == path; });
  std::erase_if(out.winner_view.removes, [&](const FileRemoval& r) { return r.path == path; });
}

}  // namespace

bool is_row_local(const Transaction& loser) {
  if (loser.reads.whole_table || loser.operations.size() != 1 || loser.reads.predicates.size() != 1) return false;
  const Operation& op = loser.operations.front();
  if (op.kind != OperationKind::Delete && op.kind != OperationKind::Update) return false;
  return !op.condition || is_deterministic(*op.condition);
}

DvReconciliation reconcile_deletion_vectors(const Transaction& loser, const Commit& winner) {
  DvReconciliation out{{}, "", loser.commit, loser.reads, winner};
  const std::map<std::string, DvUpdate> mine = dv_updates(loser.commit);
  std::vector<std::pair<std::string, DvUpdate>> shared;
  for (const auto& [path, update] : dv_updates(winner)) {
    if (!update.add->deleted.empty() && mine.count(path)) shared.emplace_back(path, update);
  }
  if (shared.empty()) return out;
  if (!fault_active(Mutant::Case2NonlocalLoser) && !is_row_local(loser)) {
    out.note = "Case 2: the loser is not row-local, nothing reconciled";
    return out;
  }
  for (const auto& [path, update] : shared) {
    const std::string failure = path_failure(update, mine.at(path));
    if (!failure.empty()) {
      out.note = "Case 2: " + path + " does not reconcile (" + failure + "), nothing reconciled";
      return out;
    }
  }
  for (const auto& [path, update] : shared) {
    rewrite_path(path, update, out);
    out.reconciled_paths.push_back(path);
  }
  out.note = "Case 2 reconciled";
  for (const std::string& path : out.reconciled_paths) out.note += " " + path;
  return out;
}

}  // namespace skipsound
