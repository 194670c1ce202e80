// The gate as a library: it passes on the sound checker with a small budget, fails when a mutant
// survives, writes findings that replay, and its JUnit output has one testcase per corpus file,
// category and mutant. A reduced-budget run's counts are pinned, so a change of behaviour shows.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include <nlohmann/json.hpp>

#include "model/values/input_error.h"
#include "model/values/scratch_directory.h"
#include "proofs/gate/bad_input_corpus.h"
#include "proofs/gate/gate_report.h"
#include "proofs/gate/junit_report.h"
#include "proofs/gate/mutant_hunt.h"
#include "proofs/perfile/corpus.h"
#include "proofs/scenario/scenario.h"

namespace skipsound {
namespace {

size_t occurrences(const std::string& text, const std::string& word) {
  size_t n = 0;
  for (size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) ++n;
  return n;
}

GateOptions small_gate() {
  GateOptions o;
  o.seed = 11;
  o.trials_per_category = 12;
  o.threads = 2;
  o.corpus_dir = std::string(SKIPSOUND_SOURCE_DIR) + "/tests/corpus/scenarios";
  o.skip_suite_dirs = {std::string(SKIPSOUND_SOURCE_DIR) + "/tests/corpus/delta-skipping",
                       std::string(SKIPSOUND_SOURCE_DIR) + "/tests/corpus/rule-skips"};
  o.proofs = false;  // the prover has its own suite; the gate only calls it
  o.mutants = {Mutant::AppendSuppression, Mutant::LeAsLt};
  return o;
}

TEST(Gate, PassesOnTheSoundCheckerAndKillsTheMutants) {
  const GateReport report = run_gate(small_gate());
  EXPECT_EQ(report.outcome(), GateOutcome::Pass) << gate_summary_text(report);
  EXPECT_FALSE(report.corpus.empty());
  EXPECT_EQ(report.categories.size(), generators::all_world_categories().size());
  ASSERT_EQ(report.mutants.size(), 2u);
  for (const MutantResult& m : report.mutants) {
    EXPECT_TRUE(m.killed()) << mutant_name(m.mutant);
    EXPECT_FALSE(m.headline.empty());
    EXPECT_FALSE(m.replay_content.empty());
  }

  const std::string xml = gate_junit_xml(report);
  EXPECT_EQ(occurrences(xml, "<testcase "),
            report.corpus.size() + 1 + report.categories.size() + report.mutants.size());
  EXPECT_EQ(occurrences(xml, "<failure "), 0u);

  const nlohmann::json j = gate_report_json(report);
  EXPECT_EQ(j["outcome"], "pass");
  EXPECT_EQ(j["seed"], 11u);
}

// A larger budget spent in rounds re-runs the smaller budget's trials first: and-across-reads,
// which the smaller budget kills in mixed after passing value-moving, hunted before it, dies after
// the same trials at three times the budget; spent in one round, the larger budget's hunt differs
// (it spends more trials in value-moving first).
TEST(Gate, ALargerBudgetKillsAMutantAfterTheSmallerBudgetsTrials) {
  GateOptions o;
  o.seed = 20240607;
  o.threads = 2;
  const auto hunt = [&](size_t trials, size_t round) {
    o.trials_per_category = trials;
    o.hunt_round = round;
    return hunt_mutant(Mutant::AndAcrossReads, o, gate_budget(o), {});
  };
  const MutantResult small = hunt(20, 20);
  ASSERT_TRUE(small.killed());
  ASSERT_GT(small.trials, 20u) << "killed in the first category hunted: nothing to show";
  const MutantResult rounds = hunt(60, 20);
  EXPECT_EQ(rounds.explorer_category, small.explorer_category);
  EXPECT_EQ(rounds.trials, small.trials);
  EXPECT_EQ(rounds.headline, small.headline);
  EXPECT_NE(hunt(60, 60).trials, small.trials);
}

TEST(Gate, ASurvivingMutantFailsTheGate) {
  GateOptions o = small_gate();
  o.corpus_dir.clear();
  o.categories = {generators::WorldCategory::Disjoint};
  o.trials_per_category = 1;  // far too small a budget to find a conflict mutant
  o.mutants = {Mutant::AndAcrossReads};
  const GateReport report = run_gate(o);
  ASSERT_EQ(report.mutants.size(), 1u);
  EXPECT_EQ(report.mutants.front().killed_by, MutantKill::Survived);
  EXPECT_EQ(report.mutants.front().trials, 1u);
  EXPECT_EQ(report.outcome(), GateOutcome::Fail);
  const auto failures = report.failures();
  EXPECT_TRUE(std::any_of(failures.begin(), failures.end(),
                          [](const std::string& f) { return f.find("and-across-reads survived") != std::string::npos; }));
  EXPECT_NE(gate_junit_xml(report).find("<failure "), std::string::npos);
  // The mutant column is as wide as the longest name in the report, so the gap is not fixed.
  EXPECT_TRUE(std::regex_search(gate_summary_text(report), std::regex("\\band-across-reads +SURVIVED")))
      << gate_summary_text(report);
}

// docs/semantics.md §10.2: the same-file worlds reach Case 2's mutants: a stale tombstone among
// disjoint writers, a merged overlap where positions are shared (in the overlapping worlds, or in
// the disjoint ones where the second writer's MERGE rewrites the first writer's row). The
// category column fits their names.
TEST(Gate, SameFileWorldsKillCase2Mutants) {
  GateOptions o = small_gate();
  o.corpus_dir.clear();
  o.categories = {generators::WorldCategory::SameFileDisjoint, generators::WorldCategory::SameFileOverlap};
  o.trials_per_category = 200;
  o.mutants = {Mutant::Case2NoRepoint, Mutant::Case2MergeOnOverlap};
  const GateReport report = run_gate(o);
  for (const CategoryResult& c : report.categories) {
    SCOPED_TRACE(world_category_name(c.category));
    EXPECT_EQ(c.stats.missed_conflicts, 0u);
    EXPECT_GT(c.stats.commits, 0u);
  }
  ASSERT_EQ(report.mutants.size(), 2u);
  EXPECT_EQ(report.mutants[0].killed_by, MutantKill::Explorer);
  EXPECT_EQ(report.mutants[0].explorer_category, generators::WorldCategory::SameFileDisjoint);
  EXPECT_EQ(report.mutants[1].killed_by, MutantKill::Explorer);
  const generators::WorldCategory overlap_kill = report.mutants[1].explorer_category;
  EXPECT_TRUE(overlap_kill == generators::WorldCategory::SameFileDisjoint ||
              overlap_kill == generators::WorldCategory::SameFileOverlap)
      << world_category_name(overlap_kill);
  EXPECT_TRUE(std::regex_search(gate_summary_text(report), std::regex("\\bsame-file-disjoint +200 ")))
      << gate_summary_text(report);
}

std::string first_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

// What `skipsound replay FILE` runs on a saved scenario: the file expects what must happen, so it
// fails with the finding's headline (its first line) under the mutant, and passes without it.
void expect_scenario_finding_reproduces(const std::string& path, smt::Oracle& oracle) {
  const ScenarioRun run = run_judged_scenario(load_scenario(path), oracle);
  ASSERT_FALSE(run.mismatches.empty()) << "the saved finding replays as expectations met";
  EXPECT_EQ("# " + run.mismatches.front(), first_line(path));
  const ScenarioRun sound = run_judged_scenario(load_scenario(path, Mutant::None), oracle);
  EXPECT_TRUE(sound.mismatches.empty()) << sound.mismatches.front();
}

// The same for a saved per-file case: it expects no finding, replays with the gate's headline
// (its description) re-derived, and passes with `--mutant none`.
void expect_corpus_finding_reproduces(const std::string& path, smt::Oracle& oracle) {
  CorpusCase c = load_corpus_case(path);
  EXPECT_FALSE(c.expected.has_value()) << "a saved finding pins the outcome it observed";
  const ReplayResult replayed = replay_corpus_case(c, oracle, "skipsound replay " + path);
  EXPECT_EQ(replayed.match, ReplayMatch::Differs) << replayed.report;
  EXPECT_NE(replayed.report.find("\n" + c.description + "\n"), std::string::npos) << replayed.report;
  c.mutant = Mutant::None;
  const ReplayResult sound = replay_corpus_case(c, oracle, "skipsound replay --mutant none " + path);
  EXPECT_EQ(sound.match, ReplayMatch::AsExpected) << sound.report;
}

TEST(Gate, FindingsAreWrittenAsReplayableFiles) {
  GateOptions o = small_gate();
  o.corpus_dir.clear();
  o.categories = {generators::WorldCategory::ValueMoving};
  o.trials_per_category = 100;
  o.mutants = {Mutant::AppendSuppression, Mutant::LeAsLt};
  const GateReport report = run_gate(o);
  const ScratchDirectory scratch("test");
  const std::string dir = (scratch.path() / "findings").string();
  const std::vector<std::string> written = write_gate_findings(report, dir);
  ASSERT_EQ(written.size(), 2u);
  smt::Oracle oracle(skip_oracle_options());
  EXPECT_EQ(std::filesystem::path(written[0]).filename(), "mutant-append-suppression.scn");
  expect_scenario_finding_reproduces(written[0], oracle);
  EXPECT_EQ(std::filesystem::path(written[1]).filename(), "mutant-le-as-lt.json");
  expect_corpus_finding_reproduces(written[1], oracle);
}

// The counts a gate run is judged by, one line per phase, category and mutant (no timings).
std::string verdict_digest(const GateReport& r) {
  std::ostringstream out;
  size_t differing = 0;
  for (const CorpusFileResult& c : r.corpus) differing += c.problems.empty() ? 0 : 1;
  out << "corpus " << r.corpus.size() << " files, " << differing << " differing\n";
  out << "per-file " << r.per_file.cases << " cases, " << r.per_file.decisions << " decisions, "
      << r.per_file.failing_cases << " failing\n";
  if (r.exhaustive) {
    out << "exhaustive " << r.exhaustive->comparisons() << " comparisons, " << r.exhaustive->disagreements()
        << " disagreements\n";
  }
  for (const CategoryResult& c : r.categories) {
    const CategoryStats& s = c.stats;
    out << world_category_name(c.category) << ": " << s.trials << " trials, " << s.commits << " commits, "
        << s.abort_count() << " aborts, " << s.false_conflicts << " false, " << s.missed_conflicts << " missed, "
        << s.wrong_results << " wrong, " << s.unjustified_skips << " bad-skip, " << s.skip_checks << " skips-z3, "
        << s.proved_skips << " proved, " << s.discarded << " discarded\n";
  }
  for (const MutantResult& m : r.mutants) {
    out << mutant_name(m.mutant) << ": " << (m.killed() ? killed_by_text(m) : "SURVIVED") << " after " << m.trials
        << "\n";
  }
  out << (r.outcome() == GateOutcome::Pass ? "pass" : "fail") << "\n";
  return out.str();
}

const char* const kPinnedDigest =
    "corpus 191 files, 0 differing\n"
    "per-file 40 cases, 177 decisions, 0 failing\n"
    "exhaustive 300 comparisons, 0 disagreements\n"
    "disjoint: 20 trials, 44 commits, 4 aborts, 4 false, 0 missed, 0 wrong, 0 bad-skip, 5 skips-z3, 5 proved, 0 discarded\n"
    "overlapping: 20 trials, 39 commits, 22 aborts, 12 false, 0 missed, 0 wrong, 0 bad-skip, 12 skips-z3, 12 proved, 0 discarded\n"
    "missing-stats: 20 trials, 38 commits, 15 aborts, 5 false, 0 missed, 0 wrong, 0 bad-skip, 3 skips-z3, 3 proved, 0 discarded\n"
    "wide-dv: 20 trials, 35 commits, 22 aborts, 13 false, 0 missed, 0 wrong, 0 bad-skip, 12 skips-z3, 12 proved, 0 discarded\n"
    "partitioned: 20 trials, 41 commits, 27 aborts, 13 false, 0 missed, 0 wrong, 0 bad-skip, 5 skips-z3, 5 proved, 0 discarded\n"
    "whole-table: 20 trials, 35 commits, 22 aborts, 6 false, 0 missed, 0 wrong, 0 bad-skip, 6 skips-z3, 6 proved, 0 discarded\n"
    "empty-reads: 20 trials, 43 commits, 18 aborts, 13 false, 0 missed, 0 wrong, 0 bad-skip, 8 skips-z3, 8 proved, 0 discarded\n"
    "value-moving: 20 trials, 27 commits, 16 aborts, 3 false, 0 missed, 0 wrong, 0 bad-skip, 8 skips-z3, 8 proved, 0 discarded\n"
    "mixed: 20 trials, 35 commits, 20 aborts, 13 false, 0 missed, 0 wrong, 0 bad-skip, 4 skips-z3, 4 proved, 0 discarded\n"
    "same-file-disjoint: 20 trials, 25 commits, 15 aborts, 9 false, 0 missed, 0 wrong, 0 bad-skip, 1 skips-z3, 1 proved, 0 discarded\n"
    "same-file-overlap: 20 trials, 21 commits, 19 aborts, 4 false, 0 missed, 0 wrong, 0 bad-skip, 0 skips-z3, 0 proved, 0 discarded\n"
    "image-files: 20 trials, 26 commits, 14 aborts, 5 false, 0 missed, 0 wrong, 0 bad-skip, 8 skips-z3, 8 proved, 0 discarded\n"
    "no-data-change: 20 trials, 46 commits, 16 aborts, 4 false, 0 missed, 0 wrong, 0 bad-skip, 1 skips-z3, 1 proved, 0 discarded\n"
    "restore: 20 trials, 54 commits, 18 aborts, 5 false, 0 missed, 0 wrong, 0 bad-skip, 0 skips-z3, 0 proved, 0 discarded\n"
    "skip-missing-stats: per-file properties after 9\n"
    "trust-wide-nullcount: per-file properties after 91\n"
    "no-timestamp-max-bump: per-file properties after 100\n"
    "string-max-plain-prefix: per-file properties after 21\n"
    "ieee-nan-order: per-file properties after 348\n"
    "le-as-lt: per-file properties after 23\n"
    "append-suppression: explorer (value-moving) after 1\n"
    "and-across-reads: explorer (mixed) after 28\n"
    "skip-whole-table-read: explorer (whole-table) after 1\n"
    "empty-reads-skip-all: explorer (empty-reads) after 2\n"
    "decimal-stats-unscaled: per-file properties after 58\n"
    "decimal-stats-as-double: per-file properties after 6\n"
    "timestamp-offset-as-utc: per-file properties after 12\n"
    "stats-by-logical-name: per-file properties after 9\n"
    "partition-null-as-empty: per-file properties after 7\n"
    "remove-by-path-only: per-file properties after 2\n"
    "remove-ignores-dv: per-file properties after 1\n"
    "absent-leaf-nullcount-zero: per-file properties after 7\n"
    "widening-counts-new-dv: explorer (wide-dv) after 1\n"
    "snapshot-ignores-datachange: explorer (missing-stats) after 85\n"
    "unknown-blind-as-blind: explorer (partitioned) after 147\n"
    "delete-read-compares-dv: SURVIVED after 280\n"
    "case2-no-repoint: explorer (same-file-disjoint) after 9\n"
    "case2-merge-on-overlap: explorer (same-file-disjoint) after 8\n"
    "case2-base-is-dv_win: explorer (same-file-disjoint) after 8\n"
    "case2-no-monotonicity: SURVIVED after 280\n"
    "case2-nonlocal-loser: SURVIVED after 280\n"
    "case1b-wrong-image: SURVIVED after 280\n"
    "case1b-count-diff: explorer (restore) after 5\n"
    "nodatachange-delete-delete: explorer (no-data-change) after 6\n"
    "case3-no-repoint: SURVIVED after 280\n"
    "valueexact-empty-read-drops: explorer (same-file-disjoint) after 19\n"
    "valueexact-and-across-reads: explorer (overlapping) after 132\n"
    "case2-no-base-subtract: false-conflict rate (same-file-disjoint) after 20\n"
    "fail\n";

// Pins a reduced-budget gate for a fixed seed (the command line's default one): generators,
// oracles, checker and the mutant-hunting policy all feed these counts, so any change of
// behaviour shows here (it changed when choices became uniform at every generation size: the
// draw reaches MERGE, OPTIMIZE, OR and whole-table reads in every category, and all ten mutants
// now die within 20 trials per category; again when MERGE began to record Delta's read, whose
// key-only ON keeps every winner file: more false conflicts, none missed; and again when per-file
// cases went through the Delta log and worlds drew WriteSerializable, unknown isBlindAppend and
// DV'd initial files: at 20 trials per category unknown-blind-as-blind and delete-read-compares-dv
// survive, so this reduced run fails — the default gate's 2,000 per category is what must kill
// them; and again when this release's branches met: Delta's IS NOT NULL rules, the grammar's
// forms and the wider worlds in one draw; and again when an insert-only MERGE stopped touching
// target files and wide-dv worlds began to draw MERGE: the corpus gained the delete-read-compares-dv
// kill, wide-dv commits more and aborts less; and again when the value-exact tier and Case 2 came
// on by default (docs/semantics.md §10): fewer aborts in overlapping and missing-stats, fewer false
// conflicts in overlapping and mixed, more skips proved (value-exact ones by rows), the corpus's
// six rlc_ scenarios, still nothing missed or wrong; and again when the same-file-disjoint and
// same-file-overlap categories came: Case 2 commits every disjoint pair, the overlapping pairs
// abort, some of them falsely, and the surviving mutants get 40 more trials; and again when the
// corpus gained a scenario per row-level PR test case and pitfall schedule: only the file count;
// and again when every world began to draw the §10 tier flags on and off, the image-files,
// no-data-change and restore categories came, OPTIMIZE took subsets of files, same-file second
// writers became non-local MERGEs one time in three and every mutant of the catalogue joined the
// matrix: the counts of the older categories moved with the new draws, still nothing missed or
// wrong, and at 20 trials a category case2-no-monotonicity and case2-nonlocal-loser survive with
// the two old survivors — the default gate's 2,000 per category kills all four; and again when
// one world in four with three or more transactions began to start one of them after the first
// commit: at 20 trials case1b-wrong-image survives too, which the default gate kills after 6,074;
// and again when one world in eight began to commit an ALTER TABLE, SET TXN or SET DOMAIN
// (docs/semantics.md §7 checks 1-4): twelve categories' counts moved (disjoint's skips only),
// still nothing missed or wrong; and again when the corpus gained the Case 3 compaction-then-delete
// hole the gate found at four times its budget, with Case 3 on and off: only the file count; and
// again when the WriteSerializable blind-append-and-its-reader pair joined it: only the file
// count; and again when half the worlds' x column took another type (generators/x_column.h):
// every category's counts moved, still nothing missed, wrong or discarded; and again when Delta's
// skipping suite joined the corpus phase, 51 case files, and the rule corpus's six: only the file
// count; and again when one world in four began to replay its Delta log (proofs/scenario/log_mirror.h):
// the draw moved every category's counts, nothing missed, wrong or discarded; and again when
// the mutation tool's survivors added corpus scenarios: only the file count; and again when
// Case 3 got its relocation guard and the mutant case3-no-repoint, and a third of the no-data-change
// worlds took the compaction-then-rewrite shape: that category's counts and the new mutant, which
// survives 20 trials; and again when each mutant was hunted first in the category it was built to
// show in (proofs/gate/mutant_hunt.cpp home_category): five mutants' trial counts only; and again when
// half the replayed worlds began to load their log from a table directory: the extra draw moved
// every category's counts and some mutants' trial counts, nothing missed, wrong or discarded; and
// again when five scenarios written from the mutation tool's survivors joined the corpus: only the
// file count; and again when string values began to put a surrogate pair at UTF-16 units N − 2 to
// N, files to cut string mins by units one time in four and decimal columns to reach precision
// 38: the per-file draw moved, so string-max-plain-prefix dies after 4 trials and
// partition-null-as-empty after 46, and nothing else changed; and again when decimals of every
// precision, longs next to ±2^63, 17-digit doubles and decimal stats as strings joined the per-file
// draw (every per-file mutant's trial count moved, decimal-stats-as-double dies after 6), wide-dv
// worlds began to split a file's NULL and non-NULL x by a DV DELETE (its counts moved,
// widening-counts-new-dv dies on the first trial) and the corpus gained that mutant's scenario). When a change is meant, paste the printed digest into kPinnedDigest and say why in the
// commit.
TEST(Gate, VerdictCountsForAFixedSeedArePinned) {
  GateOptions o = small_gate();
  o.seed = 20240607;
  o.trials_per_category = 20;
  o.exhaustive_comparisons = 300;
  o.mutants.clear();  // every mutant of the catalogue
  const GateReport report = run_gate(o);
  EXPECT_EQ(verdict_digest(report), kPinnedDigest);
}

}  // namespace
}  // namespace skipsound

namespace skipsound {
namespace {

// A scenario corpus of two files whose expectations are wrong: two corpus findings. Written once
// per test process and removed at its exit.
std::string corpus_of_two_wrong_expectations() {
  static const ScratchDirectory dir = [] {
    ScratchDirectory made("test");
    for (const char* name : {"a.scn", "b.scn"}) {
      std::ofstream(made.path() / name) << "schema: id long\nfile f0: range id 0 10\nT1: INSERT range id 100 110\n"
                                           "commit: T1\nexpect T1: missed-conflict\n";
    }
    return made;
  }();
  return dir.path().string();
}

GateOptions gate_with_a_corpus_finding(FailFast fail_fast) {
  GateOptions o = small_gate();
  o.corpus_dir = corpus_of_two_wrong_expectations();
  o.skip_suite_dirs.clear();
  o.categories = {generators::WorldCategory::Disjoint};
  o.trials_per_category = 2;
  o.exhaustive_comparisons = 0;
  o.skip_mutants = true;
  o.fail_fast = fail_fast;
  return o;
}

const PhaseTiming* phase_named(const GateReport& r, const std::string& name) {
  for (const PhaseTiming& p : r.phases) {
    if (p.phase == name) return &p;
  }
  return nullptr;
}

TEST(GateFailFast, WithoutItEveryPhaseRunsWholeAndReportsItsFirstFinding) {
  const GateReport report = run_gate(gate_with_a_corpus_finding(FailFast::Off));
  EXPECT_EQ(report.corpus.size(), 2u);
  const PhaseTiming* corpus = phase_named(report, "corpus");
  ASSERT_NE(corpus, nullptr);
  ASSERT_TRUE(corpus->first_finding.has_value());
  EXPECT_LE(*corpus->first_finding, corpus->seconds);
  EXPECT_NEAR(*corpus->first_finding, report.corpus.front().seconds, 1e-9);
  const PhaseTiming* explorer = phase_named(report, "explorer");
  ASSERT_NE(explorer, nullptr);
  EXPECT_FALSE(explorer->first_finding.has_value());
  EXPECT_GE(explorer->started, corpus->started + corpus->seconds);
  EXPECT_TRUE(report.skipped_phases.empty());

  const nlohmann::json j = gate_report_json(report);
  EXPECT_TRUE(j["phases"][0]["firstFinding"].is_number());
  EXPECT_TRUE(j["phases"].back()["firstFinding"].is_null());
  EXPECT_NE(gate_summary_text(report).find("s into the gate)"), std::string::npos);
}

TEST(GateFailFast, PhaseStopsTheCorpusAtItsFirstFindingAndRunsTheRest) {
  const GateReport report = run_gate(gate_with_a_corpus_finding(FailFast::Phase));
  EXPECT_EQ(report.corpus.size(), 1u);
  EXPECT_NE(phase_named(report, "explorer"), nullptr);
  EXPECT_EQ(report.categories.size(), 1u);
  EXPECT_EQ(report.outcome(), GateOutcome::Fail);
}

// The bad-input corpus runs with the corpus (here with /bin/sh standing in for skipsound, the
// gate's binary, so that each case's arguments are a script): a case whose exit status or message
// differs is a finding of its cases.txt line; with --fail-fast the cases after it are dropped.
TEST(Gate, ABadInputAcceptedIsACorpusFinding) {
  const ScratchDirectory dir("test");
  std::ofstream(dir.path() / "cases.txt")
      << "# three cases\n"
         R"({"name": "stats-refused", "args": ["-c", "echo stats: numRecords; exit 2"], "exit": 2, "message": "stats: numRecords"})" "\n"
         R"({"name": "stats-accepted", "args": ["-c", "echo 1 keep"], "exit": 2, "message": "stats: numRecords"})" "\n"
         R"({"name": "stats-also-accepted", "args": ["-c", "exit 0"], "exit": 2, "message": "x"})" "\n";
  for (FailFast fail_fast : {FailFast::Off, FailFast::Phase}) {
    GateOptions o = gate_with_a_corpus_finding(fail_fast);
    o.corpus_dir.clear();
    o.bad_input_dir = dir.path().string();
    o.skipsound_binary = "/bin/sh";
    const GateReport report = run_gate(o);
    ASSERT_EQ(report.corpus.size(), fail_fast == FailFast::Off ? 3u : 2u);
    EXPECT_EQ(report.corpus[0].file, "bad-inputs/cases.txt:2 stats-refused");
    EXPECT_EQ(report.corpus[0].problems, std::vector<std::string>{});
    EXPECT_EQ(report.corpus[1].file, "bad-inputs/cases.txt:3 stats-accepted");
    EXPECT_EQ(report.corpus[1].problems,
              (std::vector<std::string>{"exit status 0, expected 2", "the output lacks: stats: numRecords"}));
    EXPECT_EQ(report.corpus[1].report, "  $ skipsound -c \"echo 1 keep\"\n1 keep\n");
    EXPECT_EQ(report.outcome(), GateOutcome::Fail);
  }
}

// Delta's skipping suite is judged with the corpus: a skip Delta makes that the checker does not
// make (here Delta's "miss" is a made-up expectation: a row of the file matches) fails the gate as
// a finding of that case's file, named with the predicate.
TEST(Gate, ALostDeltaSkipIsACorpusFinding) {
  const ScratchDirectory scratch("test");
  const std::filesystem::path dir = scratch.path() / "delta-suite";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "made-up.json")
      << R"({"delta_test": "t", "schema": {"type": "struct", "fields": [{"name": "a", "type": "long", "nullable": true, "metadata": {}}]},
            "rows": [{"a": 1}], "predicates": [{"sql": "a > 0", "delta": "miss"}]})";
  GateOptions o = gate_with_a_corpus_finding(FailFast::Off);
  o.corpus_dir.clear();
  o.skip_suite_dirs = {dir.string()};
  const GateReport report = run_gate(o);
  ASSERT_EQ(report.corpus.size(), 1u);
  EXPECT_EQ(report.corpus.front().file, "delta-suite/made-up.json");
  ASSERT_EQ(report.corpus.front().problems.size(), 1u);
  EXPECT_EQ(report.corpus.front().problems.front().rfind("LOST SKIP: `a > 0`: Delta skips the file", 0), 0u)
      << report.corpus.front().problems.front();
  EXPECT_EQ(report.outcome(), GateOutcome::Fail);
}

// A generated world an operation refuses is a failure of the gate, named with the first refusal:
// the generators draw only worlds the model can run (a model that refuses a valid assignment, as
// a mutation-tool survivor of decimal assignment did, showed only as a discard count before).
TEST(Gate, ADiscardedWorldFailsTheGate) {
  CategoryResult category;
  category.category = generators::WorldCategory::Mixed;
  TrialResult refused;
  refused.verdict = TrialVerdict::Discarded;
  refused.headline = "explorer:7: 'UPDATE SET x = x + 1' assigns a decimal(11,2) to a decimal(10,2) column";
  category.stats.add(refused);
  TrialResult second = refused;
  second.headline = "another";
  category.stats.add(second);
  GateReport report;
  report.categories.push_back(category);
  ASSERT_EQ(report.failures().size(), 1u);
  EXPECT_EQ(report.failures().front(), "explorer mixed: 2 generated worlds could not be run, first: " + refused.headline);
  EXPECT_EQ(report.outcome(), GateOutcome::Fail);
}

TEST(GateFailFast, GateSkipsThePhasesAfterTheFirstFinding) {
  const GateReport report = run_gate(gate_with_a_corpus_finding(FailFast::Gate));
  EXPECT_EQ(report.corpus.size(), 1u);
  ASSERT_EQ(report.phases.size(), 1u);
  EXPECT_EQ(report.skipped_phases, (std::vector<std::string>{"per-file", "explorer"}));
  EXPECT_TRUE(report.categories.empty());
  EXPECT_EQ(report.outcome(), GateOutcome::Fail);
  EXPECT_NE(gate_summary_text(report).find("not run (--fail-fast gate)"), std::string::npos);
}

// On one thread the rule proofs are a phase of their own, run last: --fail-fast gate skips them
// too (with more threads they run beside the rest from the start and always finish).
TEST(GateFailFast, OnOneThreadTheRuleProofsRunLastAndAreSkippedToo) {
  GateOptions o = gate_with_a_corpus_finding(FailFast::Gate);
  o.threads = 1;
  o.proofs = true;
  const GateReport report = run_gate(o);
  EXPECT_EQ(report.skipped_phases, (std::vector<std::string>{"per-file", "explorer", "proofs"}));
  EXPECT_TRUE(report.proofs.empty());
}

TEST(GateFailFast, TheMutantMatrixStopsAtItsFirstSurvivor) {
  GateOptions o = small_gate();
  o.corpus_dir.clear();
  o.categories = {generators::WorldCategory::Disjoint};
  o.trials_per_category = 1;  // and-across-reads survives this
  o.exhaustive_comparisons = 0;
  o.mutants = {Mutant::AndAcrossReads, Mutant::AppendSuppression};
  o.fail_fast = FailFast::Phase;
  const GateReport report = run_gate(o);
  ASSERT_EQ(report.mutants.size(), 1u);
  EXPECT_FALSE(report.mutants.front().killed());
  const PhaseTiming* mutants = phase_named(report, "mutants");
  ASSERT_NE(mutants, nullptr);
  ASSERT_TRUE(mutants->first_finding.has_value());
  EXPECT_NEAR(*mutants->first_finding, report.mutants.front().seconds, 0.5);
}

}  // namespace
}  // namespace skipsound
