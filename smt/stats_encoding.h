// Condition (1) of docs/semantics.md §6.2 in Z3: the candidate row is consistent with the file's stats. Encodes
// model/stats/stats_consistency.h's allowance, so the Z3 side and the Z3-free re-check share one
// definition; each assertion carries the stats fact it comes from as its unsat-core label.
#pragma once
#include <set>
#include <string>
#include <vector>

#include <z3++.h>

#include "model/stats/stats_consistency.h"
#include "smt/row_symbols.h"

namespace skipsound::smt {

struct LabelledAssertion {
  z3::expr assertion;
  std::string label;
};

void collect_code_points(const RowAllowance& allowance, std::set<char32_t>& out);

std::vector<LabelledAssertion> encode_allowance(const RowAllowance& allowance, RowSymbols& row,
                                                const CodePointMap& alphabet);

}  // namespace skipsound::smt
