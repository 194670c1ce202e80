#include "checker/dv_union.h"

#include <algorithm>
#include <map>

#include "checker/filter_classification.h"
#include "model/mutants/fault_injection.h"
#include "model/table/deletion_vector.h"
#include "model/values/enum_names.h"

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

// §10.2 (a), (d) and (b) for one shared path, with the mutants' deviations; nullopt = it reconciles.
std::optional<Case2Condition> path_failure(const DvUpdate& winner, const DvUpdate& loser) {
  const DeletedRows& w0 = winner.remove->deleted;
  const DeletedRows& dv_win = winner.add->deleted;
  const DeletedRows& dv_base = loser.remove->deleted;
  const DeletedRows& dv_cur = loser.add->deleted;
  if (!fault_active(Mutant::Case2NoMonotonicity)) {
    if (w0 != dv_base) return Case2Condition::SameBase;
    if (!dv_includes(dv_win, dv_base) || !dv_includes(dv_cur, dv_base)) return Case2Condition::MonotoneDvs;
  }
  if (fault_active(Mutant::Case2MergeOnOverlap)) return std::nullopt;
  const DeletedRows& subtracted = fault_active(Mutant::Case2BaseIsDvWin)      ? dv_win
                                  : fault_active(Mutant::Case2NoBaseSubtract) ? DeletedRows{}
                                                                          : dv_base;
  if (!dv_minus(dv_intersection(dv_win, dv_cur), subtracted).empty()) return Case2Condition::Disjoint;
  return std::nullopt;
}

// What each condition's failure means, for the note.
const char* failure_text(Case2Condition condition) {
  switch (condition) {
    case Case2Condition::SameBase: return "the winner's remove names another DV than the loser's base";
    case Case2Condition::Disjoint: return "both deleted the same new position";
    case Case2Condition::RowLocalLoser: return "it reads beyond the rows it changes";
    case Case2Condition::MonotoneDvs: return "a DV does not grow from the base";
    case Case2Condition::AllOrNothing: return "another shared path failed";
  }
  return "?";
}

constexpr EnumNames kConditionNames{std::to_array<EnumName<Case2Condition>>({
    {Case2Condition::SameBase, "same-base"},
    {Case2Condition::Disjoint, "disjoint"},
    {Case2Condition::RowLocalLoser, "row-local-loser"},
    {Case2Condition::MonotoneDvs, "monotone-dvs"},
    {Case2Condition::AllOrNothing, "all-or-nothing"},
})};

constexpr EnumNames kConditionLetters{std::to_array<EnumName<Case2Condition>>({
    {Case2Condition::SameBase, "a"},
    {Case2Condition::Disjoint, "b"},
    {Case2Condition::RowLocalLoser, "c"},
    {Case2Condition::MonotoneDvs, "d"},
    {Case2Condition::AllOrNothing, "e"},
})};

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

bool deterministic_condition(const ExprPtr& condition) { return !condition || is_deterministic(*condition); }

// §10.2(c), §10.8: a MERGE of WHEN MATCHED clauses only decides each target row from that row and
// its source row (the model's source is literal rows, never a read of the target). A NOT MATCHED
// clause inserts what the matched rows leave out, so it depends on rows the MERGE does not change.
bool is_row_local_merge(const MergeSpec& merge) {
  if (!merge.matched_only() || !deterministic_condition(merge.on)) return false;
  return std::all_of(merge.matched.begin(), merge.matched.end(),
                     [](const MergeClause& clause) { return deterministic_condition(clause.condition); });
}

using SharedPaths = std::vector<std::pair<std::string, DvUpdate>>;

// The first condition failed, in the winner's path order, with the paths that pass held back by
// (e); nullopt when every shared path reconciles.
std::optional<Case2Refusal> refusal_of(const Transaction& loser, const SharedPaths& shared,
                                       const std::map<std::string, DvUpdate>& mine) {
  if (!fault_active(Mutant::Case2NonlocalLoser) && !is_row_local(loser)) {
    return Case2Refusal{Case2Condition::RowLocalLoser, "", {}};
  }
  std::optional<Case2Refusal> refusal;
  std::vector<std::string> passed;
  for (const auto& [path, update] : shared) {
    const std::optional<Case2Condition> failure = path_failure(update, mine.at(path));
    if (!failure) {
      passed.push_back(path);
    } else if (!refusal) {
      refusal = Case2Refusal{*failure, path, {}};
    }
  }
  if (refusal) refusal->held_back = std::move(passed);
  return refusal;
}

}  // namespace

bool is_row_local(const Transaction& loser) {
  if (loser.reads.whole_table || loser.operations.size() != 1 || loser.reads.predicates.size() != 1) return false;
  const Operation& op = loser.operations.front();
  switch (op.kind) {
    case OperationKind::Delete:
    case OperationKind::Update: return deterministic_condition(op.condition);
    case OperationKind::Merge: return is_row_local_merge(op.merge);
    default: return false;
  }
}

const char* case2_condition_name(Case2Condition condition) { return kConditionNames.name(condition); }

const char* case2_condition_letter(Case2Condition condition) { return kConditionLetters.name(condition); }

std::string case2_refusal_text(const Case2Refusal& refusal) {
  const Case2Condition c = refusal.condition;
  std::string text = refusal.path.empty() ? std::string("the loser") : refusal.path;
  text += std::string(" fails (") + case2_condition_letter(c) + ") " + case2_condition_name(c) + ": " + failure_text(c);
  if (refusal.held_back.empty()) return text;
  const Case2Condition e = Case2Condition::AllOrNothing;
  text += std::string("; held back by (") + case2_condition_letter(e) + ") " + case2_condition_name(e) + ":";
  for (const std::string& path : refusal.held_back) text += " " + path;
  return text;
}

DvReconciliation reconcile_deletion_vectors(const Transaction& loser, const Commit& winner) {
  DvReconciliation out{{}, std::nullopt, "", loser.commit, loser.reads, winner};
  const std::map<std::string, DvUpdate> mine = dv_updates(loser.commit);
  SharedPaths shared;
  for (const auto& [path, update] : dv_updates(winner)) {
    if (!update.add->deleted.empty() && mine.count(path)) shared.emplace_back(path, update);
  }
  if (shared.empty()) return out;
  out.refusal = refusal_of(loser, shared, mine);
  if (out.refusal) {
    out.note = "Case 2: " + case2_refusal_text(*out.refusal) + ", nothing reconciled";
    return out;
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
