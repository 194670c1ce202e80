// The stats audit (docs/semantics.md §6.8): each claim a file's stats make, held against the
// file's rows — the claim next to the data (DuckDB's Verify(stats, rows) idea). It reads only
// the stats, the rows and the deletion vector, never the code that wrote the stats, so the
// per-file properties, the scenario runner's live audit and engine gates can share it.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/sql/row.h"
#include "model/sql/schema.h"
#include "model/stats/stats.h"

namespace skipsound {

// What a stat claims about the rows (docs/semantics.md §4, §4.6).
enum class StatsClaim {
  NumRecords,      // numRecords = the physical rows
  NullCountExact,  // tight stats without a DV: nullCount = the NULLs among the physical rows
  AllNull,         // nullCount = numRecords: every live row is NULL
  NoneNull,        // nullCount = 0: no live row is NULL
  Min,             // every live non-NULL value is >= min
  Max,             // every live non-NULL value is <= max (a timestamp max up to 999 µs below it)
};
const char* stats_claim_name(StatsClaim c);  // "numRecords", "exact nullCount", "all null", ...

// A claim the rows refute.
struct StatsClaimFinding {
  StatsClaim claim = StatsClaim::NumRecords;
  int leaf = -1;                   // the column's leaf ordinal; -1 for numRecords
  Value stated;                    // the count (long) or the bound the stats hold
  int64_t observed = 0;            // count claims: the rows, NULLs or non-NULLs that refute it
  std::optional<size_t> row;       // bounds: the physical row whose value lies outside
  bool operator==(const StatsClaimFinding&) const = default;
};

// One file: its physical rows (an absent leaf or a short row reads NULL) and, by row, whether
// its deletion vector marks it.
struct AuditedFile {
  const FileStats* stats = nullptr;
  const std::vector<Row>* rows = nullptr;
  std::vector<bool> deleted;
};

// Every claim of the file's stats the rows refute, numRecords first, then column by column in
// leaf order; empty when the stats describe the rows.
std::vector<StatsClaimFinding> audit_file_stats(const Schema& schema, const AuditedFile& file);

// "nullCount(x) = 2 (all live rows NULL)", "max(c1) = 'ab'".
std::string claim_text(const StatsClaimFinding& f, const Schema& schema);
// "1 live rows are not NULL", "row 2 (live): c1 = 'abc', above the max".
std::string refutation_text(const StatsClaimFinding& f, const Schema& schema, const AuditedFile& file);

}  // namespace skipsound
