// The engine gate against faulty drivers (tests/support/fake_engine_driver.py: the real delta-rs
// driver with one fault each) and against the real pinned deltalake (the delta-rs smoke).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "model/values/scratch_directory.h"
#include "proofs/engines/engine_gate.h"
#include "proofs/engines/engine_scan.h"
#include "common/subprocess.h"

namespace skipsound::engines {
namespace {

using generators::WorldCategory;

const std::filesystem::path kSource = SKIPSOUND_SOURCE_DIR;
const std::filesystem::path kVenv = SKIPSOUND_ENGINE_VENV;

class EngineGate : public ::testing::Test {
 protected:
  // The drivers' venv, made by the project's script when missing (it waits for a parallel maker).
  static void SetUpTestSuite() {
    const ProcessOutput made =
        run_process(ProcessRequest({(kSource / "scripts" / "engine-venv").string(), kVenv.string()}, 900'000));
    ASSERT_EQ(made.exit_status(), 0) << made.text;
  }

  static DriverCommand driver(const std::string& fault = "") {
    DriverCommand command;
    command.argv = {(kVenv / "bin" / "python").string(), "-B"};  // -B: no __pycache__ in the source tree
    if (fault.empty()) {
      command.argv.push_back((kSource / "engines" / "delta_rs" / "driver.py").string());
    } else {
      command.argv.push_back((kSource / "tests" / "support" / "fake_engine_driver.py").string());
      command.argv.push_back(fault);
    }
    return command;
  }

  // The commit-time tests run without scans (scan_predicates 0): delta-rs's own scan-time errors
  // (docs/engines.md, findings) would mix with the faults they inject.
  static EngineGateOptions options(const std::string& fault, std::vector<WorldCategory> categories, size_t trials,
                                   int deadline_ms = 60'000, size_t scan_predicates = 0) {
    EngineGateOptions made;
    made.seed = 7;
    made.categories = std::move(categories);
    made.trials_per_category = trials;
    made.driver = driver(fault);
    made.driver.deadline_ms = deadline_ms;
    made.scan_predicates = scan_predicates;
    return made;
  }

  static EngineGateResult run(const std::string& fault, std::vector<WorldCategory> categories, size_t trials,
                              int deadline_ms = 60'000, size_t scan_predicates = 0) {
    return run_engine_gate(options(fault, std::move(categories), trials, deadline_ms, scan_predicates));
  }

  // The finding's reproduction written to a scratch folder and run with the venv's python.
  static ProcessOutput run_reproduction(const EngineTrialFinding& finding, const std::string& engine) {
    const ScratchDirectory scratch("engine-repro");
    std::ofstream(scratch.path() / "repro.py")
        << python_reproduction(finding, delta_rs_driver_source(kSource / "engines"), engine);
    ProcessRequest request({(kVenv / "bin" / "python").string(), "-B", "repro.py"}, 120'000);
    request.working_dir = scratch.path();
    return run_process(request);
  }

  // The finding's reproduction, run with the venv's python alone, exits 0 with "no finding".
  static void expect_reproduction_passes(const EngineTrialFinding& finding, const std::string& engine) {
    const ProcessOutput ran = run_reproduction(finding, engine);
    EXPECT_EQ(ran.exit_status(), 0) << ran.text;
    EXPECT_NE(ran.text.find("no finding"), std::string::npos) << ran.text;
  }

  static const EngineTrialFinding* first(const EngineGateResult& r, EngineFindingKind kind) {
    const auto it = std::find_if(r.findings.begin(), r.findings.end(),
                                 [&](const EngineTrialFinding& f) { return f.finding.kind == kind; });
    return it == r.findings.end() ? nullptr : &*it;
  }

  static size_t count(const EngineGateResult& r, EngineFindingKind kind) {
    return static_cast<size_t>(std::count_if(r.findings.begin(), r.findings.end(),
                                             [&](const EngineTrialFinding& f) { return f.finding.kind == kind; }));
  }
};

TEST_F(EngineGate, ACommitWithoutConflictCheckIsAMissedConflict) {
  const EngineGateResult r = run("no-conflict-check", {WorldCategory::ValueMoving}, 20);
  EXPECT_GT(count(r, EngineFindingKind::MissedConflict), 0u) << render_engine_gate(r);
  EXPECT_EQ(count(r, EngineFindingKind::EngineError), 0u) << render_engine_gate(r);
}

TEST_F(EngineGate, AnUpdateThatLosesItsSetIsAWrongResult) {
  const EngineGateResult r = run("unchanged-update", {WorldCategory::ValueMoving}, 10);
  EXPECT_GT(count(r, EngineFindingKind::WrongResult), 0u) << render_engine_gate(r);
  EXPECT_EQ(count(r, EngineFindingKind::EngineError), 0u) << render_engine_gate(r);
}

TEST_F(EngineGate, AMaxBelowARowIsUnsoundStats) {
  const EngineGateResult r = run("wrong-stat", {WorldCategory::Disjoint}, 4);
  EXPECT_EQ(count(r, EngineFindingKind::UnsoundStats), r.categories[0].second.ran) << render_engine_gate(r);
  ASSERT_FALSE(r.findings.empty());
  EXPECT_NE(r.findings[0].finding.headline.find("exclude its row"), std::string::npos) << r.findings[0].finding.headline;
}

// An engine exception that is not a conflict, and a driver that cannot run the world at all.
TEST_F(EngineGate, AFailedAttemptOrADriverExceptionIsAnEngineError) {
  for (const std::string fault : {"engine-error", "driver-exception"}) {
    const EngineGateResult r = run(fault, {WorldCategory::Disjoint}, 4);
    EXPECT_GT(r.categories[0].second.ran, 0u) << fault;
    EXPECT_EQ(count(r, EngineFindingKind::EngineError), r.categories[0].second.ran) << fault << render_engine_gate(r);
  }
}

// Shrinking through the engine: every candidate world runs in the (faulty) driver, and the fault
// needs a first file of two rows, so the smallest world that keeps the finding has one
// transaction and one file of exactly two rows.
TEST_F(EngineGate, AFindingShrinksThroughTheEngineToTheSmallestWorldThatKeepsIt) {
  EngineGateOptions shrinking = options("wrong-stat-of-two", {WorldCategory::Overlapping}, 3);
  shrinking.shrink_trial_limit = 60;
  const EngineGateResult r = run_engine_gate(shrinking);
  const EngineTrialFinding* stats = first(r, EngineFindingKind::UnsoundStats);
  ASSERT_NE(stats, nullptr) << render_engine_gate(r);
  EXPECT_GT(stats->shrink_steps, 0u);  // every world has two transactions or more
  EXPECT_EQ(stats->request["files"].size(), 1u) << stats->scenario_text;
  EXPECT_EQ(stats->request["files"][0].size(), 2u) << stats->scenario_text;
  EXPECT_EQ(stats->request["transactions"].size(), 1u) << stats->scenario_text;
}

TEST_F(EngineGate, AListingTheLogLacksIsALogFinding) {
  const EngineGateResult r = run("extra-file", {WorldCategory::Disjoint}, 4);
  EXPECT_EQ(count(r, EngineFindingKind::Log), r.categories[0].second.ran) << render_engine_gate(r);
}

// Scan time (proofs/engines/engine_scan.h): a file dropped although a row of it matches, and a
// query that loses a row, injected by the fake driver into delta-rs's real answers. The same
// worlds through the real driver are the baseline: delta-rs's own scan findings (docs/engines.md)
// show in both.
size_t count_starting(const EngineGateResult& r, EngineFindingKind kind, const std::string& start) {
  return static_cast<size_t>(std::count_if(r.findings.begin(), r.findings.end(), [&](const EngineTrialFinding& f) {
    return f.finding.kind == kind && f.finding.headline.rfind(start, 0) == 0;
  }));
}

TEST_F(EngineGate, AFragmentDroppedWithAMatchingRowIsAnUnsoundSkip) {
  const EngineGateResult injected = run("scan-skip", {WorldCategory::Disjoint}, 4, 60'000, 4);
  const EngineGateResult real = run("", {WorldCategory::Disjoint}, 4, 60'000, 4);
  const std::string fragments = "pyarrow fragments drops";
  EXPECT_GT(count_starting(injected, EngineFindingKind::UnsoundSkip, fragments),
            count_starting(real, EngineFindingKind::UnsoundSkip, fragments)) << render_engine_gate(injected);
  EXPECT_EQ(count(injected, EngineFindingKind::WrongQueryResult), count(real, EngineFindingKind::WrongQueryResult));
  EXPECT_GT(injected.categories[0].second.scan_file_decisions, 0u);
  EXPECT_NE(render_engine_gate(injected).find("ENGINE UNSOUND SKIP [disjoint trial"), std::string::npos);
}

TEST_F(EngineGate, AQueryLosingARowIsAWrongQueryResult) {
  const EngineGateResult injected = run("scan-wrong-rows", {WorldCategory::Disjoint}, 4, 60'000, 4);
  const EngineGateResult real = run("", {WorldCategory::Disjoint}, 4, 60'000, 4);
  EXPECT_GT(count(injected, EngineFindingKind::WrongQueryResult), count(real, EngineFindingKind::WrongQueryResult))
      << render_engine_gate(injected);
  EXPECT_EQ(count(injected, EngineFindingKind::UnsoundSkip), count(real, EngineFindingKind::UnsoundSkip));
  EXPECT_GT(injected.categories[0].second.scan_queries, 0u);
}

// Cross-writer worlds: the first file and the appends carry Delta Spark's stats, written by the
// driver with pyarrow; skipsound reads them and audits them under that dialect without a finding.
// In missing-stats worlds the files and writers without stats stay delta-rs's.
TEST_F(EngineGate, CrossWriterWorldsCommitForeignFilesAndAreJudged) {
  EngineGateOptions cross_writer = options("", {WorldCategory::Disjoint, WorldCategory::MissingStats}, 6, 60'000, 4);
  cross_writer.cross_writer_share = 1;
  const EngineGateResult r = run_engine_gate(cross_writer);
  for (const auto& [category, s] : r.categories) {
    EXPECT_GT(s.cross_writer_worlds, 0u) << render_engine_gate(r);
    EXPECT_GE(s.foreign_files, s.cross_writer_worlds);
  }
  EXPECT_EQ(count(r, EngineFindingKind::Log), 0u) << render_engine_gate(r);
  EXPECT_EQ(count_starting(r, EngineFindingKind::EngineError, "the driver"), 0u) << render_engine_gate(r);
  for (const EngineTrialFinding& f : r.findings) {  // delta-rs's own files may show its NaN finding
    if (f.finding.kind != EngineFindingKind::UnsoundStats) continue;
    EXPECT_EQ(f.finding.headline.find("foreign-"), std::string::npos) << f.finding.headline;
  }
}

// A broken driver costs one finding per trial and a restart, never a hang or a lost trial.
TEST_F(EngineGate, GarbageHangsAndDeathsAreEngineErrorsAndTheDriverRestarts) {
  for (const std::string fault : {"garbage", "hang", "die"}) {
    const EngineGateResult r = run(fault, {WorldCategory::Disjoint}, 4, 3'000);
    EXPECT_GT(r.categories[0].second.ran, 0u) << fault;
    EXPECT_EQ(count(r, EngineFindingKind::EngineError), r.categories[0].second.ran) << fault << render_engine_gate(r);
    EXPECT_EQ(r.driver_starts, r.categories[0].second.ran) << fault;
  }
}

// The reproduction of the missed conflict the fault caused, run with the real deltalake: there
// the loser's commit is checked, so the oracle's assertion holds and the file exits 0.
TEST_F(EngineGate, AReproductionRunsTheWorldWithDeltalakeAlone) {
  const EngineGateResult r = run("no-conflict-check", {WorldCategory::ValueMoving}, 20);
  const EngineTrialFinding* missed = first(r, EngineFindingKind::MissedConflict);
  ASSERT_NE(missed, nullptr);
  expect_reproduction_passes(*missed, r.engine);
}

// The reproduction of an injected unsound skip runs the scan with the real deltalake, which keeps
// the file: its assertion holds and the file exits 0.
TEST_F(EngineGate, AScanReproductionRunsTheScanWithDeltalakeAlone) {
  const EngineGateResult r = run("scan-skip", {WorldCategory::Disjoint}, 4, 60'000, 4);
  const auto skip = std::find_if(r.findings.begin(), r.findings.end(), [](const EngineTrialFinding& f) {
    return f.finding.kind == EngineFindingKind::UnsoundSkip && f.finding.scan["answer"] == "fragments";
  });
  ASSERT_NE(skip, r.findings.end());
  expect_reproduction_passes(*skip, r.engine);
}

// A scan-time finding shrinks through the engine like a commit-time one (every candidate world is
// scanned with its trial's seed), and the shrunk finding's reproduction still runs its scan.
TEST_F(EngineGate, AScanFindingShrinksThroughTheEngine) {
  EngineGateOptions shrinking = options("scan-skip", {WorldCategory::Disjoint}, 2, 60'000, 4);
  shrinking.shrink_trial_limit = 15;
  const EngineGateResult r = run_engine_gate(shrinking);
  const EngineTrialFinding* skip = first(r, EngineFindingKind::UnsoundSkip);
  ASSERT_NE(skip, nullptr) << render_engine_gate(r);
  EXPECT_GT(skip->shrink_steps, 0u) << skip->scenario_text;
  ASSERT_FALSE(skip->finding.scan.is_null());
  EXPECT_EQ(skip->finding.scan["answer"], "fragments");  // the fault the fake driver injects
  expect_reproduction_passes(*skip, r.engine);
}

// The unsound-stats reproduction audits the stats itself: on the pinned deltalake, whose double
// max leaves NaN out (engines/delta_rs/findings/nan_outside_max.py), value-moving trial 2 of
// seed 1 writes such a file, and the Python audit fails on it.
TEST_F(EngineGate, AnUnsoundStatsReproductionFailsOnTheStatsItAudits) {
  EngineGateOptions seed_one = options("", {WorldCategory::ValueMoving}, 3);
  seed_one.seed = 1;
  const EngineGateResult r = run_engine_gate(seed_one);
  const EngineTrialFinding* stats = first(r, EngineFindingKind::UnsoundStats);
  ASSERT_NE(stats, nullptr) << render_engine_gate(r);
  const ProcessOutput ran = run_reproduction(*stats, r.engine);
  EXPECT_NE(ran.exit_status(), 0) << ran.text;
  EXPECT_NE(ran.text.find("stats that exclude a row of their file"), std::string::npos) << ran.text;
  EXPECT_NE(ran.text.find("above maxValues"), std::string::npos) << ran.text;
}

// The delta-rs smoke: the real pinned deltalake through every category, at least 50 judged
// trials, with two scan-time predicates each. The harness must work on them (no failure of the
// driver or of a commit attempt, no LOG finding); delta-rs's own findings (docs/engines.md,
// findings: its scan-time errors among them) may show and are printed.
TEST_F(EngineGate, DeltaRsSmoke) {
  const EngineGateResult r = run("", {}, 20, 60'000, 2);
  size_t ran = 0, scanned = 0;
  for (const auto& [category, stats] : r.categories) {
    ran += stats.ran;
    scanned += stats.scan_file_decisions;
  }
  EXPECT_GE(ran, 50u) << render_engine_gate(r);
  EXPECT_GT(scanned, 0u) << render_engine_gate(r);
  for (const EngineTrialFinding& f : r.findings) {
    if (f.finding.kind != EngineFindingKind::EngineError) continue;
    EXPECT_FALSE(f.finding.scan.is_null()) << f.finding.headline;  // a scan part's error, not the harness's
  }
  EXPECT_EQ(count(r, EngineFindingKind::Log), 0u) << render_engine_gate(r);
  EXPECT_NE(r.engine.find("deltalake 1.6.6"), std::string::npos) << r.engine;
  std::cout << render_engine_gate(r);
}

}  // namespace
}  // namespace skipsound::engines
