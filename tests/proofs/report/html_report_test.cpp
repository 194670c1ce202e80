// The HTML reports (proofs/report/): escaping of every text from the data, the schedule's lanes,
// the file a conflict check should have kept marked, the per-file decision with its trace, and a
// gate page that loads nothing from outside.
#include <gtest/gtest.h>

#include "proofs/perfile/corpus.h"
#include "proofs/report/decision_section.h"
#include "proofs/report/html_page.h"
#include "proofs/report/html_report.h"
#include "proofs/report/run_section.h"

namespace skipsound {
namespace {

// The seeds' write-skew under append-suppression (tests/corpus/scenarios/
// mutant_append_suppression_write_skew.scn), with a string column whose values and predicate
// literal are markup.
constexpr const char* kWriteSkew = R"(mutant: append-suppression
schema: id long, x int, s string
file f1: [{"id": 1, "x": 5, "s": "<b>bold</b>"}]
file f2: [{"id": 2, "x": 20, "s": "a"}]
T1: UPDATE SET x = 15 WHERE id = 1
T2: DELETE WHERE x > 10 AND s <> '<script>alert(1)</script>'
commit: T1, T2
)";

std::shared_ptr<const JudgedRun> judged_write_skew() {
  smt::Oracle oracle(skip_oracle_options());
  Scenario scenario = parse_scenario(kWriteSkew, "write<skew>.scn");
  ScenarioRun run = run_judged_scenario(scenario, oracle);
  return std::make_shared<const JudgedRun>(JudgedRun{std::move(scenario), std::move(run)});
}

size_t occurrences(const std::string& text, const std::string& part) {
  size_t n = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

// Nothing a browser would fetch: no address, no src/href, no CSS url() or @import.
void expect_self_contained(const std::string& page) {
  for (const char* outside : {"http:", "https:", "src=", "href=", "url(", "@import", "//"}) {
    EXPECT_EQ(page.find(outside), std::string::npos) << "the page names " << outside;
  }
}

TEST(HtmlReport, EscapesMarkupAndQuotes) {
  EXPECT_EQ(escape_markup("<a href=\"x\">'&'</a>"), "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
  EXPECT_EQ(escape_markup("a\x01" "b\n"), "a?b\n") << "a control character XML forbids";
  EXPECT_EQ(html::element("td", "c", "1 < 2"), "<td class=\"c\">1 &lt; 2</td>");
}

TEST(HtmlReport, DataTextIsEscapedEverywhere) {
  const auto judged = judged_write_skew();
  const std::string page = replay_report_html("skipsound scenario <x>.scn", {{"<x>.scn", false, judged, {}}});
  EXPECT_EQ(page.find("<script"), std::string::npos);
  EXPECT_EQ(page.find("<b>bold"), std::string::npos);
  EXPECT_EQ(page.find("<x>"), std::string::npos);
  EXPECT_NE(page.find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);  // the predicate
  EXPECT_NE(page.find("&lt;b&gt;bold&lt;/b&gt;"), std::string::npos);                 // a row's value
  EXPECT_NE(page.find("write&lt;skew&gt;.scn"), std::string::npos);                   // the source
  expect_self_contained(page);
}

TEST(HtmlReport, ScheduleHasOneLanePerTransactionAndMarksTheFileToKeep) {
  const auto judged = judged_write_skew();
  const std::optional<WrongExclusion>* exclusion = nullptr;
  for (const RunFinding& f : judged->run.findings) {
    if (f.exclusion) exclusion = &f.exclusion;
  }
  ASSERT_NE(exclusion, nullptr) << "the missed conflict names the file T2's check should have kept";
  const WrongExclusion& wrong = **exclusion;
  EXPECT_EQ(judged->run.transactions[wrong.loser].name, "T2");
  EXPECT_EQ(judged->run.transactions[wrong.winner].name, "T1");
  ASSERT_TRUE(wrong.witness.has_value());
  EXPECT_EQ((*wrong.witness)[1].as_int(), 15) << "the updated row, x = 15, matches T2's DELETE";

  const std::string svg = html::schedule_svg(*judged);
  EXPECT_EQ(occurrences(svg, "data-transaction="), 2u);
  EXPECT_NE(svg.find("data-transaction=\"T1\""), std::string::npos);
  EXPECT_NE(svg.find("data-transaction=\"T2\""), std::string::npos);
  EXPECT_NE(svg.find("snapshot v0"), std::string::npos);
  EXPECT_NE(svg.find("commit v1"), std::string::npos);
  EXPECT_NE(svg.find("commit v2"), std::string::npos) << "T2's missed conflict commits";
  EXPECT_EQ(occurrences(svg, "class=\"marked\""), 1u);
  EXPECT_NE(svg.find(wrong.path + " skipped · "), std::string::npos);
  EXPECT_NE(svg.find("SHOULD BE KEPT"), std::string::npos);
  EXPECT_NE(svg.find("class=\"edge wrong\""), std::string::npos) << "the edge T1 -> T2 is the wrong exclusion";
}

TEST(HtmlReport, OutcomesSideBySideWithTheDifferingRowHighlighted) {
  const auto judged = judged_write_skew();
  const std::string html = html::judged_run_html(*judged);
  EXPECT_NE(html.find("committed outcome"), std::string::npos);
  EXPECT_NE(html.find("allowed serial outcome"), std::string::npos);
  // The surviving x = 15 row in the committed outcome, and the witness row.
  EXPECT_GE(occurrences(html, "<tr class=\"differs\">"), 2u);
  EXPECT_NE(html.find("MISSED CONFLICT"), std::string::npos);
}

TEST(HtmlReport, PerFileDecisionShowsTheTraceAndTheWitness) {
  CorpusCase c = load_corpus_case(std::string(SKIPSOUND_SOURCE_DIR) + "/tests/corpus/files/mutant-le-as-lt.json");
  smt::Oracle oracle;
  const ReplayResult result = replay_corpus_case(c, oracle, "skipsound replay mutant-le-as-lt.json");
  ASSERT_TRUE(result.check.witness.has_value());
  const std::string html = html::decision_html(result.decision);
  EXPECT_NE(html.find(escape_markup(result.decision.headline)), std::string::npos);
  EXPECT_NE(html.find("class=\"grid trace\""), std::string::npos);
  ASSERT_TRUE(result.check.production.data.evaluation.has_value());
  EXPECT_NE(html.find(escape_markup(result.check.production.data.evaluation->text)), std::string::npos);
  EXPECT_NE(html.find("witness row ("), std::string::npos);
  EXPECT_NE(html.find("<tr class=\"differs\">"), std::string::npos);
}

GateReport gate_with_a_finding() {
  GateReport report;
  report.seed = 42;
  report.command = "skipsound gate --seed 42 --mutant append-suppression";
  report.seconds = 3;
  report.phases = {{"explorer", 0, 2, 0.5}, {"mutants", 2, 1, std::nullopt}};
  CategoryResult category;
  category.stats.trials = 10;
  category.stats.seconds = 2;
  category.stats.tiers[0].side[0] = {5, 20, 4};
  category.stats.tiers[0].side[1] = {5, 20, 1};
  InterleavingFinding finding;
  finding.headline = "MISSED CONFLICT: T2 committed, and no serial order gives its outcome";
  finding.shrunk = judged_write_skew();
  finding.scenario_text = kWriteSkew;
  category.finding = finding;
  report.categories.push_back(category);
  const auto catalogue = coverage::probe_catalogue();
  report.coverage.rows = {CoverageRow{catalogue[0], 0, 0}, CoverageRow{catalogue[1], 7, 0}};
  return report;
}

TEST(HtmlReport, GatePageHasTheVerdictTimingsPlotsAndCoverageGrid) {
  const std::string page = gate_report_html(gate_with_a_finding());
  EXPECT_NE(page.find("<span class=\"verdict fail\">FAILED</span>"), std::string::npos);
  EXPECT_NE(page.find("skipsound gate --seed 42 --mutant append-suppression"), std::string::npos);
  EXPECT_NE(page.find("phase timings"), std::string::npos);
  EXPECT_NE(page.find("MISSED CONFLICT: T2 committed"), std::string::npos);
  EXPECT_NE(page.find("data-transaction=\"T2\""), std::string::npos);
  for (generators::Tier tier : generators::all_tiers()) {
    EXPECT_NE(page.find(std::string("tier ") + generators::tier_name(tier)), std::string::npos);
  }
  EXPECT_NE(page.find(">20.0<"), std::string::npos) << "4 false conflicts in 20 attempts with the tier off";
  EXPECT_NE(page.find(">5.0<"), std::string::npos) << "1 in 20 with it on";
  EXPECT_NE(page.find("trials per second"), std::string::npos);
  const bool first_required = coverage::probe_catalogue()[0].need == coverage::Need::Required;
  EXPECT_EQ(occurrences(page, "<div class=\"cell zero\""), first_required ? 1u : 0u);
  EXPECT_EQ(occurrences(page, "<div class=\"cell hit\""), 1u);
  expect_self_contained(page);
}

}  // namespace
}  // namespace skipsound
