#include "smt/symbolic_file.h"

#include <algorithm>
#include <set>
#include <stdexcept>

#include "model/stats/string_truncation.h"
#include "model/values/temporal.h"

namespace skipsound::smt {

// The writer model. Per column, k live rows of L are NULL and the others lie in
// [true_min, true_max]. With tight bounds and no deletion vector ("exact") the stored stats are
// what the writer derives from that truth: nullCount = k, min/max the true ones as written
// (timestamps floored to the millisecond, strings cut to a prefix, the string max an upper
// bound sharing the true max's first characters). Otherwise (wide bounds or a DV) the stats were
// written for an older, larger set of rows: the min/max are bounds of what such a writer could
// have stored, and nullCount reads as docs/semantics.md §4.6's tri-state. Every stored field may be absent.

namespace {

constexpr int kFieldsPerColumn = 6;
enum Field { kMin, kMax, kNullCount, kTrueMin, kTrueMax, kLiveNulls };
constexpr int64_t kMaxSymbolicRows = int64_t{1} << 40;

z3::expr at_most(const SymValue& a, const SymValue& b) { return !sym_less(b, a); }

z3::expr floor_to_milli(const z3::expr& micros) {
  return micros - z3::mod(micros, micros.ctx().int_val(kMicrosPerMilli));
}

const CodeSequence& sequence(const SymValue& v) {
  if (!v.sequence) throw std::invalid_argument("smt: a symbolic-file string without a code sequence");
  return *v.sequence;
}

SymValue first_codes(const SymValue& v, int n) {
  return {v.is_null, sequence_first(sequence(v), n).length, Domain::String, std::nullopt,
          sequence_first(sequence(v), n)};
}

z3::expr longer_than(const SymValue& v, int n) { return sequence(v).length > v.is_null.ctx().int_val(n); }

std::unique_ptr<RowSymbols> sequence_symbols(z3::context& ctx, const Schema& shadow, const CodePointMap& alphabet,
                                             int string_prefix_length) {
  auto symbols = std::make_unique<RowSymbols>(ctx, shadow, alphabet);
  symbols->use_sequences(string_leaves(shadow), symbolic_string_capacity(string_prefix_length));
  return symbols;
}

// What a writer keeps exact whichever way it counts: a string of at most N/2 code points has at
// most N UTF-16 units, so it is stored as it is. A longer one's min keeps at least N/2 code
// points under both cuts of docs/semantics.md §4.4 (N code points, or N − 1 or N UTF-16 units).
int exact_string_length(int string_prefix_length) { return string_prefix_length / 2; }

std::vector<StructField> shadow_fields(const Schema& schema, const std::vector<int>& leaves) {
  const DataType count = DataType::of(TypeKind::Long);
  std::vector<StructField> fields;
  for (const int leaf : leaves) {
    const DataType& type = schema.leaves().at(leaf).type;
    const std::string base = "stats" + std::to_string(leaf) + "_";
    for (const auto& [name, t] : std::vector<std::pair<std::string, DataType>>{
             {"min", type}, {"max", type}, {"nullCount", count},
             {"trueMin", type}, {"trueMax", type}, {"liveNulls", count}})
      fields.push_back(StructField{base + name, t, true, {}});
  }
  fields.push_back(StructField{"numRecords", count, true, {}});
  fields.push_back(StructField{"physicalRows", count, true, {}});
  fields.push_back(StructField{"dvCardinality", count, true, {}});
  fields.push_back(StructField{"wideBounds", DataType::of(TypeKind::Boolean), true, {}});
  return fields;
}

}  // namespace

int symbolic_string_capacity(int string_prefix_length) {
  constexpr int kDefaultCapacity = kDefaultStringPrefixLength + 2;
  return std::max(kDefaultCapacity, string_prefix_length + 2);
}

std::set<int> string_leaves(const Schema& schema) {
  std::set<int> strings;
  for (const Leaf& leaf : schema.leaves())
    if (leaf.type.kind == TypeKind::String) strings.insert(leaf.ordinal);
  return strings;
}

CodeSequence sequence_first(const CodeSequence& s, int n) {
  z3::context& ctx = s.length.ctx();
  CodeSequence first{{}, z3::ite(s.length < ctx.int_val(n), s.length, ctx.int_val(n))};
  for (size_t i = 0; i < s.codes.size(); ++i)
    first.codes.push_back(static_cast<int>(i) < n ? s.codes[i] : ctx.int_val(kPastTheEnd));
  return first;
}

z3::expr sequence_is_prefix(const CodeSequence& prefix, const CodeSequence& s) {
  z3::context& ctx = s.length.ctx();
  z3::expr is_prefix = prefix.length <= s.length;
  for (size_t i = 0; i < prefix.codes.size(); ++i)
    is_prefix = is_prefix && z3::implies(ctx.int_val(static_cast<int>(i)) < prefix.length,
                                          prefix.codes[i] == s.codes[i]);
  return is_prefix;
}

SymbolicFile::SymbolicFile(z3::context& ctx, const Schema& schema, const std::vector<int>& leaves,
                           const CodePointMap& alphabet, Mutant writer_mutant, int string_prefix_length)
    : ctx_(ctx),
      schema_(schema),
      leaves_(leaves),
      writer_mutant_(writer_mutant),
      string_prefix_length_(string_prefix_length),
      shadow_(std::make_unique<Schema>(shadow_fields(schema, leaves))),
      symbols_(sequence_symbols(ctx, *shadow_, alphabet, string_prefix_length)),
      num_records_(symbols_->column(kFieldsPerColumn * leaves.size())),
      physical_rows_(symbols_->column(kFieldsPerColumn * leaves.size() + 1)),
      dv_cardinality_(symbols_->column(kFieldsPerColumn * leaves.size() + 2)),
      wide_(symbols_->column(kFieldsPerColumn * leaves.size() + 3).payload) {
  for (size_t i = 0; i < leaves.size(); ++i) {
    auto field = [&](Field f) { return symbols_->column(static_cast<int>(kFieldsPerColumn * i) + f); };
    columns_.push_back(SymbolicColumn{leaves[i], field(kMin), field(kMax), field(kNullCount),
                                      field(kTrueMin), field(kTrueMax), field(kLiveNulls).payload});
  }
}

const SymbolicColumn& SymbolicFile::column(int leaf) const {
  for (const SymbolicColumn& c : columns_)
    if (c.leaf == leaf) return c;
  throw std::invalid_argument("smt: the symbolic file does not describe leaf " + std::to_string(leaf));
}

z3::expr SymbolicFile::exact() const { return !wide_ && dv_cardinality_.payload == 0; }

z3::expr SymbolicFile::written_min(const SymbolicColumn& c, const DataType& type) const {
  if (is_timestamp(type.kind)) return c.min.payload == floor_to_milli(c.true_min.payload);
  if (type.kind != TypeKind::String) return sym_equal(c.min, c.true_min);
  const int exact_length = exact_string_length(string_prefix_length_);
  return z3::ite(!longer_than(c.true_min, exact_length), sym_equal(c.min, c.true_min),
                 sequence_is_prefix(sequence(c.min), sequence(c.true_min)) &&
                     sequence(c.min).length >= ctx_.int_val(exact_length));
}

z3::expr SymbolicFile::written_max(const SymbolicColumn& c, const DataType& type) const {
  if (is_timestamp(type.kind)) return c.max.payload == floor_to_milli(c.true_max.payload);
  if (type.kind != TypeKind::String) return sym_equal(c.max, c.true_max);
  if (writer_mutant_ == Mutant::StringMaxPlainPrefix)
    return sym_equal(c.max, first_codes(c.true_max, string_prefix_length_));
  const int exact_length = exact_string_length(string_prefix_length_);
  return z3::ite(!longer_than(c.true_max, exact_length), sym_equal(c.max, c.true_max),
                 at_most(c.true_max, c.max) &&
                     sequence_is_prefix(sequence_first(sequence(c.true_max), exact_length), sequence(c.max)));
}

z3::expr SymbolicFile::bounded_min(const SymbolicColumn& c, const DataType& type) const {
  if (is_timestamp(type.kind)) return c.min.payload <= floor_to_milli(c.true_min.payload);
  return at_most(c.min, c.true_min);
}

z3::expr SymbolicFile::bounded_max(const SymbolicColumn& c, const DataType& type) const {
  if (is_timestamp(type.kind)) return c.max.payload >= floor_to_milli(c.true_max.payload);
  if (type.kind == TypeKind::String && writer_mutant_ == Mutant::StringMaxPlainPrefix)
    return at_most(first_codes(c.true_max, string_prefix_length_), c.max);
  return at_most(c.true_max, c.max);
}

std::vector<z3::expr> SymbolicFile::column_facts(const SymbolicColumn& c, const DataType& type) const {
  const z3::expr live = physical_rows_.payload - dv_cardinality_.payload;
  const z3::expr& k = c.live_nulls;
  const z3::expr any_value = k < live;
  std::vector<z3::expr> facts{
      0 <= k, k <= live,
      any_value == !c.true_min.is_null, any_value == !c.true_max.is_null,
      z3::implies(any_value, at_most(c.true_min, c.true_max)),
      // Two distinct extremes need two non-null rows.
      z3::implies(any_value && !sym_equal(c.true_min, c.true_max), live - k >= 2)};

  const z3::expr& nc = c.null_count.payload;
  const z3::expr tri_state = z3::implies(nc == physical_rows_.payload, k == live) &&
                             z3::implies(nc == 0, k == 0);
  facts.push_back(z3::implies(!c.null_count.is_null,
                              0 <= nc && nc <= physical_rows_.payload &&
                                  z3::ite(exact(), nc == k, tri_state)));

  if (!has_min_max(type.kind)) {
    facts.push_back(c.min.is_null && c.max.is_null);
    return facts;
  }
  // Wide stored bounds are ordered even when no live value is left (a writer bounded the rows it
  // wrote), as model/stats_consistency reads them: a timestamp max is floored to the ms. Exact
  // stats are written from live values and ordered below; stating it for them as well made Z3
  // give up on the exactness converse of `c <> v` on decimal.
  const z3::expr ordered = is_timestamp(type.kind)
                               ? c.min.payload <= c.max.payload + ctx_.int_val(kTimestampStatSlackMicros)
                               : at_most(c.min, c.max);
  facts.push_back(z3::implies(!exact() && !c.min.is_null && !c.max.is_null, ordered));
  facts.push_back(z3::implies(!c.min.is_null,
                              z3::ite(exact(), any_value && written_min(c, type),
                                      z3::implies(any_value, bounded_min(c, type)))));
  facts.push_back(z3::implies(!c.max.is_null,
                              z3::ite(exact(), any_value && written_max(c, type),
                                      z3::implies(any_value, bounded_max(c, type)))));
  return facts;
}

std::vector<z3::expr> SymbolicFile::facts() const {
  std::vector<z3::expr> facts = symbols_->type_constraints();
  const z3::expr& physical = physical_rows_.payload;
  const z3::expr& dv = dv_cardinality_.payload;
  facts.push_back(!physical_rows_.is_null && !dv_cardinality_.is_null);
  facts.push_back(0 <= dv && physical - dv >= 1);
  // No file holds more rows; keeps the concrete re-check's int64 row arithmetic exact.
  facts.push_back(physical <= ctx_.int_val(kMaxSymbolicRows));
  facts.push_back(z3::implies(!num_records_.is_null, num_records_.payload == physical));
  // tightBounds is always written; a file without it reads as tight (modelled by wide = false).
  facts.push_back(!symbols_->column(kFieldsPerColumn * leaves_.size() + 3).is_null);
  for (size_t i = 0; i < columns_.size(); ++i) {
    facts.push_back(!symbols_->column(static_cast<int>(kFieldsPerColumn * i) + kLiveNulls).is_null);
    for (z3::expr& f : column_facts(columns_[i], schema_.leaves().at(columns_[i].leaf).type))
      facts.push_back(f);
  }
  return facts;
}

z3::expr SymbolicFile::holds_row(RowSymbols& row) const {
  const z3::expr live = physical_rows_.payload - dv_cardinality_.payload;
  z3::expr holds = ctx_.bool_val(true);
  for (const SymbolicColumn& c : columns_) {
    const SymValue& v = row.column(c.leaf);
    const z3::expr strictly_inside = !sym_equal(v, c.true_min) && !sym_equal(v, c.true_max);
    holds = holds && z3::implies(v.is_null, c.live_nulls >= 1) &&
            z3::implies(!v.is_null, !c.true_min.is_null && at_most(c.true_min, v) &&
                                        at_most(v, c.true_max) &&
                                        z3::implies(strictly_inside, live - c.live_nulls >= 3));
  }
  return holds;
}

std::optional<DecodedFile> SymbolicFile::decode(const z3::model& model,
                                                          std::string& problem) const {
  const std::optional<Row> shadow = symbols_->decode(model, problem);
  if (!shadow) return std::nullopt;
  const Row& s = *shadow;
  const size_t globals = kFieldsPerColumn * leaves_.size();
  auto optional_value = [](const Value& v) { return v.is_null() ? std::nullopt : std::optional(v); };
  DecodedFile d;
  if (!s[globals].is_null()) d.stats.num_records = s[globals].as_int();
  d.physical_rows = s[globals + 1].as_int();
  d.dv_cardinality = s[globals + 2].as_int();
  d.stats.tight_bounds = !s[globals + 3].as_bool();
  for (size_t i = 0; i < leaves_.size(); ++i) {
    const size_t base = kFieldsPerColumn * i;
    ColumnStats& column = d.stats.column_mut(leaves_[i]);
    column.min = optional_value(s[base + kMin]);
    column.max = optional_value(s[base + kMax]);
    if (!s[base + kNullCount].is_null()) column.null_count = s[base + kNullCount].as_int();
    d.truth[leaves_[i]] = ColumnTruth{s[base + kTrueMin], s[base + kTrueMax], s[base + kLiveNulls].as_int()};
  }
  return d;
}

}  // namespace skipsound::smt
