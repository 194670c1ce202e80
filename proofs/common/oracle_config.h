// How often the oracles' answers are re-asked, the same for the gate, the explorer and the
// per-file hunt: a second solver re-asks one per-file case in kCrossCheckCaseStride, and Z3
// re-asks every interval answer of one per-file oracle in kIntervalCrossCheckStride (a
// difference fails the gate as an oracle error).
#pragma once
#include <cstddef>

namespace skipsound {

inline constexpr size_t kCrossCheckCaseStride = 10;
inline constexpr size_t kIntervalCrossCheckStride = 50;

}  // namespace skipsound
