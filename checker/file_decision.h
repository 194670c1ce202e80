// One file's skipping decision with its explanation (docs/semantics.md §5.4 keep rule, docs/semantics.md §9 reports):
// keep = (expr IS TRUE) OR NOT verified.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "checker/skipping_expr.h"

namespace skipsound {

enum class FileVerdict { Keep, Skip };
const char* verdict_name(FileVerdict v);  // "KEEP", "SKIP"

enum class VerificationOutcome { Passed, Failed };

struct StatsVerification {
  VerificationOutcome outcome = VerificationOutcome::Passed;
  std::optional<StatRef> missing;  // the first referenced stat that failed
};

// The file as the skipping logic sees it.
struct FileView {
  const FileStats* stats = nullptr;  // nullptr: the file carries no stats at all
  int64_t dv_cardinality = 0;        // rows deleted by the file's deletion vector
};

struct FileDecision {
  FileVerdict verdict = FileVerdict::Keep;
  std::string expression;            // the skipping expression, or "none"
  std::optional<SkipTrace> evaluation;  // absent when there is no expression
  StatsVerification verification;
  std::string reason;                // one line: why KEEP or SKIP
};

// The full decision with explanation. `predicate` absent = no skipping expression (keep).
FileDecision decide_file(const std::optional<SkippingPredicate>& predicate, const FileView& file,
                         const Schema& schema);
// The verdict alone, without building any text (the hot path of scans and the benchmark).
FileVerdict decide_verdict(const SkippingPredicate& predicate, const FileView& file,
                           const Schema& schema);

}  // namespace skipsound
