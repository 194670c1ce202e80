#include "proofs/scenario/interleaving_report.h"

#include <sstream>

#include <nlohmann/json.hpp>

#include "model/sql/printer.h"
#include "proofs/common/decision_text.h"
#include "model/values/exact_json.h"

namespace skipsound {

namespace {

std::string row_text(const Row& row, const Schema& schema) { return dump_json(row_to_json(row, schema)); }

void print_rows(std::ostringstream& out, const std::vector<Row>& rows, const Schema& schema,
                const std::string& indent) {
  constexpr size_t kShown = 20;  // a report stays readable on tables of thousands of rows
  if (rows.empty()) out << indent << "(no rows)\n";
  for (size_t i = 0; i < rows.size() && i < kShown; ++i) out << indent << row_text(rows[i], schema) << "\n";
  if (rows.size() > kShown) out << indent << "... (" << rows.size() - kShown << " more rows)\n";
}

constexpr size_t kDiffRowsShown = 20;

void print_diff(std::ostringstream& out, const std::vector<Row>& rows, const Schema& schema, const char* sign,
                const char* where) {
  for (size_t i = 0; i < rows.size() && i < kDiffRowsShown; ++i) {
    out << "      " << sign << " " << row_text(rows[i], schema) << "  (" << where << ")\n";
  }
  if (rows.size() > kDiffRowsShown) {
    out << "      " << sign << " ... " << rows.size() - kDiffRowsShown << " more (" << where << ")\n";
  }
}

std::string list(const std::vector<std::string>& items) {
  std::string text;
  for (const std::string& item : items) text += (text.empty() ? "" : ", ") + item;
  return text.empty() ? "none" : text;
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

const Table& snapshot_of(const ScenarioRun& run, const Transaction& txn) {
  return run.schedule.at_version(txn.snapshot_version);
}

constexpr size_t kSurvivorsShown = 5;

// Which step of the append check excluded each file (docs/semantics.md §10 "Order").
void print_exclusions(std::ostringstream& out, const AppendCheck& check) {
  size_t excluded = 0;
  for (const CandidateOutcome& file : check.filtered.files) {
    if (file.verdict != CandidateVerdict::Excluded) continue;
    if (++excluded <= kSurvivorsShown) {
      out << "        excluded " << file.path << " by the " << filter_step_name(file.decided_by) << "\n";
    }
  }
  if (excluded > kSurvivorsShown) out << "        ... " << excluded - kSurvivorsShown << " more excluded files\n";
}

// Why each kept file survived, read by read, as `skip` explains a decision: the read, its
// skipping expression, how it evaluated on the file's stats and the verification.
void print_survivors(std::ostringstream& out, const AppendCheck& check, const Transaction& loser,
                     const Table& snapshot) {
  size_t shown = 0, kept = 0;
  for (const CandidateOutcome& file : check.filtered.files) {
    if (file.verdict != CandidateVerdict::Survives) continue;
    if (++kept > kSurvivorsShown) continue;
    ++shown;
    out << "        kept " << file.path << " by the " << filter_step_name(file.decided_by) << ": " << file.reason << "\n";
    for (size_t r = 0; r < file.per_read.size(); ++r) {
      const FileDecision& d = file.per_read[r];
      const ExprPtr& read = r < loser.reads.predicates.size() ? loser.reads.predicates[r] : nullptr;
      out << "          read " << r + 1 << " (" << (read ? to_sql(read) : "TRUE") << "): skipping expression "
          << d.expression << "; " << d.reason << "; stats verification "
          << cli::verification_text(d.verification, snapshot.schema()) << "\n";
      if (d.evaluation) {
        std::ostringstream trace;
        cli::print_skip_trace(trace, *d.evaluation, 12);
        out << trace.str();
      }
    }
  }
  if (kept > shown) out << "        ... " << kept - shown << " more kept files\n";
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
  out << "    rows that differ (" << verdict.diff.only_in_outcome.size() << " only in the commit's outcome, "
      << verdict.diff.only_in_serial.size() << " only in the serial outcome):\n";
  print_diff(out, verdict.diff.only_in_outcome, schema, "+", "only in the commit's outcome");
  print_diff(out, verdict.diff.only_in_serial, schema, "-", "only in the serial outcome");
  out << "    why: " << why_unexplained(scenario, run, verdict) << "\n";
}

}  // namespace

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

std::string render_report(const Scenario& scenario, const ScenarioRun& run) {
  std::ostringstream out;
  out << "scenario " << scenario.source << " (conflict data skipping "
      << (scenario.options.conflict_data_skipping ? "on" : "off") << ", mutant "
      << mutant_name(scenario.mutant) << ")\n";
  print_table(out, scenario.table);
  out << "schedule:\n";
  for (const Transaction& txn : run.transactions) {
    if (txn.name.empty()) continue;  // never reached its snapshot
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
      if (check.case2_refusal) out << "        Case 2 refused: " << case2_refusal_text(*check.case2_refusal) << "\n";
      if (!check.append) continue;
      print_exclusions(out, *check.append);
      print_survivors(out, *check.append, txn, snapshot_of(run, txn));
    }
  }
  out << "verdicts:\n";
  for (const TransactionVerdict& verdict : run.verdicts) print_verdict(out, scenario, run, verdict);
  if (!run.findings.empty()) out << "findings:\n";
  for (const RunFinding& finding : run.findings) {
    out << "  " << finding.headline << (finding.expected ? "  (expected)" : "") << "\n";
    if (!finding.detail.empty()) out << "    " << finding.detail << "\n";
  }
  for (const std::string& mismatch : run.mismatches) out << "UNEXPECTED " << mismatch << "\n";
  out << summary_line(scenario, run) << "\n";
  return out.str();
}

namespace {

struct Counts {
  size_t transactions = 0, steps = 0, committed = 0, aborted = 0, false_conflicts = 0, unsound = 0;
};

Counts counts_of(const Scenario& scenario, const ScenarioRun& run) {
  Counts c;
  for (const ScenarioTransaction& t : scenario.transactions) (t.history_step ? c.steps : c.transactions)++;
  for (const TransactionVerdict& v : run.verdicts) {
    if (scenario.transactions[v.transaction].history_step) continue;
    const bool aborted = v.kind == VerdictKind::Abort || v.kind == VerdictKind::FalseConflict;
    (aborted ? c.aborted : c.committed)++;
    if (v.kind == VerdictKind::FalseConflict) ++c.false_conflicts;
    if (is_unsound(v.kind)) ++c.unsound;
  }
  return c;
}

std::string plural(size_t n, const std::string& word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

nlohmann::json reads_json(const ReadSet& reads) {
  nlohmann::json predicates = nlohmann::json::array();
  for (const ExprPtr& p : reads.predicates) predicates.push_back(p ? to_sql(p) : "TRUE");
  return {{"predicates", predicates}, {"files", reads.files}, {"whole_table", reads.whole_table},
          {"app_ids", reads.app_ids}};
}

nlohmann::json check_json(const WinnerCheck& check, const Transaction& winner) {
  nlohmann::json j{{"winner", winner.name}, {"line", check.line}};
  if (!check.reconciled_paths.empty()) j["case2_reconciled"] = check.reconciled_paths;
  if (const auto& refusal = check.case2_refusal) {
    j["case2_refusal"] = {{"condition", case2_condition_name(refusal->condition)},
                          {"letter", case2_condition_letter(refusal->condition)},
                          {"path", refusal->path},
                          {"held_back", refusal->held_back}};
  }
  if (!check.append) return j;
  nlohmann::json files = nlohmann::json::array();
  for (const CandidateOutcome& file : check.append->filtered.files) {
    nlohmann::json reads = nlohmann::json::array();
    for (const FileDecision& d : file.per_read) {
      nlohmann::json read{{"expression", d.expression}, {"reason", d.reason},
                          {"verdict", d.verdict == FileVerdict::Keep ? "keep" : "skip"}};
      if (d.evaluation) read["evaluation"] = cli::skip_trace_json(*d.evaluation);
      reads.push_back(std::move(read));
    }
    files.push_back({{"path", file.path},
                     {"kept", file.verdict == CandidateVerdict::Survives},
                     {"reason", file.reason},
                     {"per_read", std::move(reads)}});
  }
  j["append_check"] = {{"summary", check.append->filtered.summary}, {"files", std::move(files)}};
  return j;
}

}  // namespace

std::string summary_line(const Scenario& scenario, const ScenarioRun& run) {
  const Counts c = counts_of(scenario, run);
  std::string line = "summary: " + plural(c.transactions, "transaction");
  if (c.steps) line += ", " + plural(c.steps, "history step");
  line += ": " + std::to_string(c.committed) + " committed, " + std::to_string(c.aborted) + " aborted (" +
          plural(c.false_conflicts, "false conflict") + "), " + std::to_string(c.unsound) + " unsound";
  if (!run.findings.empty()) line += ", " + plural(run.findings.size(), "finding");
  line += "; ";
  line += run.mismatches.empty() ? "expectations met" : plural(run.mismatches.size(), "expectation") + " not met";
  return line;
}

nlohmann::json report_json(const Scenario& scenario, const ScenarioRun& run) {
  nlohmann::json transactions = nlohmann::json::array();
  for (size_t i = 0; i < run.transactions.size(); ++i) {
    const Transaction& txn = run.transactions[i];
    if (txn.name.empty()) continue;
    transactions.push_back({{"name", txn.name},
                            {"history_step", scenario.transactions[i].history_step},
                            {"operations", txn.describe()},
                            {"snapshot_version", txn.snapshot_version},
                            {"reads", reads_json(txn.reads)},
                            {"writes", writes_text(txn.commit)}});
  }
  nlohmann::json attempts = nlohmann::json::array();
  for (const CommitAttempt& attempt : run.schedule.attempts) {
    nlohmann::json a{{"transaction", run.transactions[attempt.transaction].name}};
    if (const auto* committed = std::get_if<Committed>(&attempt.result)) {
      a["committed_version"] = committed->version;
    } else {
      const auto& aborted = std::get<Aborted>(attempt.result);
      a["aborted"] = {{"exception", exception_name(aborted.conflict.kind)},
                      {"by", run.transactions[aborted.winner].name},
                      {"file", aborted.conflict.file},
                      {"reason", aborted.conflict.reason}};
    }
    nlohmann::json checks = nlohmann::json::array();
    for (size_t k = 0; k < attempt.checks.size(); ++k) {
      checks.push_back(check_json(attempt.checks[k], run.transactions[attempt.winners[k]]));
    }
    a["checks"] = std::move(checks);
    attempts.push_back(std::move(a));
  }
  nlohmann::json verdicts = nlohmann::json::array();
  for (const TransactionVerdict& v : run.verdicts) {
    nlohmann::json j{{"transaction", run.transactions[v.transaction].name}, {"verdict", verdict_kind_name(v.kind)}};
    if (v.exception) j["exception"] = exception_name(*v.exception);
    j["rows_only_in_outcome"] = v.diff.only_in_outcome.size();
    j["rows_only_in_serial"] = v.diff.only_in_serial.size();
    verdicts.push_back(std::move(j));
  }
  nlohmann::json findings = nlohmann::json::array();
  for (const RunFinding& f : run.findings) {
    nlohmann::json finding{{"headline", f.headline}, {"detail", f.detail}, {"expected", f.expected}};
    if (const auto& e = f.exclusion) {
      finding["should_have_kept"] = {{"loser", run.transactions[e->loser].name},
                                     {"winner", run.transactions[e->winner].name},
                                     {"path", e->path},
                                     {"read", e->read},
                                     {"witness", e->witness ? row_to_json(*e->witness, scenario.table.schema()) : nlohmann::json()},
                                     {"witness_source", e->witness_source}};
    }
    findings.push_back(std::move(finding));
  }
  return {{"scenario", scenario.source},
          {"conflict_data_skipping", scenario.options.conflict_data_skipping},
          {"mutant", mutant_name(scenario.mutant)},
          {"transactions", std::move(transactions)},
          {"attempts", std::move(attempts)},
          {"verdicts", std::move(verdicts)},
          {"final_rows", run.schedule.final_state().live_rows().size()},
          {"findings", std::move(findings)},
          {"mismatches", run.mismatches},
          {"summary", summary_line(scenario, run)}};
}

}  // namespace skipsound
