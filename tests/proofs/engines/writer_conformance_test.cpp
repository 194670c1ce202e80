// Writer conformance without an engine: logs written here with chosen stats stand in for what a
// driver's engine wrote, and the comparison, the per-rule tallies and the audit are checked
// against them. (The Delta Spark run itself is `skipsound engine-gate --engine delta-spark
// --conformance`, docs/engines.md.)
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <functional>
#include <set>

#include "model/log/actions.h"
#include "model/log/delta_log.h"
#include "model/values/scratch_directory.h"
#include "proofs/engines/engine_world.h"
#include "proofs/engines/writer_conformance.h"

namespace skipsound::engines {
namespace {

using nlohmann::json;

// Stats as the test wants the "engine" to have written them, given the model's for the rows.
using StatsEdit = std::function<void(FileStats&, const Schema&)>;

// Writes the table's log (version 0: protocol, metaData and one add per file, stats from the
// model writer, then edited) and answers as a driver would: each file's rows, read back.
json write_log(const ConformanceTable& t, const std::string& dir, const StatsEdit& edit = {}) {
  std::filesystem::create_directories(std::filesystem::path(dir) / "_delta_log");
  Metadata metadata;
  metadata.id = "conformance-test";
  metadata.schema = t.schema;
  metadata.schema_string = t.schema.to_json().dump();
  metadata.configuration = t.configuration;
  const StatsConfig config = StatsConfig::from_configuration(t.configuration, {});
  const bool tight = t.configuration.count("delta.enableDeletionVectors") > 0;
  std::vector<Action> actions = {Protocol{}, metadata};
  json files = json::object();
  for (size_t i = 0; i < t.files.size(); ++i) {
    AddFile add;
    add.path = "part-" + std::to_string(i) + ".parquet";
    FileStats stats = collect_stats(t.files[i], t.schema, config, tight);
    if (edit) edit(stats, t.schema);
    add.set_stats(stats, t.schema, StatsNaming::Logical);
    actions.push_back(add);
    json rows = json::array();
    for (const Row& r : t.files[i]) rows.push_back(json(conformance_request({"", t.schema, {}, {}, {{r}}})["files"][0][0]));
    files[add.path] = {{"rows", rows}};
  }
  std::ofstream(std::filesystem::path(dir) / "_delta_log" / commit_file_name(0)) << commit_to_json(actions);
  return {{"engine", "test"}, {"files", files}};
}

// A generated table without the settings this hand-written log does not express (partition
// values, physical names).
ConformanceTable plain_table(uint64_t seed) {
  ConformanceTable t = conformance_table(seed, "t" + std::to_string(seed));
  t.partition_columns.clear();
  t.configuration.erase("delta.columnMapping.mode");
  t.configuration.erase("delta.dataSkippingStatsColumns");
  return t;
}

// A schema of one long, one string and one boolean column, with rows whose stats are easy to state.
ConformanceTable small_table() {
  ConformanceTable t;
  t.name = "small";
  t.schema = Schema({{"n", DataType::of(TypeKind::Long), true, ""},
                     {"s", DataType::of(TypeKind::String), true, ""},
                     {"b", DataType::of(TypeKind::Boolean), true, ""}});
  const std::string long_string(40, 'q');
  t.files = {{{Value::integral(TypeKind::Long, 3), Value::string(long_string), Value::boolean(true)},
              {Value::integral(TypeKind::Long, 9), Value::null(DataType::of(TypeKind::String)), Value::boolean(false)}}};
  return t;
}

size_t differing(const ConformanceResult& r, StatsRule rule) {
  const auto it = r.rules.find(rule);
  return it == r.rules.end() ? 0 : it->second.differ;
}

TEST(WriterConformance, ModelStatsAgreeWithThemselvesOnEveryGeneratedTable) {
  ScratchDirectory scratch("conformance-test");
  ConformanceResult result;
  for (uint64_t seed = 1; seed <= 30; ++seed) {
    const ConformanceTable t = plain_table(seed);
    const std::string dir = (scratch.path() / t.name).string();
    judge_conformance_table(t, dir, write_log(t, dir), result);
  }
  EXPECT_TRUE(result.clean()) << render_writer_conformance(result);
  EXPECT_EQ(result.tables, 30u);
  EXPECT_GE(result.files, 60u);
  EXPECT_EQ(result.rules.at(StatsRule::NumRecords).agree, result.files);
}

TEST(WriterConformance, GeneratedTablesCoverEveryTypeAndSetting) {
  std::set<TypeKind> types;
  std::set<std::string> keys;
  size_t partitioned = 0, nested = 0, nulls = 0;
  for (uint64_t seed = 1; seed <= 200; ++seed) {
    const ConformanceTable t = conformance_table(seed, "t");
    for (const Leaf& leaf : t.schema.leaves()) {
      types.insert(leaf.type.kind);
      nested += leaf.path.size() > 1;
    }
    for (const auto& [key, value] : t.configuration) keys.insert(key);
    partitioned += !t.partition_columns.empty();
    for (const auto& file : t.files) {
      for (const Row& r : file) nulls += static_cast<size_t>(std::count_if(r.begin(), r.end(), [](const Value& v) { return v.is_null(); }));
    }
    EXPECT_NO_THROW(check_stats_columns(t.schema, StatsConfig::from_configuration(t.configuration, t.partition_columns)));
  }
  for (TypeKind k : {TypeKind::Byte, TypeKind::Short, TypeKind::Int, TypeKind::Long, TypeKind::Float, TypeKind::Double,
                     TypeKind::Decimal, TypeKind::Date, TypeKind::Timestamp, TypeKind::TimestampNtz, TypeKind::String,
                     TypeKind::Boolean}) {
    EXPECT_TRUE(types.count(k)) << type_name(DataType::of(k));
  }
  for (const char* key : {"delta.dataSkippingNumIndexedCols", "delta.dataSkippingStatsColumns", "delta.columnMapping.mode",
                          "delta.enableDeletionVectors"}) {
    EXPECT_TRUE(keys.count(key)) << key;
  }
  EXPECT_GT(partitioned, 0u);
  EXPECT_GT(nested, 0u);
  EXPECT_GT(nulls, 0u);
}

TEST(WriterConformance, AnUncutStringMaxDiffersYetIsSound) {
  ScratchDirectory scratch("conformance-test");
  const ConformanceTable t = small_table();
  const std::string dir = (scratch.path() / "t").string();
  ConformanceResult result;
  judge_conformance_table(t, dir, write_log(t, dir, [](FileStats& s, const Schema&) {
                            s.column_mut(1).max = Value::string(std::string(40, 'q'));
                          }),
                          result);
  EXPECT_EQ(differing(result, StatsRule::StringMax), 1u) << render_writer_conformance(result);
  EXPECT_EQ(differing(result, StatsRule::IntegralMinMax), 0u);
  EXPECT_TRUE(result.unsound_stats.empty()) << render_writer_conformance(result);
  ASSERT_EQ(result.differences.size(), 1u);
  EXPECT_EQ(result.differences[0].field.field, "maxValues.s");
}

TEST(WriterConformance, AMaxBelowARowDiffersAndIsUnsound) {
  ScratchDirectory scratch("conformance-test");
  const ConformanceTable t = small_table();
  const std::string dir = (scratch.path() / "t").string();
  ConformanceResult result;
  judge_conformance_table(t, dir, write_log(t, dir, [](FileStats& s, const Schema&) {
                            s.column_mut(0).max = Value::integral(TypeKind::Long, 8);
                          }),
                          result);
  EXPECT_EQ(differing(result, StatsRule::IntegralMinMax), 1u);
  ASSERT_EQ(result.unsound_stats.size(), 1u) << render_writer_conformance(result);
  EXPECT_NE(result.unsound_stats[0].find("max(n)"), std::string::npos) << result.unsound_stats[0];
}

TEST(WriterConformance, StatsPastTheIndexedCountAndAMissingNullCountDiffer) {
  ScratchDirectory scratch("conformance-test");
  ConformanceTable t = small_table();
  t.configuration[kNumIndexedColsKey] = "1";
  const std::string dir = (scratch.path() / "t").string();
  ConformanceResult result;
  judge_conformance_table(t, dir, write_log(t, dir, [](FileStats& s, const Schema&) {
                            s.column_mut(0).null_count.reset();
                            s.column_mut(2).null_count = 0;
                          }),
                          result);
  EXPECT_EQ(differing(result, StatsRule::NullCount), 1u) << render_writer_conformance(result);
  EXPECT_EQ(differing(result, StatsRule::NotIndexedByCount), 1u);
  EXPECT_EQ(result.rules.at(StatsRule::NotIndexedByCount).files, 1u);
}

TEST(WriterConformance, ALogTheReaderRefusesOrAListingItLacksIsAnError) {
  ScratchDirectory scratch("conformance-test");
  const ConformanceTable t = small_table();
  ConformanceResult result;
  judge_conformance_table(t, (scratch.path() / "missing").string(), {{"files", json::object()}}, result);
  const std::string dir = (scratch.path() / "t").string();
  json response = write_log(t, dir);
  response["files"]["part-9.parquet"] = {{"rows", json::array()}};
  judge_conformance_table(t, dir, response, result);
  ASSERT_EQ(result.errors.size(), 2u);
  EXPECT_NE(result.errors[0].find("refuses the log"), std::string::npos) << result.errors[0];
  EXPECT_NE(result.errors[1].find("lists"), std::string::npos) << result.errors[1];
  EXPECT_FALSE(result.clean());
}

TEST(WriterConformance, ADriverThatFailsEveryTableEndsTheRunWithErrors) {
  ConformanceOptions options;
  options.min_files = 5;
  options.driver.argv = {"python3", "-c",
                         "import sys\nfor line in sys.stdin:\n    print('{\"driver_error\": \"no engine\"}', flush=True)"};
  const ConformanceResult result = run_writer_conformance(options);
  EXPECT_EQ(result.files, 0u);
  EXPECT_GT(result.errors.size(), 20u);
  EXPECT_NE(result.errors[0].find("no engine"), std::string::npos) << result.errors[0];
}

// Every file kept by the "engine", then none: skipsound's own skips are proved by the oracle, and
// skipping every file is unsound where a row matches and a lost skip where skipsound keeps.
TEST(ScanDecisions, TheEnginesKeepsAndSkipsAreJudgedByTheOracleAndTheRows) {
  ScratchDirectory scratch("conformance-test");
  ScanDecisions keep_all, skip_all;
  size_t skipsound_keeps = 0;
  for (uint64_t seed = 1; seed <= 2; ++seed) {
    const ConformanceTable t = plain_table(seed);
    const std::string dir = (scratch.path() / t.name).string();
    write_log(t, dir);
    const DeltaTable log = load_delta_table(dir);
    const std::vector<SparkScanPredicate> predicates =
        spark_scan_predicates(t.schema, log.stats_config, t.files, seed, 6);
    std::map<std::string, std::vector<Row>> rows;
    json every = json::array(), none = json::array();
    for (size_t i = 0; i < t.files.size(); ++i) {
      rows["part-" + std::to_string(i) + ".parquet"] = t.files[i];
      every.push_back("part-" + std::to_string(i) + ".parquet");
    }
    json kept_all = json::array(), kept_none = json::array();
    for (size_t p = 0; p < predicates.size(); ++p) {
      kept_all.push_back({{"kept", every}});
      kept_none.push_back({{"kept", none}});
    }
    judge_scan_decisions(log, rows, predicates, kept_all, t.name, keep_all);
    const size_t lost_before = skip_all.lost_skips.size();
    judge_scan_decisions(log, rows, predicates, kept_none, t.name, skip_all);
    skipsound_keeps += skip_all.lost_skips.size() - lost_before;
  }
  size_t pairs = 0, beyond = 0, unsound = 0, lost = 0;
  for (const auto& [form, tally] : keep_all.forms) {
    pairs += tally.pairs;
    beyond += tally.beyond_proved;
    EXPECT_EQ(tally.lost_skips, 0u) << form;
    EXPECT_EQ(tally.engine_skips, 0u) << form;
    EXPECT_EQ(tally.beyond_unproved, 0u) << form;
  }
  for (const auto& [form, tally] : skip_all.forms) {
    unsound += tally.engine_unsound;
    lost += tally.lost_skips;
    EXPECT_EQ(tally.engine_skips, tally.pairs) << form;
  }
  EXPECT_GT(pairs, 50u);
  EXPECT_GT(beyond, 0u);       // skipsound skips some files the engine keeps, each proved
  EXPECT_GT(unsound, 0u);      // a file with a matching row skipped by the engine
  EXPECT_EQ(lost, skipsound_keeps);
  EXPECT_EQ(lost + beyond, pairs);  // every pair: skipsound keeps (a lost skip) or skips (proved)
  EXPECT_TRUE(keep_all.findings.empty()) << keep_all.findings.front();
}

}  // namespace
}  // namespace skipsound::engines
