// A file with symbolic statistics, for the rule theorems of docs/semantics.md §6.6: every stat may be present
// or absent (a NULL symbol), bounds may be tight or wide, the file may carry a deletion vector.
// The stats are tied to a hidden truth — the live rows' null count and true min/max per column —
// by what a writer records (docs/semantics.md §4.2), so "a row consistent with the stats" is "a live row of a
// file whose writer produced these stats". Symbols live in a shadow schema read through
// RowSymbols, so they get the same type constraints and decode to model Values alike.
#pragma once
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <z3++.h>

#include "model/mutants/mutant.h"
#include "model/sql/schema.h"
#include "model/stats/stats.h"
#include "smt/decoded_file.h"
#include "smt/row_symbols.h"

namespace skipsound::smt {

// Every string in the theorems is a bounded code sequence (smt/string_sequence.h): Z3 4.8.12's
// string solver times out on str.< between symbolic strings, integers do not. The capacity
// covers the stats prefix length N and the characters past it that truncation (and the
// string-max-plain-prefix mutant) turn on — 34 at Delta's default N = 32 — so string theorems are
// proved for every string of up to this many code points.
int symbolic_string_capacity(int string_prefix_length);
std::set<int> string_leaves(const Schema& schema);  // the leaves to encode as sequences
CodeSequence sequence_first(const CodeSequence& s, int n);  // substr(s, 1, n)
z3::expr sequence_is_prefix(const CodeSequence& prefix, const CodeSequence& s);

// The hidden truth and the stored stats of one column.
struct SymbolicColumn {
  int leaf = -1;
  SymValue min, max, null_count;  // stored; is_null = absent
  SymValue true_min, true_max;    // over the live non-null values; NULL when there are none
  z3::expr live_nulls;            // how many live rows are NULL
};

class SymbolicFile {
 public:
  // `leaves`: the schema leaves the file describes. `writer_mutant`: Mutant::StringMaxPlainPrefix
  // makes the writer store the plain prefix as the string max; every other value is ignored here.
  // `string_prefix_length`: the writer's N (docs/semantics.md §4.4).
  SymbolicFile(z3::context& ctx, const Schema& schema, const std::vector<int>& leaves,
               const CodePointMap& alphabet, Mutant writer_mutant, int string_prefix_length);

  // What any file's stats satisfy: counts in range, bounds written from the truth.
  std::vector<z3::expr> facts() const;
  // String stats within the decodable alphabet (RowSymbols::alphabet_constraints).
  const std::vector<z3::expr>& alphabet_constraints() const { return symbols_->alphabet_constraints(); }
  std::vector<z3::expr> short_string_constraints(int max_length) const {
    return symbols_->short_string_constraints(max_length);
  }
  // The row is one of the file's live rows (every column within the truth).
  z3::expr holds_row(RowSymbols& row) const;

  const SymbolicColumn& column(int leaf) const;
  const z3::expr& num_records() const { return num_records_.payload; }
  const z3::expr& num_records_absent() const { return num_records_.is_null; }
  const z3::expr& dv_cardinality() const { return dv_cardinality_.payload; }
  const z3::expr& physical_rows() const { return physical_rows_.payload; }
  const z3::expr& wide() const { return wide_; }  // tightBounds: false
  // Tight bounds and no deletion vector: the stats describe the live rows exactly.
  z3::expr exact() const;

  // The concrete stats a model assigns, with the DV cardinality, and the truth behind them.
  std::optional<DecodedFile> decode(const z3::model& model, std::string& problem) const;

 private:
  std::vector<z3::expr> column_facts(const SymbolicColumn& c, const DataType& type) const;
  z3::expr written_min(const SymbolicColumn& c, const DataType& type) const;
  z3::expr written_max(const SymbolicColumn& c, const DataType& type) const;
  z3::expr bounded_min(const SymbolicColumn& c, const DataType& type) const;
  z3::expr bounded_max(const SymbolicColumn& c, const DataType& type) const;

  z3::context& ctx_;
  const Schema& schema_;
  std::vector<int> leaves_;
  Mutant writer_mutant_;
  int string_prefix_length_;
  std::unique_ptr<Schema> shadow_;
  std::unique_ptr<RowSymbols> symbols_;
  SymValue num_records_, physical_rows_, dv_cardinality_;
  z3::expr wide_;
  std::vector<SymbolicColumn> columns_;
};

}  // namespace skipsound::smt
