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
  static EngineGateResult run(const std::string& fault, std::vector<WorldCategory> categories, size_t trials,
                              int deadline_ms = 60'000, size_t scan_predicates = 0) {
    EngineGateOptions options;
    options.seed = 7;
    options.categories = std::move(categories);
    options.trials_per_category = trials;
    options.driver = driver(fault);
    options.driver.deadline_ms = deadline_ms;
    options.scan_predicates = scan_predicates;
    return run_engine_gate(options);
  }

  // The finding's reproduction, run with the venv's python alone, exits 0 with "no finding".
  static void expect_reproduction_passes(const EngineTrialFinding& finding, const std::string& engine) {
    const ScratchDirectory scratch("engine-repro");
    std::ofstream(scratch.path() / "repro.py")
        << python_reproduction(finding, delta_rs_driver_source(kSource / "engines"), engine);
    ProcessRequest request({(kVenv / "bin" / "python").string(), "-B", "repro.py"}, 120'000);
    request.working_dir = scratch.path();
    const ProcessOutput ran = run_process(request);
    EXPECT_EQ(ran.exit_status(), 0) << ran.text;
    EXPECT_NE(ran.text.find("no finding"), std::string::npos) << ran.text;
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

TEST_F(EngineGate, AMaxBelowARowIsUnsoundStats) {
  const EngineGateResult r = run("wrong-stat", {WorldCategory::Disjoint}, 4);
  EXPECT_EQ(count(r, EngineFindingKind::UnsoundStats), r.categories[0].second.ran) << render_engine_gate(r);
  ASSERT_FALSE(r.findings.empty());
  EXPECT_NE(r.findings[0].finding.headline.find("exclude its row"), std::string::npos) << r.findings[0].finding.headline;
}

TEST_F(EngineGate, AFailedAttemptIsAnEngineError) {
  const EngineGateResult r = run("engine-error", {WorldCategory::Disjoint}, 4);
  EXPECT_EQ(count(r, EngineFindingKind::EngineError), r.categories[0].second.ran) << render_engine_gate(r);
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
TEST_F(EngineGate, CrossWriterWorldsCommitForeignFilesAndAreJudged) {
  EngineGateOptions options;
  options.seed = 7;
  options.categories = {WorldCategory::Disjoint};
  options.trials_per_category = 6;
  options.driver = driver();
  options.cross_writer_share = 1;
  const EngineGateResult r = run_engine_gate(options);
  const EngineCategoryStats& s = r.categories[0].second;
  EXPECT_GT(s.cross_writer_worlds, 0u) << render_engine_gate(r);
  EXPECT_GE(s.foreign_files, s.cross_writer_worlds);
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
  const auto missed = std::find_if(r.findings.begin(), r.findings.end(), [](const EngineTrialFinding& f) {
    return f.finding.kind == EngineFindingKind::MissedConflict;
  });
  ASSERT_NE(missed, r.findings.end());
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
