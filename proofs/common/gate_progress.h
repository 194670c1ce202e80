// How a long-running phase reports where it is, shared by the gate and the phases it runs.
#pragma once
#include <functional>
#include <string>

namespace skipsound {

// Phase name and a one-line status; called often (the CLI draws it as a progress line).
using GateProgress = std::function<void(const std::string& phase, const std::string& status)>;

}  // namespace skipsound
