#include "model/stats/stats_consistency.h"

#include <algorithm>
#include <limits>

#include "model/values/utf8.h"

namespace skipsound {

// The counting argument (docs/semantics.md §6.2). The candidate row r is one of the file's L live rows
// (L = numRecords − DV cardinality); the other L−1 rows are free. Stats are per column and the
// other rows may differ column by column, so each column is decided on its own.
//
// For a column c:
// * k, the number of live NULLs, lies in an interval K: tight stats without a DV give k = nullCount;
//   wide stats or a DV read nullCount as a tri-state (= numRecords → k = L, = 0 → k = 0, else
//   unknown); no nullCount → unknown.
// * Bounds: every non-null live value lies in [lo, hi]: lo = min, hi = max, widened where the stored
//   stat is inexact (timestamps floored to ms: hi = max + 999 µs); a string max that is certainly
//   cut lies strictly above every value. Wide bounds give the bounds and nothing more.
// * Strings are read with the writer's prefix length N (model/stats/string_truncation.h): a min of N
//   code points, or of N − 1 or N UTF-16 units, may be a prefix of the true min (cut by code points,
//   or by units as footer-derived stats are); a max may be the true max, or its cut prefix plus a
//   tie-breaker that says which characters came next. Stats no writer stores are impossible.
// * Realisation (tight stats without a DV only): the true min is some live value in MinSet ({min}; [min,
//   min+999 µs] for timestamps; min or strings starting with it when min may be truncated), and likewise
//   the true max in MaxSet. `needed` = how many of min/max must be realised (0, 1 or 2).
// r NULL: some k in K with k ≥ 1 leaves L−k non-null others, which must realise min and max:
//   one row suffices when MinSet ∩ MaxSet may be non-empty, else two.
// r non-null: take the smallest k in K (most non-null rows), need L−k ≥ 1; `slack` = L−k−1 other
//   non-null rows. slack ≥ needed: the others realise min and max at the bounds' ends, so any
//   value in [lo, hi] works. Otherwise r must realise what the others cannot: needed 1, slack 0 →
//   r ∈ that set; needed 2, slack 1 → r ∈ MinSet or r ∈ MaxSet (the other realises the rest,
//   hi ≥ r); needed 2, slack 0 → r ∈ MinSet ∩ MaxSet.
// A missing numRecords leaves L free: we take it large enough that counting never binds.
// The file holds at least one live row, so when no value of some column fits, the stats were never
// written: they are impossible (RowAllowance::impossible), which differs from "no row matches".

namespace {

struct NullCountRange {
  int64_t low = 0;
  int64_t high = 0;
};


int64_t saturating_add(int64_t a, int64_t b) {
  return a > std::numeric_limits<int64_t>::max() - b ? std::numeric_limits<int64_t>::max() : a + b;
}

Value plus_micros(const Value& v, int64_t micros) {
  Value bumped = v;
  bumped.data = saturating_add(v.as_int(), micros);
  return bumped;
}

bool before(const Value& a, const Value& b) {
  const auto order = spark_compare(a, b);
  return order && *order < 0;
}

bool starts_with(const std::string& s, const std::string& prefix) {
  return s.size() >= prefix.size() && s.compare(0, prefix.size(), prefix) == 0;
}

struct Bound {
  Value value;
  bool strict = false;
};

std::optional<Bound> tighter_upper(const std::optional<Bound>& a, const std::optional<Bound>& b) {
  if (!a) return b;
  if (!b) return a;
  if (before(a->value, b->value)) return a;
  if (before(b->value, a->value)) return b;
  return Bound{a->value, a->strict || b->strict};
}

// The range as an interval: its prefix folded into the bounds.
std::pair<std::optional<Value>, std::optional<Bound>> interval(const ValueRange& r) {
  std::optional<Value> lower = r.lower;
  std::optional<Bound> upper;
  if (r.upper) upper = Bound{*r.upper, r.upper_strict};
  if (r.prefix) {
    const Value start = Value::string(*r.prefix);
    if (!lower || before(*lower, start)) lower = start;
    if (const auto end = prefix_successor(*r.prefix)) upper = tighter_upper(upper, Bound{Value::string(*end), true});
  }
  return {lower, upper};
}

// Exact: every ordered domain the stats bound is dense enough that [a, b) holds a when a < b.
bool is_empty(const ValueRange& r) {
  const auto [lower, upper] = interval(r);
  if (!lower || !upper) return false;
  return upper->strict ? !before(*lower, upper->value) : before(upper->value, *lower);
}

ValueRange intersect(const ValueRange& a, const ValueRange& b) {
  const auto [a_lower, a_upper] = interval(a);
  const auto [b_lower, b_upper] = interval(b);
  ValueRange both;
  both.lower = !a_lower || (b_lower && before(*a_lower, *b_lower)) ? b_lower : a_lower;
  if (const auto upper = tighter_upper(a_upper, b_upper)) {
    both.upper = upper->value;
    both.upper_strict = upper->strict;
  }
  both.prefix = !a.prefix || (b.prefix && b.prefix->size() > a.prefix->size()) ? b.prefix : a.prefix;
  return both;
}

// How the writer's prefix length N reads one column's string stats (docs/semantics.md §4.4).
struct StringReading {
  StoredMin min;
  StoredMax max;
};

struct ColumnContext {
  const Leaf& leaf;
  const ColumnStats& stats;
  bool tight = true;
  bool has_dv = false;
  std::optional<int64_t> num_records;
  int64_t live = 0;
  int string_prefix_length = kDefaultStringPrefixLength;
  StatsDialect dialect = StatsDialect::DeltaSpark;
  StringReading strings;
};

bool is_string(const ColumnContext& c) { return c.leaf.type.kind == TypeKind::String; }

// A union of ranges: a string min that may be cut is the true min itself or the start of it, and
// a cut by UTF-16 units that stopped before a surrogate pair leaves out the characters below it.
std::vector<ValueRange> min_set(const Value& min, const ColumnContext& c) {
  if (is_timestamp(c.leaf.type.kind)) return {{min, plus_micros(min, kTimestampStatSlackMicros), {}}};
  if (!is_string(c) || c.strings.min.kind != StoredString::MayBeTruncated) return {{min, min, {}}};
  const std::string& prefix = min.as_string();
  return {{min, min, {}}, {Value::string(prefix + encode_utf8({c.strings.min.next_low})), {}, prefix}};
}

std::vector<ValueRange> intersect_each(const std::vector<ValueRange>& sets, const ValueRange& with) {
  std::vector<ValueRange> out;
  for (const ValueRange& r : sets) out.push_back(intersect(r, with));
  std::erase_if(out, is_empty);
  return out;
}

// Strings: the true max itself when exact; when cut, `kept` + a next character the tie-breaker
// stands for (+ anything), which lies below the stored max.
ValueRange max_set(const Value& max, const ColumnContext& c) {
  if (is_timestamp(c.leaf.type.kind)) return {max, plus_micros(max, kTimestampStatSlackMicros), {}};
  const StoredMax& read = c.strings.max;
  if (!is_string(c) || read.kind == StoredString::Exact) return {max, max, {}};
  const Value lowest = Value::string(read.kept + encode_utf8({read.next_low}));
  return {lowest, max, read.kept, read.kind == StoredString::Truncated};
}

std::string stat_label(const Leaf& leaf, const char* stat, const std::string& value) {
  return "stats." + path_to_sql(leaf.path) + "." + stat + " = " + value;
}

// How string stats were read depends on the prefix length, so labels about them name it:
// " (string prefix length 2: min may be truncated, max exact)"; empty for other types.
std::string string_note(const ColumnContext& c, bool with_min, bool with_max) {
  if (!is_string(c) || !(with_min || with_max)) return {};
  if (c.dialect == StatsDialect::DeltaRs) return " (delta-rs stats: strings whole)";
  std::string note = " (string prefix length " + std::to_string(c.string_prefix_length) + ": ";
  if (with_min) note += std::string("min ") + stored_string_name(c.strings.min.kind);
  if (with_min && with_max) note += ", ";
  if (with_max) note += std::string("max ") + stored_string_name(c.strings.max.kind);
  return note + ")";
}

NullCountRange live_null_range(const ColumnContext& c) {
  const std::optional<int64_t>& n = c.stats.null_count;
  if (!n) return {0, c.live};
  if (c.tight && !c.has_dv) return {*n, *n};
  if (c.num_records && *n == *c.num_records) return {c.live, c.live};
  if (*n == 0) return {0, 0};
  return {0, c.live};
}

std::string null_count_label(const ColumnContext& c) {
  std::string label = c.stats.null_count
                          ? stat_label(c.leaf, "nullCount", std::to_string(*c.stats.null_count))
                          : "stats." + path_to_sql(c.leaf.path) + ".nullCount missing";
  label += ", live rows = " + std::to_string(c.live);
  if (!c.tight) label += ", wide bounds";
  return label;
}

// Why no writer with this prefix length stores these string stats, or nullopt.
std::optional<std::string> impossible_strings(const ColumnContext& c) {
  if (!is_string(c)) return std::nullopt;
  const std::string n = std::to_string(c.string_prefix_length);
  if (c.stats.min && c.strings.min.kind == StoredString::Impossible)
    return stat_label(c.leaf, "min", to_display(*c.stats.min)) + ": longer than the string prefix length " + n +
           " in code points";
  if (c.stats.max && c.strings.max.kind == StoredString::Impossible)
    return stat_label(c.leaf, "max", to_display(*c.stats.max)) +
           ": not a string max a writer with prefix length " + n + " stores";
  return std::nullopt;
}

// A writer's min is at most its max: min <= true min <= true max, and a cut max lies above the
// true max.
bool ordered(const ColumnContext& c) {
  if (!c.stats.min || !c.stats.max) return true;
  const bool cut_max = is_string(c) && c.strings.max.kind == StoredString::Truncated;
  return cut_max ? before(*c.stats.min, *c.stats.max) : !before(*c.stats.max, *c.stats.min);
}

ColumnAllowance column_allowance(const ColumnContext& c) {
  ColumnAllowance a;
  a.leaf = c.leaf.ordinal;
  const TypeKind kind = c.leaf.type.kind;
  const ColumnStats& s = c.stats;
  if (s.min) {
    a.lower = s.min;
    a.lower_label = stat_label(c.leaf, "min", to_display(*s.min)) + string_note(c, true, false);
  }
  if (s.max) {
    a.upper = is_timestamp(kind) ? plus_micros(*s.max, kTimestampStatSlackMicros) : *s.max;
    a.upper_strict = is_string(c) && c.strings.max.kind == StoredString::Truncated;
    a.upper_label = stat_label(c.leaf, "max", to_display(*s.max)) + string_note(c, false, true);
  }
  // Only stats of the live rows must be realised by them: with a DV the recorded min and max may
  // belong to deleted rows.
  const bool realised_by_live_rows = c.tight && !c.has_dv;
  const std::optional<std::vector<ValueRange>> mins =
      realised_by_live_rows && s.min ? std::optional(min_set(*s.min, c)) : std::nullopt;
  const std::optional<ValueRange> maxs =
      realised_by_live_rows && s.max ? std::optional(max_set(*s.max, c)) : std::nullopt;
  const int needed = (mins ? 1 : 0) + (maxs ? 1 : 0);
  const bool may_coincide = !(mins && maxs) || !intersect_each(*mins, *maxs).empty();
  const int others_for_realising = needed == 2 ? (may_coincide ? 1 : 2) : needed;

  const NullCountRange nulls = live_null_range(c);
  const std::string counts = null_count_label(c);
  const int64_t null_k = std::max<int64_t>(nulls.low, 1);
  a.null_allowed = null_k <= nulls.high && c.live - null_k >= others_for_realising;
  if (!a.null_allowed) a.null_label = counts;

  const int64_t slack = c.live - nulls.low - 1;
  a.value_allowed = slack >= 0;
  if (!a.value_allowed) a.value_label = counts;
  if (a.value_allowed && slack < needed) {
    a.realise_label = counts + ": the row must realise the recorded min/max" +
                      string_note(c, mins.has_value(), maxs.has_value());
    if (needed == 2 && slack == 0) {
      a.realise_one_of = intersect_each(*mins, *maxs);
    } else {  // the row realises whichever of min and max the other rows leave
      if (mins) a.realise_one_of = *mins;
      if (maxs) a.realise_one_of.push_back(*maxs);
    }
    std::erase_if(a.realise_one_of, is_empty);
    if (a.realise_one_of.empty()) {
      a.value_allowed = false;
      a.value_label = a.realise_label;
    }
  }
  return a;
}

ColumnAllowance partition_allowance(const Leaf& leaf, const Value& value) {
  ColumnAllowance a;
  a.leaf = leaf.ordinal;
  const std::string label = "partition." + path_to_sql(leaf.path) + " = " + to_display(value);
  a.null_allowed = value.is_null();
  a.value_allowed = !value.is_null();
  if (a.null_allowed) {
    a.value_label = label;
  } else {
    a.null_label = label;
    a.lower = a.upper = value;
    a.lower_label = a.upper_label = label;
  }
  return a;
}

// delta-rs's strings are whole: the default reading (exact min and max) is theirs.
StringReading read_strings(const ColumnStats& stats, const Leaf& leaf, int prefix_length, StatsDialect dialect) {
  StringReading reading;
  if (leaf.type.kind != TypeKind::String || dialect == StatsDialect::DeltaRs) return reading;
  if (stats.min) reading.min = read_stored_min(stats.min->as_string(), prefix_length);
  if (stats.max) reading.max = read_stored_max(stats.max->as_string(), prefix_length);
  return reading;
}

}  // namespace

const char* stats_dialect_name(StatsDialect d) {
  return d == StatsDialect::DeltaRs ? "delta-rs" : "Delta Spark";
}

bool ValueRange::contains(const Value& v) const {
  if (lower && before(v, *lower)) return false;
  if (upper && (upper_strict ? !before(v, *upper) : before(*upper, v))) return false;
  return !prefix || starts_with(v.as_string(), *prefix);
}

RowAllowance row_allowance(const FileEvidence& file, const Schema& schema) {
  RowAllowance allowance;
  for (const auto& [leaf, value] : file.partition_values)
    allowance.columns.push_back(partition_allowance(schema.leaves().at(leaf), value));
  if (!file.stats) return allowance;
  const FileStats& stats = *file.stats;
  if (stats.num_records && *stats.num_records - file.dv_cardinality <= 0) {
    allowance.no_row = "stats.numRecords = " + std::to_string(*stats.num_records) +
                       ", deleted rows = " + std::to_string(file.dv_cardinality) + ": no live row";
    return allowance;
  }
  for (const Leaf& leaf : schema.leaves()) {
    if (file.partition_values.count(leaf.ordinal)) continue;
    const ColumnStats& column = stats.column(leaf.ordinal);
    if (!column.min && !column.max && !column.null_count) continue;
    // Without numRecords, L is free: three rows beyond the recorded nulls never bind.
    const int64_t live = stats.num_records ? *stats.num_records - file.dv_cardinality
                                           : column.null_count.value_or(0) + 3;
    const ColumnContext context{leaf,
                                column,
                                !stats.wide(),
                                file.dv_cardinality > 0,
                                stats.num_records,
                                live,
                                file.string_prefix_length,
                                file.dialect,
                                read_strings(column, leaf, file.string_prefix_length, file.dialect)};
    if (auto why = impossible_strings(context)) {
      allowance.impossible = std::move(why);
      return allowance;
    }
    ColumnAllowance a = column_allowance(context);
    if (!ordered(context)) {
      allowance.impossible = a.lower_label + " is above " + a.upper_label;
      return allowance;
    }
    // The file holds a live row, so stats that leave this column no value were never written.
    if (!a.null_allowed && !a.value_allowed) {
      allowance.impossible = a.null_label + "; " + a.value_label;
      return allowance;
    }
    allowance.columns.push_back(std::move(a));
  }
  return allowance;
}

ConsistencyVerdict check_row_consistency(const Row& row, const RowAllowance& allowance) {
  if (allowance.impossible) return {Consistency::Inconsistent, "impossible stats: " + *allowance.impossible};
  if (allowance.no_row) return {Consistency::Inconsistent, *allowance.no_row};
  for (const ColumnAllowance& a : allowance.columns) {
    const Value value = a.leaf < static_cast<int>(row.size()) ? row[a.leaf] : Value::null();
    if (value.is_null()) {
      if (!a.null_allowed) return {Consistency::Inconsistent, a.null_label};
      continue;
    }
    if (!a.value_allowed) return {Consistency::Inconsistent, a.value_label};
    if (a.lower && before(value, *a.lower)) return {Consistency::Inconsistent, a.lower_label};
    if (a.upper && (a.upper_strict ? !before(value, *a.upper) : before(*a.upper, value)))
      return {Consistency::Inconsistent, a.upper_label};
    if (!a.realise_one_of.empty() &&
        std::none_of(a.realise_one_of.begin(), a.realise_one_of.end(),
                     [&](const ValueRange& r) { return r.contains(value); }))
      return {Consistency::Inconsistent, a.realise_label};
  }
  return {Consistency::Consistent, {}};
}

}  // namespace skipsound
