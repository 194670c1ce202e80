// Which single rows a file with given statistics can hold (docs/semantics.md §6.2, condition (1)). Computed
// Z3-free here as a per-column "allowance"; smt/ encodes the very same allowance, and every Z3
// witness is re-checked against it with check_row_consistency, so the two can never silently
// disagree.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/sql/row.h"
#include "model/sql/schema.h"
#include "model/stats/stats.h"
#include "model/stats/string_truncation.h"
#include "model/values/temporal.h"

namespace skipsound {

// Whose writer rules made a file's stats (docs/semantics.md §4.8). Delta Spark's cut strings to
// the prefix length (§4.4); delta-rs's store string mins and maxes whole, so a stored string is
// the true value. Both floor timestamps to the millisecond (§4.5).
enum class StatsDialect { DeltaSpark, DeltaRs };
const char* stats_dialect_name(StatsDialect d);  // "Delta Spark", "delta-rs"

// What one file says about its rows.
struct FileEvidence {
  const FileStats* stats = nullptr;     // nullptr: the file has no stats at all
  int64_t dv_cardinality = 0;           // rows deleted by the deletion vector
  std::map<int, Value> partition_values;  // by leaf ordinal; exact (NULL partition = NULL)
  // The writer's string prefix length N (docs/semantics.md §4.4): which stored string stats may be truncated.
  // The writer, the reader, the oracle and the rule proofs take it from the same setting
  // (StatsConfig::string_prefix_length, `--string-prefix-length`).
  int string_prefix_length = kDefaultStringPrefixLength;
  StatsDialect dialect = StatsDialect::DeltaSpark;
};

// A set of non-null values: lower <= v <= upper (v < upper when upper_strict; Spark order) and v
// starts with `prefix` (strings, code points = UTF-8 bytes). An absent part does not constrain.
struct ValueRange {
  std::optional<Value> lower;
  std::optional<Value> upper;
  std::optional<std::string> prefix;
  bool upper_strict = false;
  bool contains(const Value& v) const;
};

// The values one column of a candidate row may take. Each condition carries the stats fact it
// comes from, used as the unsat-core label ("stats.x.min = 20").
struct ColumnAllowance {
  int leaf = -1;
  bool null_allowed = true;
  std::string null_label;  // why NULL is impossible (when !null_allowed)
  bool value_allowed = true;
  std::string value_label;  // why a non-null value is impossible (when !value_allowed)
  std::optional<Value> lower;  // every non-null value is >= lower
  std::string lower_label;
  std::optional<Value> upper;  // every non-null value is <= upper (< upper when upper_strict)
  bool upper_strict = false;   // a string max that is certainly cut lies above every value
  std::string upper_label;
  // When non-empty, a non-null value must lie in one of these: the row itself has to realise
  // the recorded min or max because too few other rows remain to do it.
  std::vector<ValueRange> realise_one_of;
  std::string realise_label;
};

struct RowAllowance {
  std::optional<std::string> no_row;     // set (with the reason) when the file holds no live row
  std::vector<ColumnAllowance> columns;  // constrained leaves only
  // Set (with the reason) when no writer produces these stats (docs/semantics.md §4.4, with the evidence's string
  // prefix length and dialect): no file holds them, so no row is consistent, and that licenses nothing.
  std::optional<std::string> impossible;
};

// Derives the allowance (the counting argument is documented in the .cpp).
RowAllowance row_allowance(const FileEvidence& file, const Schema& schema);

enum class Consistency { Consistent, Inconsistent };
struct ConsistencyVerdict {
  Consistency kind = Consistency::Consistent;
  std::string reason;  // the violated label when Inconsistent
};

ConsistencyVerdict check_row_consistency(const Row& row, const RowAllowance& allowance);

// Timestamp stats are floored to the millisecond: the true value lies up to 999 µs above.
inline constexpr int64_t kTimestampStatSlackMicros = kMicrosPerMilli - 1;

}  // namespace skipsound
