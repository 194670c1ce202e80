// Named, known-unsound variants of the production logic (docs/semantics.md §8), switchable at run time.
// Each is a one-line deviation inside the real code path, never a copy of it.
#pragma once
#include <optional>
#include <string_view>
#include <vector>

namespace skipsound {

enum class Mutant {
  None,
  // per-file (skipping logic and stats writer)
  SkipMissingStats,      // verification always passes: a missing stat no longer keeps the file
  TrustWideNullcount,    // reads nullCount of wide (DV) stats as the live null count
  NoTimestampMaxBump,    // forgets the +1 ms on a timestamp max
  StringMaxPlainPrefix,  // writer stores the plain N-char prefix as the string max
  IeeeNanOrder,          // compares floating stats with IEEE order (NaN compares false)
  LeAsLt,                // builds max(c) > v for c >= v and min(c) < v for c <= v
  // conflict-time
  AppendSuppression,     // an UPDATE/DELETE winner's added files skip the append check
  AndAcrossReads,        // a file must survive every read (AND), not any (OR)
  SkipWholeTableRead,    // data skipping applied even when the loser read the whole table
  EmptyReadsSkipAll,     // a loser with no recorded read predicate keeps no file
};

const char* mutant_name(Mutant m);  // "append-suppression", ..., "none"
std::optional<Mutant> mutant_from_name(std::string_view name);
const std::vector<Mutant>& all_mutants();       // every mutant except None
bool is_per_file_mutant(Mutant m);              // the first six
bool is_conflict_mutant(Mutant m);              // the last four

}  // namespace skipsound
