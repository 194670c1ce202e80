#include "proofs/interleaving_report.h"

#include <sstream>

#include <nlohmann/json.hpp>

#include "model/sql/printer.h"

namespace skipsound {

namespace {

std::string row_text(const Row& row, const Schema& schema) { return row_to_json(row, schema).dump(); }

void print_rows(std::ostringstream& out, const std::vector<Row>& rows, const Schema& schema,
                const std::string& indent) {
  constexpr size_t kShown = 20;  // a report stays readable on tables of thousands of rows
  if (rows.empty()) out << indent << "(no rows)\n";
  for (size_t i = 0; i < rows.size() && i < kShown; ++i) out << indent << row_text(rows[i], schema) << "\n";
  if (rows.size() > kShown) out << indent << "... (" << rows.size() - kShown << " more rows)\n";
}

std::string list(const std::vector<std::string>& items) {
  std::string text;
  for (const std::string& item : items) text += (text.empty() ? "" : ", ") + item;
  return text.empty() ? "none" : text;
}

std::string reads_text(const ReadSet& reads) {
  std::vector<std::string> predicates;
  for (const ExprPtr& p : reads.predicates) predicates.push_back(p ? to_sql(p) : "TRUE");
  std::string text = "predicates [" + list(predicates) + "], files [" + list(reads.files) + "]";
  if (reads.whole_table) text += ", whole table";
  return text;
}

std::string writes_text(const Commit& commit) {
  std::vector<std::string> actions;
  for (const FileRemoval& r : commit.removes) {
    actions.push_back("remove " + r.path + (r.deleted.empty() ? "" : " (with DV)"));
  }
  for (const TableFile& a : commit.adds) {
    actions.push_back("add " + a.path + " (" + std::to_string(a.live_count()) + " live rows" +
                      (a.deleted.empty() ? "" : ", DV of " + std::to_string(a.deleted.size())) +
                      (a.stats ? "" : ", no stats") + (a.data_change ? "" : ", dataChange=false") +
                      ")");
  }
  std::string text = list(actions);
  text += "; commitInfo " + commit.info.operation.value_or("?") +
          " isBlindAppend=" + (commit.is_blind_append() ? "true" : "false");
  return text;
}

void print_table(std::ostringstream& out, const Table& table) {
  out << "initial table (version " << table.version() << ", "
      << (table.properties().deletion_vectors ? "deletion vectors" : "copy-on-write") << ", "
      << isolation_level_name(table.properties().isolation) << "):\n";
  for (const TableFile& file : table.files()) {
    out << "  " << file.path << (file.stats ? "" : " (no stats)") << ": " << file.live_count()
        << " rows\n";
  }
}

std::string why_unexplained(const Scenario& scenario, const ScenarioRun& run,
                            const TransactionVerdict& verdict) {
  const Transaction& txn = run.transactions[verdict.transaction];
  if (verdict.kind == VerdictKind::WrongResult) {
    return txn.name + "'s scans missed rows its conditions match (or touched rows they do not): its "
           "actions, applied to its own snapshot, differ from its operations run there reading every "
           "row of every file.";
  }
  std::string why = txn.name + " computed its actions on snapshot version " +
                    std::to_string(txn.snapshot_version) + " without seeing ";
  const CommitAttempt* attempt = nullptr;
  for (const CommitAttempt& a : run.schedule.attempts) {
    if (a.transaction == verdict.transaction) attempt = &a;
  }
  std::vector<std::string> winners;
  if (attempt) {
    for (size_t w : attempt->winners) winners.push_back(run.transactions[w].name);
  }
  why += list(winners) + "'s changes; re-running it after them gives a different table";
  if (verdict.allowed.size() > 1) {
    why += ", and moving the blind appends after it does not help either";
  } else {
    why += ", and under " + std::string(isolation_level_name(scenario.table.properties().isolation)) +
           " no winner may be ordered after it";
  }
  return why + ".";
}

void print_verdict(std::ostringstream& out, const Scenario& scenario, const ScenarioRun& run,
                   const TransactionVerdict& verdict) {
  const Schema& schema = scenario.table.schema();
  const std::string& name = run.transactions[verdict.transaction].name;
  out << "  " << name << ": ";
  switch (verdict.kind) {
    case VerdictKind::SerializableCommit: out << "committed, serializable\n"; break;
    case VerdictKind::WrongResult: out << "WRONG RESULT: committed actions its operations do not give on its snapshot\n"; break;
    case VerdictKind::MissedConflict:
      out << "MISSED CONFLICT (" << missed_conflict_label_name(verdict.label)
          << (verdict.matching_order.empty() ? "" : ": only " + verdict.matching_order + ", an order not allowed, gives it")
          << "): committed, but no allowed serial order explains it\n";
      break;
    case VerdictKind::Abort: out << "aborted with " << exception_name(*verdict.exception) << " (a real conflict)\n"; break;
    case VerdictKind::FalseConflict: out << "aborted with " << exception_name(*verdict.exception) << " — FALSE CONFLICT: committing would have been serializable\n"; break;
  }
  if (verdict.kind == VerdictKind::SerializableCommit) return;
  const char* outcome_title = verdict.kind == VerdictKind::WrongResult      ? "its actions applied to its snapshot"
                              : verdict.kind == VerdictKind::MissedConflict ? "committed outcome"
                                                                            : "outcome had it committed";
  out << "    " << outcome_title << ":\n";
  print_rows(out, verdict.outcome, schema, "      ");
  for (const SerialOutcome& serial : verdict.allowed) {
    out << "    " << (verdict.kind == VerdictKind::WrongResult ? "expected: " : "allowed serial outcome ")
        << serial.order << ":\n";
    print_rows(out, serial.rows, schema, "      ");
  }
  if (verdict.diff.empty()) return;
  out << "    rows that differ:\n";
  for (const Row& row : verdict.diff.only_in_outcome) out << "      + " << row_text(row, schema) << "  (only in the commit's outcome)\n";
  for (const Row& row : verdict.diff.only_in_serial) out << "      - " << row_text(row, schema) << "  (only in the serial outcome)\n";
  out << "    why: " << why_unexplained(scenario, run, verdict) << "\n";
}

}  // namespace

std::string render_report(const Scenario& scenario, const ScenarioRun& run) {
  std::ostringstream out;
  out << "scenario " << scenario.source << " (conflict data skipping "
      << (scenario.options.conflict_data_skipping ? "on" : "off") << ", mutant "
      << mutant_name(scenario.options.mutant) << ")\n";
  print_table(out, scenario.table);
  out << "schedule:\n";
  for (const Transaction& txn : run.transactions) {
    out << "  " << txn.name << ": " << txn.describe() << "   (snapshot v" << txn.snapshot_version << ")\n"
        << "      read:  " << reads_text(txn.reads) << "\n"
        << "      wrote: " << writes_text(txn.commit) << "\n";
  }
  for (const CommitAttempt& attempt : run.schedule.attempts) {
    const Transaction& txn = run.transactions[attempt.transaction];
    out << "  " << txn.name << ": commit";
    if (const auto* committed = std::get_if<Committed>(&attempt.result)) {
      out << " -> version " << committed->version << "\n";
    } else {
      const auto& aborted = std::get<Aborted>(attempt.result);
      out << " ABORTED by " << run.transactions[aborted.winner].name << "'s commit\n";
    }
    for (size_t i = 0; i < attempt.checks.size(); ++i) {
      const WinnerCheck& check = attempt.checks[i];
      out << "      vs " << run.transactions[attempt.winners[i]].name << ": " << check.line << "\n";
      if (!check.reconciled_paths.empty()) out << "        reconciled by Case 2: " << list(check.reconciled_paths) << "\n";
      if (!check.append) continue;
      for (const CandidateOutcome& file : check.append->filtered.files) {
        out << "        " << file.path << ": " << (file.verdict == CandidateVerdict::Survives ? "kept" : "excluded")
            << " by the " << filter_step_name(file.decided_by) << "\n";
      }
    }
  }
  out << "verdicts:\n";
  for (const TransactionVerdict& verdict : run.verdicts) print_verdict(out, scenario, run, verdict);
  for (const std::string& mismatch : run.mismatches) out << "UNEXPECTED " << mismatch << "\n";
  return out.str();
}

}  // namespace skipsound
