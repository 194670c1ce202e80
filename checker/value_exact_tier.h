// The value-exact tier (docs/semantics.md §10.1): after the stats tier, the rows of the
// surviving added files are read. All-or-nothing by design, as in Delta: if some live row of some
// survivor makes the OR over reads of the AND of that read's eligible data filters TRUE, every
// survivor stays; if none does, every survivor is dropped. A read without an eligible data filter,
// a file whose rows cannot be read and any evaluation error keep every survivor.
#pragma once
#include <string>
#include <vector>

#include "checker/candidate_file.h"
#include "model/sql/expr.h"

namespace skipsound {

enum class ValueExactVerdict { KeepAll, DropAll };

struct ValueExactResult {
  ValueExactVerdict verdict = ValueExactVerdict::KeepAll;
  std::string reason;  // one line
};

// `eligible_filters[i]` is read i's eligible data filters (deterministic, no metadata column).
ValueExactResult value_exact_scan(const std::vector<std::vector<ExprPtr>>& eligible_filters,
                                  const std::vector<const CandidateFile*>& survivors);

}  // namespace skipsound
