// The gate as a library: it passes on the sound checker with a small budget, fails when a mutant
// survives, writes findings that replay, and its JUnit output has one testcase per corpus file,
// category and mutant. A reduced-budget run of the default seed holds the gate's invariants:
// nothing unsound on the sound checker, every category's shape reached, every mutant killed by
// the phase built for it, the same JSON on one thread and two.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>

#include <nlohmann/json.hpp>

#include "model/values/input_error.h"
#include "model/values/scratch_directory.h"
#include "proofs/gate/bad_input_corpus.h"
#include "proofs/gate/gate_report.h"
#include "proofs/gate/junit_report.h"
#include "proofs/gate/mutant_hunt.h"
#include "proofs/perfile/corpus.h"
#include "proofs/scenario/scenario.h"
#include "tests/support/category_shape.h"

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

// The reduced-budget gate of the command line's default seed, every mutant of the catalogue: the
// invariants below each say what broke, not which count moved.
GateOptions reduced_gate_options() {
  GateOptions o = small_gate();
  o.seed = kDefaultGateSeed;
  o.trials_per_category = 20;
  o.exhaustive_comparisons = 300;
  o.mutants.clear();
  return o;
}

// The sound checker: no corpus difference, failing per-file case, exhaustive disagreement, missed
// conflict, wrong result, unsound or unproved skip, hidden error or discarded world.
void expect_nothing_unsound(const GateReport& r) {
  EXPECT_GT(r.corpus.size(), 0u);
  for (const CorpusFileResult& c : r.corpus) {
    EXPECT_FALSE(c.failed()) << "corpus " << c.file << ": " << problem_text(c.problems.front());
  }
  EXPECT_GT(r.per_file.decisions, 0u);
  EXPECT_EQ(r.per_file.failing_cases, 0u) << r.per_file.first_failure;
  ASSERT_TRUE(r.exhaustive.has_value());
  EXPECT_EQ(r.exhaustive->comparisons(), 300u);
  EXPECT_EQ(r.exhaustive->disagreements(), 0u);
  ASSERT_EQ(r.categories.size(), generators::all_world_categories().size());
  for (const CategoryResult& c : r.categories) {
    SCOPED_TRACE(world_category_name(c.category));
    const CategoryStats& s = c.stats;
    EXPECT_EQ(s.trials, 20u);
    EXPECT_GT(s.commits, 0u);
    EXPECT_EQ(s.missed_conflicts, 0u);
    EXPECT_EQ(s.wrong_results, 0u);
    EXPECT_EQ(s.unjustified_skips, 0u);
    EXPECT_EQ(s.proved_skips, s.skip_checks) << "a conflict-time skip the oracle did not prove";
    EXPECT_EQ(s.unexpected_errors, 0u) << s.first_unexpected_error;
    EXPECT_EQ(s.discarded, 0u) << s.first_discard;
    EXPECT_FALSE(c.finding.has_value()) << c.finding->report;
  }
}

void expect_every_shape_reached(const GateReport& r) {
  for (const CategoryResult& c : r.categories) {
    EXPECT_GT(c.stats.shapes.count(test::category_shape(c.category)), 0u)
        << world_category_name(c.category) << " never produced " << test::category_shape(c.category);
  }
}

// The phase each scope of mutant is built to be caught by (docs/semantics.md §8): a per-file
// mutant by the per-file properties or the rule theorems, an input-path one by per-file cases
// that go through the log (or, when the path it switches is DV widening, which only a table's
// history runs, by the explorer), a conflict-time or row-level one by the explorer, a liveness one
// by its false-conflict rate.
bool killed_by_its_phase(const MutantResult& m) {
  const MutantInfo& info = mutant_info(m.mutant);
  switch (info.scope) {
    case MutantScope::PerFile:
      return m.killed_by == MutantKill::PerFileProperties || m.killed_by == MutantKill::SymbolicProofs;
    case MutantScope::InputPath: {
      const bool widens_dvs = std::find(info.paths.begin(), info.paths.end(), CodePath::DvWidening) != info.paths.end();
      return m.killed_by == (widens_dvs ? MutantKill::Explorer : MutantKill::PerFileProperties);
    }
    case MutantScope::ConflictTime:
    case MutantScope::RowLevel: return m.killed_by == MutantKill::Explorer;
    case MutantScope::Liveness: return m.killed_by == MutantKill::FalseConflictRate;
  }
  return false;
}

// At 20 trials a category some conflict mutants outlive the explorer's budget (the default
// gate's 2,000 kill them all, which its own run requires); a survivor here must have had that
// whole budget, and every per-file and input-path mutant dies here.
void expect_every_mutant_killed_by_its_phase(const GateReport& r) {
  ASSERT_EQ(r.mutants.size(), all_mutants().size());
  const size_t explorer_budget = 20 * r.categories.size();
  for (const MutantResult& m : r.mutants) {
    SCOPED_TRACE(mutant_name(m.mutant));
    const MutantScope scope = mutant_info(m.mutant).scope;
    if (m.killed()) {
      EXPECT_TRUE(killed_by_its_phase(m)) << "killed by " << killed_by_text(m);
      if (m.killed_by == MutantKill::PerFileProperties || m.killed_by == MutantKill::Explorer) {
        EXPECT_FALSE(m.replay_content.empty()) << "a kill without a replayable file";
      }
    } else {
      EXPECT_TRUE(scope == MutantScope::ConflictTime || scope == MutantScope::RowLevel) << "survived";
      EXPECT_EQ(m.trials, explorer_budget) << "survived before the explorer spent its budget";
    }
  }
}

// One run for the three (a gate test runs in a process of its own).
TEST(GateInvariants, HoldOnTheReducedGateOfTheDefaultSeed) {
  const GateReport r = run_gate(reduced_gate_options());
  {
    SCOPED_TRACE("nothing unsound on the sound checker");
    expect_nothing_unsound(r);
  }
  {
    SCOPED_TRACE("every category reaches its shape");
    expect_every_shape_reached(r);
  }
  {
    SCOPED_TRACE("every mutant killed by the phase built for it");
    expect_every_mutant_killed_by_its_phase(r);
  }
}

// Everything a run decides, without its timings.
nlohmann::json without_timings(nlohmann::json j) {
  if (j.is_object()) {
    for (const char* timing : {"seconds", "started", "firstFinding", "trialsPerSecond"}) j.erase(timing);
    for (auto& [key, value] : j.items()) value = without_timings(value);
  } else if (j.is_array()) {
    for (auto& value : j) value = without_timings(value);
  }
  return j;
}

TEST(GateInvariants, OneAndTwoThreadsGiveTheSameJson) {
  GateOptions o = reduced_gate_options();
  o.trials_per_category = 8;
  o.exhaustive_comparisons = 100;
  o.mutants = {Mutant::LeAsLt, Mutant::RemoveIgnoresDv, Mutant::AppendSuppression, Mutant::Case2NoRepoint,
               Mutant::Case2NoBaseSubtract};
  o.threads = 1;
  const nlohmann::json one = without_timings(gate_report_json(run_gate(o)));
  o.threads = 2;
  const nlohmann::json two = without_timings(gate_report_json(run_gate(o)));
  EXPECT_EQ(one, two) << nlohmann::json::diff(one, two).dump(2);
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
    EXPECT_FALSE(report.corpus[0].failed());
    EXPECT_EQ(report.corpus[1].file, "bad-inputs/cases.txt:3 stats-accepted");
    EXPECT_EQ(report.corpus[1].problems,
              (std::vector<CorpusProblem>{{CorpusProblemKind::BadInputRun, "exit status 0, expected 2"},
                                          {CorpusProblemKind::BadInputRun, "the output lacks: stats: numRecords"}}));
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
  EXPECT_EQ(report.corpus.front().problems.front().kind, CorpusProblemKind::LostSkip);
  EXPECT_EQ(report.corpus.front().problems.front().detail.rfind("`a > 0`: Delta skips the file", 0), 0u)
      << report.corpus.front().problems.front().detail;
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
  EXPECT_NE(gate_summary_text(report).find("not run (--fail-fast gate or --phase)"), std::string::npos);
}

// --phase: a finding in a phase left out is never met; the chosen phases run as in the full gate.
TEST(GatePhases, OnlyTheChosenPhasesRun) {
  GateOptions o = gate_with_a_corpus_finding(FailFast::Off);
  o.phases = {"explorer"};
  const GateReport report = run_gate(o);
  EXPECT_TRUE(report.corpus.empty());
  ASSERT_EQ(report.phases.size(), 1u);
  EXPECT_EQ(report.phases.front().phase, "explorer");
  EXPECT_EQ(report.skipped_phases, (std::vector<std::string>{"corpus", "per-file"}));
  EXPECT_EQ(report.categories.size(), 1u);
  EXPECT_EQ(report.outcome(), GateOutcome::Pass) << "the corpus's finding is in a phase left out";
  o.phases = {"corpus", "per-file"};
  const GateReport corpus = run_gate(o);
  EXPECT_EQ(corpus.corpus.size(), 2u);
  EXPECT_TRUE(corpus.categories.empty());
  EXPECT_EQ(corpus.outcome(), GateOutcome::Fail);
  o.phases = {"bad-inputs"};  // a part of the corpus: the scenarios, where the finding is, stay out
  const GateReport bad_inputs = run_gate(o);
  EXPECT_TRUE(bad_inputs.corpus.empty());
  ASSERT_EQ(bad_inputs.phases.size(), 1u);
  EXPECT_EQ(bad_inputs.phases.front().phase, "corpus");
  EXPECT_EQ(bad_inputs.outcome(), GateOutcome::Pass);
  o.phases = {"scenarios"};
  EXPECT_EQ(run_gate(o).corpus.size(), 2u);
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
