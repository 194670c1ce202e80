// The per-file question (docs/semantics.md §6.1) answered by brute force over small domains: which rows can a
// file hold, given its stats? Every file of a few rows over the domain is enumerated, its stats
// are derived as a writer derives them (model/stats_collection, model/stats_widening), and a
// stats object is consistent with a row set iff the writer would have written it. Built on
// model/ alone — never smt/ or checker/ — so that it can judge the Z3 oracle independently
// (tests/proofs/oracles/bounded_exhaustive_test.cpp fails if this changes).
//
// Why small domains answer the question for the full types (the comparison driver hands the
// oracle the same domain by conjoining `c IS NULL OR c IN (domain)`, so only rows of the domain
// are ever asked about; the argument below shows that a row of the domain is consistent with
// stats written for a file of the domain over the full type iff it is over the domain):
// * Values. Map every value v of the full type to the largest domain value <= v (or the least
//   domain value). The map is monotone and fixes the domain, so a file's min and max move onto
//   the domain values they already were; NULLs, row counts and the candidate row stay put.
//   Strings under truncation need more: the stored min P (a prefix of a domain string) is in the
//   domain because the string domains are prefix-closed, and every string whose truncated min is
//   P lies in one interval starting at P (two for a cut by UTF-16 units that stopped before a
//   surrogate pair: P itself, and the strings from P + U+10000 on that start with P); likewise
//   the strings whose truncated max is a given
//   stored max form an interval (the max is decided by a prefix and the next char's class). So
//   the file's min and max rows can be replaced by the least/greatest domain strings of those
//   intervals, and every other value stays between them.
// * Row counts. With numRecords present the count is fixed (at most 3 here). Without it, a row
//   is consistent with some file iff it is with a file of at most kMaxRowsWithoutCount rows: per
//   column a file needs its nulls (at most 3), the rows realising min and max and the candidate
//   row; duplicating a non-null value or a NULL (when nullCount is absent) grows a file without
//   changing its stats, so the feasible counts of a column are a point or all counts from a bound
//   of at most 5, and two columns share one.
// * Columns. Stats are collected leaf by leaf (collect_stats), a stats variant acts on each
//   column alone, and the rows of a file may pair the columns' values in any order, so the rows
//   a file can hold are the product of what each column can hold — for one shared row count and
//   deletion-vector cardinality. A deletion vector deletes some rows; widening (the only first
//   DV here, so "previous" cardinality 0) keeps min/max/nullCount, and any single physical value
//   can be among the survivors while one row survives: a column's live values are its physical
//   values.
// * Fields. "Any field may be missing" (docs/semantics.md §4.1): a stats object is matched against every way of
//   dropping min, max or nullCount from each column (and numRecords from the file).
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/sql/expr.h"
#include "model/sql/row.h"
#include "model/sql/schema.h"
#include "model/stats/stats.h"
#include "model/stats/string_truncation.h"

namespace skipsound::exhaustive {

inline constexpr int kMaxRowsPerFile = 3;        // the files whose stats are asked about
inline constexpr int kMaxRowsWithoutCount = 5;   // files that may explain stats lacking numRecords

// One column's finite domain: these non-null values (ascending, distinct) and NULL.
struct ColumnDomain {
  std::string name;
  TypeKind type = TypeKind::Null;
  std::vector<Value> values;
};

// A table of one or two columns with finite domains, and the writer's string prefix length.
struct Universe {
  std::string name;
  std::vector<ColumnDomain> columns;
  int string_prefix_length = 32;
  Schema schema() const;
};

// tinyint (its type's ends and the middle), a smallint window, a boolean, dates around the epoch,
// short strings over {a, U+007F, U+00E9, U+10FFFF} at prefix lengths 1, 2 and 32, strings of up
// to three code points over {a, U+10FFFF} at prefix lengths 2 and 3 (surrogate pairs at units
// N − 2 to N), and two pairs of columns. Every string universe is written by both min writers.
std::vector<Universe> standard_universes();

// How a writer's stats reach a reader.
enum class Tightness {
  Marked,    // tightBounds:true (tables with deletion vectors write it)
  Unmarked,  // no tightBounds field
  Wide,      // a DV DELETE removed some rows and widened the stats (numRecords stays physical)
};
const char* tightness_name(Tightness t);

struct StatsVariant {
  Tightness tightness = Tightness::Marked;
  int64_t deleted_rows = 0;  // Wide only: the DV's cardinality
  bool drop_num_records = false;
  bool drop_min = false;  // these three drop the field from every column
  bool drop_max = false;
  bool drop_null_count = false;
  StringMinCut string_min_cut = StringMinCut::CodePoints;  // the writer's (docs/semantics.md §4.4)
};

// What a reader is handed about one file.
struct StatsQuestion {
  FileStats stats;
  int64_t deleted_rows = 0;
};

// A writer rule broken on purpose, on the brute-force side only: the cross-check must then
// disagree with the oracle (its teeth).
enum class WriterBreak {
  None,
  StringMaxPlainPrefix,  // the model's Mutant::StringMaxPlainPrefix: the max is a plain prefix
  NullsUncounted,        // every nullCount is written as 0
};

// The stats a writer records for these rows, with the variant applied.
FileStats written_stats(const std::vector<Row>& rows, const Universe& universe, const StatsVariant& variant,
                        WriterBreak writer_break = WriterBreak::None);

// Every distinct question from every file of 1..kMaxRowsPerFile rows under every variant, in a
// fixed order.
std::vector<StatsQuestion> enumerate_questions(const Universe& universe, WriterBreak writer_break = WriterBreak::None);

// Bound predicates over the universe's columns from a grammar slice: comparisons with domain,
// boundary and out-of-window literals, IN, IS [NOT] NULL, <=>, BETWEEN, LIKE 'x%', NULL literals,
// and AND/OR/NOT over them. Deduplicated, in a fixed order.
std::vector<ExprPtr> enumerate_predicates(const Universe& universe);

// `c IS NULL OR c IN (domain)` for every column: the rows this brute force can see.
ExprPtr domain_restriction(const Universe& universe);

// How wide (tightBounds:false) stats are read.
enum class WideReading {
  Writer,  // the live rows are survivors of the physical rows the writer summarised
  Bounds,  // and also what docs/semantics.md §4.6's reading allows: every live value within [min, max], and
           // nullCount read as all / none / unknown — the over-approximation the oracle encodes
};

// The rows (over the domain) that files consistent with a question can hold, column by column.
class BruteForce {
 public:
  explicit BruteForce(Universe universe, WriterBreak writer_break = WriterBreak::None);

  const Universe& universe() const { return universe_; }
  const Schema& schema() const { return schema_; }

  // A row some consistent file holds alive on which `predicate` is TRUE (model evaluator);
  // nullopt when there is none. The first in a fixed order.
  std::optional<Row> find_row(const StatsQuestion& question, const ExprPtr& predicate,
                              WideReading reading = WideReading::Writer) const;

 private:
  using ValueSet = uint64_t;  // bit i: domain index i (0 = NULL, i = values[i-1])
  // A column's stats as written (with the file's tightBounds field, as text), then the file's
  // row count: the values its live rows can take.
  using ColumnTable = std::map<std::string, std::map<int64_t, ValueSet>>;

  void tabulate_column(size_t column);
  std::vector<ValueSet> column_sets(const StatsQuestion& question, int64_t rows, WideReading reading) const;
  ValueSet wide_reading(size_t column, const FileStats& stats) const;
  Value value_at(size_t column, int index) const;

  Universe universe_;
  Schema schema_;
  WriterBreak writer_break_;
  std::vector<ColumnTable> tables_;  // by column
};

}  // namespace skipsound::exhaustive
