// Scenario `property` lines take Delta's table-property syntax, read by the same model/stats
// parsers as a Delta log's metaData.configuration, and name the file and line on a bad value.
#include <gtest/gtest.h>

#include "model/values/input_error.h"
#include "proofs/scenario/scenario.h"

namespace skipsound {
namespace {

const std::string kTail = "file f1: [{\"id\": 1, \"b.c\": 2, \"x\": 3}]\nT1: DELETE WHERE id > 0\ncommit: T1\n";

// Which of the columns id, `b.c`, x got stats in the scenario's initial file.
std::vector<bool> columns_with_stats(const std::string& property_lines) {
  const Scenario scenario = parse_scenario("schema: id long, `b.c` int, x int\n" + property_lines + kTail, "p.scn");
  std::vector<bool> with;
  const FileStats& stats = *scenario.table.files().front().stats;
  for (const Leaf& leaf : scenario.table.schema().leaves()) with.push_back(stats.column(leaf.ordinal).min.has_value());
  return with;
}

TEST(ScenarioProperties, StatsColumnsTakeDeltaSyntaxWithBackquotedDots) {
  EXPECT_EQ(columns_with_stats("property statsColumns: id , `b.c`\n"), (std::vector<bool>{true, true, false}));
  EXPECT_EQ(columns_with_stats("property delta.dataSkippingStatsColumns: x\n"), (std::vector<bool>{false, false, true}));
  EXPECT_EQ(columns_with_stats("property statsColumns:\n"), (std::vector<bool>{false, false, false}));
}

TEST(ScenarioProperties, NumIndexedColsIsIgnoredWhenStatsColumnsAreSet) {
  EXPECT_EQ(columns_with_stats("property numIndexedCols: 1\n"), (std::vector<bool>{true, false, false}));
  EXPECT_EQ(columns_with_stats("property numIndexedCols: 0\nproperty statsColumns: x\n"),
            (std::vector<bool>{false, false, true}));
}

std::string error_of(const std::string& property_line) {
  try {
    columns_with_stats(property_line + "\n");
  } catch (const InputError& e) {
    return e.message();
  }
  return "accepted";
}

TEST(ScenarioProperties, MalformedValuesNameTheFileLineAndProperty) {
  EXPECT_NE(error_of("property statsColumns: id, `b.c").find("p.scn:2: error: property statsColumns: unbalanced backquote at column 5"),
            std::string::npos)
      << error_of("property statsColumns: id, `b.c");
  EXPECT_NE(error_of("property statsColumns: id,,x").find("p.scn:2: error: property statsColumns: empty column name"),
            std::string::npos);
  EXPECT_NE(error_of("property statsColumns: b.c").find("p.scn:3: property statsColumns: no column b.c in the schema"),
            std::string::npos)
      << error_of("property statsColumns: b.c");
  EXPECT_NE(error_of("property numIndexedCols: many").find("p.scn:2: property numIndexedCols: not an integer: 'many'"),
            std::string::npos)
      << error_of("property numIndexedCols: many");
}

}  // namespace
}  // namespace skipsound
