// Table properties given on the command line are read in Delta's syntax by model/stats' parsers,
// as a Delta log's metaData.configuration is: one --stats-columns string with nested and
// backquoted names, --num-indexed-cols ignored when stats columns are set, errors naming the
// option; and --table refuses a table whose protocol skipsound cannot read.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "model/values/input_error.h"
#include "cli/file_inputs.h"
#include "model/values/scratch_directory.h"

namespace skipsound::cli {
namespace {
namespace fs = std::filesystem;

const std::string kOwnLogs = std::string(SKIPSOUND_SOURCE_DIR) + "/tests/fixtures/skipsound-logs/";

// A schema file id long, b struct<c: struct<e int, g int>>, `b.c` int and one row of rows.
class RowsInput {
 public:
  RowsInput() : scratch_("test"), dir_(scratch_.path()) {
    std::ofstream(dir_ / "schema.json") << R"({"type":"struct","fields":[
      {"name":"id","type":"long","nullable":true,"metadata":{}},
      {"name":"b","type":{"type":"struct","fields":[{"name":"c","type":{"type":"struct","fields":[
        {"name":"e","type":"integer","nullable":true,"metadata":{}},
        {"name":"g","type":"integer","nullable":true,"metadata":{}}]},"nullable":true,"metadata":{}}]},
       "nullable":true,"metadata":{}},
      {"name":"b.c","type":"integer","nullable":true,"metadata":{}}]})";
    std::ofstream(dir_ / "rows.jsonl") << R"({"id":1,"b":{"c":{"e":2,"g":3}},"b.c":4})" << "\n";
  }
  FileInputOptions options() const {
    FileInputOptions o;
    o.schema_file = (dir_ / "schema.json").string();
    o.rows_file = (dir_ / "rows.jsonl").string();
    return o;
  }

 private:
  ScratchDirectory scratch_;
  fs::path dir_;
};

// Which leaves (id, b.c.e, b.c.g, `b.c`) got stats in the file written from the rows.
std::vector<bool> leaves_with_stats(const LoadedFiles& files) {
  std::vector<bool> with;
  for (const Leaf& leaf : files.schema.leaves()) with.push_back(files.stats.front().column(leaf.ordinal).null_count.has_value());
  return with;
}

TEST(TablePropertyOptions, StatsColumnsIsOneStringInDeltaSyntax) {
  const RowsInput input;
  FileInputOptions options = input.options();
  options.stats_columns = "b.c.e, `b.c`";
  std::vector<std::string> warnings;
  const LoadedFiles files = load_files(options, warnings);
  EXPECT_EQ(leaves_with_stats(files), (std::vector<bool>{false, true, false, true}));
  EXPECT_TRUE(warnings.empty());

  options.stats_columns = " `b` . c ";  // a struct: every leaf under it
  EXPECT_EQ(leaves_with_stats(load_files(options, warnings)), (std::vector<bool>{false, true, true, false}));
  options.stats_columns = "";  // Delta's empty list: no column has stats
  EXPECT_EQ(leaves_with_stats(load_files(options, warnings)), (std::vector<bool>(4, false)));
}

TEST(TablePropertyOptions, NumIndexedColsIsIgnoredWithAWarningWhenStatsColumnsAreSet) {
  const RowsInput input;
  FileInputOptions options = input.options();
  options.num_indexed_cols = "1";
  std::vector<std::string> warnings;
  EXPECT_EQ(leaves_with_stats(load_files(options, warnings)), (std::vector<bool>{true, false, false, false}));
  EXPECT_TRUE(warnings.empty());
  options.stats_columns = "`b.c`";
  EXPECT_EQ(leaves_with_stats(load_files(options, warnings)), (std::vector<bool>{false, false, false, true}));
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("--num-indexed-cols ignored"), std::string::npos) << warnings[0];
}

InputError error_of(const FileInputOptions& options) {
  std::vector<std::string> warnings;
  try {
    load_files(options, warnings);
  } catch (const InputError& e) {
    return e;
  }
  ADD_FAILURE() << "no error";
  return InputError("");
}

TEST(TablePropertyOptions, MalformedValuesNameTheOption) {
  const RowsInput input;
  FileInputOptions options = input.options();
  options.stats_columns = "b.c.e, `b.c";
  const InputError unbalanced = error_of(options);
  EXPECT_EQ(unbalanced.message(), "--stats-columns: unbalanced backquote");
  EXPECT_EQ(unbalanced.column(), 8);
  options.stats_columns = "id,,b";
  EXPECT_EQ(error_of(options).message(), "--stats-columns: empty column name");
  options.stats_columns = "b.c.x";
  EXPECT_EQ(error_of(options).message(), "--stats-columns: no column b.c.x in the schema");
  options.stats_columns.reset();
  options.num_indexed_cols = "-2";
  EXPECT_EQ(error_of(options).message(), "--num-indexed-cols: must be -1 or more, got -2");
}

TEST(TablePropertyOptions, TableConfigurationIsReadAndTheOptionOverridesIt) {
  FileInputOptions options;
  options.table_dir = kOwnLogs + "stats-columns-nested";
  std::vector<std::string> warnings;
  EXPECT_EQ(load_files(options, warnings).config.stats_columns,
            (std::vector<ColumnPath>{{"b", "c", "e"}, {"b", "c", "f", "h"}, {"b.c"}}));
  options.stats_columns = "id";
  EXPECT_EQ(load_files(options, warnings).config.stats_columns, (std::vector<ColumnPath>{{"id"}}));
}

TEST(TablePropertyOptions, TableWithAnUnreadableProtocolIsRefused) {
  FileInputOptions options;
  options.table_dir = kOwnLogs + "reader-feature-upgrade";
  EXPECT_NE(error_of(options).message().find("unsupported Delta reader feature(s): typeWidening"), std::string::npos);
  options.version = 0;
  std::vector<std::string> warnings;
  EXPECT_EQ(load_files(options, warnings).candidates.size(), 1u);
}

// A file of a partitioned table written from rows has their partition values, so partition
// filters apply to it as to a --table file.
TEST(RowsInputOptions, PartitionColumnsGiveTheFileItsRowsPartitionValues) {
  const RowsInput input;
  FileInputOptions options = input.options();
  options.partition_columns = {"id"};
  std::vector<std::string> warnings;
  const LoadedFiles files = load_files(options, warnings);
  EXPECT_TRUE(files.have_partition_values);
  EXPECT_EQ(files.candidates.at(0).partition_values.at(0), Value::integral(TypeKind::Long, 1));
  EXPECT_EQ(leaves_with_stats(files), (std::vector<bool>{false, true, true, true}));  // never a partition column
  EXPECT_FALSE(load_files(input.options(), warnings).have_partition_values);
}

// --stats with --rows: the stats recorded for the rows (written under other settings) win.
TEST(RowsInputOptions, RecordedStatsReplaceTheWritersStats) {
  const RowsInput input;
  FileInputOptions options = input.options();
  options.stats_json = R"({"numRecords":1,"nullCount":{"id":0}})";
  std::vector<std::string> warnings;
  EXPECT_EQ(leaves_with_stats(load_files(options, warnings)), (std::vector<bool>{true, false, false, false}));
}

}  // namespace
}  // namespace skipsound::cli
