// The serial-order oracle: serializable commits, missed conflicts with the differing rows, real
// aborts, false conflicts, and the extra orders WriteSerializable and SnapshotIsolation allow.
#include <gtest/gtest.h>

#include "checker/scan_planner.h"
#include "model/mutants/fault_injection.h"
#include "model/sql/binder.h"
#include "tests/support/id_x_table.h"
#include "proofs/scenario/schedule_verdict.h"

namespace skipsound {
namespace {

Schema schema() { return test::id_x_schema(); }
Row row(int64_t id, int64_t x) { return test::id_x_row(id, x); }

Table table(IsolationLevel isolation) {
  TableProperties props;
  props.isolation = isolation;
  Table t(schema(), props);
  int n = 0;
  for (const Row& r : {row(1, 5), row(2, 20)}) {
    TableFile f = t.write_files({r}, "f" + std::to_string(++n), 0, StatsPresence::Collected).front();
    t.add_initial_file(std::move(f));
  }
  return t;
}

struct World {
  Table snapshot;
  std::vector<Transaction> txns;
  ScheduleRun run;
  std::vector<TransactionVerdict> verdicts;
};

Operation delete_where(const std::string& where) {
  Operation op;
  op.kind = OperationKind::Delete;
  op.text = "DELETE WHERE " + where;
  op.condition = parse_and_bind(where, schema());
  return op;
}

Operation set_x15() {
  Operation op;
  op.kind = OperationKind::Update;
  op.text = "UPDATE SET x = 15 WHERE id = 1";
  op.condition = parse_and_bind("id = 1", schema());
  op.assignments.push_back(Assignment{1, make_literal(Value::integral(TypeKind::Int, 15))});
  return op;
}

Operation insert(Row r) {
  Operation op;
  op.kind = OperationKind::Insert;
  op.text = "INSERT";
  op.rows = {std::move(r)};
  return op;
}

// `mutant`: injected into the transactions' scans and the conflict checks, not the oracle.
World play(IsolationLevel isolation, std::vector<Operation> ops, ConflictCheckOptions options = {},
           Mutant mutant = Mutant::None) {
  World w{table(isolation), {}, {}, {}};
  {
    const FaultScope fault(mutant);
    const ProductionScanPlanner planner;
    for (size_t i = 0; i < ops.size(); ++i) {
      const std::string name = "T" + std::to_string(i + 1);
      w.txns.push_back(run_transaction(name, w.snapshot, {ops[i]}, {name, StatsPresence::Collected, false, false}, planner));
    }
    std::vector<size_t> order(ops.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    w.run = run_schedule(w.snapshot, w.txns, order, options);
  }
  w.verdicts = judge_schedule(w.txns, w.run);
  return w;
}

TEST(SerialOracle, SoundCheckerAbortsTheWriteSkewAsARealConflict) {
  const World w = play(IsolationLevel::Serializable, {set_x15(), delete_where("x > 10")});
  ASSERT_EQ(w.verdicts.size(), 2u);
  EXPECT_EQ(w.verdicts[0].kind, VerdictKind::SerializableCommit);
  EXPECT_EQ(w.verdicts[1].kind, VerdictKind::Abort);
  EXPECT_EQ(w.verdicts[1].exception, ConflictKind::ConcurrentAppend);
}

TEST(SerialOracle, AppendSuppressionMutantIsAMissedConflictShowingTheSurvivingRow) {
  const World w = play(IsolationLevel::Serializable, {set_x15(), delete_where("x > 10")},
                       {}, Mutant::AppendSuppression);
  ASSERT_EQ(w.verdicts[1].kind, VerdictKind::MissedConflict);
  EXPECT_FALSE(w.verdicts[1].exception);
  ASSERT_EQ(w.verdicts[1].diff.only_in_outcome.size(), 1u);
  EXPECT_EQ(w.verdicts[1].diff.only_in_outcome[0], row(1, 15));
  EXPECT_TRUE(w.verdicts[1].diff.only_in_serial.empty());
  EXPECT_EQ(w.verdicts[1].allowed.front().order, "T1 -> T2");
}

// docs/semantics.md §6.4: the write skew's committed state is what T2 then T1 gives, an order Serializable
// does not allow.
TEST(SerialOracle, TheWriteSkewIsLabelledHistoryOrder) {
  const World w = play(IsolationLevel::Serializable, {set_x15(), delete_where("x > 10")},
                       {}, Mutant::AppendSuppression);
  ASSERT_EQ(w.verdicts[1].kind, VerdictKind::MissedConflict);
  EXPECT_EQ(w.verdicts[1].label, MissedConflictLabel::HistoryOrder);
  EXPECT_EQ(w.verdicts[1].matching_order, "T2 -> T1");
}

// ---- docs/semantics.md §10 "Model prerequisites": deletion-vector worlds (one file P = [1, 2, 3, 4]) ----

struct DvWorld {
  Table snapshot;
  std::vector<Transaction> txns;
  std::vector<TransactionVerdict> verdicts;
};

Table dv_file_table() {
  TableProperties props;
  props.deletion_vectors = true;
  Table t(schema(), props);
  t.add_initial_file(t.write_files({row(1, 1), row(2, 2), row(3, 3), row(4, 4)}, "p", 0, StatsPresence::Collected).front());
  return t;
}

// `mutant`: injected into the conflict checks only.
DvWorld play_dv(const Table& snapshot, std::vector<Operation> ops, ConflictCheckOptions options = {},
                Mutant mutant = Mutant::None) {
  DvWorld w{snapshot, {}, {}};
  for (size_t i = 0; i < ops.size(); ++i) {
    const std::string name = "T" + std::to_string(i + 1);
    w.txns.push_back(run_transaction(name, snapshot, {ops[i]}, {name, StatsPresence::Collected, false, false},
                                     ProductionScanPlanner()));
  }
  const ScheduleRun run = [&] {
    const FaultScope fault(mutant);
    return run_schedule(snapshot, w.txns, {0, 1}, options);
  }();
  w.verdicts = judge_schedule(w.txns, run);
  return w;
}

TEST(SerialOracle, AReconciliationIsJudgedLikeACommit) {
  const Table t = dv_file_table();
  const DvWorld sound = play_dv(t, {delete_where("id = 1"), delete_where("id = 2")});
  EXPECT_EQ(sound.verdicts[1].kind, VerdictKind::SerializableCommit);
  // The stale tombstone: both DV versions stay live; no order gives rows 2, 3, 3, 4, 4.
  const DvWorld bad = play_dv(t, {delete_where("id = 1"), delete_where("id = 2")}, {}, Mutant::Case2NoRepoint);
  ASSERT_EQ(bad.verdicts[1].kind, VerdictKind::MissedConflict);
  EXPECT_EQ(bad.verdicts[1].label, MissedConflictLabel::Cycle);
}

// docs/semantics.md §10.8: with Case 2 off (or the liveness mutant) the abort is judged on the loser's actions
// rebased onto the winner's DV, which match the history order: a false conflict, not a real one.
TEST(SerialOracle, AnAbortIsJudgedOnTheRebasedActions) {
  const Table t = dv_file_table();
  ConflictCheckOptions off;
  off.row_level_concurrency = false;
  const DvWorld w = play_dv(t, {delete_where("id = 1"), delete_where("id = 2")}, off);
  EXPECT_EQ(w.verdicts[1].kind, VerdictKind::FalseConflict);
  Table based = t;
  apply_commit(based, run_transaction("B", t, {delete_where("id = 4")}, {"B", StatsPresence::Collected, false, false},
                                      ProductionScanPlanner())
                          .commit);
  const DvWorld live = play_dv(based, {delete_where("id = 1"), delete_where("id = 2")}, {}, Mutant::Case2NoBaseSubtract);
  EXPECT_EQ(live.verdicts[1].kind, VerdictKind::FalseConflict);
  EXPECT_EQ(play_dv(based, {delete_where("id = 1"), delete_where("id = 2")}).verdicts[1].kind,
            VerdictKind::SerializableCommit);
}

// docs/semantics.md §10.7 case2-no-monotonicity: T1 restores the version with dv{0}, T2 deletes id 3 from the
// snapshot's dv{0, 1}; the union leaves only row 4, which neither order gives: a cycle.
TEST(SerialOracle, TheMonotonicityHoleIsACycle) {
  Table t = dv_file_table();
  apply_commit(t, run_transaction("V1", t, {delete_where("id = 1")}, {"V1", StatsPresence::Collected, false, false},
                                  ProductionScanPlanner())
                      .commit);
  Operation restore;
  restore.kind = OperationKind::Restore;
  restore.text = "RESTORE TO VERSION 1";
  restore.restore_to = t.files();
  apply_commit(t, run_transaction("V2", t, {delete_where("id = 2")}, {"V2", StatsPresence::Collected, false, false},
                                  ProductionScanPlanner())
                      .commit);
  EXPECT_EQ(play_dv(t, {restore, delete_where("id = 3")}).verdicts[1].kind, VerdictKind::Abort);
  const DvWorld bad = play_dv(t, {restore, delete_where("id = 3")}, {}, Mutant::Case2NoMonotonicity);
  ASSERT_EQ(bad.verdicts[1].kind, VerdictKind::MissedConflict);
  EXPECT_EQ(bad.verdicts[1].label, MissedConflictLabel::Cycle);
}

// A scan-time bug on the loser's scan: le-as-lt builds max(x) > 20 for x >= 20, so T2's DELETE
// skips f2 and deletes nothing. The oracle's re-run reads every file, so this is no longer
// "committed, serializable" (the re-run used to skip f2 too).
TEST(SerialOracle, LeAsLtOnTheLosersScanIsAWrongResult) {
  const World w = play(IsolationLevel::Serializable, {insert(row(3, 1)), delete_where("x >= 20")},
                       {}, Mutant::LeAsLt);
  ASSERT_EQ(w.verdicts.size(), 2u);
  EXPECT_EQ(w.verdicts[0].kind, VerdictKind::SerializableCommit);
  ASSERT_EQ(w.verdicts[1].kind, VerdictKind::WrongResult);
  EXPECT_FALSE(w.verdicts[1].exception);
  EXPECT_EQ(w.verdicts[1].diff.only_in_outcome, (std::vector<Row>{row(2, 20)}));
  EXPECT_TRUE(w.verdicts[1].diff.only_in_serial.empty());
  EXPECT_EQ(w.verdicts[1].allowed.front().order, "T2 alone on its snapshot, reading every row");
  // Without the mutant the same schedule is serializable: the verdict is the mutant's doing.
  EXPECT_EQ(play(IsolationLevel::Serializable, {insert(row(3, 1)), delete_where("x >= 20")})
                .verdicts[1].kind,
            VerdictKind::SerializableCommit);
}

// T2's own scan is right (x >= 15 skips only f1, x = 5), but le-as-lt also excludes T1's new file
// (x = 15) at conflict time. Re-run after T1 reading every file, T2 deletes (1, 15) as well: a
// missed conflict. The re-run through the mutated planner skipped that file too and judged it
// serializable.
TEST(SerialOracle, LeAsLtHidingTheWinnersRowIsAMissedConflict) {
  const World w = play(IsolationLevel::Serializable, {set_x15(), delete_where("x >= 15")},
                       {}, Mutant::LeAsLt);
  ASSERT_EQ(w.verdicts.size(), 2u);
  ASSERT_EQ(w.verdicts[1].kind, VerdictKind::MissedConflict);
  EXPECT_EQ(w.verdicts[1].diff.only_in_outcome, (std::vector<Row>{row(1, 15)}));
  EXPECT_EQ(w.verdicts[1].allowed.front().order, "T1 -> T2");
}

TEST(SerialOracle, AbortOfAnIndependentWriteIsAFalseConflict) {
  const World w = play(IsolationLevel::Serializable, {insert(row(3, 30)), delete_where("x > 10")},
                       {false});
  EXPECT_EQ(w.verdicts[1].kind, VerdictKind::Abort);  // the insert x = 30 does match x > 10
  const World disjoint = play(IsolationLevel::Serializable, {insert(row(3, 1)), delete_where("x > 10")},
                              {false});
  EXPECT_EQ(disjoint.verdicts[1].kind, VerdictKind::FalseConflict);
  EXPECT_EQ(disjoint.verdicts[1].exception, ConflictKind::ConcurrentAppend);
}

TEST(SerialOracle, WriteSerializableAllowsTheBlindAppendAfterTheLoser) {
  const World w = play(IsolationLevel::WriteSerializable, {insert(row(3, 30)), delete_where("x > 10")});
  ASSERT_EQ(w.verdicts[1].allowed.size(), 2u);
  EXPECT_EQ(w.verdicts[1].allowed[1].order, "T2 -> T1");
  EXPECT_EQ(w.verdicts[1].kind, VerdictKind::SerializableCommit);
  // Under Serializable the same schedule must abort.
  const World s = play(IsolationLevel::Serializable, {insert(row(3, 30)), delete_where("x > 10")});
  EXPECT_EQ(s.verdicts[1].kind, VerdictKind::Abort);
}

TEST(SerialOracle, EmptyCommitMayBeOrderedFirst) {
  const World w = play(IsolationLevel::Serializable, {insert(row(3, 30)), delete_where("x > 100")});
  EXPECT_EQ(w.verdicts[1].kind, VerdictKind::SerializableCommit);
  EXPECT_EQ(w.verdicts[1].allowed.back().order, "T2 -> T1");
}

// T2 matched nothing on its snapshot and commits after T1's insert by the SnapshotIsolation order
// "T2 first". T3 is the same shape; re-running T1 then T2 from the snapshot (T2 would then delete
// x = 30) is not their history, so T3 ordered first must leave that history as committed.
TEST(SerialOracle, EmptyCommitOrderedFirstKeepsTheWinnersHistory) {
  const World w = play(IsolationLevel::Serializable,
                       {insert(row(3, 30)), delete_where("x > 25"), delete_where("x > 28")});
  ASSERT_EQ(w.verdicts.size(), 3u);
  EXPECT_EQ(w.verdicts[1].kind, VerdictKind::SerializableCommit);
  EXPECT_EQ(w.verdicts[2].kind, VerdictKind::SerializableCommit);
  EXPECT_EQ(w.verdicts[2].allowed.back().order, "T3 -> T1 -> T2");
  EXPECT_EQ(w.verdicts[2].allowed.back().rows, (std::vector<Row>{row(1, 5), row(2, 20), row(3, 30)}));
}

TEST(SerialOracle, CanonicalRowsIgnoreOrderAndKeepDuplicates) {
  EXPECT_EQ(canonical_rows({row(2, 1), row(1, 1), row(2, 1)}), (std::vector<Row>{row(1, 1), row(2, 1), row(2, 1)}));
  Row with_null = {Value::null(DataType::of(TypeKind::Long)), Value::integral(TypeKind::Int, 0)};
  EXPECT_TRUE(row_less(with_null, row(1, 0)));
  EXPECT_FALSE(row_less(row(1, 0), with_null));
  EXPECT_EQ(verdict_kind_from_name(verdict_kind_name(VerdictKind::FalseConflict)), VerdictKind::FalseConflict);
  EXPECT_EQ(verdict_kind_from_name("wrong-result"), VerdictKind::WrongResult);
  EXPECT_TRUE(is_unsound(VerdictKind::WrongResult));
  EXPECT_TRUE(is_unsound(VerdictKind::MissedConflict));
  EXPECT_FALSE(is_unsound(VerdictKind::FalseConflict));
}

}  // namespace
}  // namespace skipsound
