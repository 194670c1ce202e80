// What a Delta writer records for a file: stats collected from its rows (docs/semantics.md §4.2).
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/sql/row.h"
#include "model/sql/schema.h"
#include "model/stats/stats.h"
#include "model/stats/string_truncation.h"

namespace skipsound {

inline constexpr const char* kNumIndexedColsKey = "delta.dataSkippingNumIndexedCols";
inline constexpr const char* kStatsColumnsKey = "delta.dataSkippingStatsColumns";

// The value of delta.dataSkippingStatsColumns, parsed as Delta parses it: "a, b.c, `x.y`" is
// {{a}, {b, c}, {x.y}}; blank text is the empty list. Throws InputError (with the column of the
// fault) on an unbalanced backquote, an empty name or a character an unquoted name cannot hold.
std::vector<ColumnPath> parse_stats_columns(const std::string& text);
// The value of delta.dataSkippingNumIndexedCols: an integer, -1 or more. Throws InputError.
int parse_num_indexed_cols(const std::string& text);

struct StatsConfig {
  int num_indexed_cols = 32;  // delta.dataSkippingNumIndexedCols; -1 = every column
  // delta.dataSkippingStatsColumns; when set, num_indexed_cols is ignored (as Delta does).
  std::optional<std::vector<ColumnPath>> stats_columns;
  int string_prefix_length = kDefaultStringPrefixLength;
  // A writer's, not a table's: Delta's stats collection cuts a string min by code points, stats
  // derived from Parquet footers by UTF-16 units; a reader must take either (docs/semantics.md §4.4).
  StringMinCut string_min_cut = StringMinCut::CodePoints;
  std::vector<std::string> partition_columns;  // logical top-level names; never in stats

  // From metaData.configuration and partitionColumns. Throws InputError on a bad number or list.
  static StatsConfig from_configuration(const std::map<std::string, std::string>& configuration,
                                        const std::vector<std::string>& partition_columns);
  bool operator==(const StatsConfig& o) const = default;
};

// The checks Delta makes when delta.dataSkippingStatsColumns is set on a table: every listed
// column is in the schema (a struct or a leaf, names compared case-insensitively), none is a
// partition column, no leaf is listed twice (a struct and a leaf under it included). Throws
// InputError naming the column. A log's configuration passed them when it was written, and Delta
// reads it without them, so only settings given to skipsound directly are checked.
void check_stats_columns(const Schema& schema, const StatsConfig& config);

// Whether a leaf gets stats under this config: not a partition column, and within the
// statsColumns list (a struct there covers its leaves) or the first num_indexed_cols leaves.
// Returned by Leaf::ordinal, the length of schema.leaves().
std::vector<bool> indexed_leaves(const Schema& schema, const StatsConfig& config);

// Stats a writer records for these rows (Row values indexed by Leaf::ordinal). Sets
// tightBounds:true only when `with_tight_bounds` (tables with deletion vectors enabled write it).
FileStats collect_stats(const std::vector<Row>& rows, const Schema& schema,
                        const StatsConfig& config, bool with_tight_bounds = false);

}  // namespace skipsound
