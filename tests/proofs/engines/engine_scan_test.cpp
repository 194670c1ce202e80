// Scan-time judging (proofs/engines/engine_scan.h) on hand-written driver answers: a correct
// answer gives no finding, a dropped file with a matching row is ENGINE UNSOUND SKIP, a wrong row
// set is ENGINE WRONG QUERY RESULT; and the structured pyarrow form of the predicate forms.
#include <gtest/gtest.h>

#include "model/sql/binder.h"
#include "model/stats/stats_collection.h"
#include "proofs/engines/engine_gate_json.h"
#include "proofs/engines/engine_scan.h"
#include "tests/support/id_x_table.h"

namespace skipsound::engines {
namespace {

using nlohmann::json;
using test::id_x_row;
using test::id_x_schema;

const std::set<std::string> kNoForeign;

// Two files: a.parquet holds x 1 and 2, b.parquet x 10 and NULL.
Table two_file_table() {
  Table table(id_x_schema(), TableProperties{});
  const auto add = [&](const char* path, std::vector<Row> rows) {
    const FileStats stats = collect_stats(rows, table.schema(), StatsConfig{});
    table.add_initial_file(TableFile{path, std::make_shared<const std::vector<Row>>(std::move(rows)), {}, stats, {}, true});
  };
  add("a.parquet", {id_x_row(1, 1), id_x_row(2, 2)});
  Row null_x{Value::integral(TypeKind::Long, 4), Value::null(DataType::of(TypeKind::Int))};
  add("b.parquet", {id_x_row(3, 10), null_x});
  return table;
}

ScanPredicate predicate(const std::string& sql, const Table& table) {
  ScanTranslation t = translate_scan_predicate(parse_and_bind(sql, table.schema()), table.schema());
  EXPECT_TRUE(t.predicate) << t.unsupported;
  return *t.predicate;
}

json answer(json fragments, json pruned, json rows) {
  return {{"fragments", {{"kept", std::move(fragments)}}}, {"pruned", {{"kept", std::move(pruned)}}},
          {"query", {{"rows", std::move(rows)}}}};
}

size_t count(const ScanJudgement& j, EngineFindingKind kind) {
  return static_cast<size_t>(std::count_if(j.findings.begin(), j.findings.end(),
                                           [&](const EngineFinding& f) { return f.kind == kind; }));
}

TEST(EngineScan, ACorrectAnswerGivesNoFinding) {
  const Table table = two_file_table();
  const std::vector<ScanPredicate> ps{predicate("x > 5", table)};
  // b.parquet kept (x = 10 matches); a.parquet dropped soundly: neither of its rows matches.
  const json response = {{"scans", {answer({"b.parquet"}, {"a.parquet", "b.parquet"}, {{{"id", 3}, {"x", 10}}})}}};
  const ScanJudgement j = judge_scan(ScanSubject{table, 3, kNoForeign, nullptr}, ps, response);
  EXPECT_TRUE(j.findings.empty()) << j.findings.front().headline;
  EXPECT_EQ(j.file_decisions, 4u);  // two files, two kept-file answers
  EXPECT_EQ(j.queries, 1u);
}

TEST(EngineScan, ADroppedFileWithAMatchingRowIsAnUnsoundSkip) {
  const Table table = two_file_table();
  const std::vector<ScanPredicate> ps{predicate("x > 5", table)};
  const json response = {{"scans", {answer(json::array(), {"b.parquet"}, {{{"id", 3}, {"x", 10}}})}}};
  const ScanJudgement j = judge_scan(ScanSubject{table, 3, kNoForeign, nullptr}, ps, response);
  ASSERT_EQ(count(j, EngineFindingKind::UnsoundSkip), 1u);
  EXPECT_EQ(j.findings.size(), 1u);
  const EngineFinding& f = j.findings.front();
  EXPECT_NE(f.headline.find("pyarrow fragments drops b.parquet"), std::string::npos) << f.headline;
  EXPECT_EQ(f.scan["file"], "b.parquet");
  EXPECT_EQ(f.scan["row"], (json{{"id", 3}, {"x", 10}}));
  EXPECT_EQ(f.scan["answer"], "fragments");
}

TEST(EngineScan, AWrongRowSetIsAWrongQueryResult) {
  const Table table = two_file_table();
  const std::vector<ScanPredicate> ps{predicate("x <= 2", table), predicate("x IS NULL", table)};
  const json response = {
      {"scans",
       {answer({"a.parquet"}, {"a.parquet"}, {{{"id", 1}, {"x", 1}}}),  // id 2 is missing
        answer({"b.parquet"}, {"b.parquet"}, {{{"id", 4}, {"x", nullptr}}, {{"id", 3}, {"x", 10}}})}}};  // id 3 too many
  const ScanJudgement j = judge_scan(ScanSubject{table, 3, kNoForeign, nullptr}, ps, response);
  EXPECT_EQ(count(j, EngineFindingKind::WrongQueryResult), 2u);
  EXPECT_EQ(count(j, EngineFindingKind::UnsoundSkip), 0u);
  EXPECT_NE(j.findings[0].headline.find("missing {\"id\":2,\"x\":2}"), std::string::npos) << j.findings[0].headline;
  EXPECT_NE(j.findings[1].headline.find("not matching {\"id\":3,\"x\":10}"), std::string::npos) << j.findings[1].headline;
}

TEST(EngineScan, UnsupportedPartsAreCountedAndErrorsAreEngineErrors) {
  const Table table = two_file_table();
  const std::vector<ScanPredicate> ps{predicate("x > 5", table)};
  const json response = {{"scans",
                          {{{"fragments", {{"unsupported", "pyarrow: ArrowTypeError"}}},
                            {"pruned", {{"error", "DeltaError: boom"}}},
                            {"query", {{"rows", {{{"id", 3}, {"x", 10}}}}}}}}}};
  const ScanJudgement j = judge_scan(ScanSubject{table, 3, kNoForeign, nullptr}, ps, response);
  EXPECT_EQ(j.unsupported.at("pyarrow fragments: pyarrow: ArrowTypeError"), 1u);
  ASSERT_EQ(count(j, EngineFindingKind::EngineError), 1u);
  EXPECT_NE(j.findings[0].headline.find("DeltaError: boom"), std::string::npos);
}

TEST(EngineScan, AMalformedAnswerIsAnEngineError) {
  const Table table = two_file_table();
  const std::vector<ScanPredicate> ps{predicate("x > 5", table)};
  for (const json& response : {json{{"scans", json::array()}}, json{{"nothing", 1}},
                               json{{"scans", {answer({"c.parquet"}, {"a.parquet"}, json::array())}}}}) {
    const ScanJudgement j = judge_scan(ScanSubject{table, 3, kNoForeign, nullptr}, ps, response);
    EXPECT_EQ(count(j, EngineFindingKind::EngineError), 1u) << response.dump();
  }
}

TEST(EngineScan, PyarrowFormsKeepThreeValuedMeaning) {
  const Schema schema = id_x_schema();
  const auto form = [&](const char* sql) { return pyarrow_form(*parse_and_bind(sql, schema), schema); };
  // IN is a chain of equalities, so a NULL item makes a miss NULL as in SQL.
  EXPECT_EQ(form("x IN (1, NULL)"),
            (json{{"or", {{{"compare", "="}, {"operands", {{{"column", "x"}}, {{"literal", 1}, {"type", "int"}}}}},
                          {{"compare", "="}, {"operands", {{{"column", "x"}}, {{"literal", nullptr}, {"type", "int"}}}}}}}}));
  EXPECT_EQ(form("x <=> NULL"), (json{{"is_null", {{"column", "x"}}}}));
  EXPECT_EQ(form("x BETWEEN 1 AND 3")["and"].size(), 2u);
  EXPECT_THROW(form("x + 1 > 3"), NotPyarrowExpressible);
  EXPECT_THROW(form("id <=> x"), NotPyarrowExpressible);
  const Schema with_double = Schema({StructField{"d", DataType::of(TypeKind::Double), true, {}}});
  EXPECT_THROW(pyarrow_form(*parse_and_bind("d < CAST('NaN' AS DOUBLE)", with_double), with_double), NotPyarrowExpressible);
}

// The scan kinds are counted per category and rendered by name in both reports.
TEST(EngineScan, ScanFindingsAreCountedPerCategoryInTextAndJson) {
  EngineGateResult r;
  EngineCategoryStats stats;
  stats.findings[EngineFindingKind::UnsoundSkip] = 2;
  stats.findings[EngineFindingKind::WrongQueryResult] = 1;
  stats.scan_file_decisions = 40;
  r.categories.emplace_back(generators::WorldCategory::Overlapping, stats);
  r.findings.push_back({generators::WorldCategory::Overlapping, 3,
                        engine_finding(EngineFindingKind::UnsoundSkip, "pyarrow fragments drops a.parquet"), "", {}});
  const std::string text = render_engine_gate(r);
  EXPECT_NE(text.find("findings in overlapping: 2 ENGINE UNSOUND SKIP; 1 ENGINE WRONG QUERY RESULT;"), std::string::npos)
      << text;
  EXPECT_NE(text.find("scan time: 40 (file, predicate) decisions"), std::string::npos) << text;
  const json j = engine_gate_json(r);
  EXPECT_EQ(j["categories"][0]["findings"]["ENGINE UNSOUND SKIP"], 2);
  EXPECT_EQ(j["categories"][0]["findings"]["ENGINE WRONG QUERY RESULT"], 1);
  EXPECT_EQ(j["categories"][0]["scan"]["file_decisions"], 40);
  EXPECT_EQ(j["findings"][0]["kind"], "ENGINE UNSOUND SKIP");
}

TEST(EngineScan, PredicatesAreDrawnDeterministicallyFromTheSeed) {
  const Table table = two_file_table();
  const std::vector<ExprPtr> a = scan_predicates(table, 11, 6), b = scan_predicates(table, 11, 6);
  ASSERT_EQ(a.size(), 6u);
  for (size_t i = 0; i < a.size(); ++i) EXPECT_TRUE(same_expr(a[i], b[i])) << i;
  EXPECT_TRUE(scan_predicates(Table(id_x_schema(), TableProperties{}), 11, 6).empty());
}

}  // namespace
}  // namespace skipsound::engines
