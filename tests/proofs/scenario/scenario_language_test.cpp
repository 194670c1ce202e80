// The scenario language beyond the corpus: the format text docs/scenario-language.md quotes, the timeline
// (history steps, `@vN`), the expectations that name winners, files, survivors and DVs, MERGE's
// clauses, RESTORE and INSERT SELECT, and the errors each new directive gives on bad input.
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "model/sql/printer.h"
#include "model/values/input_error.h"
#include "proofs/explorer/explorer.h"
#include "proofs/scenario/interleaving_report.h"
#include "proofs/scenario/scenario.h"

namespace skipsound {
namespace {

std::string error_of(const std::string& text) {
  try {
    const Scenario scenario = parse_scenario(text, "s.scn");
    run_scenario(scenario);
  } catch (const InputError& e) {
    return e.what();
  }
  return "accepted";
}

ScenarioRun run_text(const std::string& text) { return run_scenario(parse_scenario(text, "s.scn")); }

TEST(ScenarioLanguage, TheGuideQuotesTheHelpFormatVerbatim) {
  std::ifstream in(std::string(SKIPSOUND_SOURCE_DIR) + "/docs/scenario-language.md");
  std::ostringstream guide;
  guide << in.rdbuf();
  EXPECT_NE(guide.str().find("```\n" + scenario_format() + "```\n"), std::string::npos)
      << "docs/scenario-language.md's scenario format block differs from scenario_format()";
}

// The seeds' write-skew: under append-suppression T2's check skips T1's file, and T2 commits.
const std::string kWriteSkew =
    "schema: id long, x int\nfile f1: [{\"id\": 1, \"x\": 5}]\nfile f2: [{\"id\": 2, \"x\": 20}]\n"
    "T1: UPDATE SET x = 15 WHERE id = 1\nT2: DELETE WHERE x > 10\ncommit: T1, T2\n";

// A run is judged as the explorer judges a trial; a finding the file does not expect fails it.
TEST(ScenarioLanguage, AFindingTheFileDoesNotExpectFailsIt) {
  smt::Oracle oracle(skip_oracle_options());
  const auto judged = [&](const std::string& text, std::optional<Mutant> mutant = std::nullopt) {
    return run_judged_scenario(parse_scenario(text, "s.scn", mutant), oracle);
  };
  const std::string mutant = "mutant: append-suppression\n";
  const std::string missed = "MISSED CONFLICT: T2 committed, and no serial order gives its outcome";
  const std::string skip = "UNJUSTIFIED SKIP: T2's check against T1 excluded T1-1, but Z3 finds a row it can hold";
  const ScenarioRun unstated = judged(mutant + kWriteSkew);
  ASSERT_EQ(unstated.mismatches.size(), 2u);
  EXPECT_EQ(unstated.mismatches[0], missed);
  EXPECT_EQ(unstated.mismatches[1].rfind(skip, 0), 0u) << unstated.mismatches[1];
  // An `expect T2:` line judges T2's verdict; the skip still fails the file.
  const ScenarioRun pinned = judged(mutant + kWriteSkew + "expect T2: missed-conflict\n");
  ASSERT_EQ(pinned.mismatches.size(), 1u);
  EXPECT_EQ(pinned.mismatches[0].rfind(skip, 0), 0u) << pinned.mismatches[0];
  // A pinned kill expects every finding, and fails where there is none.
  const ScenarioRun killed = judged(mutant + kWriteSkew + "expect T2: missed-conflict\nexpect mutant: killed\n");
  EXPECT_TRUE(killed.mismatches.empty()) << killed.mismatches.front();
  ASSERT_EQ(killed.findings.size(), 2u);
  EXPECT_TRUE(killed.findings[0].expected && killed.findings[1].expected);
  EXPECT_NE(render_report(parse_scenario(mutant + kWriteSkew, "s.scn"), killed).find("findings:\n  " + missed + "  (expected)\n"),
            std::string::npos);
  EXPECT_EQ(judged(mutant + kWriteSkew + "expect mutant: killed\n", Mutant::None).mismatches,
            std::vector<std::string>{"expect mutant: killed, but the run (mutant none) shows no finding"});
  // What `gate --out` writes passes once the bug is gone.
  const ScenarioRun fixed = judged(mutant + kWriteSkew + "expect findings: none\n", Mutant::None);
  EXPECT_TRUE(fixed.mismatches.empty()) << fixed.mismatches.front();
  EXPECT_TRUE(fixed.findings.empty());
}

TEST(ScenarioLanguage, FindingExpectationsThatContradictAreRefused) {
  EXPECT_NE(error_of(kWriteSkew + "expect T2: missed-conflict\nexpect findings: none\n")
                .find("s.scn:8: 'expect findings: none' contradicts 'expect T2: missed-conflict'"),
            std::string::npos);
  EXPECT_NE(error_of(kWriteSkew + "expect mutant: killed\n").find("s.scn:7: 'expect mutant: killed' needs a 'mutant:' line"),
            std::string::npos);
  EXPECT_NE(error_of("mutant: le-as-lt\n" + kWriteSkew + "expect findings: none\nexpect mutant: killed\n")
                .find("s.scn:9: 'expect findings: none' and 'expect mutant: killed' contradict each other"),
            std::string::npos);
  EXPECT_NE(error_of(kWriteSkew + "expect findings: all\n").find("s.scn:7: expected 'expect findings: none', got 'all'"),
            std::string::npos);
}

TEST(ScenarioLanguage, AMutantGivenInsteadReplacesTheFilesOwn) {
  EXPECT_EQ(parse_scenario("mutant: le-as-lt\n" + kWriteSkew, "s.scn", Mutant::None).mutant, Mutant::None);
  EXPECT_EQ(parse_scenario(kWriteSkew, "s.scn", Mutant::LeAsLt).mutant, Mutant::LeAsLt);
  EXPECT_EQ(parse_scenario("mutant: le-as-lt\n" + kWriteSkew, "s.scn").mutant, Mutant::LeAsLt);
}

// A transaction declared after a history step starts there; `@v0` starts before it. The one
// that started before the step is checked against it (its DELETE also matches id 1, so that
// its commit is not empty: an empty commit is never checked for appends).
TEST(ScenarioLanguage, TransactionsStartWhereTheyAreDeclaredOrAtTheirVersion) {
  const std::string text =
      "schema: id long\nfile f0: range id 0 10\n"
      "T1: DELETE WHERE id >= 12 OR id = 1\n"
      "step: INSERT range id 10 20\n"
      "T2: DELETE WHERE id >= 12\n"
      "T3 @v0: SELECT WHERE id = 1\n"
      "commit: T1, T2\n";
  const Scenario scenario = parse_scenario(text, "s.scn");
  const ScenarioRun run = run_scenario(scenario);
  ASSERT_EQ(run.transactions.size(), 4u);
  EXPECT_EQ(run.transactions[0].snapshot_version, 0);
  EXPECT_EQ(run.transactions[1].name, "S1");
  EXPECT_EQ(run.transactions[2].snapshot_version, 1);
  EXPECT_EQ(run.transactions[3].snapshot_version, 0);
  ASSERT_EQ(run.schedule.attempts.size(), 3u);  // S1, T1, T2
  EXPECT_TRUE(std::holds_alternative<Aborted>(run.schedule.attempts[1].result));
  EXPECT_TRUE(std::holds_alternative<Committed>(run.schedule.attempts[2].result));
  EXPECT_EQ(scenario.commit_order(), (std::vector<size_t>{0, 2}));
}

TEST(ScenarioLanguage, ExpectationsNamingTheWrongWinnerFileOrSurvivorsAreReported) {
  const std::string base =
      "schema: id long\nfile f0: range id 0 10\n"
      "T1: INSERT range id 100 200 ROWS PER FILE 50\n"
      "T2: DELETE WHERE id >= 160 OR id = 1\n"
      "commit: T1, T2\n";
  EXPECT_TRUE(run_text(base + "expect T2: abort ConcurrentAppendException by T1 on T1-2\n"
                              "expect T2 keeps from T1: T1-2\n").mismatches.empty());
  const ScenarioRun wrong_file = run_text(base + "expect T2: abort ConcurrentAppendException by T1 on T1-1\n");
  ASSERT_EQ(wrong_file.mismatches.size(), 1u);
  EXPECT_NE(wrong_file.mismatches[0].find("got abort ConcurrentAppendException by T1 on T1-2"), std::string::npos)
      << wrong_file.mismatches[0];
  const ScenarioRun wrong_survivors = run_text(base + "expect T2 keeps from T1: T1-1, T1-2\n");
  ASSERT_EQ(wrong_survivors.mismatches.size(), 1u);
  EXPECT_NE(wrong_survivors.mismatches[0].find("expected T1-1, T1-2, got T1-2"), std::string::npos);
  const ScenarioRun wrong_table = run_text(base + "expect table: range id 0 10\n");
  ASSERT_EQ(wrong_table.mismatches.size(), 1u);
  EXPECT_NE(wrong_table.mismatches[0].find("expected 10 rows, got 110; missing 0"), std::string::npos)
      << wrong_table.mismatches[0];
}

TEST(ScenarioLanguage, MergeClausesParseAndRecordDeltasRead) {
  const ScenarioRun run = run_text(
      "schema: id long, x int\nfile f0: range id 0 10 {\"x\": 1}\n"
      "T1: MERGE USING [{\"id\": 1, \"x\": 5}, {\"id\": 50, \"x\": 6}] ON t.id = s.id AND t.x < 3 "
      "WHEN MATCHED AND s.x > 0 THEN UPDATE SET x = s.x + t.x WHEN NOT MATCHED THEN INSERT (id, x) VALUES (s.id, 0)\n"
      "commit: T1\nexpect table: [{\"id\": 0, \"x\": 1}, {\"id\": 1, \"x\": 6}, {\"id\": 2, \"x\": 1}, "
      "{\"id\": 3, \"x\": 1}, {\"id\": 4, \"x\": 1}, {\"id\": 5, \"x\": 1}, {\"id\": 6, \"x\": 1}, {\"id\": 7, \"x\": 1}, "
      "{\"id\": 8, \"x\": 1}, {\"id\": 9, \"x\": 1}, {\"id\": 50, \"x\": 0}]\n");
  EXPECT_TRUE(run.mismatches.empty()) << run.mismatches.front();
  ASSERT_EQ(run.transactions[0].reads.predicates.size(), 1u);
  EXPECT_EQ(to_sql(run.transactions[0].reads.predicates[0]), "x < 3");
}

TEST(ScenarioLanguage, AlterTableChangesWhatLaterWritersRecord) {
  // After numIndexedCols = 0 the winner's file has no stats and the stats tier keeps it; the
  // value-exact tier (docs/semantics.md §10.1) reads its rows, none below 5, and drops it.
  const std::string text =
      "file f0: range id 0 10\n"
      "step: ALTER TABLE SET TBLPROPERTIES ('delta.dataSkippingNumIndexedCols' = '0')\n"
      "T1: INSERT range id 100 110\nT2: DELETE WHERE id < 5\ncommit: T1, T2\n";
  const ScenarioRun stats_tier = run_text("schema: id long\nflag valueExact: off\n" + text);
  ASSERT_EQ(stats_tier.transactions[1].commit.adds.size(), 1u);
  const auto& stats = stats_tier.transactions[1].commit.adds[0].stats;
  EXPECT_FALSE(stats && stats->column(0).min.has_value());
  EXPECT_TRUE(std::holds_alternative<Aborted>(stats_tier.schedule.attempts.back().result));
  EXPECT_EQ(stats_tier.schedule.final_state().properties().stats.num_indexed_cols, 0);
  EXPECT_TRUE(std::holds_alternative<Committed>(run_text("schema: id long\n" + text).schedule.attempts.back().result));
}

TEST(ScenarioLanguage, BadDirectivesNameTheirLine) {
  const std::string head = "schema: id long\nfile f0: range id 0 10\n";
  // Errors only the run finds name the line where the transaction first appears.
  EXPECT_NE(error_of(head + "T1 @v3: DELETE WHERE id = 1\ncommit: T1\n").find("s.scn:3: T1 @v3: the table has no version 3 yet"),
            std::string::npos);
  EXPECT_NE(error_of(head + "T1: REMOVE FILE nope\ncommit: T1\n").find("s.scn:3: T1: REMOVE FILE nope: no such live file"),
            std::string::npos);
  // fuzz_scenario's first finding: the operation's own error, which named no line.
  EXPECT_EQ(error_of(head + "T1: SELECT\nT2: ALTER TABLE DROP FEATURE nope\ncommit: T1, T2\n"),
            "s.scn:4: DROP FEATURE nope: the table has no such feature");
  EXPECT_EQ(error_of(head + "step: ALTER TABLE DROP FEATURE nope\n"),
            "s.scn:3: DROP FEATURE nope: the table has no such feature");
  EXPECT_NE(error_of(head + "T1: ALTER TABLE SET TBLPROPERTIES ('delta.isolationLevel' = 'Sometimes')\ncommit: T1\n")
                .find("delta.isolationLevel must be Serializable or WriteSerializable"),
            std::string::npos);
  EXPECT_NE(error_of(head + "T1: MERGE USING [] ON t.id = s.id\ncommit: T1\n").find("s.scn:3: expected WHEN"),
            std::string::npos);
  EXPECT_NE(error_of(head + "T1: DELETE\ncommit: T1\ncommit: T1\n").find("s.scn:5: T1 is already in a commit line"),
            std::string::npos);
  EXPECT_NE(error_of(head + "T1: DELETE\ncommit: T1\nexpect T1: abort ConcurrentAppendException near T2\n")
                .find("s.scn:5: unexpected 'near'"),
            std::string::npos);
  EXPECT_NE(error_of(head + "T1: INSERT range id 0 3 ROWS PER FILE 0\ncommit: T1\n").find("ROWS PER FILE must be positive"),
            std::string::npos);
  EXPECT_NE(error_of(head + "step: DELETE\nfile f1: range id 0 1\n").find("file lines come before"), std::string::npos);
}

// fuzz_scenario found `range id 9append-suppression00500 901001` read as `range id 9 901001`.
TEST(ScenarioLanguage, RangeBoundsAreWholeIntegersThatFitTheColumn) {
  const std::string head = "schema: id long, x int\nfile f0: range id 0 10\n";
  EXPECT_EQ(error_of(head + "file f1: range id 9append 20\n"), "s.scn:3: expected an integer, got '9append'");
  EXPECT_EQ(error_of(head + "file f1: range id 0 99999999999999999999\n"),
            "s.scn:3: expected an integer, got '99999999999999999999'");
  EXPECT_EQ(error_of(head + "file f1: range x 2147483647 2147483649\n"),
            "s.scn:3: range 2147483647 2147483649 does not fit column x's type int");
  EXPECT_EQ(error_of(head + "file f1: range x -2147483649 0\n"),
            "s.scn:3: range -2147483649 0 does not fit column x's type int");
  const Scenario top = parse_scenario(head + "file f1: range x 2147483646 2147483648\nT1: SELECT\ncommit: T1\n", "s.scn");
  EXPECT_EQ(top.table.files().size(), 2u);
  EXPECT_EQ(error_of(head + "T1 @v1x: SELECT\n"), "s.scn:3: expected an integer, got '1x'");
}

// The tier flags of docs/semantics.md §10 "Flags", by their Delta names, each away from its default.
TEST(ScenarioLanguage, FlagsSetTheirTiers) {
  const std::string tail = "schema: id long\nfile f0: range id 0 10\nT1: DELETE WHERE id = 1\ncommit: T1\n";
  const ConflictCheckOptions defaults = parse_scenario(tail, "s.scn").options;
  const ConflictCheckOptions set =
      parse_scenario("flag valueExact: off\nflag rowLevelConcurrency: OFF\nflag removedRows: on\n"
                     "flag excludeNoDataChangeFiles: true\n" + tail, "s.scn").options;
  EXPECT_TRUE(defaults.value_exact && defaults.row_level_concurrency);
  EXPECT_FALSE(defaults.removed_rows || defaults.exclude_no_data_change);
  EXPECT_FALSE(set.value_exact || set.row_level_concurrency);
  EXPECT_TRUE(set.removed_rows && set.exclude_no_data_change);
  EXPECT_NE(error_of("flag removedRow: on\n" + tail).find("s.scn:1: unknown flag 'removedRow'"), std::string::npos);
  EXPECT_NE(error_of("flag removedRows: maybe\n" + tail).find("s.scn:1: expected on or off, got 'maybe'"), std::string::npos);
}

// docs/semantics.md §10.8: RESTORE re-adds the (path, DV) pairs of the version it names, known
// only once the steps before it have committed; the DV shrinks.
TEST(ScenarioLanguage, RestoreTakesTheFilesOfItsVersionWhenItRuns) {
  const std::string head =
      "schema: id long, x int\nproperty deletionVectors: on\n"
      "file f0: [{\"id\": 1, \"x\": 1}, {\"id\": 2, \"x\": 2}, {\"id\": 3, \"x\": 3}]\n"
      "step: DELETE WHERE id = 1\nstep: DELETE WHERE id = 2\n";
  const ScenarioRun run = run_text(head + "T1: RESTORE TO VERSION 1\ncommit: T1\nexpect T1: commit\nexpect dv f0: 0\n"
                                          "expect table: [{\"id\": 2, \"x\": 2}, {\"id\": 3, \"x\": 3}]\n");
  EXPECT_TRUE(run.mismatches.empty()) << run.mismatches.front();
  const Transaction& restore = run.transactions[2];
  EXPECT_TRUE(restore.reads.whole_table);
  ASSERT_EQ(restore.commit.removes.size(), 1u);
  EXPECT_EQ(restore.commit.removes[0].deleted, (DeletedRows{0, 1}));
  ASSERT_EQ(restore.commit.adds.size(), 1u);
  EXPECT_EQ(restore.commit.adds[0].deleted, (DeletedRows{0}));
  EXPECT_TRUE(run_text(head + "T1: RESTORE TO VERSION 0\ncommit: T1\nexpect dv f0: none\n").mismatches.empty());
  // A transaction started at v1 cannot restore v2, although the table has reached it.
  EXPECT_NE(error_of(head + "T1 @v1: RESTORE TO VERSION 2\ncommit: T1\n")
                .find("s.scn:6: T1: RESTORE TO VERSION 2: the table has no version 2 at its snapshot v1"),
            std::string::npos)
      << error_of(head + "T1 @v1: RESTORE TO VERSION 2\ncommit: T1\n");
  EXPECT_NE(error_of(head + "T1: RESTORE VERSION 1\ncommit: T1\n").find("s.scn:6: expected RESTORE TO VERSION <n>"),
            std::string::npos);
}

TEST(ScenarioLanguage, InsertSelectCopiesTheRowsItReadsWithItsAssignments) {
  const std::string head = "schema: id long, x int\nfile f0: [{\"id\": 1, \"x\": 15}, {\"id\": 2, \"x\": 1}]\n";
  const ScenarioRun run = run_text(head + "T1: INSERT SELECT SET id = id + 100 WHERE x > 10\ncommit: T1\n"
                                          "expect table: [{\"id\": 1, \"x\": 15}, {\"id\": 2, \"x\": 1}, {\"id\": 101, \"x\": 15}]\n");
  EXPECT_TRUE(run.mismatches.empty()) << run.mismatches.front();
  ASSERT_EQ(run.transactions[0].reads.predicates.size(), 1u);
  EXPECT_EQ(to_sql(run.transactions[0].reads.predicates[0]), "x > 10");
  EXPECT_TRUE(run.transactions[0].commit.removes.empty());
  EXPECT_TRUE(run_text(head + "T1: INSERT SELECT\ncommit: T1\nexpect table: [{\"id\": 1, \"x\": 15}, {\"id\": 2, \"x\": 1}, "
                              "{\"id\": 1, \"x\": 15}, {\"id\": 2, \"x\": 1}]\n")
                  .mismatches.empty());
  EXPECT_NE(error_of(head + "T1: INSERT SELECT id = 5\ncommit: T1\n").find("s.scn:3: expected SET ... or WHERE ..., got 'id = 5'"),
            std::string::npos);
  EXPECT_NE(error_of(head + "T1: INSERT SELECT SET y = 1\ncommit: T1\n").find("unknown column 'y'"), std::string::npos);
}

TEST(ScenarioLanguage, DvExpectationsCompareTheOneLiveAddOfAPath) {
  const std::string disjoint =
      "schema: id long, x int\nproperty deletionVectors: on\nfile f0: range id 0 100 {\"x\": 1}\n"
      "file f1: range id 100 110 {\"x\": 1}\n"
      "T1: DELETE WHERE id = 10\nT2: DELETE WHERE id = 20\ncommit: T1, T2\n";
  EXPECT_TRUE(run_text(disjoint + "expect dv f0: 20, 10\nexpect dv f0: cardinality 2\nexpect dv f1: none\n").mismatches.empty());
  const ScenarioRun wrong = run_text(disjoint + "expect dv f0: 10\nexpect dv f0: cardinality 3\nexpect dv f9:\n");
  ASSERT_EQ(wrong.mismatches.size(), 3u);
  EXPECT_EQ(wrong.mismatches[0], "dv f0: expected {10}, got {10, 20}");
  EXPECT_EQ(wrong.mismatches[1], "dv f0: expected cardinality 3, got {10, 20}");
  EXPECT_EQ(wrong.mismatches[2], "dv f9: expected none, but no add of f9 is live");
  // docs/semantics.md §10.7 case2-no-repoint: the stale remove leaves the winner's add live.
  const ScenarioRun stale = run_text(
      "schema: id long, x int\nproperty deletionVectors: on\nmutant: case2-no-repoint\n"
      "file f0: [{\"id\": 1, \"x\": 1}, {\"id\": 2, \"x\": 2}, {\"id\": 3, \"x\": 3}]\n"
      "T1: DELETE WHERE id = 1\nT2: DELETE WHERE id = 2\ncommit: T1, T2\nexpect dv f0: 0, 1\n");
  ASSERT_EQ(stale.mismatches.size(), 1u);
  EXPECT_EQ(stale.mismatches[0], "dv f0: expected {0, 1}, but 2 adds of f0 are live (DVs {0} and {0, 1}): a stale remove left one live");
  EXPECT_NE(error_of(disjoint + "expect dv f0: cardinality\n").find("s.scn:8: expected 'expect dv <file>: cardinality <n>'"),
            std::string::npos);
  EXPECT_NE(error_of(disjoint + "expect dv f0: 1, -2\n").find("s.scn:8: a DV position is 0 or more, got '-2'"),
            std::string::npos);
}

TEST(ScenarioLanguage, TheReportExplainsKeptFilesAndEndsWithASummary) {
  const Scenario scenario = parse_scenario(
      "schema: id long\nfile f0: range id 0 10\nT1: INSERT range id 100 110\nT2: DELETE WHERE id >= 105 OR id = 1\n"
      "commit: T1, T2\nexpect T1: commit\nexpect T2: abort ConcurrentAppendException\n",
      "s.scn");
  const ScenarioRun run = run_scenario(scenario);
  const std::string report = render_report(scenario, run);
  EXPECT_NE(report.find("kept T1-1 by the value-exact tier: survives: value-exact: a live row of T1-1 matches a read"),
            std::string::npos)
      << report;
  EXPECT_NE(report.find("read 1 (id >= 105L OR id = 1L): skipping expression"), std::string::npos) << report;
  EXPECT_NE(report.find("summary: 2 transactions: 1 committed, 1 aborted (0 false conflicts), 0 unsound; "
                        "expectations met\n"),
            std::string::npos)
      << report;
  const nlohmann::json j = report_json(scenario, run);
  EXPECT_EQ(j["attempts"][1]["aborted"]["file"], "T1-1");
  EXPECT_EQ(j["attempts"][1]["checks"][0]["append_check"]["files"][0]["kept"], true);
  EXPECT_EQ(j["summary"], summary_line(scenario, run));
}

}  // namespace
}  // namespace skipsound
