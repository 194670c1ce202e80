// Focused tests for mutants of model/table/ that short gate runs left alive: table properties,
// the metadata and protocol an ALTER TABLE commits, MERGE specs and the log text of a commit.
#include <algorithm>
#include <string>
#include <variant>

#include <gtest/gtest.h>

#include "model/sql/binder.h"
#include "model/sql/printer.h"
#include "model/table/commit.h"
#include "model/table/operations.h"
#include "model/table/table.h"
#include "model/values/input_error.h"

namespace skipsound {
namespace {

Schema test_schema() {
  return Schema({StructField{"id", DataType::of(TypeKind::Long), true, {}},
                 StructField{"x", DataType::of(TypeKind::Int), true, {}},
                 StructField{"p", DataType::of(TypeKind::String), true, {}}});
}

Row row(int64_t id, int64_t x, const std::string& p) {
  return Row{Value::integral(TypeKind::Long, id), Value::integral(TypeKind::Int, x), Value::string(p)};
}

Table make_table(bool deletion_vectors) {
  TableProperties props;
  props.deletion_vectors = deletion_vectors;
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
  return execute(t, ops, EveryFilePlanner(), settings);
}

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

// docs/semantics.md §7 (ALTER TABLE): the properties a metaData action's configuration gives. The
// DV and isolation keys become typed properties, the stats keys the stats config, and every other
// key is kept verbatim so the metadata round-trips.
TEST(TablePropertiesGaps, FromMetadataSortsEveryKeyIntoItsProperty) {
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
TEST(TablePropertiesGaps, MetadataHasATableId) {
  const Metadata m = make_table(false).metadata();
  EXPECT_FALSE(m.id.empty());
  EXPECT_EQ(m.id, make_table(true).metadata().id);  // one table identity across its versions
}

// docs/semantics.md §7: `delta.enableDeletionVectors = true` also adds the deletionVectors
// feature (reader and writer); any other property adds no feature.
TEST(AlterGaps, EnablingDeletionVectorsAddsTheFeatureAndNothingElseDoes) {
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
TEST(AlterGaps, AddingAFeatureKeepsTheTablesFeatures) {
  const Table table = make_table(true);
  ASSERT_TRUE(has(table.protocol().writer_features, "deletionVectors"));
  const OperationResult result = run(table, {alter({{"delta.feature.columnMapping", "supported"},
                                                    {"delta.feature.appendOnly", "supported"}})});
  const Protocol* protocol = committed_protocol(result.commit);
  ASSERT_NE(protocol, nullptr);
  EXPECT_EQ(protocol->reader_features, (std::vector<std::string>{"deletionVectors", "columnMapping"}));
  EXPECT_EQ(protocol->writer_features, (std::vector<std::string>{"deletionVectors", "columnMapping", "appendOnly"}));
}

// docs/semantics.md §7: delta.minReaderVersion / delta.minWriterVersion raise the protocol to a
// positive integer; any other text is refused.
TEST(AlterGaps, ProtocolVersionPropertiesTakePositiveIntegers) {
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
TEST(AlterGaps, DropFeatureCommitsMetadataOnlyWhenItChanges) {
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

// docs/semantics.md §7: a commit knows whether it carries a metaData action (WriteSerializable's
// metadata check) or a protocol action.
TEST(CommitGaps, HasMetadataAndHasProtocolSeeTheirActions) {
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
TEST(CommitGaps, ToActionsStartsWithCommitInfoAndKeepsDataChange) {
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
TEST(OperationGaps, ADeletionVectorReaddIsADataChange) {
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
TEST(MergeGaps, UpsertOnKeyHasOneUpdateAndOneInsertClause) {
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

// operations.h, MergeRead::SourceKeys: every ON conjunct t.k = s.j gives `k IN (source values)`,
// whichever side of the = the target column is written on.
TEST(MergeGaps, SourceKeyReadTakesTheKeyFromEitherSideOfTheEquality) {
  WriterSettings settings{"T", StatsPresence::Collected, false, false};
  settings.merge_read = MergeRead::SourceKeys;
  const Schema joint = merge_schema(test_schema());
  Operation merge = op(OperationKind::Merge, "MERGE ON s.id = t.id");
  merge.merge = upsert_on_key(test_schema(), 0);
  merge.merge.on = parse_and_bind("s.id = t.id", joint);
  merge.rows = {row(2, 99, "a"), row(7, 70, "a")};
  const OperationResult result = run(make_table(false), {merge}, settings);
  ASSERT_EQ(result.reads.predicates.size(), 1u);
  ASSERT_TRUE(result.reads.predicates[0]);
  EXPECT_EQ(to_sql(result.reads.predicates[0]), "id IN (2L, 7L)");
}

// docs/semantics.md §7 (MERGE): in a MATCHED-only MERGE, a clause without a target-only conjunct
// makes the OR over the clauses TRUE, wherever it stands among them.
TEST(MergeGaps, AnUnconditionedMatchedClauseFirstMakesTheClauseReadTrue) {
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
