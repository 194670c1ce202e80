#include "smt/allowance_slice.h"

#include <optional>
#include <vector>

namespace skipsound::smt {

namespace {

void collect_leaves(const Expr& e, std::set<int>& out) {
  if (e.kind == ExprKind::Column && e.leaf >= 0) out.insert(e.leaf);
  for (const ExprPtr& child : e.children) collect_leaves(*child, out);
}

std::vector<Value> simple_candidates(const ColumnAllowance& a) {
  std::vector<Value> candidates;
  if (a.null_allowed) candidates.push_back(Value::null());
  if (a.lower) candidates.push_back(*a.lower);
  if (a.upper) candidates.push_back(*a.upper);
  for (const ValueRange& r : a.realise_one_of) {
    if (r.lower) candidates.push_back(*r.lower);
    if (r.upper) candidates.push_back(*r.upper);
    if (r.prefix) candidates.push_back(Value::string(*r.prefix));
  }
  return candidates;
}

// A value the column's own allowance accepts, judged by the same Z3-free check as witnesses.
std::optional<Value> simple_allowed_value(const ColumnAllowance& a, size_t leaf_count) {
  const RowAllowance alone{std::nullopt, {a}, std::nullopt};
  Row row(leaf_count, Value::null());
  for (Value& candidate : simple_candidates(a)) {
    row[a.leaf] = candidate;
    if (check_row_consistency(row, alone).kind == Consistency::Consistent) return candidate;
  }
  return std::nullopt;
}

}  // namespace

std::set<int> referenced_leaves(const Expr& predicate) {
  std::set<int> leaves;
  collect_leaves(predicate, leaves);
  return leaves;
}

AllowanceSlice slice_allowance(const RowAllowance& full, const std::set<int>& referenced, size_t leaf_count) {
  AllowanceSlice slice{{full.no_row, {}, full.impossible}, Row(leaf_count, Value::null())};
  for (const ColumnAllowance& a : full.columns) {
    std::optional<Value> filler;
    if (!referenced.count(a.leaf)) filler = simple_allowed_value(a, leaf_count);
    if (filler) slice.filler[a.leaf] = std::move(*filler);
    else slice.query.columns.push_back(a);
  }
  return slice;
}

Row complete_witness(const Row& witness, const AllowanceSlice& slice) {
  Row row = witness;
  for (size_t leaf = 0; leaf < row.size() && leaf < slice.filler.size(); ++leaf)
    if (!slice.filler[leaf].is_null()) row[leaf] = slice.filler[leaf];
  return row;
}

}  // namespace skipsound::smt
