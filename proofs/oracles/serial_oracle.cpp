#include "proofs/oracles/serial_oracle.h"

#include <algorithm>
#include <iterator>
#include <set>
#include <string>

#include "model/coverage/coverage.h"
#include "model/table/deletion_vector.h"
#include "model/values/value.h"
#include "model/values/enum_names.h"

namespace skipsound {

namespace {

constexpr EnumNames kVerdictKindNames{std::to_array<EnumName<VerdictKind>>({
    {VerdictKind::SerializableCommit, "commit"},
    {VerdictKind::WrongResult, "wrong-result"},
    {VerdictKind::MissedConflict, "missed-conflict"},
    {VerdictKind::Abort, "abort"},
    {VerdictKind::FalseConflict, "false-conflict"},
})};

}  // namespace

const char* verdict_kind_name(VerdictKind kind) { return kVerdictKindNames.name(kind); }

namespace {

constexpr EnumNames kMissedConflictLabelNames{std::to_array<EnumName<MissedConflictLabel>>({
    {MissedConflictLabel::None, ""},
    {MissedConflictLabel::HistoryOrder, "history-order"},
    {MissedConflictLabel::Cycle, "cycle"},
})};

}  // namespace

const char* missed_conflict_label_name(MissedConflictLabel label) { return kMissedConflictLabelNames.name(label); }

std::optional<VerdictKind> verdict_kind_from_name(std::string_view name) {
  return kVerdictKindNames.value(name);
}

bool is_unsound(VerdictKind kind) {
  return kind == VerdictKind::WrongResult || kind == VerdictKind::MissedConflict;
}

namespace {

// A total order on values: NULL first, then Spark's order where defined, else the literal text.
int compare_values(const Value& a, const Value& b) {
  if (a.is_null() || b.is_null()) return static_cast<int>(b.is_null()) - static_cast<int>(a.is_null()) ;
  if (comparable(a.type, b.type)) {
    const auto order = spark_compare(a, b);
    if (order && *order != std::strong_ordering::equal) {
      return *order == std::strong_ordering::less ? -1 : 1;
    }
    if (order && a.type == b.type) return 0;
  }
  const std::string ta = to_sql_literal(a), tb = to_sql_literal(b);
  return ta < tb ? -1 : (tb < ta ? 1 : 0);
}

}  // namespace

bool row_less(const Row& a, const Row& b) {
  const size_t n = std::min(a.size(), b.size());
  for (size_t i = 0; i < n; ++i) {
    const int c = compare_values(a[i], b[i]);
    if (c != 0) return c < 0;
  }
  return a.size() < b.size();
}

std::vector<Row> canonical_rows(std::vector<Row> rows) {
  std::sort(rows.begin(), rows.end(), row_less);
  return rows;
}

namespace {

RowDiff diff_rows(const std::vector<Row>& outcome, const std::vector<Row>& serial) {
  RowDiff diff;
  std::set_difference(outcome.begin(), outcome.end(), serial.begin(), serial.end(),
                      std::back_inserter(diff.only_in_outcome), row_less);
  std::set_difference(serial.begin(), serial.end(), outcome.begin(), outcome.end(),
                      std::back_inserter(diff.only_in_serial), row_less);
  return diff;
}

bool same_rows(const std::vector<Row>& a, const std::vector<Row>& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](const Row& x, const Row& y) {
           return !row_less(x, y) && !row_less(y, x);
         });
}

std::vector<Row> after(Table state, const Commit& commit) {
  apply_commit(state, commit);
  return canonical_rows(state.live_rows());
}

std::string order_text(const std::vector<Transaction>& txns, const std::vector<size_t>& before,
                       size_t loser, const std::vector<size_t>& after_loser) {
  std::string text;
  auto add = [&](size_t i) { text += (text.empty() ? "" : " -> ") + txns[i].name; };
  for (size_t i : before) add(i);
  add(loser);
  for (size_t i : after_loser) add(i);
  return text;
}

// The ground truth: the transaction's operations on `state`, every row of every live file read.
Commit serial_commit(const Transaction& txn, const Table& state) {
  return rerun(txn, state, EveryFilePlanner{}).commit;
}

// docs/semantics.md §7.4, read from the spec (not asked of the checker): a commit whose actions are all file
// actions (or row-tracking domain metadata) without dataChange — and, under WriteSerializable,
// whose operation changes no data — has no logical effect, so Delta may order it before the
// winners. An empty commit is one.
bool has_no_logical_effect(const Commit& commit, IsolationLevel table_level) {
  for (const Action& action : commit.other_actions) {
    const auto* domain = std::get_if<DomainMetadata>(&action);
    if (!domain || domain->domain != "delta.rowTracking") return false;
  }
  for (const TableFile& add : commit.adds) {
    if (add.data_change) return false;
  }
  for (const FileRemoval& removal : commit.removes) {
    if (removal.data_change) return false;
  }
  return table_level != IsolationLevel::WriteSerializable || !commit.changes_data;
}

// docs/semantics.md §6.4: WriteSerializable lets a blind-append winner be ordered after a loser that keeps the
// table's level.
bool blind_appends_may_follow(const Commit& loser, IsolationLevel table_level) {
  return table_level == IsolationLevel::WriteSerializable && !has_no_logical_effect(loser, table_level);
}

// Whether `txn` read or removed one of `paths`: its outcome depends on the commit that added them.
bool touches_any(const Transaction& txn, const std::set<std::string>& paths) {
  const auto listed = [&](const std::string& path) { return paths.contains(path); };
  return std::any_of(txn.reads.files.begin(), txn.reads.files.end(), listed) ||
         std::any_of(txn.commit.removes.begin(), txn.commit.removes.end(),
                     [&](const FileRemoval& removal) { return listed(removal.path); });
}

// docs/semantics.md §6.4: the winners that go after the loser when the blind appends do. A winner that read
// or removed a file a moved winner added saw that winner's rows, so it moves with it (in history
// order); the others keep their place before the loser.
std::vector<size_t> winners_following_blind_appends(const std::vector<Transaction>& txns,
                                                    const std::vector<size_t>& winners) {
  std::vector<size_t> moved;
  std::set<std::string> moved_adds;
  for (size_t w : winners) {
    const Commit& commit = txns[w].commit;
    if (!commit.is_blind_append() && !touches_any(txns[w], moved_adds)) continue;
    moved.push_back(w);
    for (const TableFile& add : commit.adds) moved_adds.insert(add.path);
  }
  return moved;
}

// What each transaction put into the log, by index: its own actions, or the rebased ones.
using LoggedActions = std::vector<const Commit*>;

// The serial executions a commit of `attempt`'s transaction may match.
std::vector<SerialOutcome> allowed_outcomes(const std::vector<Transaction>& txns, const OracleAttempt& attempt,
                                            const LoggedActions& logged) {
  const Table& snapshot = attempt.snapshot;
  const Transaction& loser = txns[attempt.transaction];
  const IsolationLevel table_level = snapshot.properties().isolation;
  std::vector<SerialOutcome> allowed;
  allowed.push_back({order_text(txns, attempt.winners, attempt.transaction, {}),
                     after(attempt.state_before, serial_commit(loser, attempt.state_before))});

  const std::vector<size_t> moved = winners_following_blind_appends(txns, attempt.winners);
  if (blind_appends_may_follow(loser.commit, table_level) && !moved.empty()) {
    std::vector<size_t> others;
    std::copy_if(attempt.winners.begin(), attempt.winners.end(), std::back_inserter(others),
                 [&](size_t w) { return std::find(moved.begin(), moved.end(), w) == moved.end(); });
    Table state = snapshot;
    for (size_t w : others) apply_commit(state, *logged[w]);
    apply_commit(state, serial_commit(loser, state));
    for (size_t w : moved) apply_commit(state, serial_commit(txns[w], state));
    allowed.push_back({order_text(txns, others, attempt.transaction, moved),
                       canonical_rows(state.live_rows())});
  }
  // Delta's reason for dropping such commits to SnapshotIsolation: an empty or dataChange-free
  // commit may be ordered before the winners (canDowngradeToSnapshotIsolation, Note-2). Its
  // logical effect is nil, so ordered first it leaves the winners' history as they committed it
  // (each winner's own order is judged by its own verdict); re-running the winners one after
  // another instead would judge them again, against each other.
  if (has_no_logical_effect(loser.commit, table_level)) {
    allowed.push_back({order_text(txns, {}, attempt.transaction, attempt.winners),
                       canonical_rows(attempt.state_before.live_rows())});
  }
  return allowed;
}

// A committed transaction whose actions, applied to its own snapshot, differ from its operations
// run there reading every row: a scan skipped rows its conditions match (or read rows they do
// not). Judged before any order, since no serial order can repair what it computed.
std::optional<SerialVerdict> wrong_result(const Table& snapshot, const std::vector<Transaction>& txns,
                                          size_t index) {
  const Transaction& txn = txns[index];  // started from `snapshot`
  SerialVerdict verdict;
  verdict.transaction = index;
  verdict.kind = VerdictKind::WrongResult;
  verdict.outcome = after(snapshot, txn.commit);
  verdict.allowed.push_back({txn.name + " alone on its snapshot, reading every row",
                             after(snapshot, serial_commit(txn, snapshot))});
  verdict.diff = diff_rows(verdict.outcome, verdict.allowed.front().rows);
  if (verdict.diff.empty()) return std::nullopt;
  return verdict;
}

// docs/semantics.md §10.8: the loser's actions rebased onto the winners' state. For a path it changed with a
// DV (one remove, one add) whose one live file the winners gave another DV, the add carries the
// union and the remove names the live DV; every other action is kept. Written here from the spec,
// not taken from the checker's Case 2.
Commit rebased_onto(const Commit& actions, const Table& state) {
  Commit rebased = actions;
  for (FileRemoval& remove : rebased.removes) {
    const auto same_path = [&](const auto& f) { return f.path == remove.path; };
    if (std::count_if(rebased.removes.begin(), rebased.removes.end(), same_path) != 1 ||
        std::count_if(rebased.adds.begin(), rebased.adds.end(), same_path) != 1 ||
        std::count_if(state.files().begin(), state.files().end(), same_path) != 1) {
      continue;
    }
    const DeletedRows& live_dv = std::find_if(state.files().begin(), state.files().end(), same_path)->deleted;
    if (live_dv == remove.deleted) continue;
    TableFile& add = *std::find_if(rebased.adds.begin(), rebased.adds.end(), same_path);
    add.deleted = dv_union(live_dv, add.deleted);
    remove.deleted = live_dv;
  }
  return rebased;
}

// docs/semantics.md §10.6: for a missed conflict, whether any serial order of the transactions involved (the
// winners and the loser, each re-run on the state before it, from the loser's snapshot) gives the
// outcome.
std::optional<std::string> any_order_giving(const std::vector<Transaction>& txns, const OracleAttempt& attempt,
                                            const std::vector<Row>& outcome) {
  std::vector<size_t> involved = attempt.winners;
  involved.push_back(attempt.transaction);
  std::sort(involved.begin(), involved.end());
  do {
    Table state = attempt.snapshot;
    std::string order;
    for (size_t t : involved) {
      apply_commit(state, serial_commit(txns[t], state));
      order += (order.empty() ? "" : " -> ") + txns[t].name;
    }
    if (same_rows(canonical_rows(state.live_rows()), outcome)) return order;
  } while (std::next_permutation(involved.begin(), involved.end()));
  return std::nullopt;
}

LoggedActions logged_actions(const std::vector<Transaction>& transactions, const std::vector<OracleAttempt>& attempts) {
  LoggedActions logged(transactions.size());
  for (size_t i = 0; i < transactions.size(); ++i) logged[i] = &transactions[i].commit;
  for (const OracleAttempt& a : attempts) {
    if (a.committed && a.committed_actions) logged[a.transaction] = &*a.committed_actions;
  }
  return logged;
}

}  // namespace

namespace {

// docs/semantics.md §6.3's outcomes as coverage rows: a commit counts by the first order that explains it.
coverage::Probe verdict_probe(const SerialVerdict& v) {
  using coverage::Probe;
  switch (v.kind) {
    case VerdictKind::SerializableCommit:
      return same_rows(v.allowed.front().rows, v.outcome) ? Probe::SerialCommit : Probe::SerialCommitOtherOrder;
    case VerdictKind::WrongResult: return Probe::SerialWrongResult;
    case VerdictKind::MissedConflict: return Probe::SerialMissedConflict;
    case VerdictKind::Abort: return Probe::SerialAbort;
    case VerdictKind::FalseConflict: return Probe::SerialFalseConflict;
  }
  return Probe::SerialAbort;
}

}  // namespace

std::vector<SerialVerdict> judge_attempts(const std::vector<Transaction>& transactions,
                                          const std::vector<OracleAttempt>& attempts) {
  std::vector<SerialVerdict> verdicts;
  verdicts.reserve(attempts.size());
  const LoggedActions logged = logged_actions(transactions, attempts);
  for (const OracleAttempt& attempt : attempts) {
    if (attempt.committed) {
      if (auto wrong = wrong_result(attempt.snapshot, transactions, attempt.transaction)) {
        coverage::hit(coverage::Probe::SerialWrongResult);
        verdicts.push_back(std::move(*wrong));
        continue;
      }
    }
    SerialVerdict verdict;
    verdict.transaction = attempt.transaction;
    const Commit& own = transactions[attempt.transaction].commit;
    verdict.outcome = after(attempt.state_before, attempt.committed ? *logged[attempt.transaction]
                                                                    : rebased_onto(own, attempt.state_before));
    verdict.allowed = allowed_outcomes(transactions, attempt, logged);
    const bool explained =
        std::any_of(verdict.allowed.begin(), verdict.allowed.end(),
                    [&](const SerialOutcome& s) { return same_rows(s.rows, verdict.outcome); });
    if (attempt.committed) {
      verdict.kind = explained ? VerdictKind::SerializableCommit : VerdictKind::MissedConflict;
    } else {
      verdict.kind = explained ? VerdictKind::FalseConflict : VerdictKind::Abort;
    }
    if (!explained) verdict.diff = diff_rows(verdict.outcome, verdict.allowed.front().rows);
    if (verdict.kind == VerdictKind::MissedConflict) {
      const std::optional<std::string> order = any_order_giving(transactions, attempt, verdict.outcome);
      verdict.label = order ? MissedConflictLabel::HistoryOrder : MissedConflictLabel::Cycle;
      verdict.matching_order = order.value_or("");
    }
    coverage::hit(verdict_probe(verdict));
    verdicts.push_back(std::move(verdict));
  }
  return verdicts;
}

}  // namespace skipsound
