#include <fstream>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "model/sql/schema.h"

namespace skipsound {
namespace {

// The last metaData.schemaString in a fixture table's first commits.
std::string fixture_schema(const std::string& table, const std::string& commit) {
  std::ifstream in(std::string(SKIPSOUND_FIXTURES_DIR) + "/" + table + "/_delta_log/" + commit);
  std::string line, schema;
  while (std::getline(in, line)) {
    auto j = nlohmann::json::parse(line);
    if (j.contains("metaData")) schema = j["metaData"]["schemaString"].get<std::string>();
  }
  return schema;
}

std::vector<std::string> leaf_names(const Schema& s) {
  std::vector<std::string> out;
  for (const Leaf& l : s.leaves()) out.push_back(path_to_sql(l.path) + ":" + type_name(l.type));
  return out;
}

TEST(SchemaJson, NestedStructsArraysAndMaps) {
  const Schema s = Schema::from_json_text(
      fixture_schema("delta-1.2.1-only-struct-stats", "00000000000000000001.json"));
  const std::vector<std::string> leaves = leaf_names(s);
  ASSERT_GE(leaves.size(), 13u);
  EXPECT_EQ(leaves[0], "integer:int");
  EXPECT_EQ(leaves[4], "decimal:decimal(8,5)");
  EXPECT_EQ(leaves[9], "struct.struct_element:string");
  EXPECT_EQ(leaves[10], "map:map<string,string>");
  EXPECT_EQ(leaves[11], "array:array<string>");
  EXPECT_EQ(leaves[12], "nested_struct.struct_element.nested_struct_element:string");
  EXPECT_FALSE(s.leaves()[0].nullable);
  for (size_t i = 0; i < s.leaves().size(); ++i) EXPECT_EQ(s.leaves()[i].ordinal, static_cast<int>(i));
  EXPECT_EQ(Schema::from_json(s.to_json()), s);
}

TEST(SchemaJson, ColumnMappingPhysicalNames) {
  const Schema s = Schema::from_json_text(fixture_schema(
      "data-skipping-basic-stats-all-types-columnmapping-id", "00000000000000000000.json"));
  ASSERT_FALSE(s.leaves().empty());
  EXPECT_EQ(s.leaves()[0].path, ColumnPath{"as_int"});
  EXPECT_EQ(s.leaves()[0].physical_path[0].rfind("col-", 0), 0u);
  EXPECT_EQ(Schema::from_json(s.to_json()), s);
}

TEST(SchemaJson, AllFixtureSchemasParse) {
  for (const char* table : {"data-skipping-basic-stats-all-types", "decimal-various-scale-precision",
                            "table_with_null_stats_in_notnull_struct", "data-reader-timestamp_ntz"}) {
    const std::string text = fixture_schema(table, "00000000000000000000.json");
    ASSERT_FALSE(text.empty()) << table;
    EXPECT_FALSE(Schema::from_json_text(text).leaves().empty()) << table;
  }
}

TEST(SchemaJson, ErrorsNameTheLocation) {
  try {
    Schema::from_json_text(R"({"type":"struct","fields":[{"name":"a","type":"integer"},{"name":"b","type":"wat"}]})");
    FAIL() << "accepted an unknown type";
  } catch (const SchemaError& e) {
    EXPECT_NE(std::string(e.what()).find("fields[1].type"), std::string::npos) << e.what();
  }
  EXPECT_THROW(Schema::from_json_text("{"), SchemaError);
  EXPECT_THROW(Schema::from_json_text(R"({"type":"struct"})"), SchemaError);
  EXPECT_THROW(Schema::from_json_text(R"({"type":"struct","fields":[{"type":"long"}]})"), SchemaError);
  EXPECT_THROW(Schema::from_json_text(R"j({"type":"struct","fields":[{"name":"d","type":"decimal(40,2)"}]})j"),
               SchemaError);
}

// Found by fuzz_log: a column-mapping table whose schema held a column twice got stats that did
// not read back the same (both columns share one stats key). Spark and Delta refuse such schemas.
TEST(SchemaJson, RefusesDuplicateNamesAndPhysicalNames) {
  const auto error_of = [](const std::string& fields) {
    try {
      Schema::from_json_text(R"({"type":"struct","fields":[)" + fields + "]}");
    } catch (const SchemaError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(error_of(R"({"name":"a","type":"long"},{"name":"A","type":"integer"})")
                .find("fields[1].name: duplicate field name \"A\""),
            std::string::npos);
  EXPECT_NE(error_of(R"({"name":"s","type":{"type":"struct","fields":[{"name":"x","type":"long"},)"
                     R"({"name":"x","type":"long"}]}})")
                .find("fields[0].type.fields[1].name: duplicate"),
            std::string::npos);
  const std::string mapped = R"("metadata":{"delta.columnMapping.physicalName":"col-1"})";
  EXPECT_NE(error_of(R"({"name":"a","type":"long",)" + mapped + R"(},{"name":"b","type":"long",)" + mapped + "}")
                .find("fields[1].metadata: duplicate physicalName \"col-1\""),
            std::string::npos);
  EXPECT_EQ(error_of(R"({"name":"a","type":"long"},{"name":"b","type":"long"})"), "accepted");
  EXPECT_EQ(error_of(R"({"name":"s","type":{"type":"struct","fields":[{"name":"s","type":"long"}]}})"), "accepted");
}

TEST(SchemaLookup, CaseInsensitiveAndNearest) {
  const Schema s = Schema::from_json_text(
      fixture_schema("table_with_null_stats_in_notnull_struct", "00000000000000000000.json"));
  const Leaf* l = s.find_leaf({"S", "L"});
  ASSERT_NE(l, nullptr);
  EXPECT_EQ(l->path, (ColumnPath{"s", "l"}));
  EXPECT_EQ(s.find_leaf({"s"}), nullptr) << "a struct is not a leaf";
  ASSERT_NE(s.find_field({"s"}), nullptr);
  EXPECT_EQ(s.find_field({"s", "l"}), nullptr);
  EXPECT_EQ(s.nearest({"s", "k"}), (ColumnPath{"s", "l"}));
  EXPECT_FALSE(s.nearest({"completely_different"}).has_value());
}

TEST(SchemaLookup, PathToSqlQuotes) {
  EXPECT_EQ(path_to_sql({"a", "b"}), "a.b");
  EXPECT_EQ(path_to_sql({"my col", "x`y"}), "`my col`.`x``y`");
}

TEST(TypeNames, ParseSqlAndJsonSpellings) {
  EXPECT_EQ(parse_type_name("BIGINT"), DataType::of(TypeKind::Long));
  EXPECT_EQ(parse_type_name("integer"), DataType::of(TypeKind::Int));
  EXPECT_EQ(parse_type_name("Decimal(8, 5)"), DataType::decimal(8, 5));
  EXPECT_EQ(parse_type_name("decimal"), DataType::decimal(10, 0));
  EXPECT_EQ(parse_type_name("timestamp_ntz"), DataType::of(TypeKind::TimestampNtz));
  EXPECT_THROW(parse_type_name("decimal(3,4)"), std::invalid_argument);
  EXPECT_THROW(parse_type_name("int8"), std::invalid_argument);
}

}  // namespace
}  // namespace skipsound
