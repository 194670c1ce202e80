#include "model/stats/stats_collection.h"

#include <algorithm>
#include <cctype>
#include <charconv>

#include "model/values/input_error.h"
#include "model/values/ascii_text.h"
#include "model/values/temporal.h"

namespace skipsound {
namespace {

bool is_prefix_of(const ColumnPath& prefix, const ColumnPath& path) {
  if (prefix.size() > path.size()) return false;
  return std::equal(prefix.begin(), prefix.end(), path.begin(), ascii_iequals);
}

// "a, b.c, `my col`.d" -> {{a}, {b,c}, {my col, d}}; "``" inside backquotes is one backquote.
std::vector<ColumnPath> parse_stats_columns(const std::string& text) {
  std::vector<ColumnPath> columns;
  ColumnPath current;
  std::string part;
  bool quoted = false, part_was_quoted = false;
  auto finish_part = [&] {
    std::string name = part_was_quoted ? part : trim_whitespace(part);
    if (name.empty()) {
      throw InputError("delta.dataSkippingStatsColumns has an empty column name", 0, text);
    }
    current.push_back(std::move(name));
    part.clear();
    part_was_quoted = false;
  };
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c != '`') {
        part += c;
      } else if (i + 1 < text.size() && text[i + 1] == '`') {
        part += '`', ++i;
      } else {
        quoted = false;
      }
    } else if (c == '`') {
      if (!trim_whitespace(part).empty()) {
        throw InputError("delta.dataSkippingStatsColumns: stray backquote", static_cast<int>(i) + 1, text);
      }
      part.clear();
      quoted = part_was_quoted = true;
    } else if (c == '.') {
      finish_part();
    } else if (c == ',') {
      finish_part();
      columns.push_back(std::move(current));
      current.clear();
    } else if (!(part_was_quoted && (c == ' ' || c == '\t'))) {
      part += c;
    }
  }
  if (quoted) throw InputError("delta.dataSkippingStatsColumns: unterminated backquote", 0, text);
  if (!trim_whitespace(text).empty()) {
    finish_part();
    columns.push_back(std::move(current));
  }
  return columns;
}

int parse_int_setting(const std::string& key, const std::string& text) {
  int value = 0;
  const std::string t = trim_whitespace(text);
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), value);
  if (ec != std::errc() || end != t.data() + t.size() || t.empty()) {
    throw InputError(key + " is not an integer: '" + text + "'");
  }
  return value;
}

int64_t floor_to_millis(int64_t micros) {
  const int64_t rem = micros % kMicrosPerMilli;
  return rem < 0 ? micros - rem - kMicrosPerMilli : micros - rem;
}

// Accumulates one leaf's stats over the rows.
struct LeafAccumulator {
  int64_t nulls = 0;
  std::optional<Value> min, max;

  void add(const Value& v, bool track_bounds) {
    if (v.is_null()) {
      ++nulls;
      return;
    }
    if (!track_bounds) return;
    if (!min || *spark_compare(v, *min) < 0) min = v;
    if (!max || *spark_compare(v, *max) > 0) max = v;
  }
};

// Delta writes timestamps floored to the millisecond and strings cut to a prefix (docs/semantics.md §4).
ColumnStats finish(const LeafAccumulator& acc, const DataType& type, const StatsConfig& config,
                   Mutant mutant) {
  ColumnStats out;
  out.null_count = acc.nulls;
  if (!acc.min) return out;
  out.min = acc.min;
  out.max = acc.max;
  if (is_timestamp(type.kind)) {
    out.min->data = floor_to_millis(out.min->as_int());
    out.max->data = floor_to_millis(out.max->as_int());
  } else if (type.kind == TypeKind::String) {
    out.min = Value::string(truncate_string_min(acc.min->as_string(), config.string_prefix_length));
    const auto max = truncate_string_max(acc.max->as_string(), config.string_prefix_length, mutant);
    out.max = max ? std::optional<Value>(Value::string(*max)) : std::nullopt;
  }
  return out;
}

}  // namespace

StatsConfig StatsConfig::from_configuration(const std::map<std::string, std::string>& configuration,
                                            const std::vector<std::string>& partition_columns) {
  StatsConfig config;
  config.partition_columns = partition_columns;
  if (auto it = configuration.find("delta.dataSkippingNumIndexedCols"); it != configuration.end()) {
    config.num_indexed_cols = parse_int_setting(it->first, it->second);
    if (config.num_indexed_cols < -1) {
      throw InputError("delta.dataSkippingNumIndexedCols must be -1 or more, got " + it->second);
    }
  }
  if (auto it = configuration.find("delta.dataSkippingStatsColumns"); it != configuration.end()) {
    config.stats_columns = parse_stats_columns(it->second);
  }
  return config;
}

std::vector<bool> indexed_leaves(const Schema& schema, const StatsConfig& config) {
  std::vector<bool> indexed(schema.leaves().size(), false);
  int counted = 0;
  for (const Leaf& leaf : schema.leaves()) {
    const bool is_partition =
        std::any_of(config.partition_columns.begin(), config.partition_columns.end(),
                    [&](const std::string& p) { return ascii_iequals(p, leaf.path.front()); });
    if (is_partition) continue;
    if (config.stats_columns) {
      indexed[leaf.ordinal] =
          std::any_of(config.stats_columns->begin(), config.stats_columns->end(),
                      [&](const ColumnPath& c) { return is_prefix_of(c, leaf.path); });
    } else {
      indexed[leaf.ordinal] = config.num_indexed_cols < 0 || counted < config.num_indexed_cols;
      ++counted;
    }
  }
  return indexed;
}

FileStats collect_stats(const std::vector<Row>& rows, const Schema& schema,
                        const StatsConfig& config, Mutant mutant, bool with_tight_bounds) {
  FileStats stats;
  stats.num_records = static_cast<int64_t>(rows.size());
  if (with_tight_bounds) stats.tight_bounds = true;
  const std::vector<bool> indexed = indexed_leaves(schema, config);
  for (const Leaf& leaf : schema.leaves()) {
    if (!indexed[leaf.ordinal]) continue;
    const bool track_bounds = has_min_max(leaf.type.kind);
    LeafAccumulator acc;
    for (const Row& row : rows) {
      // A short row lacks the trailing columns: they were absent from the written data.
      const bool present = static_cast<size_t>(leaf.ordinal) < row.size();
      if (present) {
        acc.add(row[leaf.ordinal], track_bounds);
      } else {
        ++acc.nulls;
      }
    }
    stats.column_mut(leaf.ordinal) = finish(acc, leaf.type, config, mutant);
  }
  return stats;
}

}  // namespace skipsound
