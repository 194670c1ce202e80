#include "model/log/delta_log.h"

#include <algorithm>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "model/mutants/fault_injection.h"
#include "model/values/input_error.h"
#include "model/values/scratch_directory.h"
#include "model/values/temporal.h"

namespace skipsound {
namespace {
namespace fs = std::filesystem;

const std::string kFixtures = SKIPSOUND_FIXTURES_DIR;
// Small logs written for skipsound (tests/fixtures/skipsound-logs/README.md lists them).
const std::string kOwnLogs = std::string(SKIPSOUND_SOURCE_DIR) + "/tests/fixtures/skipsound-logs/";

std::string table_dir(const std::string& name) { return kFixtures + "/" + name; }

// Expected figures from the fixtures README (an independent Python replay).
struct TableFigures {
  const char* name;
  size_t files;
  std::optional<int64_t> physical_rows;  // nullopt: some live file has no stats
  std::optional<int64_t> logical_rows;
};

const TableFigures kTables[] = {
    {"COVID-19_NYT", 8, 1'111'930, 1'111'930},
    {"simple_table", 5, std::nullopt, std::nullopt},
    {"delta-0.8.0-null-partition", 2, std::nullopt, std::nullopt},
    {"delta-2.2.0-partitioned-types", 3, 3, 3},
    {"partition-type-primitives", 16, 16, 16},
    {"table-with-dv-small", 1, 10, 8},
    {"table_with_deletion_logs", 1, 100, 98},
    {"cdf-table", 9, 9, 9},
    {"cdf-table-with-cdc-and-dvs", 2, 11, 5},
    {"delta-stats-optional", 2, std::nullopt, std::nullopt},
    {"delta-1.2.1-only-struct-stats", 12, 12, 12},
    {"table_with_null_stats_in_notnull_struct", 2, 2, 2},
    {"table_with_edge_timestamps", 2, 2, 2},
    {"table_with_liquid_clustering", 10, 10, 10},
    {"table_with_column_mapping", 2, 5, 5},
    {"table_with_partitioning_mapping", 2, 2, 2},
    {"data-skipping-basic-stats-all-types", 1, 1, 1},
    {"data-skipping-basic-stats-all-types-columnmapping-id", 1, 1, 1},
    {"dv-with-columnmapping", 15, 37, 35},
    {"data-reader-partition-values", 3, std::nullopt, std::nullopt},
    {"decimal-various-scale-precision", 1, 3, 3},
    {"data-reader-timestamp_ntz", 4, 9, 9},
    {"data-skipping-change-stats-collected-across-versions", 3, 3, 3},
    {"kernel-timestamp-partition-col-ISO8601", 2, 2, 2},
    {"table-with-dv-special-char", 1, 10, 5},
    {"delta-0.8.0-special-partition", 2, std::nullopt, std::nullopt},
};

std::optional<int64_t> physical_rows(const DeltaTable& t) {
  int64_t sum = 0;
  for (const LiveFile& f : t.files) {
    if (!f.stats || !f.stats->num_records) return std::nullopt;
    sum += *f.stats->num_records;
  }
  return sum;
}

std::optional<int64_t> logical_rows(const DeltaTable& t) {
  auto physical = physical_rows(t);
  if (!physical) return std::nullopt;
  for (const LiveFile& f : t.files) *physical -= f.dv_cardinality();
  return physical;
}

class FixtureTable : public testing::TestWithParam<TableFigures> {};

TEST_P(FixtureTable, ReplaysToTheReadmeFigures) {
  const TableFigures& expected = GetParam();
  const DeltaTable t = load_delta_table(table_dir(expected.name));
  EXPECT_EQ(t.files.size(), expected.files);
  EXPECT_EQ(physical_rows(t), expected.physical_rows);
  EXPECT_EQ(logical_rows(t), expected.logical_rows);
  // Every stats string in these real logs parses; the only note is an ignored checkpoint.
  for (const std::string& w : t.warnings) EXPECT_NE(w.find("_last_checkpoint"), std::string::npos) << w;
}

INSTANTIATE_TEST_SUITE_P(AllFixtures, FixtureTable, testing::ValuesIn(kTables),
                         [](const testing::TestParamInfo<TableFigures>& info) {
                           std::string name = info.param.name;
                           for (char& c : name) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

TEST(DeltaLog, EveryFixtureTableIsCovered) {
  size_t tables = 0;
  for (const auto& entry : fs::directory_iterator(kFixtures)) tables += entry.is_directory();
  EXPECT_EQ(tables, std::size(kTables));
}

const ColumnStats& stats_of(const LiveFile& f, const Schema& schema, const ColumnPath& path) {
  const Leaf* leaf = schema.find_leaf(path);
  EXPECT_NE(leaf, nullptr) << path_to_sql(path);
  return f.stats->column(leaf ? leaf->ordinal : 0);
}

const LiveFile& file_with_partition(const DeltaTable& t, const std::string& column, const Value& v) {
  for (const LiveFile& f : t.files) {
    if (f.partition_values.at(column) == v) return f;
  }
  throw std::runtime_error("no file with " + column + " = " + to_display(v));
}

TEST(DeltaLog, ColumnMappingNameReadsPhysicalKeys) {
  const DeltaTable t = load_delta_table(table_dir("table_with_column_mapping"));
  EXPECT_EQ(t.stats_naming(), StatsNaming::Physical);
  const LiveFile& bms = file_with_partition(t, "Company Very Short", Value::string("BMS"));
  const ColumnStats& name = stats_of(bms, t.metadata.schema, {"Super Name"});
  EXPECT_EQ(name.min, Value::string("Anthony Johnson"));
  EXPECT_EQ(name.max, Value::string("Stephanie Mcgrath"));
  EXPECT_EQ(name.null_count, 0);
  file_with_partition(t, "Company Very Short", Value::string("BME"));
}

TEST(DeltaLog, RenamedPartitionColumnKeepsItsPhysicalName) {
  const DeltaTable t = load_delta_table(table_dir("table_with_partitioning_mapping"));
  EXPECT_EQ(t.metadata.partition_columns, std::vector<std::string>{"newid"});
  file_with_partition(t, "newid", Value::integral(TypeKind::Int, 1));
  file_with_partition(t, "newid", Value::integral(TypeKind::Int, 2));
}

int64_t micros(int64_t y, unsigned mo, unsigned d, int64_t h = 0, int64_t mi = 0, int64_t s = 0, int64_t us = 0) {
  return ((days_from_civil(y, mo, d) * 24 + h) * 60 + mi) * 60'000'000 + s * 1'000'000 + us;
}

TEST(DeltaLog, TimestampStatsWithAnOffsetAreConvertedToUtc) {
  const DeltaTable t = load_delta_table(table_dir("data-skipping-basic-stats-all-types"));
  const ColumnStats& ts = stats_of(t.files.at(0), t.metadata.schema, {"as_timestamp"});
  ASSERT_TRUE(ts.min);
  EXPECT_EQ(ts.min->as_int(), micros(2000, 1, 1, 8));
  EXPECT_EQ(ts.max->as_int(), micros(2000, 1, 1, 8));
}

TEST(DeltaLog, ColumnMappingIdGivesTheSameStatsAsTheUnmappedTable) {
  const DeltaTable plain = load_delta_table(table_dir("data-skipping-basic-stats-all-types"));
  const DeltaTable mapped =
      load_delta_table(table_dir("data-skipping-basic-stats-all-types-columnmapping-id"));
  EXPECT_EQ(mapped.metadata.column_mapping_mode(), ColumnMappingMode::Id);
  ASSERT_TRUE(mapped.files.at(0).stats);
  EXPECT_EQ(mapped.files.at(0).stats->columns.size(), 10u);
  EXPECT_EQ(*mapped.files.at(0).stats, *plain.files.at(0).stats);
}

TEST(DeltaLog, DecimalStatsAreExact) {
  const DeltaTable t = load_delta_table(table_dir("decimal-various-scale-precision"));
  const LiveFile& f = t.files.at(0);
  const ColumnStats& d = stats_of(f, t.metadata.schema, {"decimal_25_12"});
  ASSERT_TRUE(d.min);
  EXPECT_EQ(compare_decimals(d.min->as_decimal(), parse_decimal("-0.000000031661")),
            std::strong_ordering::equal);
  const ColumnStats& all_null = stats_of(f, t.metadata.schema, {"decimal_7_6"});
  EXPECT_EQ(all_null.null_count, 3);
  EXPECT_FALSE(all_null.min);
}

TEST(DeltaLog, NestedStructStatsAndAColumnMissingFromStats) {
  const DeltaTable t = load_delta_table(table_dir("delta-1.2.1-only-struct-stats"));
  const Schema& schema = t.metadata.schema;
  int files_without_new_column = 0;
  for (const LiveFile& f : t.files) {
    ASSERT_TRUE(f.stats) << f.add.path;
    const ColumnStats& nested = stats_of(f, schema, {"nested_struct", "struct_element", "nested_struct_element"});
    EXPECT_EQ(nested.min, Value::string("nested_struct_value"));
    EXPECT_EQ(stats_of(f, schema, {"map"}).null_count, 0);
    EXPECT_FALSE(stats_of(f, schema, {"binary"}).min);
    EXPECT_EQ(stats_of(f, schema, {"decimal"}).min, Value::decimal(parse_decimal("-5.67800"), 8));
    files_without_new_column += !stats_of(f, schema, {"new_column"}).null_count.has_value();
  }
  // Only the v10 add (the schema change) records new_column; v11/v12 omit it like older files.
  EXPECT_EQ(files_without_new_column, 11);
}

TEST(DeltaLog, NumIndexedColsFollowsTheMetadataOfTheLoadedVersion) {
  const std::string dir = table_dir("data-skipping-change-stats-collected-across-versions");
  EXPECT_EQ(load_delta_table(dir, 0).stats_config.num_indexed_cols, 32);
  EXPECT_EQ(load_delta_table(dir, 2).stats_config.num_indexed_cols, 1);
  const DeltaTable latest = load_delta_table(dir);
  EXPECT_EQ(latest.stats_config.num_indexed_cols, 0);
  int records_only = 0;
  for (const LiveFile& f : latest.files) {
    records_only += f.stats->num_records == 1 && !f.stats->column(0).null_count;
  }
  EXPECT_EQ(records_only, 1);
}

TEST(DeltaLog, DeletionVectorReplacesTheSameFileAndVersionSelectsTheState) {
  const std::string dir = table_dir("table-with-dv-small");
  const DeltaTable before = load_delta_table(dir, 0);
  ASSERT_EQ(before.files.size(), 1u);
  EXPECT_FALSE(before.files[0].add.deletion_vector);
  const DeltaTable after = load_delta_table(dir, 1);
  ASSERT_EQ(after.files.size(), 1u);
  EXPECT_EQ(after.files[0].add.path, before.files[0].add.path);
  EXPECT_EQ(after.files[0].dv_cardinality(), 2);
  EXPECT_TRUE(after.files[0].stats->wide());
  EXPECT_EQ(after.protocol.reader_features, std::vector<std::string>{"deletionVectors"});
}

TEST(DeltaLog, TwoVectorsInOneDvFileAreDistinctByOffset) {
  DeletionVectorDescriptor a{"u", "F0u+Uo^@EuVa@tFk))2D", 1, 34, 1};
  DeletionVectorDescriptor b = a;
  b.offset = 43;
  EXPECT_NE(a.id(), b.id());
  EXPECT_EQ(a.id(), "uF0u+Uo^@EuVa@tFk))2D@1");
}

TEST(DeltaLog, PartitionValuesAreTyped) {
  const DeltaTable t = load_delta_table(table_dir("data-reader-partition-values"));
  const LiveFile& zero = file_with_partition(t, "as_int", Value::integral(TypeKind::Int, 0));
  EXPECT_EQ(zero.partition_values.at("as_string_lit_null"), Value::string("null"));
  EXPECT_EQ(zero.partition_values.at("as_boolean"), Value::boolean(true));
  EXPECT_EQ(zero.partition_values.at("as_timestamp").as_int(), micros(2021, 9, 8, 11, 11, 11));
  EXPECT_EQ(zero.partition_values.at("as_date").as_int(), days_from_civil(2021, 9, 8));
  const LiveFile& nulls = file_with_partition(t, "as_int", Value::null(DataType::of(TypeKind::Int)));
  for (const auto& [column, value] : nulls.partition_values) EXPECT_TRUE(value.is_null()) << column;
}

TEST(DeltaLog, TimestampPartitionValuesInEveryForm) {
  const DeltaTable iso = load_delta_table(table_dir("kernel-timestamp-partition-col-ISO8601"));
  file_with_partition(iso, "ts", Value::integral(TypeKind::Timestamp, micros(2024, 1, 1, 10)));
  const DeltaTable ntz = load_delta_table(table_dir("data-reader-timestamp_ntz"));
  file_with_partition(ntz, "tsNtzPartition",
                      Value::integral(TypeKind::TimestampNtz, micros(2013, 7, 5, 17, 1, 0, 123456)));
}

TEST(DeltaLog, EdgeTimestampStatsFitInMicroseconds) {
  const DeltaTable t = load_delta_table(table_dir("table_with_edge_timestamps"));
  int64_t largest = 0;
  for (const LiveFile& f : t.files) {
    largest = std::max(largest, stats_of(f, t.metadata.schema, {"BIG_DATE"}).max->as_int());
  }
  EXPECT_EQ(largest, micros(9999, 12, 31));
}

TEST(DeltaLog, UnknownVersionIsAnError) {
  const std::string dir = table_dir("simple_table");
  EXPECT_THROW(load_delta_table(dir, 5), InputError);
  EXPECT_THROW(load_delta_table(dir, -1), InputError);
  EXPECT_THROW(load_delta_table(table_dir("no-such-table")), InputError);
}

// A scratch copy of a fixture table that a test may damage.
class ScratchTable {
 public:
  explicit ScratchTable(const std::string& fixture) : scratch_("test"), dir_(scratch_.path()) {
    fs::copy(table_dir(fixture), dir_, fs::copy_options::recursive);
  }
  std::string dir() const { return dir_.string(); }
  fs::path log(int64_t version) const {
    std::string digits = std::to_string(version);
    return dir_ / "_delta_log" / (std::string(20 - digits.size(), '0') + digits + ".json");
  }

 private:
  ScratchDirectory scratch_;
  fs::path dir_;
};

std::string error_of(const std::string& dir, std::optional<int64_t> version = std::nullopt) {
  try {
    load_delta_table(dir, version);
  } catch (const InputError& e) {
    return e.message();
  }
  return "";
}

TEST(DeltaLog, MissingCommitsThatOnlyTheCheckpointHasAreRefusedNamingIt) {
  ScratchTable t("dv-with-columnmapping");
  for (int v = 0; v <= 10; ++v) fs::remove(t.log(v));
  const std::string message = error_of(t.dir());
  EXPECT_NE(message.find("00000000000000000010.checkpoint.parquet is not supported"), std::string::npos)
      << message;
}

TEST(DeltaLog, CheckpointIsIgnoredWhenJsonCommitsAreComplete) {
  const DeltaTable t = load_delta_table(table_dir("dv-with-columnmapping"));
  ASSERT_EQ(t.warnings.size(), 1u);
  EXPECT_NE(t.warnings[0].find("_last_checkpoint"), std::string::npos);
}

TEST(DeltaLog, AGapIsAnError) {
  ScratchTable copy("simple_table");
  fs::remove(copy.log(2));
  const std::string message = error_of(copy.dir());
  EXPECT_NE(message.find("00000000000000000002.json is missing"), std::string::npos) << message;
  EXPECT_NO_THROW(load_delta_table(copy.dir(), 1));  // versions before the gap still load
}

TEST(DeltaLog, MalformedLineNamesFileAndLine) {
  ScratchTable t("table-with-dv-small");
  std::ofstream(t.log(1), std::ios::app) << "{\"add\": {\"path\": \n";  // after 3 good lines
  const std::string message = error_of(t.dir());
  EXPECT_NE(message.find("00000000000000000001.json:4: malformed JSON"), std::string::npos) << message;
  EXPECT_NO_THROW(load_delta_table(t.dir(), 0));
}

TEST(DeltaLog, UnparsableStatsKeepTheFileWithAWarning) {
  ScratchTable t("delta-2.2.0-partitioned-types");
  std::ofstream(t.log(1))
      << R"({"add":{"path":"x.parquet","partitionValues":{"c1":"9","c2":"z"},"size":1,"modificationTime":1,"dataChange":true,"stats":"{\"numRecords\":\"many\"}"}})"
      << "\n";
  const DeltaTable table = load_delta_table(t.dir());
  ASSERT_EQ(table.files.size(), 4u);
  const LiveFile& added = file_with_partition(table, "c1", Value::integral(TypeKind::Int, 9));
  EXPECT_FALSE(added.stats);
  ASSERT_EQ(table.warnings.size(), 1u);
  EXPECT_NE(table.warnings[0].find("x.parquet"), std::string::npos);
}

TEST(DeltaLog, EveryFixtureActionSurvivesWritingAndReadingBack) {
  size_t actions = 0;
  for (const TableFigures& table : kTables) {
    for (const auto& entry : fs::directory_iterator(table_dir(table.name) + "/_delta_log")) {
      if (entry.path().extension() != ".json") continue;
      std::ifstream in(entry.path());
      const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      const std::vector<Action> original = parse_commit(text, entry.path().string());
      EXPECT_EQ(parse_commit(commit_to_json(original), "written"), original) << entry.path();
      actions += original.size();
    }
  }
  EXPECT_EQ(actions, 484u);  // every line of the fixtures is a known action type
}

TEST(DeltaLogConfiguration, StatsColumnsInDeltaSyntaxSelectNestedAndDottedColumns) {
  const DeltaTable table = load_delta_table(kOwnLogs + "stats-columns-nested");
  ASSERT_TRUE(table.stats_config.stats_columns);
  EXPECT_EQ(*table.stats_config.stats_columns,
            (std::vector<ColumnPath>{{"b", "c", "e"}, {"b", "c", "f", "h"}, {"b.c"}}));
  // Leaves: id, b.c.e, b.c.f.h, b.c.f.g, b.d, `b.c`; numIndexedCols 0 is ignored.
  EXPECT_EQ(indexed_leaves(table.metadata.schema, table.stats_config),
            (std::vector<bool>{false, true, true, false, false, true}));
  ASSERT_EQ(table.files.size(), 1u);
  ASSERT_TRUE(table.files[0].stats);
  const Leaf* dotted = table.metadata.schema.find_leaf({"b.c"});
  ASSERT_NE(dotted, nullptr);
  EXPECT_EQ(table.files[0].stats->column(dotted->ordinal).max, Value::integral(TypeKind::Int, 200));
}

TEST(DeltaLogConfiguration, MalformedStatsColumnsNameTheCommitAndTheSetting) {
  const std::string message = error_of(kOwnLogs + "stats-columns-unbalanced-backquote");
  EXPECT_NE(message.find("00000000000000000000.json: metaData.configuration: delta.dataSkippingStatsColumns: "
                         "unbalanced backquote"),
            std::string::npos)
      << message;
}

TEST(DeltaLogProtocol, AReaderVersionAboveThreeIsRefused) {
  const std::string message = error_of(kOwnLogs + "reader-version-4");
  EXPECT_NE(message.find("00000000000000000000.json: unsupported Delta protocol: minReaderVersion 4"),
            std::string::npos)
      << message;
}

TEST(DeltaLogProtocol, AnUnimplementedReaderFeatureIsRefusedFromTheVersionThatNeedsIt) {
  const std::string dir = kOwnLogs + "reader-feature-upgrade";
  const std::string message = error_of(dir);
  // Only the missing feature is named, with the commit that required it.
  EXPECT_NE(message.find("00000000000000000001.json: unsupported Delta reader feature(s): typeWidening ("),
            std::string::npos)
      << message;
  EXPECT_EQ(load_delta_table(dir, 0).files.size(), 1u);  // before the upgrade it reads
}

TEST(DeltaLogProtocol, EveryImplementedReaderFeatureIsAccepted) {
  const DeltaTable table = load_delta_table(kOwnLogs + "reader-features-supported");
  EXPECT_EQ(table.protocol.min_reader_version, 3);
  EXPECT_EQ(table.files.size(), 1u);
}

}  // namespace
}  // namespace skipsound

namespace skipsound {
namespace {

// The input-path mutants (docs/semantics.md §8) on real tables: each one reads something other
// than what the table holds, and the sound reader reads what the fixtures README lists.
size_t live_files(const std::string& table, Mutant mutant) {
  const FaultScope fault(mutant);
  return load_delta_table(table_dir(table)).files.size();
}

TEST(DeltaLogMutants, LogReplayMutantsChangeTheLiveFiles) {
  // Eight of its removes carry the DV they retire: ignoring it leaves the old versions live.
  EXPECT_EQ(live_files("dv-with-columnmapping", Mutant::None), 15u);
  EXPECT_NE(live_files("dv-with-columnmapping", Mutant::RemoveIgnoresDv), 15u);
}

TEST(DeltaLogMutants, StatsReaderMutantsMisreadRealStats) {
  const std::string all_types = table_dir("data-skipping-basic-stats-all-types");
  const auto ts = [&](Mutant m) {
    const FaultScope fault(m);
    const DeltaTable t = load_delta_table(all_types);
    return stats_of(t.files.at(0), t.metadata.schema, {"as_timestamp"}).min;
  };
  ASSERT_TRUE(ts(Mutant::TimestampOffsetAsUtc));
  EXPECT_NE(ts(Mutant::TimestampOffsetAsUtc)->as_int(), ts(Mutant::None)->as_int());

  const DeltaTable mapped = [&] {
    const FaultScope fault(Mutant::StatsByLogicalName);
    return load_delta_table(table_dir("table_with_column_mapping"));
  }();
  const LiveFile& bms = file_with_partition(mapped, "Company Very Short", Value::string("BMS"));
  EXPECT_FALSE(stats_of(bms, mapped.metadata.schema, {"Super Name"}).min) << "physical keys are not found by logical name";

  // Delta-Spark writes decimals at the column's scale, so that fixture reads alike; a writer that
  // drops trailing zeros ("1.5" for decimal(5,2)) is where the unscaled misreading shows.
  const Schema d = Schema::from_json_text(
      R"j({"type":"struct","fields":[{"name":"d","type":"decimal(5,2)","nullable":true,"metadata":{}}]})j");
  const auto max_of = [&](Mutant m) {
    const FaultScope fault(m);
    return *stats_from_json_text(R"({"numRecords":1,"maxValues":{"d":1.5}})", d).column(0).max;
  };
  EXPECT_EQ(to_display(max_of(Mutant::None)), "1.50");
  EXPECT_EQ(to_display(max_of(Mutant::DecimalStatsUnscaled)), "0.15");
}

TEST(DeltaLogMutants, PartitionNullAsEmptyReadsTheEmptyString) {
  const Value none = partition_value_from_text(std::nullopt, DataType::of(TypeKind::String));
  EXPECT_TRUE(none.is_null());
  const FaultScope fault(Mutant::PartitionNullAsEmpty);
  EXPECT_EQ(partition_value_from_text(std::nullopt, DataType::of(TypeKind::String)), Value::string(""));
  EXPECT_TRUE(partition_value_from_text(std::nullopt, DataType::of(TypeKind::Int)).is_null());
}

TEST(DeltaLogMutants, AnInMemoryLogReplaysLikeItsDirectory) {
  const std::string dir = table_dir("table-with-dv-small");
  std::vector<LogCommit> commits;
  for (const auto& entry : fs::directory_iterator(dir + "/_delta_log")) {
    if (entry.path().extension() != ".json") continue;
    std::ifstream in(entry.path());
    commits.push_back({entry.path().filename().string(), std::string(std::istreambuf_iterator<char>(in), {})});
  }
  std::sort(commits.begin(), commits.end(), [](const LogCommit& a, const LogCommit& b) { return a.file < b.file; });
  const DeltaTable from_memory = replay_delta_log(commits);
  const DeltaTable from_dir = load_delta_table(dir);
  ASSERT_EQ(from_memory.files.size(), from_dir.files.size());
  EXPECT_EQ(from_memory.files.front().add.path, from_dir.files.front().add.path);
  EXPECT_EQ(from_memory.version, from_dir.version);
}

}  // namespace
}  // namespace skipsound
