// A per-file decision (proofs/perfile/per_file_properties.h DecisionFinding) as HTML, Alive2-style
// (docs/semantics.md §9): the headline, the predicate, the file's rows and stats, the skipping
// expression with what each part evaluated to, the verification, the verdict and the witness row.
#pragma once
#include <string>

#include "proofs/perfile/per_file_properties.h"

namespace skipsound::html {

std::string decision_html(const DecisionFinding& finding);

}  // namespace skipsound::html
