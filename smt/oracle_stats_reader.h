// The oracle's own reading of a file's stats JSON (docs/semantics.md §6.7): every stat is taken
// from the text with its own decoding, so a reader bug in model/stats cannot hand the oracle the
// same wrong value it hands the checker. Numbers come from their exact text
// (model/values/exact_json.h) and are converted to the column's type here, digit by digit for
// integers and decimals; a value that differs from the production reader's is a DECODE finding.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/sql/schema.h"
#include "model/stats/stats.h"
#include "model/values/value.h"

namespace skipsound::smt {

enum class StatField { NumRecords, TightBounds, Min, Max, NullCount };

// One stat the two readers read differently. Counts are long values, tightBounds a boolean.
struct DecodeDifference {
  StatField field = StatField::Min;
  int leaf = -1;                    // Min, Max, NullCount: the column's leaf ordinal
  std::string text;                 // the stat as the JSON text has it ("" when absent)
  std::optional<Value> oracle;      // the oracle's reading; nullopt: absent, or not a value of the column's type
  std::optional<Value> production;  // the production reader's; nullopt: absent
  bool operator==(const DecodeDifference&) const = default;
};

struct OracleStatsRead {
  FileStats stats;                             // the oracle's reading: what it judges
  std::vector<DecodeDifference> differences;   // against the production reader's, in schema order
  size_t stats_read = 0;                       // stats the cross-check compared
  bool decoded_alike() const { return differences.empty(); }
};

// Reads `text` (Delta stats JSON; keys by `naming`) for `schema` and compares every stat with
// `production`, the production reader's result for the same text. A text that is not a JSON
// object reads as no stats.
OracleStatsRead read_stats_for_oracle(std::string_view text, const Schema& schema, StatsNaming naming,
                                      const FileStats& production);

// "maxValues.d", "numRecords", "nullCount.s.b" (logical names).
std::string stat_name(const DecodeDifference& d, const Schema& schema);
// "maxValues.d: written 123456789012345678, the oracle reads 123456789012345678, the production reader 123456789012345680"
std::string describe_difference(const DecodeDifference& d, const Schema& schema);

}  // namespace skipsound::smt
