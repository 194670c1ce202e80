// The engine gate's result as JSON (`skipsound engine-gate --json`): per category its counts, its
// findings by kind, its scan-time and cross-writer figures; then every finding with its kind's
// name. Rendered from the result data, like the text report.
#pragma once
#include <nlohmann/json.hpp>

#include "proofs/engines/engine_gate.h"

namespace skipsound::engines {

nlohmann::json engine_gate_json(const EngineGateResult& result);

}  // namespace skipsound::engines
