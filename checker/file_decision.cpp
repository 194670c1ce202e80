#include "checker/file_decision.h"

#include <exception>

#include "checker/stats_verification.h"

namespace skipsound {

namespace {

const FileStats& empty_stats() {
  static const FileStats none;
  return none;
}

StatReadContext context_for(const FileView& file, const Schema& schema) {
  return StatReadContext{file.stats ? *file.stats : empty_stats(), schema, file.dv_cardinality};
}

// keep = (expr IS TRUE) OR NOT verified
FileVerdict keep_rule(const SkipExpr& e, Truth expr, VerificationOutcome verification) {
  const bool keep = expr == Truth::True || verification == VerificationOutcome::Failed;
  if (expr == Truth::True) coverage::hit(coverage::Probe::KeepExpressionTrue);
  if (!keep) {
    coverage::hit(coverage::Probe::SkipDecided);
    credit_skip(e);
  }
  return keep ? FileVerdict::Keep : FileVerdict::Skip;
}

std::string explain(FileVerdict verdict, Truth expr, const StatsVerification& verification,
                    const Schema& schema) {
  if (verification.outcome == VerificationOutcome::Failed) {
    return "kept: stats verification failed, " + to_string(*verification.missing, schema) +
           " is missing";
  }
  if (verdict == FileVerdict::Keep) return "kept: the skipping expression is TRUE";
  return std::string("skipped: the skipping expression is ") + truth_name(expr) +
         " and stats verification passed";
}

}  // namespace

const char* verdict_name(FileVerdict v) { return v == FileVerdict::Keep ? "KEEP" : "SKIP"; }

FileDecision decide_file(const std::optional<SkippingPredicate>& predicate, const FileView& file,
                         const Schema& schema) {
  FileDecision decision;
  if (!predicate) {
    decision.expression = "none";
    decision.reason = "kept: no skipping expression";
    return decision;
  }
  decision.expression = to_string(predicate->expr, schema);
  const StatReadContext ctx = context_for(file, schema);
  decision.verification = verify_stats(predicate->referenced, ctx);
  try {
    SkipTrace trace;
    const Truth expr = truth_of_value(evaluate_skip_traced(*predicate->expr, ctx, trace));
    decision.evaluation = std::move(trace);
    decision.verdict = keep_rule(*predicate->expr, expr, decision.verification.outcome);
    decision.reason = explain(decision.verdict, expr, decision.verification, schema);
  } catch (const std::exception& e) {
    coverage::hit(coverage::Probe::KeepEvaluationError);
    decision.verdict = FileVerdict::Keep;
    decision.reason = std::string("kept: the skipping expression could not be evaluated: ") + e.what();
  }
  return decision;
}

FileVerdict decide_verdict(const SkippingPredicate& predicate, const FileView& file,
                           const Schema& schema) {
  const StatReadContext ctx = context_for(file, schema);
  const StatsVerification verification = verify_stats(predicate.referenced, ctx);
  if (verification.outcome == VerificationOutcome::Failed) return FileVerdict::Keep;
  try {
    return keep_rule(*predicate.expr, evaluate_skip_truth(*predicate.expr, ctx), verification.outcome);
  } catch (const std::exception&) {
    coverage::hit(coverage::Probe::KeepEvaluationError);
    return FileVerdict::Keep;
  }
}

}  // namespace skipsound
