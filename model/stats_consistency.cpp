#include "model/stats_consistency.h"

#include <algorithm>
#include <limits>

namespace skipsound {

// The counting argument (SPEC §6). The candidate row r is one of the file's L live rows
// (L = numRecords − DV cardinality); the other L−1 rows are free. Stats are per column and the
// other rows may differ column by column, so each column is decided on its own.
//
// For a column c:
// * k, the number of live NULLs, lies in an interval K: tight stats without a DV give k = nullCount;
//   wide stats or a DV read nullCount as a tri-state (= numRecords → k = L, = 0 → k = 0, else
//   unknown); no nullCount → unknown.
// * Bounds: every non-null live value lies in [lo, hi]: lo = min, hi = max, widened where the stored
//   stat is inexact (timestamps floored to ms: hi = max + 999 µs; a truncated string max only
//   bounds). Wide bounds give the bounds and nothing more.
// * Realisation (tight stats only): the true min is some live value in MinSet ({min}; [min,
//   min+999 µs] for timestamps; strings starting with min when min may be truncated), and likewise
//   the true max in MaxSet. `needed` = how many of min/max must be realised (0, 1 or 2).
// r NULL: some k in K with k ≥ 1 leaves L−k non-null others, which must realise min and max:
//   one row suffices when MinSet ∩ MaxSet may be non-empty, else two.
// r non-null: take the smallest k in K (most non-null rows), need L−k ≥ 1; `slack` = L−k−1 other
//   non-null rows. slack ≥ needed: the others realise min and max at the bounds' ends, so any
//   value in [lo, hi] works. Otherwise r must realise what the others cannot: needed 1, slack 0 →
//   r ∈ that set; needed 2, slack 1 → r ∈ MinSet or r ∈ MaxSet (the other realises the rest,
//   hi ≥ r); needed 2, slack 0 → r ∈ MinSet ∩ MaxSet.
// A missing numRecords leaves L free: we take it large enough that counting never binds.
// Where emptiness of MinSet ∩ MaxSet is unclear we assume it may be non-empty: the allowance
// over-approximates, so it never hides a row a real file could hold.

namespace {

struct NullCountRange {
  int64_t low = 0;
  int64_t high = 0;
};

bool is_timestamp(TypeKind k) { return k == TypeKind::Timestamp || k == TypeKind::TimestampNtz; }

int64_t saturating_add(int64_t a, int64_t b) {
  return a > std::numeric_limits<int64_t>::max() - b ? std::numeric_limits<int64_t>::max() : a + b;
}

Value plus_micros(const Value& v, int64_t micros) {
  Value bumped = v;
  bumped.data = saturating_add(v.as_int(), micros);
  return bumped;
}

struct Utf8Length {
  int code_points = 0;
  int utf16_units = 0;
  char32_t last = 0;
};

Utf8Length measure_utf8(const std::string& s) {
  Utf8Length length;
  for (size_t i = 0; i < s.size();) {
    const auto lead = static_cast<unsigned char>(s[i]);
    const int bytes = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
    char32_t code = bytes == 1 ? lead : lead & (0x7F >> bytes);
    for (int j = 1; j < bytes && i + j < s.size(); ++j) code = (code << 6) | (s[i + j] & 0x3F);
    ++length.code_points;
    length.utf16_units += code > 0xFFFF ? 2 : 1;
    length.last = code;
    i += bytes;
  }
  return length;
}

// A stored string stat equals the true value only when no truncation can have happened: shorter
// than the prefix length in code points and in UTF-16 units (footer stats cut by units and may
// stop one short to keep a surrogate pair), and for a max not ending in a tie-breaker char.
bool string_stat_exact(const std::string& stored, bool is_max) {
  const Utf8Length length = measure_utf8(stored);
  const bool short_enough = length.code_points < kStatsStringPrefixLength &&
                            length.utf16_units < kStatsStringPrefixLength - 1;
  const bool tie_breaker = length.last == 0x10FFFF || length.last == 0x7F;
  return short_enough && !(is_max && tie_breaker);
}

bool before(const Value& a, const Value& b) {
  const auto order = spark_compare(a, b);
  return order && *order < 0;
}

bool starts_with(const std::string& s, const std::string& prefix) {
  return s.size() >= prefix.size() && s.compare(0, prefix.size(), prefix) == 0;
}

// Conservative: false only when the range is certainly empty.
bool may_be_nonempty(const ValueRange& r) {
  if (r.lower && r.upper && before(*r.upper, *r.lower)) return false;
  if (r.prefix && r.upper && before(*r.upper, Value::string(*r.prefix))) return false;
  if (r.prefix && r.lower && r.upper && !before(*r.lower, *r.upper))
    return starts_with(r.lower->as_string(), *r.prefix);
  return true;
}

ValueRange intersect(const ValueRange& a, const ValueRange& b) {
  ValueRange both = a;
  if (b.lower && (!both.lower || before(*both.lower, *b.lower))) both.lower = b.lower;
  if (b.upper && (!both.upper || before(*b.upper, *both.upper))) both.upper = b.upper;
  if (b.prefix && (!both.prefix || b.prefix->size() > both.prefix->size())) both.prefix = b.prefix;
  return both;
}

ValueRange min_set(const Value& min, TypeKind kind) {
  if (is_timestamp(kind)) return {min, plus_micros(min, kTimestampStatSlackMicros), {}};
  if (kind == TypeKind::String && !string_stat_exact(min.as_string(), false))
    return {min, {}, min.as_string()};
  return {min, min, {}};
}

ValueRange max_set(const Value& max, TypeKind kind) {
  if (is_timestamp(kind)) return {max, plus_micros(max, kTimestampStatSlackMicros), {}};
  if (kind == TypeKind::String && !string_stat_exact(max.as_string(), true)) return {{}, max, {}};
  return {max, max, {}};
}

struct ColumnContext {
  const Leaf& leaf;
  const ColumnStats& stats;
  bool tight = true;
  bool has_dv = false;
  std::optional<int64_t> num_records;
  int64_t live = 0;
};

std::string stat_label(const Leaf& leaf, const char* stat, const std::string& value) {
  return "stats." + path_to_sql(leaf.path) + "." + stat + " = " + value;
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

ColumnAllowance column_allowance(const ColumnContext& c) {
  ColumnAllowance a;
  a.leaf = c.leaf.ordinal;
  const TypeKind kind = c.leaf.type.kind;
  const ColumnStats& s = c.stats;
  if (s.min) {
    a.lower = s.min;
    a.lower_label = stat_label(c.leaf, "min", to_display(*s.min));
  }
  if (s.max) {
    a.upper = is_timestamp(kind) ? plus_micros(*s.max, kTimestampStatSlackMicros) : *s.max;
    a.upper_label = stat_label(c.leaf, "max", to_display(*s.max));
  }
  const std::optional<ValueRange> mins =
      c.tight && s.min ? std::optional(min_set(*s.min, kind)) : std::nullopt;
  const std::optional<ValueRange> maxs =
      c.tight && s.max ? std::optional(max_set(*s.max, kind)) : std::nullopt;
  const int needed = (mins ? 1 : 0) + (maxs ? 1 : 0);
  const bool ordered = !(a.lower && a.upper && before(*a.upper, *a.lower));
  const bool may_coincide = !(mins && maxs) || may_be_nonempty(intersect(*mins, *maxs));
  const int others_for_realising = needed == 2 ? (may_coincide ? 1 : 2) : needed;

  const NullCountRange nulls = live_null_range(c);
  const std::string counts = null_count_label(c);
  const int64_t null_k = std::max<int64_t>(nulls.low, 1);
  a.null_allowed = ordered && null_k <= nulls.high && c.live - null_k >= others_for_realising;
  if (!a.null_allowed) a.null_label = counts;

  const int64_t slack = c.live - nulls.low - 1;
  a.value_allowed = ordered && slack >= 0;
  if (!ordered) a.value_label = a.lower_label + ", " + a.upper_label;
  else if (!a.value_allowed) a.value_label = counts;
  if (a.value_allowed && slack < needed) {
    a.realise_label = counts + ": the row must realise the recorded min/max";
    if (needed == 2 && slack == 0) a.realise_one_of = {intersect(*mins, *maxs)};
    else if (needed == 2) a.realise_one_of = {*mins, *maxs};
    else a.realise_one_of = {mins ? *mins : *maxs};
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

}  // namespace

bool ValueRange::contains(const Value& v) const {
  if (lower && before(v, *lower)) return false;
  if (upper && before(*upper, v)) return false;
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
    const ColumnContext context{leaf,     column, !stats.wide(), file.dv_cardinality > 0,
                                stats.num_records, live};
    ColumnAllowance a = column_allowance(context);
    if (!a.null_allowed && !a.value_allowed) {
      allowance.no_row = a.null_label + "; " + a.value_label;
      return allowance;
    }
    allowance.columns.push_back(std::move(a));
  }
  return allowance;
}

ConsistencyVerdict check_row_consistency(const Row& row, const RowAllowance& allowance) {
  if (allowance.no_row) return {Consistency::Inconsistent, *allowance.no_row};
  for (const ColumnAllowance& a : allowance.columns) {
    const Value value = a.leaf < static_cast<int>(row.size()) ? row[a.leaf] : Value::null();
    if (value.is_null()) {
      if (!a.null_allowed) return {Consistency::Inconsistent, a.null_label};
      continue;
    }
    if (!a.value_allowed) return {Consistency::Inconsistent, a.value_label};
    if (a.lower && before(value, *a.lower)) return {Consistency::Inconsistent, a.lower_label};
    if (a.upper && before(*a.upper, value)) return {Consistency::Inconsistent, a.upper_label};
    if (!a.realise_one_of.empty() &&
        std::none_of(a.realise_one_of.begin(), a.realise_one_of.end(),
                     [&](const ValueRange& r) { return r.contains(value); }))
      return {Consistency::Inconsistent, a.realise_label};
  }
  return {Consistency::Consistent, {}};
}

}  // namespace skipsound
