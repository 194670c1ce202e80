// A judged scenario run (proofs/explorer/explorer.h JudgedRun) as HTML: the schedule drawn as an
// SVG timeline — one lane per transaction with its snapshot version, reads, writes, its commit or
// abort point and the conflict check's decision on each winner file, the file it should have kept
// marked — then its findings with their witness rows, and the committed and allowed outcomes side
// by side with the rows that differ highlighted (docs/semantics.md §9).
#pragma once
#include <string>

#include "proofs/explorer/explorer.h"

namespace skipsound::html {

std::string schedule_svg(const JudgedRun& judged);
std::string judged_run_html(const JudgedRun& judged);

}  // namespace skipsound::html
