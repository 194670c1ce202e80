// Table state and operations in copy-on-write and deletion-vector modes.
#include <algorithm>
#include <string>
#include <variant>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "model/sql/binder.h"
#include "model/sql/printer.h"
#include "model/sql/row.h"
#include "model/values/input_error.h"
#include "model/table/commit.h"
#include "model/table/operations.h"
#include "model/table/table.h"
#include "model/table/transaction.h"

namespace skipsound {
namespace {

// Reads every file whose rows could matter: no skipping at all (skipping lives in checker/).
class ReadEverything final : public ScanPlanner {
 public:
  std::vector<size_t> files_to_read(const Table& snapshot, const ExprPtr&) const override {
    std::vector<size_t> all(snapshot.files().size());
    for (size_t i = 0; i < all.size(); ++i) all[i] = i;
    return all;
  }
};

Schema test_schema() {
  return Schema({StructField{"id", DataType::of(TypeKind::Long), true, {}},
                 StructField{"x", DataType::of(TypeKind::Int), true, {}},
                 StructField{"p", DataType::of(TypeKind::String), true, {}}});
}

Row row(int64_t id, int64_t x, const std::string& p) {
  return Row{Value::integral(TypeKind::Long, id), Value::integral(TypeKind::Int, x), Value::string(p)};
}

Table make_table(bool deletion_vectors, bool partitioned = false) {
  TableProperties props;
  props.deletion_vectors = deletion_vectors;
  if (partitioned) props.stats.partition_columns = {"p"};
  Table table(test_schema(), props);
  for (TableFile& f : table.write_files({row(1, 5, "a"), row(2, 20, "a"), row(3, 30, "a")}, "f", 1,
                                        StatsPresence::Collected)) {
    table.add_initial_file(std::move(f));
  }
  return table;
}

Operation op(OperationKind kind, const std::string& text, const std::string& where = "") {
  Operation o;
  o.kind = kind;
  o.text = text;
  if (!where.empty()) o.condition = parse_and_bind(where, test_schema());
  return o;
}

OperationResult run(const Table& t, std::vector<Operation> ops, WriterSettings settings = {"T", StatsPresence::Collected, false, false}) {
  return execute(t, ops, ReadEverything(), settings);
}

size_t count_x(const std::vector<Row>& rows, int64_t x) {
  return static_cast<size_t>(std::count_if(rows.begin(), rows.end(), [&](const Row& r) { return r[1].as_int() == x; }));
}

TEST(Table, WriterSplitsByPartitionAndCollectsStats) {
  TableProperties props;
  props.stats.partition_columns = {"p"};
  Table table(test_schema(), props);
  auto files = table.write_files({row(1, 5, "a"), row(2, 6, "b"), row(3, 7, "a")}, "w", 1, StatsPresence::Collected);
  ASSERT_EQ(files.size(), 2u);
  EXPECT_EQ(files[0].live_count(), 2);
  EXPECT_EQ(files[0].partition_values.at("p").as_string(), "a");
  ASSERT_TRUE(files[0].stats);
  EXPECT_EQ(files[0].stats->num_records, 2);
  EXPECT_EQ(files[0].stats->column(0).max->as_int(), 3);
  auto bare = table.write_files({row(1, 5, "a")}, "n", 1, StatsPresence::Missing);
  EXPECT_FALSE(bare[0].stats);
}

TEST(Table, RejectsUnknownPartitionColumnAndDuplicatePaths) {
  TableProperties props;
  props.stats.partition_columns = {"nope"};
  EXPECT_THROW(Table(test_schema(), props), InputError);
  Table table = make_table(false);
  EXPECT_THROW(table.add_initial_file(table.files().front()), InputError);
}

TEST(Operations, InsertIsABlindAppend) {
  Table table = make_table(false);
  Operation insert = op(OperationKind::Insert, "INSERT");
  insert.rows = {row(9, 9, "z")};
  OperationResult result = run(table, {insert});
  EXPECT_TRUE(result.commit.is_blind_append());
  EXPECT_TRUE(result.reads.empty());
  ASSERT_EQ(result.commit.adds.size(), 1u);
  EXPECT_EQ(result.commit.info.operation, "WRITE");
  OperationResult forced = run(table, {insert}, {"T", StatsPresence::Collected, false, true});
  EXPECT_FALSE(forced.commit.is_blind_append());
}

TEST(Operations, CopyOnWriteDeleteRewritesTheTouchedFile) {
  Table table = make_table(false);
  OperationResult result = run(table, {op(OperationKind::Delete, "DELETE WHERE x > 10", "x > 10")});
  ASSERT_EQ(result.commit.removes.size(), 1u);
  ASSERT_EQ(result.commit.adds.size(), 1u);
  EXPECT_NE(result.commit.adds[0].path, result.commit.removes[0].path);
  EXPECT_EQ(result.commit.adds[0].live_count(), 1);
  EXPECT_EQ(result.reads.predicates.size(), 1u);
  EXPECT_EQ(result.reads.files, std::vector<std::string>{"f-1"});
  EXPECT_FALSE(result.commit.is_blind_append());
  apply_commit(table, result.commit);
  EXPECT_EQ(table.live_rows().size(), 1u);
  EXPECT_EQ(table.version(), 1);
}

TEST(Operations, DeletionVectorDeleteReaddsTheFileWithWideStats) {
  Table table = make_table(true);
  ASSERT_EQ(table.files()[0].stats->tight_bounds, true);
  OperationResult result = run(table, {op(OperationKind::Delete, "DELETE WHERE x > 10", "x > 10")});
  ASSERT_EQ(result.commit.removes.size(), 1u);
  ASSERT_EQ(result.commit.adds.size(), 1u);
  const TableFile& readded = result.commit.adds[0];
  EXPECT_EQ(readded.path, "f-1");
  EXPECT_EQ(readded.deleted, (DeletedRows{1, 2}));
  ASSERT_TRUE(readded.stats);
  EXPECT_TRUE(readded.stats->wide());
  EXPECT_EQ(readded.stats->num_records, 3);  // physical rows, deleted ones included
  EXPECT_EQ(readded.stats->column(1).max->as_int(), 30);  // bounds kept
  apply_commit(table, result.commit);
  EXPECT_EQ(table.live_rows().size(), 1u);
}

TEST(Operations, DeletingEveryLiveRowOnlyRemovesTheFile) {
  for (bool dv : {false, true}) {
    Table table = make_table(dv);
    OperationResult result = run(table, {op(OperationKind::Delete, "DELETE WHERE x > 0", "x > 0")});
    EXPECT_EQ(result.commit.removes.size(), 1u);
    EXPECT_TRUE(result.commit.adds.empty());
  }
}

TEST(Operations, UpdateWritesNewImagesInBothModes) {
  for (bool dv : {false, true}) {
    Table table = make_table(dv);
    Operation update = op(OperationKind::Update, "UPDATE SET x = 15 WHERE id = 1", "id = 1");
    update.assignments.push_back(Assignment{1, make_literal(Value::integral(TypeKind::Int, 15))});
    OperationResult result = run(table, {update});
    apply_commit(table, result.commit);
    const auto rows = table.live_rows();
    EXPECT_EQ(rows.size(), 3u);
    EXPECT_EQ(count_x(rows, 15), 1u);
    EXPECT_EQ(count_x(rows, 5), 0u);
    EXPECT_EQ(result.commit.info.operation, "UPDATE");
    if (dv) {
      ASSERT_EQ(result.commit.adds.size(), 2u);  // the same file with a DV, and the image
      EXPECT_EQ(result.commit.adds[0].path, "f-1");
      EXPECT_EQ(result.commit.adds[1].live_count(), 1);
    }
  }
}

// Spark's store assignment: x + 1 on a decimal(10,2) column is a decimal(11,2), cast back to the
// column's type (its file's stats then carry the column's type); a value that does not fit is refused.
TEST(Operations, AnAssignedDecimalTakesTheColumnsType) {
  const Schema schema({StructField{"id", DataType::of(TypeKind::Long), true, {}},
                       StructField{"x", DataType::decimal(10, 2), true, {}}});
  for (const char* x : {"1.25", "99999999.99"}) {
    SCOPED_TRACE(x);
    Table table(schema, TableProperties{});
    for (TableFile& f : table.write_files({row_from_json(nlohmann::json{{"id", 1}, {"x", x}}, schema)}, "f", 1,
                                          StatsPresence::Collected)) {
      table.add_initial_file(std::move(f));
    }
    Operation update;
    update.kind = OperationKind::Update;
    update.text = "UPDATE SET x = x + 1";
    // Bound under IS NULL, as a scenario binds a value expression.
    update.assignments.push_back(Assignment{1, parse_and_bind("(x + 1) IS NULL", schema)->children.front()});
    if (std::string(x) == "99999999.99") {
      EXPECT_THROW(run(table, {update}), InputError);
      continue;
    }
    apply_commit(table, run(table, {update}).commit);
    const Value updated = table.live_rows().at(0).at(1);
    EXPECT_EQ(updated.type, DataType::decimal(10, 2));
    EXPECT_EQ(updated, value_from_json("2.25", DataType::decimal(10, 2)));
  }
}

Operation upsert(const std::vector<Row>& source) {
  Operation merge = op(OperationKind::Merge, "MERGE ON id");
  merge.merge = upsert_on_key(test_schema(), 0);
  merge.rows = source;
  return merge;
}

// docs/semantics.md §7.3: an ON over the join key alone records no data predicate (Delta's read).
TEST(Operations, MergeUpsertsOnTheKeyAndRecordsNoPredicateForAJoinKeyOn) {
  Table table = make_table(false);
  const Operation merge = upsert({row(2, 99, "a"), row(7, 70, "a")});
  OperationResult result = run(table, {merge});
  ASSERT_EQ(result.reads.predicates.size(), 1u);
  EXPECT_FALSE(result.reads.predicates[0]);
  EXPECT_EQ(result.reads.files.size(), 1u);
  apply_commit(table, result.commit);
  const auto rows = table.live_rows();
  EXPECT_EQ(rows.size(), 4u);
  EXPECT_EQ(count_x(rows, 99), 1u);
  EXPECT_EQ(count_x(rows, 20), 0u);
  EXPECT_EQ(count_x(rows, 70), 1u);
  Operation repeated = merge;
  repeated.rows.push_back(row(2, 1, "a"));
  EXPECT_THROW(run(make_table(false), {repeated}), InputError);
}

// operations.h, MergeRead::SourceKeys: every ON conjunct t.k = s.j gives `k IN (source values)`,
// whichever side of the = the target column is written on.
TEST(Operations, MergeSourceKeyReadRecordsTheSourceKeys) {
  WriterSettings settings{"T", StatsPresence::Collected, false, false};
  settings.merge_read = MergeRead::SourceKeys;
  for (const char* on : {"t.id = s.id", "s.id = t.id"}) {
    Operation merge = upsert({row(2, 99, "a"), row(7, 70, "a")});
    merge.merge.on = parse_and_bind(on, merge_schema(test_schema()));
    const OperationResult result = run(make_table(false), {merge}, settings);
    ASSERT_EQ(result.reads.predicates.size(), 1u) << on;
    ASSERT_TRUE(result.reads.predicates[0]) << on;
    EXPECT_EQ(to_sql(result.reads.predicates[0]), "id IN (2L, 7L)") << on;
  }
}

// Target-only ON conjuncts are recorded; MATCHED-only merges add the OR of their clauses' target
// conjuncts; source-only conditions add nothing.
TEST(Operations, MergeRecordsTargetOnlyConjunctsAndMatchedClauseConditions) {
  const Schema joint = merge_schema(test_schema());
  MergeSpec spec;
  spec.on = parse_and_bind("t.id = s.id AND t.x > 3 AND s.x < 50", joint);
  MergeClause update{MergeAction::Update, parse_and_bind("t.p = 'a' AND s.x > 0", joint), {}};
  MergeClause remove{MergeAction::Delete, parse_and_bind("t.x < 10", joint), {}};
  spec.matched = {update, remove};
  ASSERT_TRUE(merge_target_read(spec, test_schema()));
  EXPECT_EQ(to_sql(merge_target_read(spec, test_schema())), "x > 3 AND (p = 'a' OR x < 10)");
  spec.not_matched.push_back(MergeClause{MergeAction::Insert, parse_and_bind("s.x > 0", joint), {}});
  EXPECT_EQ(to_sql(merge_target_read(spec, test_schema())), "x > 3");
  spec.not_matched.clear();
  spec.matched.push_back(MergeClause{MergeAction::Delete, nullptr, {}});
  EXPECT_EQ(to_sql(merge_target_read(spec, test_schema())), "x > 3");
}

// WHEN MATCHED AND ... THEN DELETE removes only the rows its condition holds for; a MATCHED-only
// MERGE leaves a file alone when no clause acts on its rows.
TEST(Operations, MergeClausesActOnlyWhereTheirConditionHolds) {
  const Schema joint = merge_schema(test_schema());
  Operation merge = op(OperationKind::Merge, "MERGE");
  merge.merge.on = parse_and_bind("t.id = s.id", joint);
  merge.merge.matched.push_back(MergeClause{MergeAction::Delete, parse_and_bind("t.x > 10", joint), {}});
  merge.rows = {row(1, 0, "a"), row(2, 0, "a")};
  Table table = make_table(false);
  const OperationResult result = run(table, {merge});
  apply_commit(table, result.commit);
  const auto rows = table.live_rows();
  EXPECT_EQ(rows.size(), 2u);
  EXPECT_EQ(count_x(rows, 20), 0u);
  EXPECT_EQ(count_x(rows, 5), 1u);
  merge.merge.matched.front().condition = parse_and_bind("t.x > 100", joint);
  const OperationResult untouched = run(make_table(false), {merge});
  EXPECT_TRUE(untouched.commit.removes.empty());
  EXPECT_TRUE(untouched.commit.adds.empty());
}

TEST(Operations, OptimizeKeepsRowsAndChangesNoData) {
  Table table = make_table(false);
  for (TableFile& f : table.write_files({row(4, 40, "a")}, "g", 1, StatsPresence::Collected)) {
    table.add_initial_file(std::move(f));
  }
  Operation compaction = op(OperationKind::Optimize, "OPTIMIZE");
  OperationResult result = run(table, {compaction});
  EXPECT_EQ(result.commit.removes.size(), 2u);
  ASSERT_EQ(result.commit.adds.size(), 1u);
  EXPECT_FALSE(result.commit.adds[0].data_change);
  EXPECT_FALSE(result.commit.changes_data);
  EXPECT_FALSE(result.commit.is_blind_append());

  Operation clustering = op(OperationKind::Optimize, "OPTIMIZE CLUSTER BY x");
  clustering.optimize_mode = OptimizeMode::Clustering;
  clustering.key_leaf = 1;
  clustering.rows_per_file = 2;
  OperationResult clustered = run(table, {clustering});
  ASSERT_EQ(clustered.commit.adds.size(), 2u);
  EXPECT_EQ(clustered.commit.adds[0].stats->column(1).max->as_int(), 20);
  EXPECT_EQ(clustered.commit.adds[1].stats->column(1).min->as_int(), 30);
  apply_commit(table, clustered.commit);
  EXPECT_EQ(table.live_rows().size(), 4u);
}

TEST(Operations, OneWriterPerTransaction) {
  Table table = make_table(false);
  EXPECT_THROW(run(table, {op(OperationKind::Delete, "DELETE"), op(OperationKind::Delete, "DELETE")}), InputError);
  OperationResult read_then_write = run(table, {op(OperationKind::Select, "SELECT WHERE id < 2", "id < 2"),
                                                op(OperationKind::Delete, "DELETE WHERE id = 3", "id = 3")});
  EXPECT_EQ(read_then_write.reads.predicates.size(), 2u);
}

TEST(Transaction, RerunOnAnotherStateSeesItsRows) {
  Table table = make_table(false);
  Transaction txn = run_transaction("T2", table, {op(OperationKind::Delete, "DELETE WHERE x > 10", "x > 10")},
                                    {"T2", StatsPresence::Collected, false, false}, ReadEverything());
  EXPECT_EQ(txn.snapshot_version, 0);
  Table later = table;
  Operation insert = op(OperationKind::Insert, "INSERT");
  insert.rows = {row(8, 80, "a")};
  apply_commit(later, run(table, {insert}).commit);
  OperationResult again = rerun(txn, later, ReadEverything());
  apply_commit(later, again.commit);
  EXPECT_EQ(later.live_rows().size(), 1u);
  EXPECT_EQ(txn.describe(), "DELETE WHERE x > 10");
}

// docs/semantics.md §4.7: live files are keyed by (path, DV). Two DV DELETEs of one file from one snapshot
// (the stale-tombstone schedule): the second one's remove(P, {}) cancels nothing once the first
// replaced (P, {}) by (P, {0}), so both DV versions stay live and rows come back or double.
// The live file with this path and DV, if any.
const TableFile* live_file(const Table& table, const std::string& path, const DeletedRows& deleted) {
  for (const TableFile& file : table.files()) {
    if (file.path == path && file.deleted == deleted) return &file;
  }
  return nullptr;
}

TEST(Table, ReconcilesRemovesByPathAndDeletionVector) {
  Table table = make_table(true);
  const OperationResult first = run(table, {op(OperationKind::Delete, "DELETE WHERE id = 1", "id = 1")});
  const OperationResult second = run(table, {op(OperationKind::Delete, "DELETE WHERE id = 2", "id = 2")});
  ASSERT_EQ(second.commit.removes.size(), 1u);
  EXPECT_TRUE(second.commit.removes[0].deleted.empty());
  apply_commit(table, first.commit);
  ASSERT_NE(live_file(table, "f-1", {0}), nullptr);
  EXPECT_EQ(live_file(table, "f-1", {}), nullptr);
  apply_commit(table, second.commit);
  EXPECT_EQ(table.files().size(), 2u);  // (f-1, {0}) and (f-1, {1})
  const std::vector<Row> rows = table.live_rows();
  EXPECT_EQ(count_x(rows, 5), 1u);   // id 1, deleted by the first, resurrected by the second
  EXPECT_EQ(count_x(rows, 20), 1u);  // id 2, deleted by the second, still live under (f-1, {0})
  EXPECT_EQ(count_x(rows, 30), 2u);  // id 3, duplicated
  // A remove naming the live DV cancels it; an add with a live (path, DV) replaces it.
  apply_commit(table, Commit{{FileRemoval{"f-1", {0}, {}, true}}, {}, {}, {}, true});
  EXPECT_EQ(table.files().size(), 1u);
  EXPECT_EQ(live_file(table, "f-1", {1}), &table.files()[0]);
}

TEST(Operations, DeletionVectorDmlOnlyGrowsTheVector) {
  Table table = make_table(true);
  apply_commit(table, run(table, {op(OperationKind::Delete, "DELETE WHERE id = 1", "id = 1")}).commit);
  const OperationResult again = run(table, {op(OperationKind::Delete, "DELETE WHERE id = 3", "id = 3")});
  ASSERT_EQ(again.commit.removes.size(), 1u);
  ASSERT_EQ(again.commit.adds.size(), 1u);
  EXPECT_EQ(again.commit.removes[0].deleted, (DeletedRows{0}));
  EXPECT_EQ(again.commit.adds[0].deleted, (DeletedRows{0, 2}));
  EXPECT_TRUE(dv_includes(again.commit.adds[0].deleted, again.commit.removes[0].deleted));
}

// docs/semantics.md §10.8: RESTORE re-adds the earlier (path, DV) adds verbatim and removes the current ones;
// the vector of the restored file may shrink.
TEST(Operations, RestoreReaddsEarlierFilesAndShrinksDeletionVectors) {
  Table table = make_table(true);
  const std::vector<TableFile> version0 = table.files();
  apply_commit(table, run(table, {op(OperationKind::Delete, "DELETE WHERE id < 3", "id < 3")}).commit);
  ASSERT_EQ(table.live_rows().size(), 1u);
  Operation restore = op(OperationKind::Restore, "RESTORE TO VERSION 0");
  restore.restore_to = version0;
  const OperationResult result = run(table, {restore});
  ASSERT_EQ(result.commit.removes.size(), 1u);
  EXPECT_EQ(result.commit.removes[0].deleted, (DeletedRows{0, 1}));
  ASSERT_EQ(result.commit.adds.size(), 1u);
  EXPECT_TRUE(result.commit.adds[0].deleted.empty());
  EXPECT_TRUE(result.commit.adds[0].data_change);
  EXPECT_TRUE(result.reads.whole_table);
  EXPECT_FALSE(result.commit.is_blind_append());
  apply_commit(table, result.commit);
  EXPECT_EQ(table.live_rows().size(), 3u);
  // Restoring the version already live commits nothing.
  EXPECT_TRUE(run(table, {restore}).commit.adds.empty());
}

TEST(DeletionVector, SetOperations) {
  const DeletedRows a{0, 2, 5}, b{2, 3};
  EXPECT_EQ(dv_union(a, b), (DeletedRows{0, 2, 3, 5}));
  EXPECT_EQ(dv_intersection(a, b), (DeletedRows{2}));
  EXPECT_EQ(dv_minus(a, b), (DeletedRows{0, 5}));
  EXPECT_TRUE(dv_includes(a, DeletedRows{0, 5}));
  EXPECT_FALSE(dv_includes(a, b));
  EXPECT_TRUE(dv_includes(a, DeletedRows{}));
}

// ---- table properties, ALTER's metadata and protocol, commit actions and MERGE specs ----

Operation alter(std::vector<std::pair<std::string, std::string>> properties, std::vector<std::string> dropped = {}) {
  Operation o = op(OperationKind::Alter, "ALTER TABLE");
  o.change.properties = std::move(properties);
  o.change.dropped_features = std::move(dropped);
  return o;
}

const Protocol* committed_protocol(const Commit& commit) {
  for (const Action& a : commit.other_actions) {
    if (const auto* p = std::get_if<Protocol>(&a)) return p;
  }
  return nullptr;
}

const Metadata* committed_metadata(const Commit& commit) {
  for (const Action& a : commit.other_actions) {
    if (const auto* m = std::get_if<Metadata>(&a)) return m;
  }
  return nullptr;
}

bool has(const std::optional<std::vector<std::string>>& list, const std::string& item) {
  return list && std::find(list->begin(), list->end(), item) != list->end();
}

// docs/semantics.md §7.3 (ALTER TABLE): the properties a metaData action's configuration gives. The
// DV and isolation keys become typed properties, the stats keys the stats config, and every other
// key is kept verbatim so the metadata round-trips.
TEST(TableProperties, FromMetadataSortsEveryKeyIntoItsProperty) {
  Metadata m;
  m.schema = test_schema();
  m.configuration = {{"delta.dataSkippingNumIndexedCols", "1"},
                     {"delta.dataSkippingStatsColumns", "x"},
                     {"delta.enableDeletionVectors", "true"},
                     {"delta.isolationLevel", "WriteSerializable"},
                     {"delta.appendOnly", "false"},
                     {"userKey", "v"}};
  const TableProperties props = TableProperties::from_metadata(m);
  EXPECT_TRUE(props.deletion_vectors);
  EXPECT_EQ(props.isolation, IsolationLevel::WriteSerializable);
  EXPECT_EQ(props.stats.num_indexed_cols, 1);
  ASSERT_TRUE(props.stats.stats_columns);
  EXPECT_EQ(props.stats.stats_columns->size(), 1u);
  EXPECT_EQ(props.other_configuration,
            (std::map<std::string, std::string>{{"delta.appendOnly", "false"}, {"userKey", "v"}}));
  // And back: the table's metadata carries every key again.
  const Metadata again = Table(test_schema(), props).metadata();
  EXPECT_EQ(again.configuration.at("userKey"), "v");
  EXPECT_EQ(again.configuration.at("delta.enableDeletionVectors"), "true");
}

// Delta's PROTOCOL.md "Change Metadata": metaData.id is the table's unique identifier, so the
// model's metadata action always carries one.
TEST(TableProperties, MetadataHasATableId) {
  const Metadata m = make_table(false).metadata();
  EXPECT_FALSE(m.id.empty());
  EXPECT_EQ(m.id, make_table(true).metadata().id);  // one table identity across its versions
}

// docs/semantics.md §7.3: `delta.enableDeletionVectors = true` also adds the deletionVectors
// feature (reader and writer); any other property adds no feature.
TEST(Alter, EnablingDeletionVectorsAddsTheFeatureAndNothingElseDoes) {
  const Table table = make_table(false);
  const OperationResult other = run(table, {alter({{"userKey", "v"}})});
  EXPECT_EQ(committed_protocol(other.commit), nullptr);
  ASSERT_NE(committed_metadata(other.commit), nullptr);
  EXPECT_EQ(committed_metadata(other.commit)->configuration.at("userKey"), "v");
  const OperationResult off = run(table, {alter({{"delta.enableDeletionVectors", "false"}})});
  EXPECT_EQ(committed_protocol(off.commit), nullptr);
  for (const char* on : {"true", "TRUE"}) {
    const OperationResult enabled = run(table, {alter({{"delta.enableDeletionVectors", on}})});
    const Protocol* protocol = committed_protocol(enabled.commit);
    ASSERT_NE(protocol, nullptr) << on;
    EXPECT_TRUE(has(protocol->reader_features, "deletionVectors"));
    EXPECT_TRUE(has(protocol->writer_features, "deletionVectors"));
    EXPECT_EQ(protocol->min_reader_version, 3);
    EXPECT_EQ(protocol->min_writer_version, 7);
  }
}

// Delta's PROTOCOL.md "Table Features": adding a feature keeps the ones the table has.
TEST(Alter, AddingAFeatureKeepsTheTablesFeatures) {
  const Table table = make_table(true);
  ASSERT_TRUE(has(table.protocol().writer_features, "deletionVectors"));
  const OperationResult result = run(table, {alter({{"delta.feature.columnMapping", "supported"},
                                                    {"delta.feature.appendOnly", "supported"}})});
  const Protocol* protocol = committed_protocol(result.commit);
  ASSERT_NE(protocol, nullptr);
  EXPECT_EQ(protocol->reader_features, (std::vector<std::string>{"deletionVectors", "columnMapping"}));
  EXPECT_EQ(protocol->writer_features, (std::vector<std::string>{"deletionVectors", "columnMapping", "appendOnly"}));
}

// docs/semantics.md §7.3: delta.minReaderVersion / delta.minWriterVersion raise the protocol to a
// positive integer; any other text is refused.
TEST(Alter, ProtocolVersionPropertiesTakePositiveIntegers) {
  const Table table = make_table(false);
  const OperationResult raised = run(table, {alter({{"delta.minReaderVersion", "2"}, {"delta.minWriterVersion", "5"}})});
  const Protocol* protocol = committed_protocol(raised.commit);
  ASSERT_NE(protocol, nullptr);
  EXPECT_EQ(protocol->min_reader_version, 2);
  EXPECT_EQ(protocol->min_writer_version, 5);
  for (const char* bad : {"0", "-1", "2x", "", "two"}) {
    EXPECT_THROW(run(table, {alter({{"delta.minWriterVersion", bad}})}), InputError) << bad;
  }
}

// Delta's DROP FEATURE commits a metaData action only when the metadata changes: dropping
// deletionVectors also turns delta.enableDeletionVectors off, dropping another feature does not.
TEST(Alter, DropFeatureCommitsMetadataOnlyWhenItChanges) {
  Table table = make_table(true);
  Protocol protocol = table.protocol();
  protocol.writer_features->push_back("checkConstraints");
  table.apply_protocol(protocol);

  const OperationResult dv = run(table, {alter({}, {"deletionVectors"})});
  ASSERT_NE(committed_metadata(dv.commit), nullptr);
  EXPECT_EQ(committed_metadata(dv.commit)->configuration.at("delta.enableDeletionVectors"), "false");
  EXPECT_TRUE(dv.commit.has_metadata());

  const OperationResult other = run(table, {alter({}, {"checkConstraints"})});
  EXPECT_EQ(committed_metadata(other.commit), nullptr);
  EXPECT_FALSE(other.commit.has_metadata());
  ASSERT_NE(committed_protocol(other.commit), nullptr);
  EXPECT_FALSE(has(committed_protocol(other.commit)->writer_features, "checkConstraints"));
}

// docs/semantics.md §7.2: a commit knows whether it carries a metaData action (WriteSerializable's
// metadata check) or a protocol action.
TEST(CommitActions, HasMetadataAndHasProtocolSeeTheirActions) {
  Commit commit;
  EXPECT_FALSE(commit.has_metadata());
  EXPECT_FALSE(commit.has_protocol());
  commit.other_actions.push_back(Txn{"app", 1, std::nullopt});
  EXPECT_FALSE(commit.has_metadata());
  commit.other_actions.push_back(make_table(false).metadata());
  EXPECT_TRUE(commit.has_metadata());
  EXPECT_FALSE(commit.has_protocol());
  commit.other_actions.push_back(Protocol{});
  EXPECT_TRUE(commit.has_protocol());
}

// Delta writes commitInfo first, then the other actions, removes and adds; OPTIMIZE's removes and
// adds carry dataChange=false (docs/semantics.md §10.4).
TEST(CommitActions, ToActionsStartsWithCommitInfoAndKeepsDataChange) {
  Table table = make_table(false);
  for (TableFile& f : table.write_files({row(4, 40, "a")}, "g", 1, StatsPresence::Collected)) {
    table.add_initial_file(std::move(f));
  }
  const OperationResult result = run(table, {op(OperationKind::Optimize, "OPTIMIZE")});
  ASSERT_EQ(result.commit.removes.size(), 2u);
  const std::vector<Action> actions = result.commit.to_actions(table.schema());
  ASSERT_EQ(actions.size(), 4u);  // commitInfo, two removes, one add
  ASSERT_TRUE(std::holds_alternative<CommitInfo>(actions[0]));
  EXPECT_EQ(std::get<CommitInfo>(actions[0]).operation, "OPTIMIZE");
  for (size_t i : {1u, 2u}) {
    ASSERT_TRUE(std::holds_alternative<RemoveFile>(actions[i]));
    EXPECT_FALSE(std::get<RemoveFile>(actions[i]).data_change);
  }
  ASSERT_TRUE(std::holds_alternative<AddFile>(actions[3]));
  EXPECT_FALSE(std::get<AddFile>(actions[3]).data_change);
  EXPECT_TRUE((FileRemoval{"f-1", {}, {}, true}.to_remove_action().data_change));
}

// docs/semantics.md §10.4: a DML that marks rows of a file in a DV re-adds the file as a data
// change, even when the file was last written by a no-data-change rewrite (OPTIMIZE).
TEST(Operations, ADeletionVectorReaddIsADataChange) {
  Table table = make_table(true);
  TableFile compacted = table.files().front();
  compacted.data_change = false;
  table.replace_initial_file(compacted);
  const OperationResult result = run(table, {op(OperationKind::Delete, "DELETE WHERE id = 1", "id = 1")});
  ASSERT_EQ(result.commit.adds.size(), 1u);
  EXPECT_EQ(result.commit.adds[0].path, compacted.path);
  EXPECT_EQ(result.commit.adds[0].deleted, (DeletedRows{0}));
  EXPECT_TRUE(result.commit.adds[0].data_change);
}

// The upsert of operations.h: ON t.k = s.k, WHEN MATCHED THEN UPDATE SET *, WHEN NOT MATCHED
// THEN INSERT *: one clause of each kind, each assigning every column.
TEST(Merge, UpsertOnKeyHasOneUpdateAndOneInsertClause) {
  const MergeSpec spec = upsert_on_key(test_schema(), 0);
  ASSERT_EQ(spec.matched.size(), 1u);
  ASSERT_EQ(spec.not_matched.size(), 1u);
  EXPECT_EQ(spec.matched[0].action, MergeAction::Update);
  EXPECT_EQ(spec.not_matched[0].action, MergeAction::Insert);
  EXPECT_EQ(spec.matched[0].assignments.size(), 3u);
  EXPECT_EQ(spec.not_matched[0].assignments.size(), 3u);
  EXPECT_FALSE(spec.matched_only());
  EXPECT_FALSE(spec.insert_only());
}

// docs/semantics.md §7.3 (MERGE): in a MATCHED-only MERGE, a clause without a target-only conjunct
// makes the OR over the clauses TRUE, wherever it stands among them.
TEST(Merge, AnUnconditionedMatchedClauseFirstMakesTheClauseReadTrue) {
  const Schema joint = merge_schema(test_schema());
  MergeSpec spec;
  spec.on = parse_and_bind("t.id = s.id AND t.x > 3", joint);
  spec.matched = {MergeClause{MergeAction::Delete, nullptr, {}},
                  MergeClause{MergeAction::Delete, parse_and_bind("t.x < 10", joint), {}}};
  ASSERT_TRUE(merge_target_read(spec, test_schema()));
  EXPECT_EQ(to_sql(merge_target_read(spec, test_schema())), "x > 3");
  spec.matched[0].condition = parse_and_bind("s.x > 0", joint);  // source-only: no target conjunct
  EXPECT_EQ(to_sql(merge_target_read(spec, test_schema())), "x > 3");
}

}  // namespace
}  // namespace skipsound

namespace skipsound {
namespace {

WriterSettings writer(const std::string& prefix) {
  WriterSettings settings;
  settings.path_prefix = prefix;
  return settings;
}

// docs/semantics.md §10.2 (c): a subquery over the table is a scan of its own, recorded as a
// read before the DML's condition, and its rows decide which rows the DML matches.
TEST(Subquery, ItsScanIsARecordedReadAndItsRowsDecide) {
  const Table t = make_table(true);  // (1, 5), (2, 20), (3, 30)
  const Operation del = op(OperationKind::Delete, "DELETE", "id IN (SELECT id FROM t WHERE x > 10) AND x < 25");
  const OperationResult r = execute(t, {del}, ReadEverything(), writer("T"));
  ASSERT_EQ(r.reads.predicates.size(), 2u);
  EXPECT_EQ(to_sql(r.reads.predicates[0]), "x > 10");
  EXPECT_TRUE(contains_subquery(*r.reads.predicates[1]));
  ASSERT_EQ(r.commit.adds.size(), 1u);
  EXPECT_EQ(r.commit.adds[0].deleted, (DeletedRows{1}));  // row 2 only: in the subquery and x < 25
  // NOT IN an empty subquery holds for every row.
  const Operation none = op(OperationKind::Delete, "DELETE", "NOT (id IN (SELECT id FROM t WHERE x > 100))");
  EXPECT_EQ(execute(t, {none}, ReadEverything(), writer("T")).commit.adds.size(), 0u);  // every row: removed
}

// model/table/random_draws.h: rand() draws per file and live row from the transaction's seed (or
// the call's own), so a re-run on the same state matches the same rows, and a deletion of an
// earlier row shifts the draws of the rows after it.
TEST(RandomCondition, DrawsPerFileAndLiveRowFromTheSeed) {
  TableProperties props;
  props.deletion_vectors = true;
  Table t(test_schema(), props);
  std::vector<Row> rows;
  for (int64_t id = 0; id < 40; ++id) rows.push_back(row(id, id, "a"));
  t.add_initial_file(t.write_files(rows, "f", 0, StatsPresence::Collected).front());
  const Operation del = op(OperationKind::Delete, "DELETE", "rand() < 0.5");
  const auto deleted = [&](const Table& state, uint64_t seed) {
    WriterSettings settings = writer("T");
    settings.random_seed = seed;
    const OperationResult r = execute(state, {del}, ReadEverything(), settings);
    return r.commit.adds.empty() ? DeletedRows{} : r.commit.adds[0].deleted;
  };
  const DeletedRows first = deleted(t, 7);
  EXPECT_EQ(deleted(t, 7), first);
  EXPECT_FALSE(first.empty());
  EXPECT_LT(first.size(), 40u);
  EXPECT_NE(deleted(t, 8), first);
  Table after = t;
  apply_commit(after, execute(t, {op(OperationKind::Delete, "DELETE", "id = 0")}, ReadEverything(), writer("W")).commit);
  EXPECT_NE(dv_minus(deleted(after, 7), DeletedRows{0}), dv_minus(first, DeletedRows{0}));
  const Operation own_seed = op(OperationKind::Delete, "DELETE", "rand(7) < 0.5");
  EXPECT_EQ(execute(t, {own_seed}, ReadEverything(), writer("T")).commit.adds[0].deleted, first);
  // Only rand() and random() draw: another call keeps its value.
  const OperationResult by_call = execute(t, {op(OperationKind::Delete, "DELETE", "abs(x) = 20")}, ReadEverything(), writer("T"));
  ASSERT_EQ(by_call.commit.adds.size(), 1u);
  EXPECT_EQ(by_call.commit.adds[0].deleted, (DeletedRows{20}));
}

// docs/semantics.md §10.4: a writer whose file actions all say dataChange=false, whatever they do.
TEST(NoDataChangeWriter, EveryFileActionSaysSo) {
  WriterSettings settings = writer("T");
  settings.declares_no_data_change = true;
  const OperationResult r = execute(make_table(true), {op(OperationKind::Delete, "DELETE", "id = 1")}, ReadEverything(), settings);
  ASSERT_EQ(r.commit.removes.size(), 1u);
  ASSERT_EQ(r.commit.adds.size(), 1u);
  EXPECT_FALSE(r.commit.removes[0].data_change);
  EXPECT_FALSE(r.commit.adds[0].data_change);
  EXPECT_TRUE(r.commit.changes_data);
}

}  // namespace
}  // namespace skipsound
