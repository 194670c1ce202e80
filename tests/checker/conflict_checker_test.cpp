// The conflict checker (docs/semantics.md §7.1): every check, every exception, the isolation levels and the
// dataChange=false downgrade, in copy-on-write and deletion-vector modes.
#include <gtest/gtest.h>

#include "checker/conflict_checker.h"
#include "checker/scan_planner.h"
#include "model/mutants/fault_injection.h"
#include "model/sql/binder.h"
#include "tests/support/id_x_table.h"

namespace skipsound {
namespace {

Schema schema() { return test::id_x_schema(); }
Row row(int64_t id, int64_t x) { return test::id_x_row(id, x); }

std::vector<Row> range_rows(int64_t from, int64_t to) {
  std::vector<Row> rows;
  for (int64_t i = from; i < to; ++i) rows.push_back(row(i, 0));
  return rows;
}

Table make_table(IsolationLevel isolation = IsolationLevel::Serializable, bool dv = false) {
  TableProperties props;
  props.isolation = isolation;
  props.deletion_vectors = dv;
  Table table(schema(), props);
  for (int64_t f = 0; f < 4; ++f) {
    TableFile file = table.write_files(range_rows(f * 100, f * 100 + 100), "f" + std::to_string(f), 0,
                                       StatsPresence::Collected).front();
    table.add_initial_file(std::move(file));
  }
  return table;
}

Operation insert(int64_t from, int64_t to) {
  Operation op;
  op.kind = OperationKind::Insert;
  op.text = "INSERT";
  op.rows = range_rows(from, to);
  return op;
}

Operation with_condition(OperationKind kind, const std::string& where) {
  Operation op;
  op.kind = kind;
  op.text = where;
  op.condition = parse_and_bind(where, schema());
  return op;
}

Transaction txn(const std::string& name, const Table& table, std::vector<Operation> ops,
                WriterSettings settings = {}) {
  settings.path_prefix = name;
  return run_transaction(name, table, std::move(ops), settings, ProductionScanPlanner());
}

// `mutant`: injected into the check (model/mutants/fault_injection.h).
std::optional<ConflictKind> conflict(const Transaction& loser, const Table& snapshot, const Commit& winner,
                                     ConflictCheckOptions options = {}, Mutant mutant = Mutant::None) {
  const FaultScope fault(mutant);
  ConflictOutcome outcome = check_conflict(loser, snapshot, winner, options).outcome;
  if (const auto* c = std::get_if<Conflict>(&outcome)) return c->kind;
  return std::nullopt;
}

TEST(ConflictChecker, DisjointAppendIsSkippedOverlappingConflicts) {
  const Table table = make_table();
  const Transaction winner = txn("W", table, {insert(1000, 1100)});
  EXPECT_EQ(conflict(txn("L", table, {with_condition(OperationKind::Delete, "id < 50")}), table, winner.commit),
            std::nullopt);
  EXPECT_EQ(conflict(txn("L", table, {with_condition(OperationKind::Delete, "id >= 350")}), table, winner.commit),
            ConflictKind::ConcurrentAppend);
}

TEST(ConflictChecker, FlagOffOnUnpartitionedTableConflictsOnAnyAdd) {
  const Table table = make_table();
  const Transaction winner = txn("W", table, {insert(1000, 1100)});
  const Transaction loser = txn("L", table, {with_condition(OperationKind::Delete, "id < 50")});
  EXPECT_EQ(conflict(loser, table, winner.commit, {false}), ConflictKind::ConcurrentAppend);
}

TEST(ConflictChecker, BlindAppendLoserIsNeverCheckedForAppends) {
  const Table table = make_table();
  const Transaction winner = txn("W", table, {insert(0, 10)});
  EXPECT_EQ(conflict(txn("L", table, {insert(0, 10)}), table, winner.commit), std::nullopt);
  WriterSettings not_blind;
  not_blind.force_not_blind = true;
  EXPECT_EQ(conflict(txn("L", table, {insert(0, 10)}, not_blind), table, winner.commit),
            ConflictKind::ConcurrentAppend);
}

TEST(ConflictChecker, WriteSerializableIgnoresBlindAppendWinners) {
  const Table table = make_table(IsolationLevel::WriteSerializable);
  const Transaction blind = txn("W", table, {insert(1000, 1100)});
  const Transaction loser = txn("L", table, {with_condition(OperationKind::Delete, "id >= 350")});
  EXPECT_EQ(conflict(loser, table, blind.commit), std::nullopt);
  // The same winner under Serializable conflicts.
  const Table serializable = make_table(IsolationLevel::Serializable);
  EXPECT_EQ(conflict(txn("L", serializable, {with_condition(OperationKind::Delete, "id >= 350")}), serializable,
                     txn("W", serializable, {insert(1000, 1100)}).commit),
            ConflictKind::ConcurrentAppend);
  // A non-blind winner is checked under WriteSerializable.
  Operation update = with_condition(OperationKind::Update, "id = 5");
  update.assignments.push_back(Assignment{0, make_literal(Value::integral(TypeKind::Long, 960))});
  const Transaction updater = txn("W", table, {update});
  EXPECT_EQ(conflict(loser, table, updater.commit), ConflictKind::ConcurrentAppend);
}

TEST(ConflictChecker, WriteSerializableChecksBlindAppendsWhenTheLoserChangesMetadata) {
  const Table table = make_table(IsolationLevel::WriteSerializable);
  const Transaction blind = txn("W", table, {insert(1000, 1100)});
  Transaction loser = txn("L", table, {with_condition(OperationKind::Delete, "id >= 350")});
  loser.commit.other_actions.push_back(table.metadata());
  EXPECT_EQ(conflict(loser, table, blind.commit), ConflictKind::ConcurrentAppend);
}

TEST(ConflictChecker, IsolationDowngradeForNoDataChangeCommits) {
  const Table table = make_table();
  Operation optimize;
  optimize.kind = OperationKind::Optimize;
  optimize.text = "OPTIMIZE";
  const Transaction compaction = txn("O", table, {optimize});
  EXPECT_EQ(isolation_to_use(compaction.commit, IsolationLevel::Serializable), IsolationLevel::SnapshotIsolation);
  EXPECT_EQ(isolation_to_use(compaction.commit, IsolationLevel::WriteSerializable),
            IsolationLevel::SnapshotIsolation);
  EXPECT_EQ(isolation_to_use(Commit{}, IsolationLevel::Serializable), IsolationLevel::SnapshotIsolation);
  Commit data_change_free_but_changes_data;  // e.g. an operation Delta marks as changing data
  data_change_free_but_changes_data.changes_data = true;
  EXPECT_EQ(isolation_to_use(data_change_free_but_changes_data, IsolationLevel::WriteSerializable),
            IsolationLevel::WriteSerializable);
  EXPECT_EQ(isolation_to_use(data_change_free_but_changes_data, IsolationLevel::Serializable),
            IsolationLevel::SnapshotIsolation);
  Commit with_metadata;
  with_metadata.other_actions.push_back(table.metadata());
  EXPECT_EQ(isolation_to_use(with_metadata, IsolationLevel::Serializable), IsolationLevel::Serializable);
  const Transaction deleter = txn("D", table, {with_condition(OperationKind::Delete, "id < 5")});
  EXPECT_EQ(isolation_to_use(deleter.commit, IsolationLevel::Serializable), IsolationLevel::Serializable);

  // Row-tracking domain metadata is the one non-file action that still allows the drop (§7.2).
  Commit tracked = compaction.commit;
  tracked.other_actions.push_back(DomainMetadata{"delta.rowTracking", "{}", false});
  EXPECT_EQ(isolation_to_use(tracked, IsolationLevel::Serializable), IsolationLevel::SnapshotIsolation);
  Commit clustered = compaction.commit;
  clustered.other_actions.push_back(DomainMetadata{"delta.clustering", "{}", false});
  EXPECT_EQ(isolation_to_use(clustered, IsolationLevel::Serializable), IsolationLevel::Serializable);

  // OPTIMIZE as the loser: appends are not checked, but delete/read still applies.
  const Transaction appender = txn("W", table, {insert(0, 10)});
  EXPECT_EQ(conflict(compaction, table, appender.commit), std::nullopt);
  EXPECT_EQ(conflict(compaction, table, deleter.commit), ConflictKind::ConcurrentDeleteRead);
  // OPTIMIZE as the winner: its adds are still checked (it is not a blind append).
  EXPECT_EQ(conflict(txn("L", table, {with_condition(OperationKind::Delete, "id = 7")}), table, compaction.commit),
            ConflictKind::ConcurrentAppend);
}

TEST(ConflictChecker, DeleteReadAndWholeTableRead) {
  for (bool dv : {false, true}) {
    const Table table = make_table(IsolationLevel::Serializable, dv);
    // The winner deletes rows of f0 and adds nothing the loser's read could match.
    const Transaction winner = txn("W", table, {with_condition(OperationKind::Delete, "id < 10")});
    const Transaction reader = txn("L", table, {with_condition(OperationKind::Delete, "id >= 50 AND id < 60")});
    // The rewritten f0 (copy-on-write) or its DV re-add still holds ids 50..59: the append
    // check, which runs before delete/read, fires (with DVs only when Case 2 is off: on, the two
    // disjoint DV deletes of f0 reconcile, docs/semantics.md §10.2).
    ConflictCheckOptions no_case2;
    no_case2.row_level_concurrency = false;
    EXPECT_EQ(conflict(reader, table, winner.commit, no_case2), ConflictKind::ConcurrentAppend);
    EXPECT_EQ(conflict(reader, table, winner.commit),
              dv ? std::nullopt : std::optional<ConflictKind>(ConflictKind::ConcurrentAppend));
    // Without the append check's adds (a winner that only removes), delete/read fires.
    const Transaction full = txn("W2", table, {with_condition(OperationKind::Delete, "id < 100")});
    ASSERT_TRUE(full.commit.adds.empty());
    EXPECT_EQ(conflict(reader, table, full.commit), ConflictKind::ConcurrentDeleteRead);
    WriterSettings whole;
    whole.reads_whole_table = true;
    const Transaction whole_reader = txn("L2", table, {with_condition(OperationKind::Delete, "id >= 350")}, whole);
    EXPECT_EQ(conflict(whole_reader, table, full.commit), ConflictKind::ConcurrentDeleteRead);
    const Transaction elsewhere = txn("L3", table, {with_condition(OperationKind::Delete, "id >= 350")});
    EXPECT_EQ(conflict(elsewhere, table, full.commit), std::nullopt);
  }
}

// docs/semantics.md §10.8: Case 1b judges only the files the loser read and did not write; a
// file it also removed fails delete/read as before, even when no removed row matches its read.
TEST(ConflictChecker, Case1bLeavesAFileTheLoserWroteToDeleteRead) {
  const Table table = make_table();
  const Transaction winner = txn("W", table, {with_condition(OperationKind::Delete, "id < 100")});
  ASSERT_TRUE(winner.commit.adds.empty());
  Transaction loser = txn("L", table, {with_condition(OperationKind::Delete, "id = 5")});
  ASSERT_EQ(loser.commit.removes.size(), 1u);
  ASSERT_EQ(loser.commit.removes[0].path, winner.commit.removes[0].path);
  loser.reads.predicates = {parse_and_bind("id = 500", schema())};  // no row of f0 matches
  ConflictCheckOptions case1b;
  case1b.removed_rows = true;
  EXPECT_EQ(conflict(loser, table, winner.commit, case1b), ConflictKind::ConcurrentDeleteRead);
  // A reader that did not write f0 gets Case 1b: none of the removed rows matches id = 500.
  Transaction reader = txn("R", table, {with_condition(OperationKind::Delete, "id = 500")});
  reader.reads.files = {winner.commit.removes[0].path};
  EXPECT_EQ(conflict(reader, table, winner.commit, case1b), std::nullopt);
}

TEST(ConflictChecker, DeleteDeleteComparesPathsWithoutDeletionVectors) {
  const Table table = make_table(IsolationLevel::Serializable, true);
  const Transaction winner = txn("W", table, {with_condition(OperationKind::Delete, "id < 100")});
  Transaction loser = txn("L", table, {with_condition(OperationKind::Delete, "id = 3")});
  ASSERT_FALSE(loser.commit.removes.empty());
  loser.reads.files.clear();  // only the removal overlaps now
  loser.reads.predicates.clear();
  loser.commit.removes[0].deleted = {42};  // a different DV on the same path
  EXPECT_EQ(conflict(loser, table, winner.commit), ConflictKind::ConcurrentDeleteDelete);
}

TEST(ConflictChecker, ProtocolChanges) {
  const Table table = make_table();
  Transaction loser = txn("L", table, {with_condition(OperationKind::Delete, "id = 1")});
  Commit winner;
  Protocol upgraded = table.protocol();
  upgraded.min_reader_version = 3;
  upgraded.min_writer_version = 7;
  upgraded.writer_features = std::vector<std::string>{"appendOnly"};
  winner.other_actions.push_back(upgraded);
  EXPECT_EQ(conflict(loser, table, winner), std::nullopt);  // a harmless feature: checking goes on
  upgraded.writer_features->push_back("catalogManaged");
  winner.other_actions = {upgraded};
  EXPECT_EQ(conflict(loser, table, winner), ConflictKind::ProtocolChanged);
  winner.other_actions = {table.protocol()};
  loser.commit.other_actions.push_back(table.protocol());
  EXPECT_EQ(conflict(loser, table, winner), ConflictKind::ProtocolChanged);
  const Table dv_table = make_table(IsolationLevel::Serializable, true);
  const Transaction dv_loser = txn("L", dv_table, {with_condition(OperationKind::Delete, "id = 1")});
  Commit removes_feature;
  removes_feature.other_actions.push_back(Protocol{});
  EXPECT_EQ(conflict(dv_loser, dv_table, removes_feature), ConflictKind::ProtocolChanged);
}

// docs/semantics.md §7.1 check 1: keeping every feature the snapshot has, and adding only harmless
// ones, lets checking go on; a feature counts whichever of the two lists names it.
TEST(ConflictChecker, ProtocolFeaturesAreComparedAcrossBothLists) {
  const Table table = make_table(IsolationLevel::Serializable, /*dv=*/true);
  ASSERT_TRUE(table.protocol().reader_features.has_value());
  const Transaction loser = txn("L", table, {with_condition(OperationKind::Delete, "id = 1")});
  Commit winner;
  winner.other_actions.push_back(table.protocol());  // deletionVectors kept
  EXPECT_EQ(conflict(loser, table, winner), std::nullopt);
  Protocol more = table.protocol();
  more.writer_features->push_back("appendOnly");
  winner.other_actions = {more};
  EXPECT_EQ(conflict(loser, table, winner), std::nullopt);
  Protocol catalog = table.protocol();
  catalog.reader_features->push_back("catalogManaged");  // named in readerFeatures only
  winner.other_actions = {catalog};
  EXPECT_EQ(conflict(loser, table, winner), ConflictKind::ProtocolChanged);
}

TEST(ConflictChecker, MetadataChanges) {
  const Table table = make_table();
  const Transaction loser = txn("L", table, {with_condition(OperationKind::Delete, "id = 1")});
  Commit same;
  same.other_actions.push_back(table.metadata());
  EXPECT_EQ(conflict(loser, table, same), std::nullopt);
  Metadata row_tracking = table.metadata();
  row_tracking.configuration["delta.enableRowTracking"] = "true";
  Commit allowed;
  allowed.other_actions.push_back(row_tracking);
  EXPECT_EQ(conflict(loser, table, allowed), std::nullopt);
  Metadata added_column = table.metadata();
  auto fields = added_column.schema.fields();
  fields.push_back(StructField{"y", DataType::of(TypeKind::Int), true, {}});
  added_column.schema = Schema(fields);
  Commit alter;
  alter.other_actions.push_back(added_column);
  EXPECT_EQ(conflict(loser, table, alter), ConflictKind::MetadataChanged);
}

TEST(ConflictChecker, DomainMetadataAndAppTransactions) {
  const Table table = make_table();
  Transaction loser = txn("L", table, {with_condition(OperationKind::Delete, "id = 1")});
  Commit winner;
  winner.other_actions.push_back(DomainMetadata{"delta.clustering", "{}", false});
  EXPECT_EQ(conflict(loser, table, winner), std::nullopt);
  loser.commit.other_actions.push_back(DomainMetadata{"delta.clustering", "{}", false});
  EXPECT_EQ(conflict(loser, table, winner), ConflictKind::ConcurrentTransaction);
  Commit txn_winner;
  txn_winner.other_actions.push_back(Txn{"stream-1", 4, std::nullopt});
  Transaction reader = txn("R", table, {with_condition(OperationKind::Delete, "id = 1")});
  EXPECT_EQ(conflict(reader, table, txn_winner), std::nullopt);
  reader.reads.app_ids.insert("stream-1");
  EXPECT_EQ(conflict(reader, table, txn_winner), ConflictKind::ConcurrentTransaction);
}

TEST(ConflictChecker, AppendSuppressionMutantHidesAnUpdateWinnersImages) {
  const Table table = make_table();
  Operation update = with_condition(OperationKind::Update, "id = 5");
  update.assignments.push_back(Assignment{0, make_literal(Value::integral(TypeKind::Long, 960))});
  const Transaction winner = txn("W", table, {update});
  const Transaction loser = txn("L", table, {with_condition(OperationKind::Delete, "id >= 350")});
  EXPECT_EQ(conflict(loser, table, winner.commit), ConflictKind::ConcurrentAppend);
  EXPECT_EQ(conflict(loser, table, winner.commit, {}, Mutant::AppendSuppression), std::nullopt);
}

TEST(ConflictChecker, ExceptionNamesRoundTrip) {
  for (ConflictKind kind : {ConflictKind::ProtocolChanged, ConflictKind::MetadataChanged,
                            ConflictKind::ConcurrentTransaction, ConflictKind::ConcurrentAppend,
                            ConflictKind::ConcurrentDeleteRead, ConflictKind::ConcurrentDeleteDelete}) {
    EXPECT_EQ(conflict_kind_from_exception_name(exception_name(kind)), kind);
  }
  EXPECT_EQ(conflict_kind_from_exception_name("Nope"), std::nullopt);
}

// The conflict-time mutants of the checker (docs/semantics.md §8), each on the smallest history
// where it changes the verdict.
TEST(ConflictCheckerMutants, SnapshotIgnoresDatachangeLetsADmlLoserSkipTheAppendCheck) {
  const Table table = make_table();
  const Transaction deleter = txn("L", table, {with_condition(OperationKind::Delete, "id >= 350")});
  {
    const FaultScope fault(Mutant::SnapshotIgnoresDatachange);
    EXPECT_EQ(isolation_to_use(deleter.commit, IsolationLevel::Serializable), IsolationLevel::SnapshotIsolation);
  }
  const Transaction winner = txn("W", table, {insert(1000, 1100)});
  EXPECT_EQ(conflict(deleter, table, winner.commit), ConflictKind::ConcurrentAppend);
  EXPECT_EQ(conflict(deleter, table, winner.commit, {}, Mutant::SnapshotIgnoresDatachange), std::nullopt);
}

TEST(ConflictCheckerMutants, UnknownBlindAsBlindSkipsAWinnerWithoutTheFlag) {
  const Table table = make_table(IsolationLevel::WriteSerializable);
  WriterSettings unknown;
  unknown.blind_flag_unknown = true;
  const Transaction winner = txn("W", table, {insert(1000, 1100)}, unknown);
  ASSERT_FALSE(winner.commit.info.is_blind_append.has_value());
  const Transaction loser = txn("L", table, {with_condition(OperationKind::Delete, "id >= 350")});
  EXPECT_EQ(conflict(loser, table, winner.commit), ConflictKind::ConcurrentAppend) << "unknown is not blind";
  EXPECT_EQ(conflict(loser, table, winner.commit, {}, Mutant::UnknownBlindAsBlind), std::nullopt);
}

TEST(ConflictCheckerMutants, DeleteReadComparesDvMissesARemovedFileThatHadADv) {
  Table table = make_table(IsolationLevel::Serializable, /*dv=*/true);
  // f0-0 gets a DV first; then the winner deletes the rest of it, the loser reads it.
  const Transaction first = txn("D", table, {with_condition(OperationKind::Delete, "id < 50")});
  apply_commit(table, first.commit);
  const Transaction winner = txn("W", table, {with_condition(OperationKind::Delete, "id < 100")});
  ASSERT_FALSE(winner.commit.removes.front().deleted.empty());
  const Transaction loser = txn("L", table, {with_condition(OperationKind::Select, "id = 70")});
  EXPECT_EQ(conflict(loser, table, winner.commit), ConflictKind::ConcurrentDeleteRead);
  EXPECT_EQ(conflict(loser, table, winner.commit, {}, Mutant::DeleteReadComparesDv), std::nullopt);
}

}  // namespace
}  // namespace skipsound
