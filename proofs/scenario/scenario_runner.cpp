// The scenario runner: each transaction on its snapshot, commits through the commit driver, the
// serial oracle's verdicts, then every expectation the file states compared with the run.
#include "proofs/scenario/scenario.h"

#include <algorithm>
#include <iterator>

#include "checker/scan_planner.h"
#include "model/mutants/fault_injection.h"
#include "model/sql/row.h"
#include "model/values/exact_json.h"
#include "model/values/input_error.h"
#include "proofs/oracles/serial_oracle.h"

namespace skipsound {

const TransactionVerdict* ScenarioRun::verdict_of(size_t transaction) const {
  for (const TransactionVerdict& v : verdicts) {
    if (v.transaction == transaction) return &v;
  }
  return nullptr;
}

std::vector<std::string> unexpected_errors(const ScheduleRun& schedule,
                                           const std::vector<Transaction>& transactions) {
  std::vector<std::string> errors;
  for (const CommitAttempt& attempt : schedule.attempts) {
    for (size_t k = 0; k < attempt.checks.size(); ++k) {
      const auto& append = attempt.checks[k].append;
      if (!append || append->filtered.unexpected_error.empty()) continue;
      errors.push_back(transactions[attempt.transaction].name + " vs " +
                       transactions[attempt.winners[k]].name + ": " + append->filtered.unexpected_error);
    }
  }
  return errors;
}

std::vector<size_t> Scenario::commit_order() const {
  std::vector<size_t> order;
  for (const TimelineEvent& event : timeline) {
    if (event.kind == TimelineEvent::Kind::Commit && !transactions[event.transaction].history_step) {
      order.push_back(event.transaction);
    }
  }
  return order;
}

namespace {

// Delta's tests remove files of the snapshot by name; a name the snapshot lacks is a typo.
void check_removed_files_exist(const ScenarioTransaction& txn, const Table& snapshot) {
  for (const Operation& op : txn.operations) {
    if (op.kind == OperationKind::RemoveFile && !snapshot.find_file(op.name)) {
      throw InputError(txn.name + ": REMOVE FILE " + op.name + ": no such live file at v" +
                       std::to_string(snapshot.version()));
    }
  }
}

// Every column a transaction's operations use must exist in its snapshot.
void check_columns_exist(const ScenarioTransaction& txn, const Table& snapshot, size_t bound_width) {
  if (snapshot.schema().leaves().size() < bound_width) {
    throw InputError(txn.name + " uses columns added after its snapshot v" + std::to_string(snapshot.version()));
  }
}

std::string rows_summary(const std::vector<Row>& rows, const Schema& schema) {
  constexpr size_t kShown = 5;
  std::string text;
  for (size_t i = 0; i < rows.size() && i < kShown; ++i) text += (i ? ", " : "") + dump_json(row_to_json(rows[i], schema));
  if (rows.size() > kShown) text += ", ... (" + std::to_string(rows.size()) + " rows)";
  return text.empty() ? "none" : text;
}

// The transaction's operations, each RESTORE given the live files of its version, (path, DV)
// each (docs/semantics.md §10.8). A transaction sees no version after its snapshot.
std::vector<Operation> with_restored_files(const ScenarioTransaction& txn, const CommitDriver& driver,
                                           int64_t snapshot_version) {
  std::vector<Operation> operations = txn.operations;
  for (const auto& [at, version] : txn.restore_versions) {
    if (version > snapshot_version) {
      throw InputError(txn.name + ": RESTORE TO VERSION " + std::to_string(version) + ": the table has no version " +
                       std::to_string(version) + " at its snapshot v" + std::to_string(snapshot_version));
    }
    operations[at].restore_to = driver.at_version(version).files();
  }
  return operations;
}

std::string positions_text(const DeletedRows& positions) {
  std::string text;
  for (uint32_t p : positions) text += (text.empty() ? "" : ", ") + std::to_string(p);
  return text.empty() ? "none" : "{" + text + "}";
}

void check_expected_dvs(const Scenario& scenario, ScenarioRun& run) {
  const Table& final_state = run.schedule.final_state();
  for (const ExpectedDv& expected : scenario.expected_dvs) {
    std::vector<const TableFile*> live;
    for (const TableFile& file : final_state.files()) {
      if (file.path == expected.path) live.push_back(&file);
    }
    const std::string what = "dv " + expected.path + ": expected " +
                             (expected.cardinality ? "cardinality " + std::to_string(*expected.cardinality)
                                                   : positions_text(*expected.positions));
    if (live.empty()) {
      run.mismatches.push_back(what + ", but no add of " + expected.path + " is live");
    } else if (live.size() > 1) {
      // (path, DV) replay (docs/semantics.md §4.7): a remove that named another DV cancelled nothing.
      std::string dvs;
      for (const TableFile* file : live) dvs += (dvs.empty() ? "" : " and ") + positions_text(file->deleted);
      run.mismatches.push_back(what + ", but " + std::to_string(live.size()) + " adds of " + expected.path +
                               " are live (DVs " + dvs + "): a stale remove left one live");
    } else if (expected.cardinality ? live.front()->deleted.size() != *expected.cardinality
                                    : live.front()->deleted != *expected.positions) {
      run.mismatches.push_back(what + ", got " + positions_text(live.front()->deleted));
    }
  }
}

void check_expected_verdicts(const Scenario& scenario, ScenarioRun& run) {
  for (const auto& [index, expected] : scenario.expected) {
    const TransactionVerdict* actual = run.verdict_of(index);
    const std::string& name = scenario.transactions[index].name;
    if (!actual) {
      run.mismatches.push_back(name + ": expected " + expected_verdict_text(expected) +
                               ", but it is not in the commit order");
      continue;
    }
    ExpectedVerdict got{actual->kind, actual->exception, std::nullopt, std::nullopt};
    for (const CommitAttempt& attempt : run.schedule.attempts) {
      const auto* aborted = std::get_if<Aborted>(&attempt.result);
      if (attempt.transaction != index || !aborted) continue;
      if (expected.winner) got.winner = run.transactions[aborted->winner].name;
      if (expected.file) got.file = aborted->conflict.file;
    }
    if (expected_verdict_text(got) != expected_verdict_text(expected)) {
      run.mismatches.push_back(name + ": expected " + expected_verdict_text(expected) + ", got " +
                               expected_verdict_text(got));
    }
  }
}

void check_expected_survivors(const Scenario& scenario, ScenarioRun& run) {
  for (const ExpectedSurvivors& expected : scenario.expected_survivors) {
    const std::string what = scenario.transactions[expected.loser].name + " keeps from " +
                             scenario.transactions[expected.winner].name;
    std::optional<std::vector<std::string>> kept;
    for (const CommitAttempt& attempt : run.schedule.attempts) {
      if (attempt.transaction != expected.loser) continue;
      for (size_t k = 0; k < attempt.checks.size(); ++k) {
        if (attempt.winners[k] != expected.winner || !attempt.checks[k].append) continue;
        kept.emplace();
        for (const CandidateOutcome& file : attempt.checks[k].append->filtered.files) {
          if (file.verdict == CandidateVerdict::Survives) kept->push_back(file.path);
        }
        std::sort(kept->begin(), kept->end());
      }
    }
    if (!kept) {
      run.mismatches.push_back(what + ": the append check against it did not run");
    } else if (*kept != expected.files) {
      const auto names = [](const std::vector<std::string>& files) {
        std::string text;
        for (const std::string& f : files) text += (text.empty() ? "" : ", ") + f;
        return text.empty() ? std::string("none") : text;
      };
      run.mismatches.push_back(what + ": expected " + names(expected.files) + ", got " + names(*kept));
    }
  }
}

void check_expected_table(const Scenario& scenario, ScenarioRun& run) {
  if (!scenario.expected_table) return;
  const Table& final_state = run.schedule.final_state();
  const std::vector<Row> got = canonical_rows(final_state.live_rows());
  const std::vector<Row> want = canonical_rows(*scenario.expected_table);
  std::vector<Row> missing, extra;
  std::set_difference(want.begin(), want.end(), got.begin(), got.end(), std::back_inserter(missing), row_less);
  std::set_difference(got.begin(), got.end(), want.begin(), want.end(), std::back_inserter(extra), row_less);
  if (missing.empty() && extra.empty()) return;
  run.mismatches.push_back("table: expected " + std::to_string(want.size()) + " rows, got " +
                           std::to_string(got.size()) + "; missing " + std::to_string(missing.size()) + " (" +
                           rows_summary(missing, final_state.schema()) + "), unexpected " +
                           std::to_string(extra.size()) + " (" + rows_summary(extra, final_state.schema()) + ")");
}

}  // namespace

ScenarioRun run_scenario(const Scenario& scenario) {
  // Every step of the run (its writers, scans, log reads and conflict checks) runs under the
  // scenario's mutant.
  const FaultScope fault(scenario.mutant);
  const ProductionScanPlanner planner;
  ScenarioRun run;
  run.transactions.resize(scenario.transactions.size());
  std::vector<int64_t> start(scenario.transactions.size(), -1);
  std::vector<bool> ran(scenario.transactions.size(), false);
  CommitDriver driver(scenario.table, scenario.options, scenario.log);
  const auto run_on_snapshot = [&](size_t index) {
    const ScenarioTransaction& t = scenario.transactions[index];
    if (start[index] > driver.latest_version()) {
      throw InputError(t.name + " @v" + std::to_string(start[index]) + ": the table has no version " +
                       std::to_string(start[index]) + " yet (latest: v" + std::to_string(driver.latest_version()) + ")");
    }
    const Table& snapshot = driver.at_version(start[index]);
    check_removed_files_exist(t, snapshot);
    check_columns_exist(t, snapshot, t.bound_width);
    run.transactions[index] =
        run_transaction(t.name, snapshot, with_restored_files(t, driver, snapshot.version()), t.settings, planner);
    ran[index] = true;
  };
  // Bad input that only the run finds names the line where its transaction first appears.
  const auto at_line = [&](size_t index, const auto& step) {
    try {
      step();
    } catch (const InputError& e) {
      throw InputError(scenario.source + ":" + std::to_string(scenario.transactions[index].line) + ": " +
                       (e.column() > 0 ? e.render() : e.message()));
    }
  };
  for (const TimelineEvent& event : scenario.timeline) {
    const size_t index = event.transaction;
    if (event.kind == TimelineEvent::Kind::Declare) {
      start[index] = scenario.transactions[index].start_version.value_or(driver.latest_version());
      continue;
    }
    at_line(index, [&] {
      run_on_snapshot(index);
      driver.commit(index, run.transactions);
    });
  }
  for (size_t index = 0; index < ran.size(); ++index) {
    if (!ran[index] && start[index] <= driver.latest_version()) at_line(index, [&] { run_on_snapshot(index); });
  }
  run.schedule = std::move(driver).finish();
  run.verdicts = judge_schedule(run.transactions, run.schedule);
  run.stats_audit = audit_live_stats(run.schedule);
  check_expected_verdicts(scenario, run);
  check_expected_survivors(scenario, run);
  check_expected_table(scenario, run);
  check_expected_dvs(scenario, run);
  return run;
}

}  // namespace skipsound

