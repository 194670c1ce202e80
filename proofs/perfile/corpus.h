// Replayable per-file cases (tests/corpus/files/*.json): one predicate against one file — the
// schema, the stats configuration, the physical rows with their deletion marks, the stats the
// log carries — plus where it came from (seed, mutant) and the outcome it is expected to give.
//
// Format (all keys required unless marked):
//   {"description": "...",                        (optional)
//    "schema": <Spark StructType JSON>,
//    "statsConfig": {"numIndexedCols": 32, "statsColumns": ["a.b"] (optional), "partitionColumns": []},
//    "rows": [{"values": {...}, "deleted": false}, ...],
//    "stats": <Delta stats JSON>,
//      or instead "collectStats": {"tightBounds": false} or {"widenedByOneDelete": true}, either
//      with "dropped": ["max(c1)", ...] (optional): the writer collects the stats from the rows
//      when the case replays, under the case's mutant (widens them for the DV, as one DV delete
//      does; removes the fields named) — what `gate --out` saves when the rows determine the
//      stats, so that a writer bug is gone once the writer is fixed,
//    "predicate": "x >= 5",
//    "mutant": "none" | "le-as-lt" | ...,
//    "seed": 123 (optional),
//    "expected": "sound" | "sound-skip" | "kept" | "missed-skip" | "UNSOUND SKIP" | ... (an outcome_name):
//                "sound" (what the gate's --out writes) expects no finding — the decision is none
//                (is_finding), the stats describe the rows, the log reads back as written — so the
//                file fails while the bug is there; an outcome name pins that exact outcome (a
//                mutant's kill in tests/corpus/files/), with the two keys below,
//    "observed": "UNSOUND SKIP, log differs" (optional: what the build that found it gave; not judged),
//    "absentLeaves": 1 (optional, default 0: the last leaves absent from the written data),
//    "log": {"timestampOffsetMinutes": -480, "addBeforeRemove": true, "droppedColumnStats": false}
//           (optional: how the file is logged, proofs/perfile/per_file_log.h),
//    "expectedStatsAudit": "inconsistent" (optional, default "consistent"),
//    "expectedLog": "differs" (optional, default "as-written": the log read-back)}
#pragma once
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "generators/file_gen.h"
#include "generators/schema_gen.h"
#include "model/sql/expr.h"
#include "model/mutants/mutant.h"
#include "proofs/perfile/per_file_properties.h"

namespace skipsound {

// How the writer made a file's stats when its rows alone determine them: collected (with
// tightBounds:true or not), or collected and widened by one DV delete (docs/semantics.md §4.6);
// then some fields removed.
struct StatsRecipe {
  bool tight_bounds = false;
  bool widened_by_one_delete = false;
  std::vector<std::string> dropped = {};  // as GeneratedFile::dropped names them
};
FileStats stats_by_recipe(const generators::TableShape& table, const generators::GeneratedFile& file,
                          StatsRecipe recipe, Mutant writer_mutant);
// The recipe that gives the file's stats under `writer_mutant`, if one does.
std::optional<StatsRecipe> recipe_of(const generators::TableShape& table, const generators::GeneratedFile& file,
                                     Mutant writer_mutant);

struct CorpusCase {
  std::string description;
  generators::TableShape table;
  generators::GeneratedFile file;
  ExprPtr predicate;  // bound against table.schema
  Mutant mutant = Mutant::None;
  std::optional<uint64_t> seed;
  // nullopt: "sound", no finding; else the exact outcome, with the two below.
  std::optional<DecisionOutcome> expected;
  bool expected_stats_inconsistent = false;  // the stats audit fails (proofs/perfile/per_file_properties.h)
  bool expected_log_differs = false;         // the log read-back differs (proofs/perfile/per_file_log.h)
  // "collectStats": the stats are the writer's, collected when the case replays (file.stats is
  // then filled by replay_corpus_case alone).
  std::optional<StatsRecipe> stats_recipe = {};
  std::string observed = {};                 // "observed": shown, never judged
};

std::optional<DecisionOutcome> outcome_from_name(const std::string& name);
// "UNSOUND SKIP", "kept, stats inconsistent, log differs": a replay's verdicts, and "observed".
std::string replay_verdicts_text(DecisionOutcome outcome, bool stats_inconsistent, bool log_differs);

// Throws InputError naming the offending key.
CorpusCase corpus_case_from_json(const nlohmann::json& j);
// Throws InputError "<path>:<line>:<column>: not valid JSON: ..." on malformed text, and
// "<path>: corpus case: ..." naming the key on a bad case.
CorpusCase load_corpus_case(const std::string& path);
nlohmann::json corpus_case_to_json(const CorpusCase& c);
void save_corpus_case(const CorpusCase& c, const std::string& path);

// What replaying a case gives, and whether it is what the file expects.
enum class ReplayMatch { AsExpected, Differs };
struct ReplayResult {
  DecisionCheck check;
  DecisionFinding decision;  // the same decision with the case it judged, for the HTML report
  StatsAudit audit;
  LogReadBack log;
  ReplayMatch match = ReplayMatch::AsExpected;
  // Alive2-style: a failing case as the gate renders it (render_case_failure: its first line is the
  // gate's headline), else the decision; ending with "expected X, got Y".
  std::string report;
};
ReplayResult replay_corpus_case(const CorpusCase& c, smt::Oracle& oracle, const std::string& replay_command);

}  // namespace skipsound
