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
//    "predicate": "x >= 5",
//    "mutant": "none" | "le-as-lt" | ...,
//    "seed": 123 (optional),
//    "expected": "sound-skip" | "kept" | "missed-skip" | "UNSOUND SKIP" | ... (an outcome_name),
//    "absentLeaves": 1 (optional, default 0: the last leaves absent from the written data),
//    "log": {"timestampOffsetMinutes": -480, "addBeforeRemove": true, "droppedColumnStats": false}
//           (optional: how the file is logged, proofs/perfile/per_file_log.h),
//    "expectedStatsAudit": "inconsistent" (optional, default "consistent"),
//    "expectedLog": "differs" (optional, default "as-written": the log read-back)}
#pragma once
#include <optional>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "generators/file_gen.h"
#include "generators/schema_gen.h"
#include "model/sql/expr.h"
#include "model/mutants/mutant.h"
#include "proofs/perfile/per_file_properties.h"

namespace skipsound {

struct CorpusCase {
  std::string description;
  generators::TableShape table;
  generators::GeneratedFile file;
  ExprPtr predicate;  // bound against table.schema
  Mutant mutant = Mutant::None;
  std::optional<uint64_t> seed;
  DecisionOutcome expected = DecisionOutcome::Kept;
  bool expected_stats_inconsistent = false;  // the stats audit fails (proofs/perfile/per_file_properties.h)
  bool expected_log_differs = false;         // the log read-back differs (proofs/perfile/per_file_log.h)
};

std::optional<DecisionOutcome> outcome_from_name(const std::string& name);

// Throws InputError naming the offending key.
CorpusCase corpus_case_from_json(const nlohmann::json& j);
CorpusCase load_corpus_case(const std::string& path);
nlohmann::json corpus_case_to_json(const CorpusCase& c);
void save_corpus_case(const CorpusCase& c, const std::string& path);

// What replaying a case gives, and whether it is what the file expects.
enum class ReplayMatch { AsExpected, Differs };
struct ReplayResult {
  DecisionCheck check;
  StatsAudit audit;
  LogReadBack log;
  ReplayMatch match = ReplayMatch::AsExpected;
  std::string report;  // Alive2-style, ending with "expected X, got Y"
};
ReplayResult replay_corpus_case(const CorpusCase& c, smt::Oracle& oracle, const std::string& replay_command);

}  // namespace skipsound
