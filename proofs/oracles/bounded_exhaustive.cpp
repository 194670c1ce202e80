#include "proofs/oracles/bounded_exhaustive.h"

#include <algorithm>
#include <bit>
#include <functional>
#include <set>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "model/sql/binder.h"
#include "model/sql/evaluator.h"
#include "model/mutants/fault_injection.h"
#include "model/sql/printer.h"
#include "model/stats/stats_collection.h"
#include "model/stats/stats_widening.h"
#include "model/values/utf8.h"
#include "model/values/exact_json.h"

namespace skipsound::exhaustive {
namespace {

constexpr char32_t kTieBreakerAscii = 0x7F;
constexpr char32_t kMultibyte = 0xE9;  // é: two UTF-8 bytes, one UTF-16 unit
constexpr char32_t kMaxCodePoint = 0x10FFFF;

Value integral(TypeKind kind, int64_t v) { return Value::integral(kind, v); }

std::vector<Value> integrals(TypeKind kind, std::initializer_list<int64_t> values) {
  std::vector<Value> out;
  for (int64_t v : values) out.push_back(integral(kind, v));
  return out;
}

// Every string of at most `max_length` code points over `alphabet`, ascending (prefix-closed).
std::vector<Value> strings_over(const std::vector<char32_t>& alphabet, size_t max_length) {
  std::vector<std::vector<char32_t>> words = {{}};
  for (size_t from = 0, length = 0; length < max_length; ++length) {
    const size_t to = words.size();
    for (size_t i = from; i < to; ++i) {
      for (char32_t c : alphabet) {
        std::vector<char32_t> longer = words[i];
        longer.push_back(c);
        words.push_back(std::move(longer));
      }
    }
    from = to;
  }
  std::vector<Value> out;
  for (const auto& w : words) out.push_back(Value::string(encode_utf8(w)));
  std::sort(out.begin(), out.end(), [](const Value& a, const Value& b) { return *spark_compare(a, b) < 0; });
  return out;
}

std::string utf8(std::initializer_list<char32_t> code_points) { return encode_utf8(code_points); }

const std::vector<char32_t> kAlphabet = {U'a', kTieBreakerAscii, kMultibyte, kMaxCodePoint};

ColumnDomain string_column(const std::string& name, std::vector<Value> values) {
  return {name, TypeKind::String, std::move(values)};
}

// Calls `visit` with every multiset of `size` indices below `domain_size`, as ascending vectors.
void for_each_multiset(int domain_size, int size, const std::function<void(const std::vector<int>&)>& visit) {
  std::vector<int> indices(size, 0);
  std::function<void(int, int)> fill = [&](int position, int least) {
    if (position == size) return visit(indices);
    for (int i = least; i < domain_size; ++i) {
      indices[position] = i;
      fill(position + 1, i);
    }
  };
  fill(0, 0);
}

void drop_fields(FileStats& stats, const StatsVariant& v) {
  if (v.drop_num_records) stats.num_records.reset();
  for (ColumnStats& column : stats.columns) {
    if (v.drop_min) column.min.reset();
    if (v.drop_max) column.max.reset();
    if (v.drop_null_count) column.null_count.reset();
  }
}

// What the writer records, then what a DV DELETE leaves of it (before any field is dropped).
FileStats collected_stats(const std::vector<Row>& rows, const Schema& schema, int prefix_length, const StatsVariant& variant,
                          WriterBreak writer_break) {
  const Tightness tightness = variant.tightness;
  StatsConfig config;
  config.num_indexed_cols = -1;
  config.string_prefix_length = prefix_length;
  config.string_min_cut = variant.string_min_cut;
  const bool marked = tightness != Tightness::Unmarked;
  const Mutant mutant = writer_break == WriterBreak::StringMaxPlainPrefix ? Mutant::StringMaxPlainPrefix : Mutant::None;
  FileStats stats = [&] {
    const FaultScope writer(mutant);
    return collect_stats(rows, schema, config, marked);
  }();
  if (writer_break == WriterBreak::NullsUncounted) {
    for (ColumnStats& column : stats.columns) column.null_count = 0;
  }
  // The file's first deletion vector: no rows were deleted before it.
  if (tightness == Tightness::Wide) stats = widen_for_deletion_vector(stats, 0);
  return stats;
}

// Every way of dropping min, max and nullCount from every column (and numRecords when asked).
std::vector<StatsVariant> field_drops(bool with_num_records) {
  std::vector<StatsVariant> out;
  for (int mask = 0; mask < (with_num_records ? 16 : 8); ++mask) {
    StatsVariant v;
    v.drop_min = mask & 1;
    v.drop_max = mask & 2;
    v.drop_null_count = mask & 4;
    v.drop_num_records = mask & 8;
    out.push_back(v);
  }
  return out;
}

// Tight with and without the field, then wide after a DV of every cardinality 1..rows.
std::vector<StatsVariant> tightness_shapes(int64_t rows) {
  std::vector<StatsVariant> shapes = {{Tightness::Marked}, {Tightness::Unmarked}};
  for (int64_t deleted = 1; deleted <= rows; ++deleted) shapes.push_back({Tightness::Wide, deleted});
  return shapes;
}

// Both string min writers where the schema has a string column; they agree on the others.
std::vector<StringMinCut> min_cuts(const Schema& schema) {
  for (const Leaf& leaf : schema.leaves())
    if (leaf.type.kind == TypeKind::String) return {StringMinCut::CodePoints, StringMinCut::Utf16Units};
  return {StringMinCut::CodePoints};
}

// The stats of `file` under every shape, min writer and field drop, each written once.
void for_each_variant(const std::vector<Row>& file, const Schema& schema, int prefix_length, WriterBreak writer_break,
                      const std::vector<StatsVariant>& shapes, bool drop_num_records,
                      const std::function<void(const StatsVariant&, FileStats)>& visit) {
  const std::vector<StatsVariant> drops = field_drops(drop_num_records);
  for (StatsVariant shape : shapes) {
    for (const StringMinCut cut : min_cuts(schema)) {
      shape.string_min_cut = cut;
      const FileStats written = collected_stats(file, schema, prefix_length, shape, writer_break);
      for (StatsVariant v : drops) {
        v.tightness = shape.tightness;
        v.deleted_rows = shape.deleted_rows;
        v.string_min_cut = cut;
        FileStats stats = written;
        drop_fields(stats, v);
        visit(v, std::move(stats));
      }
    }
  }
}

std::string optional_text(const std::optional<Value>& v) { return v ? to_sql_literal(*v) : "-"; }

// A column's stats as the reader sees them, with the file's tightBounds field.
std::string column_key(const ColumnStats& c, const std::optional<bool>& tight_bounds) {
  return optional_text(c.min) + "|" + optional_text(c.max) + "|" +
         (c.null_count ? std::to_string(*c.null_count) : "-") + "|" +
         (tight_bounds ? (*tight_bounds ? "true" : "false") : "-");
}

std::string question_key(const StatsQuestion& q, const Schema& schema) {
  return dump_json(stats_to_json(q.stats, schema)) + "/" + std::to_string(q.deleted_rows);
}

// ---- predicates ----

bool has_integral_literals(TypeKind k) { return k == TypeKind::Byte || k == TypeKind::Short || k == TypeKind::Date; }

// Domain values, their neighbours (the gaps, the type's ends and past them: a tinyint literal
// 128 is an int), and for strings a few outside the domain.
std::vector<Value> literals_for(const ColumnDomain& d) {
  std::vector<Value> out = d.values;
  if (has_integral_literals(d.type)) {
    const TypeKind literal_kind = d.type == TypeKind::Date ? TypeKind::Date : TypeKind::Int;
    std::set<int64_t> numbers;
    for (const Value& v : d.values) numbers.insert({v.as_int() - 1, v.as_int(), v.as_int() + 1});
    out.clear();
    for (int64_t n : numbers) out.push_back(integral(literal_kind, n));
  } else if (d.type == TypeKind::String) {
    for (std::string s : {std::string("b"), std::string("aaa"), utf8({U'a', kTieBreakerAscii, U'a'}),
                          utf8({kMaxCodePoint, kMaxCodePoint, U'a'}), utf8({U'a', kMultibyte, kMaxCodePoint})})
      out.push_back(Value::string(s));
  }
  return out;
}

ExprPtr column_ref(const ColumnDomain& d) { return make_column({d.name}); }
ExprPtr null_literal() { return make_literal(Value::null()); }

std::vector<ExprPtr> atoms_for(const ColumnDomain& d) {
  const ExprPtr c = column_ref(d);
  std::vector<ExprPtr> atoms = {make_is_null(c), make_is_not_null(c), make_compare(CompareOp::Eq, c, null_literal()),
                                make_compare(CompareOp::NullSafeEq, c, null_literal())};
  if (d.type == TypeKind::Boolean) {
    atoms.push_back(c);
    atoms.push_back(make_not(c));
    atoms.push_back(make_or(c, null_literal()));
    atoms.push_back(make_and(c, null_literal()));
    atoms.push_back(make_not(make_and(c, null_literal())));
  }
  const std::vector<Value> literals = literals_for(d);
  const std::vector<CompareOp> ops =
      d.type == TypeKind::Boolean
          ? std::vector<CompareOp>{CompareOp::Eq, CompareOp::Ne, CompareOp::NullSafeEq}
          : std::vector<CompareOp>{CompareOp::Eq, CompareOp::Ne, CompareOp::Lt, CompareOp::Le,
                                   CompareOp::Gt, CompareOp::Ge, CompareOp::NullSafeEq};
  for (const Value& l : literals) {
    for (CompareOp op : ops) atoms.push_back(make_compare(op, c, make_literal(l)));
  }
  for (size_t i = 0; i + 1 < literals.size(); ++i) {
    const ExprPtr low = make_literal(literals[i]);
    const ExprPtr high = make_literal(literals[i + 1]);
    atoms.push_back(make_in(c, {low, high}));
    atoms.push_back(make_in(c, {low, null_literal()}));
    atoms.push_back(make_not(make_in(c, {low, high})));
    if (d.type != TypeKind::Boolean) {
      atoms.push_back(make_between(c, low, make_literal(literals[std::min(i + 2, literals.size() - 1)])));
    }
  }
  if (d.type == TypeKind::String) {
    for (const Value& v : d.values) {
      if (code_point_count(v.as_string()) > 2) continue;
      atoms.push_back(make_like(c, make_literal(Value::string(v.as_string() + "%"))));
      atoms.push_back(make_not(make_like(c, make_literal(Value::string(v.as_string() + "%")))));
    }
  }
  return atoms;
}

// Negations and pairwise AND/OR of the atoms, pairing each with a far-away partner so that
// every atom meets several others without the square of the list.
std::vector<ExprPtr> compounds(const std::vector<ExprPtr>& left, const std::vector<ExprPtr>& right) {
  std::vector<ExprPtr> out;
  for (size_t i = 0; i < left.size(); ++i) {
    for (size_t step : {size_t{1}, size_t{7}, right.size() / 2 + 3}) {
      const ExprPtr& partner = right[(i * 5 + step) % right.size()];
      out.push_back(make_and(left[i], partner));
      out.push_back(make_or(left[i], partner));
    }
    out.push_back(make_not(make_or(left[i], right[(i * 3 + 1) % right.size()])));
  }
  return out;
}

}  // namespace

Schema Universe::schema() const {
  std::vector<StructField> fields;
  for (const ColumnDomain& c : columns) fields.push_back(StructField{c.name, DataType::of(c.type), true, {}});
  return Schema(fields);
}

std::vector<Universe> standard_universes() {
  const ColumnDomain tinyint{"x", TypeKind::Byte, integrals(TypeKind::Byte, {-128, -127, -1, 0, 1, 126, 127})};
  const ColumnDomain smallint{"y", TypeKind::Short, integrals(TypeKind::Short, {-2, -1, 0, 1, 2})};
  const ColumnDomain boolean{"b", TypeKind::Boolean, {Value::boolean(false), Value::boolean(true)}};
  const ColumnDomain date{"d", TypeKind::Date, integrals(TypeKind::Date, {-1, 0, 1, 2})};
  const ColumnDomain strings = string_column("s", strings_over(kAlphabet, 2));
  // Prefix-closed, with both tie-breakers and the multibyte char, small enough to pair.
  const ColumnDomain short_strings = string_column(
      "s", {Value::string(""), Value::string("a"), Value::string("aa"), Value::string(utf8({U'a', kTieBreakerAscii})),
            Value::string(utf8({kMultibyte})), Value::string(utf8({kMaxCodePoint}))});
  // A surrogate pair at every UTF-16 unit from 0 to 2: at N − 2, N − 1 and N for N = 2, where a
  // min cut by code points and one cut by units differ (docs/semantics.md §4.4).
  const ColumnDomain pairs = string_column("s", strings_over({U'a', kMaxCodePoint}, 3));
  const ColumnDomain tiny_window{"x", TypeKind::Byte, integrals(TypeKind::Byte, {-1, 0, 1})};
  const ColumnDomain bit_window{"y", TypeKind::Short, integrals(TypeKind::Short, {0, 1})};
  return {
      {"tinyint", {tinyint}},
      {"smallint", {smallint}},
      {"boolean", {boolean}},
      {"date", {date}},
      {"string@1", {strings}, 1},
      {"string@2", {strings}, 2},
      {"string@32", {strings}, 32},
      {"pairs@2", {pairs}, 2},
      {"pairs@3", {pairs}, 3},
      {"tinyint+boolean", {tiny_window, boolean}},
      {"string@1+smallint", {short_strings, bit_window}, 1},
  };
}

const char* tightness_name(Tightness t) {
  switch (t) {
    case Tightness::Marked: return "tight";
    case Tightness::Unmarked: return "tight (no tightBounds field)";
    case Tightness::Wide: return "wide";
  }
  return "?";
}

FileStats written_stats(const std::vector<Row>& rows, const Universe& universe, const StatsVariant& variant,
                        WriterBreak writer_break) {
  FileStats stats = collected_stats(rows, universe.schema(), universe.string_prefix_length, variant, writer_break);
  drop_fields(stats, variant);
  return stats;
}

std::vector<StatsQuestion> enumerate_questions(const Universe& universe, WriterBreak writer_break) {
  const Schema schema = universe.schema();
  // A row of the file: one domain index per column (0 = NULL), enumerated as one mixed-radix index.
  std::vector<int> radix;
  int row_domain = 1;
  for (const ColumnDomain& c : universe.columns) {
    radix.push_back(static_cast<int>(c.values.size()) + 1);
    row_domain *= radix.back();
  }
  const auto row_at = [&](int index) {
    Row row;
    for (size_t c = 0; c < radix.size(); ++c) {
      const int i = index % radix[c];
      index /= radix[c];
      row.push_back(i == 0 ? Value::null() : universe.columns[c].values[i - 1]);
    }
    return row;
  };
  std::vector<StatsQuestion> out;
  std::set<std::string> seen;
  for (int rows = 1; rows <= kMaxRowsPerFile; ++rows) {
    for_each_multiset(row_domain, rows, [&](const std::vector<int>& indices) {
      std::vector<Row> file;
      for (int i : indices) file.push_back(row_at(i));
      for_each_variant(file, schema, universe.string_prefix_length, writer_break, tightness_shapes(rows), true,
                       [&](const StatsVariant& v, FileStats stats) {
                         StatsQuestion q{std::move(stats), v.deleted_rows};
                         if (seen.insert(question_key(q, schema)).second) out.push_back(std::move(q));
                       });
    });
  }
  return out;
}

std::vector<ExprPtr> enumerate_predicates(const Universe& universe) {
  std::vector<ExprPtr> unbound;
  std::vector<std::vector<ExprPtr>> atoms;
  for (const ColumnDomain& c : universe.columns) atoms.push_back(atoms_for(c));
  for (const auto& a : atoms) unbound.insert(unbound.end(), a.begin(), a.end());
  const std::vector<ExprPtr> mixed = compounds(atoms.front(), atoms.back());
  unbound.insert(unbound.end(), mixed.begin(), mixed.end());

  const Schema schema = universe.schema();
  std::vector<ExprPtr> out;
  std::set<std::string> seen;
  for (const ExprPtr& e : unbound) {
    ExprPtr bound = skipsound::bind(e, schema);
    if (seen.insert(to_sql(bound)).second) out.push_back(std::move(bound));
  }
  return out;
}

ExprPtr domain_restriction(const Universe& universe) {
  ExprPtr all;
  for (const ColumnDomain& d : universe.columns) {
    std::vector<ExprPtr> items;
    for (const Value& v : d.values) items.push_back(make_literal(v));
    const ExprPtr column = make_or(make_is_null(column_ref(d)), make_in(column_ref(d), items));
    all = all ? make_and(all, column) : column;
  }
  return skipsound::bind(all, universe.schema());
}

// ---- the brute force ----

BruteForce::BruteForce(Universe universe, WriterBreak writer_break)
    : universe_(std::move(universe)), schema_(universe_.schema()), writer_break_(writer_break) {
  for (const ColumnDomain& c : universe_.columns) {
    if (c.values.size() + 1 > 64) throw std::invalid_argument("column domain " + c.name + " exceeds 63 values");
  }
  tables_.resize(universe_.columns.size());
  for (size_t c = 0; c < universe_.columns.size(); ++c) tabulate_column(c);
}

Value BruteForce::value_at(size_t column, int index) const {
  return index == 0 ? Value::null() : universe_.columns[column].values[index - 1];
}

// Every file of one column up to kMaxRowsWithoutCount rows, under every variant: which values
// its live rows can take. For a wide file (DV cardinality below the row count) any physical
// value can survive, so the live values are the physical ones; the cardinality itself is not
// part of the stats, so one entry serves all of them.
void BruteForce::tabulate_column(size_t column) {
  const Schema single = Universe{universe_.name, {universe_.columns[column]}}.schema();
  const int prefix_length = universe_.string_prefix_length;
  const int domain_size = static_cast<int>(universe_.columns[column].values.size()) + 1;
  for (int64_t rows = 1; rows <= kMaxRowsWithoutCount; ++rows) {
    for_each_multiset(domain_size, static_cast<int>(rows), [&](const std::vector<int>& indices) {
      std::vector<Row> file;
      ValueSet present = 0;
      for (int i : indices) {
        file.push_back(Row{value_at(column, i)});
        present |= ValueSet{1} << i;
      }
      // Wide once: the stats do not depend on the DV's cardinality.
      for_each_variant(file, single, prefix_length, writer_break_, tightness_shapes(1), false,
                       [&](const StatsVariant&, FileStats stats) {
                         tables_[column][column_key(stats.column(0), stats.tight_bounds)][rows] |= present;
                       });
    });
  }
}

std::vector<BruteForce::ValueSet> BruteForce::column_sets(const StatsQuestion& q, int64_t rows,
                                                          WideReading reading) const {
  std::vector<ValueSet> sets;
  for (size_t c = 0; c < universe_.columns.size(); ++c) {
    ValueSet set = 0;
    const auto entry = tables_[c].find(column_key(q.stats.column(static_cast<int>(c)), q.stats.tight_bounds));
    if (entry != tables_[c].end()) {
      const auto by_rows = entry->second.find(rows);
      if (by_rows != entry->second.end()) set = by_rows->second;
    }
    if (reading == WideReading::Bounds && q.stats.wide()) set |= wide_reading(c, q.stats);
    sets.push_back(set);
  }
  return sets;
}

// docs/semantics.md §4.6's reading of wide stats, word for word: every live value within [min, max] (a
// missing bound does not constrain); nullCount = numRecords: every live row is null, = 0: none
// is, anything else (or missing): unknown.
BruteForce::ValueSet BruteForce::wide_reading(size_t column, const FileStats& stats) const {
  const ColumnStats& c = stats.column(static_cast<int>(column));
  const bool all_null = c.null_count && stats.num_records && *c.null_count == *stats.num_records;
  const bool none_null = c.null_count && *c.null_count == 0;
  ValueSet out = none_null ? 0 : ValueSet{1};
  if (all_null) return out;
  const std::vector<Value>& values = universe_.columns[column].values;
  for (size_t i = 0; i < values.size(); ++i) {
    const bool above_min = !c.min || *spark_compare(values[i], *c.min) >= 0;
    const bool below_max = !c.max || *spark_compare(values[i], *c.max) <= 0;
    if (above_min && below_max) out |= ValueSet{1} << (i + 1);
  }
  return out;
}

std::optional<Row> BruteForce::find_row(const StatsQuestion& q, const ExprPtr& predicate, WideReading reading) const {
  // A deletion vector always widens the stats (docs/semantics.md §4.6); tight stats with one are not written.
  if (!q.stats.wide() && q.deleted_rows != 0) return std::nullopt;
  std::vector<int64_t> counts;
  if (q.stats.num_records) counts.push_back(*q.stats.num_records);
  else for (int64_t n = 1; n <= kMaxRowsWithoutCount; ++n) counts.push_back(n);
  for (int64_t rows : counts) {
    if (rows - q.deleted_rows <= 0) continue;  // no live row
    const std::vector<ValueSet> sets = column_sets(q, rows, reading);
    if (std::any_of(sets.begin(), sets.end(), [](ValueSet s) { return s == 0; })) continue;
    // The product of the columns' sets, first column fastest.
    std::vector<int> index(sets.size(), 0);
    const auto advance = [&](size_t c) {
      int i = index[c] + 1;
      while (i < 64 && !(sets[c] >> i & 1)) ++i;
      return i;
    };
    for (size_t c = 0; c < sets.size(); ++c) index[c] = std::countr_zero(sets[c]);
    for (;;) {
      Row row;
      for (size_t c = 0; c < sets.size(); ++c) row.push_back(value_at(c, index[c]));
      if (evaluate(*predicate, row) == Truth::True) return row;
      size_t c = 0;
      for (; c < sets.size(); ++c) {
        index[c] = advance(c);
        if (index[c] < 64) break;
        index[c] = std::countr_zero(sets[c]);
      }
      if (c == sets.size()) break;
    }
  }
  return std::nullopt;
}

}  // namespace skipsound::exhaustive
