// The candidate row as Z3 constants: one SymValue per schema leaf, created on first use with the
// constraints of its type (integer ranges, decimal precision, float width, the string alphabet),
// and read back from a model as a model Row.
#pragma once
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <z3++.h>

#include "model/sql/row.h"
#include "model/sql/schema.h"
#include "smt/code_points.h"
#include "smt/sym_value.h"

namespace skipsound::smt {

class RowSymbols {
 public:
  RowSymbols(z3::context& ctx, const Schema& schema, const CodePointMap& alphabet);

  z3::context& context() const { return ctx_; }
  // Encodes these string leaves as code sequences of `capacity` codes (smt/string_sequence.h).
  // Call before the first column() call.
  void use_sequences(std::set<int> leaves, int capacity);
  const SymValue& column(int leaf);
  // Type facts of every column created so far (untracked: they are not stats or predicate).
  const std::vector<z3::expr>& type_constraints() const { return type_constraints_; }
  // Strings restricted to decodable codes. Costly for Z3's string solver, so asserted only after a
  // model used a code that does not decode (near U+10FFFF, or a byte above 255).
  const std::vector<z3::expr>& alphabet_constraints() const { return alphabet_constraints_; }
  // Every string and binary column at most `max_length` long (a search for a small model).
  std::vector<z3::expr> short_string_constraints(int max_length) const;

  // The row a model assigns; nullopt (with `problem` set) when a value cannot be decoded.
  std::optional<Row> decode(const z3::model& model, std::string& problem) const;
  // A boolean, integral, date, timestamp or double value outside the row (a call's value).
  std::optional<Value> decode_value(const z3::model& model, const SymValue& value, const DataType& type,
                                    const std::string& name, std::string& problem) const;

 private:
  struct Column {
    SymValue value;
    std::optional<z3::expr> raw;  // decimal: the unscaled Int; float: the binary32 constant
  };
  Column make_column(const Leaf& leaf);
  Column make_sequence_column(const std::string& name, const z3::expr& is_null);
  std::optional<Value> decode_value(const z3::model& model, const Leaf& leaf, const Column& c,
                                    std::string& problem) const;

  std::optional<std::vector<unsigned>> string_codes(const z3::model& model, const z3::expr& value) const;
  static std::vector<unsigned> sequence_codes(const z3::model& model, const CodeSequence& sequence);

  z3::context& ctx_;
  const Schema& schema_;
  const CodePointMap& alphabet_;
  std::map<int, Column> columns_;
  std::set<int> sequence_leaves_;
  int sequence_capacity_ = 0;
  std::vector<z3::expr> type_constraints_;
  std::vector<z3::expr> alphabet_constraints_;
};

}  // namespace skipsound::smt
