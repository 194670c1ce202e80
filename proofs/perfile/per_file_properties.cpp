#include "proofs/perfile/per_file_properties.h"

#include <iomanip>
#include <sstream>

#include <nlohmann/json.hpp>

#include "checker/stats_eligibility.h"
#include "model/sql/evaluator.h"
#include "model/sql/printer.h"
#include "model/sql/row.h"
#include "model/coverage/coverage.h"
#include "model/mutants/fault_injection.h"
#include "model/stats/stats.h"
#include "model/values/exact_json.h"
#include "proofs/oracles/stats_audit.h"

namespace skipsound {
namespace {

coverage::Probe outcome_probe(DecisionOutcome o) {
  using coverage::Probe;
  switch (o) {
    case DecisionOutcome::Kept: return Probe::OutcomeKept;
    case DecisionOutcome::MissedSkip: return Probe::OutcomeMissedSkip;
    case DecisionOutcome::SoundSkip: return Probe::OutcomeSoundSkip;
    case DecisionOutcome::SkipUnconfirmed: return Probe::OutcomeSkipUnconfirmed;
    case DecisionOutcome::UnsoundSkip: return Probe::OutcomeUnsoundSkip;
    case DecisionOutcome::SkipWithoutProof: return Probe::OutcomeSkipWithoutProof;
    case DecisionOutcome::WitnessRejected: return Probe::OutcomeWitnessRejected;
    case DecisionOutcome::OracleError: return Probe::OutcomeOracleError;
  }
  return Probe::OutcomeOracleError;
}

using generators::GeneratedFile;
using generators::TableShape;

std::string show(const Value& v) { return v.is_null() ? "NULL" : to_sql_literal(v); }

// ---- decisions ----

ScanFileOutcome production_decision(const TableShape& table, const LogReadBack& read, const ExprPtr& predicate,
                                    Mutant mutant) {
  const CandidateFile candidate{kPerFileCasePath, read.stats ? &*read.stats : nullptr, read.partition_values,
                                read.dv_cardinality};
  const StatsEligibility eligibility(table.schema, table.stats_config);
  const FaultScope fault(mutant);
  return filter_scan(predicate, {candidate}, eligibility).files.front();
}

// The first live row on which the predicate is TRUE.
std::optional<size_t> matching_live_row(const GeneratedFile& file, const ExprPtr& predicate, bool& not_evaluable) {
  for (size_t r = 0; r < file.rows.size(); ++r) {
    if (file.deleted[r]) continue;
    try {
      if (evaluate(*predicate, file.rows[r]) == Truth::True) return r;
    } catch (const NotEvaluable&) {
      not_evaluable = true;
    }
  }
  return std::nullopt;
}

// Empty when the model accepts Z3's witness, else why not.
std::string revalidate_witness(const smt::Sat& sat, const ExprPtr& predicate, const Schema& schema,
                               const FileEvidence& evidence) {
  const Row& witness = sat.witness;
  try {
    const Truth t = evaluate(*predicate, witness, smt::replayed_calls(sat));
    if (t != Truth::True) return std::string("the evaluator gives ") + truth_name(t) + ", not TRUE";
  } catch (const NotEvaluable& e) {
    return std::string("the evaluator cannot evaluate it: ") + e.what();
  }
  const ConsistencyVerdict consistency = check_row_consistency(witness, row_allowance(evidence, schema));
  if (consistency.kind == Consistency::Inconsistent) return "inconsistent with the stats: " + consistency.reason;
  return {};
}

bool should_ask(OracleUse use, FileVerdict verdict) {
  return use == OracleUse::Always || (use != OracleUse::Never && verdict == FileVerdict::Skip);
}

void apply_oracle(DecisionCheck& check, const smt::OracleResult& result, const ExprPtr& predicate,
                  const Schema& schema, const FileEvidence& evidence) {
  check.oracle = result;
  const bool skipped = check.production.verdict == FileVerdict::Skip;
  if (const auto* sat = std::get_if<smt::Sat>(&result)) {
    check.witness = sat->witness;
    check.witness_source = "Z3";
    check.witness_problem = revalidate_witness(*sat, predicate, schema, evidence);
    if (!check.witness_problem.empty()) {
      check.outcome = DecisionOutcome::WitnessRejected;
    } else if (skipped) {
      check.outcome = DecisionOutcome::SkipWithoutProof;
    }
  } else if (std::holds_alternative<smt::Unsat>(result)) {
    if (!skipped) check.outcome = DecisionOutcome::MissedSkip;
  } else if (std::holds_alternative<smt::Unknown>(result)) {
    if (skipped) check.outcome = DecisionOutcome::SkipUnconfirmed;
  } else if (const auto* error = std::get_if<smt::InternalError>(&result)) {
    check.outcome = DecisionOutcome::OracleError;
    check.witness = error->witness;
    check.witness_source = "Z3 (disputed)";
  } else {
    // The generated stats come from the writer model: the oracle must find them possible.
    check.outcome = DecisionOutcome::OracleError;
  }
}

// ---- rendering ----

void render_trace(std::ostream& os, const SkipTrace& t, int depth) {
  os << std::string(2 * depth + 4, ' ') << t.text << "  →  " << show(t.value) << "\n";
  for (const SkipTrace& child : t.children) render_trace(os, child, depth + 1);
}

}  // namespace

std::string decision_headline(DecisionOutcome o) {
  switch (o) {
    case DecisionOutcome::UnsoundSkip:
      return "ERROR: unsound skip: the file was skipped, but a live row makes the predicate TRUE";
    case DecisionOutcome::SkipWithoutProof:
      return "ERROR: skip not justified by the stats: Z3 found a consistent row that matches";
    case DecisionOutcome::WitnessRejected:
      return "ERROR: Z3's witness does not survive the model's re-check";
    case DecisionOutcome::OracleError:
      return "ERROR: the oracle disagrees with itself";
    default:
      return std::string("Decision: ") + outcome_name(o);
  }
}


std::string StatsAudit::render() const {
  if (mismatches.empty()) return "stats consistent with the rows\n";
  size_t width = 5;
  for (const auto& m : mismatches) width = std::max(width, m.claim.size());
  std::ostringstream os;
  os << std::left << std::setw(static_cast<int>(width)) << "claim" << " | data\n";
  for (const auto& m : mismatches) {
    os << std::left << std::setw(static_cast<int>(width)) << m.claim << " | " << m.data << "\n";
  }
  return os.str();
}

StatsAudit audit_stats(const Schema& schema, const GeneratedFile& file) {
  const AuditedFile audited{&file.stats, &file.rows, file.deleted};
  StatsAudit audit;
  for (const StatsClaimFinding& f : audit_file_stats(schema, audited)) {
    audit.mismatches.push_back({claim_text(f, schema), refutation_text(f, schema, audited)});
  }
  audit.verdict = audit.mismatches.empty() ? Consistency::Consistent : Consistency::Inconsistent;
  return audit;
}

const char* outcome_name(DecisionOutcome o) {
  switch (o) {
    case DecisionOutcome::Kept: return "kept";
    case DecisionOutcome::MissedSkip: return "missed-skip";
    case DecisionOutcome::SoundSkip: return "sound-skip";
    case DecisionOutcome::SkipUnconfirmed: return "skip-unconfirmed";
    case DecisionOutcome::UnsoundSkip: return "UNSOUND SKIP";
    case DecisionOutcome::SkipWithoutProof: return "SKIP WITHOUT PROOF";
    case DecisionOutcome::WitnessRejected: return "WITNESS REJECTED";
    case DecisionOutcome::OracleError: return "ORACLE ERROR";
  }
  return "?";
}

bool is_finding(DecisionOutcome o) {
  return o == DecisionOutcome::UnsoundSkip || o == DecisionOutcome::SkipWithoutProof ||
         o == DecisionOutcome::WitnessRejected || o == DecisionOutcome::OracleError;
}

FileEvidence file_evidence(const TableShape& table, const GeneratedFile& file) {
  FileEvidence evidence;
  evidence.stats = &file.stats;
  evidence.dv_cardinality = file.dv_cardinality();
  evidence.string_prefix_length = table.stats_config.string_prefix_length;
  const Row partition_values = written_partition_values(table, file);
  for (const Leaf& leaf : table.schema.leaves()) {
    if (generators::is_partition_leaf(leaf, table.stats_config)) {
      evidence.partition_values[leaf.ordinal] = partition_values[leaf.ordinal];
    }
  }
  return evidence;
}

namespace {

DecisionCheck judge_decision(const TableShape& table, const GeneratedFile& file, const LogReadBack& read,
                             const ExprPtr& predicate, smt::Oracle* oracle, const PerFileOptions& options) {
  DecisionCheck check;
  check.production = production_decision(table, read, predicate, options.mutant);
  const bool skipped = check.production.verdict == FileVerdict::Skip;
  check.outcome = skipped ? DecisionOutcome::SoundSkip : DecisionOutcome::Kept;
  if (skipped) {
    if (const auto row = matching_live_row(file, predicate, check.rows_not_evaluable)) {
      check.outcome = DecisionOutcome::UnsoundSkip;
      check.witness = file.rows[*row];
      check.witness_source = "live row " + std::to_string(*row);
      return check;
    }
  }
  if (oracle != nullptr && should_ask(options.oracle_use, check.production.verdict)) {
    const FileEvidence evidence = file_evidence(table, file);
    const smt::Effort effort = skipped ? smt::Effort::Proof : smt::Effort::Classify;
    apply_oracle(check, oracle->check(predicate, table.schema, evidence, effort), predicate, table.schema, evidence);
    check.oracle_smt2 = oracle->last_smt2();
  }
  return check;
}

}  // namespace

DecisionCheck check_decision(const TableShape& table, const GeneratedFile& file, const ExprPtr& predicate,
                             smt::Oracle* oracle, const PerFileOptions& options) {
  return check_decision(table, file, read_back(table, file, options.mutant), predicate, oracle, options);
}

DecisionCheck check_decision(const TableShape& table, const GeneratedFile& file, const LogReadBack& read,
                             const ExprPtr& predicate, smt::Oracle* oracle, const PerFileOptions& options) {
  DecisionCheck check = judge_decision(table, file, read, predicate, oracle, options);
  coverage::hit(outcome_probe(check.outcome));
  return check;
}

CaseCheck check_case(const generators::FileCase& c, smt::Oracle* oracle, const PerFileOptions& options) {
  CaseCheck result;
  result.audit = audit_stats(c.table.schema, c.file);
  result.log = read_back(c.table, c.file, options.mutant);
  bool keep_sampled = false;
  for (const ExprPtr& predicate : c.predicates) {
    PerFileOptions per_decision = options;
    if (options.oracle_use == OracleUse::Sampled) {
      per_decision.oracle_use = keep_sampled ? OracleUse::SkipsOnly : OracleUse::Always;
    }
    DecisionCheck check = check_decision(c.table, c.file, result.log, predicate, oracle, per_decision);
    keep_sampled |= check.production.verdict == FileVerdict::Keep;
    if (is_finding(check.outcome) && !result.first_finding) result.first_finding = result.decisions.size();
    result.decisions.push_back(std::move(check));
  }
  return result;
}

std::string render_case_failure(const generators::FileCase& c, const CaseCheck& check, const FindingOrigin& origin) {
  std::string out;
  if (check.stats_inconsistent()) {
    out += "ERROR: the stats do not describe the rows they were collected from\n" + check.audit.render() + "\n";
  }
  if (!check.log.consistent()) {
    out += "ERROR: the file's Delta log does not read back as it was written\n";
    for (const std::string& problem : check.log.problems) out += "    " + problem + "\n";
    out += "\n";
  }
  if (check.first_finding) {
    const size_t i = *check.first_finding;
    out += render_finding(c.table, c.file, c.predicates[i], check.decisions[i], origin);
  } else {
    out += render_file(c.table, c.file, check.log, origin);
  }
  return out;
}

std::string render_file(const TableShape& table, const GeneratedFile& file, const LogReadBack& log,
                        const FindingOrigin& origin) {
  const Schema& schema = table.schema;
  std::ostringstream os;
  os << "Schema:\n    " << schema.to_json().dump() << "\n";
  os << "Rows (" << file.rows.size() << ", " << file.dv_cardinality() << " deleted"
     << (file.absent_leaves ? ", last " + std::to_string(file.absent_leaves) + " leaves absent from the data" : "")
     << "):\n";
  for (size_t r = 0; r < file.rows.size(); ++r) {
    os << "    " << (file.deleted[r] ? "[deleted] " : "") << dump_json(row_to_json(file.rows[r], schema)) << "\n";
  }
  os << "File stats (" << generators::stats_history_name(file.history) << "):\n    "
     << dump_json(stats_to_json(file.stats, schema)) << "\n";
  os << "Delta log:\n" << log.log_text;
  os << "Mutant: " << mutant_name(origin.mutant) << "\n";
  if (origin.seed) os << "Seed: " << *origin.seed << "\n";
  if (!origin.replay_command.empty()) os << "Replay: " << origin.replay_command << "\n";
  return os.str();
}

std::string render_finding(const TableShape& table, const GeneratedFile& file, const ExprPtr& predicate,
                           const DecisionCheck& check, const FindingOrigin& origin) {
  const Schema& schema = table.schema;
  std::ostringstream os;
  os << decision_headline(check.outcome) << "\n\n";
  os << "Predicate:\n    " << to_sql(predicate) << "\n";
  os << "Schema:\n    " << schema.to_json().dump() << "\n";
  os << "File stats (" << generators::stats_history_name(file.history) << ", DV cardinality "
     << file.dv_cardinality() << "):\n    " << dump_json(stats_to_json(file.stats, schema)) << "\n";
  if (check.witness) {
    os << "Witness row (" << check.witness_source << "):\n    " << dump_json(row_to_json(*check.witness, schema)) << "\n";
    try {
      os << "    predicate on it: " << truth_name(evaluate(*predicate, *check.witness)) << "\n";
    } catch (const NotEvaluable& e) {
      os << "    predicate on it: not evaluable (" << e.what() << ")\n";
    }
    if (!check.witness_problem.empty()) os << "    rejected: " << check.witness_problem << "\n";
  }
  const FileDecision& data = check.production.data;
  os << "Skipping expression:\n    " << data.expression << "\n";
  if (data.evaluation) {
    os << "  evaluated on the stats:\n";
    render_trace(os, *data.evaluation, 0);
  }
  os << "  verification: "
     << (data.verification.outcome == VerificationOutcome::Passed ? "passed" : "failed")
     << (data.verification.missing ? " (missing " + to_string(*data.verification.missing, schema) + ")" : "")
     << "\n  verdict: " << verdict_name(check.production.verdict) << " — " << check.production.reason << "\n";
  if (check.oracle) os << "Z3: " << smt::describe(*check.oracle, schema) << "\n";
  os << "Mutant: " << mutant_name(origin.mutant) << "\n";
  if (origin.seed) os << "Seed: " << *origin.seed << "\n";
  if (!origin.replay_command.empty()) os << "Replay: " << origin.replay_command << "\n";
  return os.str();
}

}  // namespace skipsound
