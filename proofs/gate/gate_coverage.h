// The gate's coverage table (docs/semantics.md §4–§7): every writer rule and reader path, every
// skipping rule with how often it took part in a skip, every conflict check and isolation level
// and every oracle outcome, with its hit count in this run (model/coverage/coverage.h counts them
// where the code applies them). A full gate fails when a required row was never reached.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "model/coverage/coverage.h"

namespace skipsound {

struct CoverageRow {
  coverage::ProbeInfo info;
  uint64_t hits = 0;
  uint64_t skips = 0;  // §5 rules: skips it took part in
};

struct GateCoverage {
  std::vector<CoverageRow> rows;  // in catalogue order
  bool required = false;          // a full run: unreached required rows fail the gate

  std::vector<std::string> unreached() const;  // required rows with no hit, "§5 rule: c IN (v1…vn)"
};

// The rows with what the counters gained since `before`.
GateCoverage coverage_since(const coverage::Counts& before, bool required);
std::string coverage_table_text(const GateCoverage& coverage);
nlohmann::json coverage_json(const GateCoverage& coverage);

}  // namespace skipsound
