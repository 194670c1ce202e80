// The gate's results as JUnit XML, the format CI systems display: one testsuite per part of the
// gate, one testcase per corpus file, category, proof group and mutant.
#pragma once
#include <string>

#include "proofs/gate/gate.h"

namespace skipsound {

std::string gate_junit_xml(const GateReport& report);

}  // namespace skipsound
