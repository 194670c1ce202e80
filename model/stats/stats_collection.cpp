#include "model/stats/stats_collection.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>

#include "model/coverage/coverage.h"
#include "model/mutants/fault_injection.h"
#include "model/values/input_error.h"
#include "model/values/ascii_text.h"
#include "model/values/temporal.h"

namespace skipsound {
namespace {

bool is_prefix_of(const ColumnPath& prefix, const ColumnPath& path) {
  if (prefix.size() > path.size()) return false;
  return std::equal(prefix.begin(), prefix.end(), path.begin(), ascii_iequals);
}

// Delta reads the property with Spark's `multipartIdentifierList` rule: columns separated by
// ',', the names of a nested column by '.', whitespace allowed around either. An unquoted name is
// letters, digits and '_' (bytes of non-ASCII letters included); any other name is backquoted,
// "``" inside standing for one backquote. Blank text is the empty list.
class StatsColumnsParser {
 public:
  explicit StatsColumnsParser(const std::string& text) : text_(text) {}

  std::vector<ColumnPath> parse() {
    std::vector<ColumnPath> columns;
    if (trim_whitespace(text_).empty()) return columns;
    do {
      columns.push_back(column());
    } while (accept(','));
    skip_whitespace();
    if (!at_end()) fail(at_, "expected ',' or '.' before " + quoted(text_[at_]));
    return columns;
  }

 private:
  ColumnPath column() {
    ColumnPath path;
    do {
      path.push_back(name());
    } while (accept('.'));
    return path;
  }

  std::string name() {
    skip_whitespace();
    if (!at_end() && text_[at_] == '`') return quoted_name();
    const size_t start = at_;
    while (!at_end() && is_unquoted_name_char(text_[at_])) ++at_;
    if (at_ > start) return text_.substr(start, at_ - start);
    if (at_end() || text_[at_] == ',' || text_[at_] == '.') fail(at_, "empty column name");
    fail(at_, quoted(text_[at_]) + " in an unquoted column name (backquote the name)");
  }

  std::string quoted_name() {
    const size_t open = at_++;
    std::string name;
    while (true) {
      if (at_end()) fail(open, "unbalanced backquote");
      if (text_[at_] != '`') {
        name += text_[at_++];
      } else if (at_ + 1 < text_.size() && text_[at_ + 1] == '`') {
        name += '`';
        at_ += 2;
      } else {
        ++at_;
        break;
      }
    }
    if (name.empty()) fail(open, "empty column name");
    return name;
  }

  static std::string quoted(char c) {
    std::string text(3, '\'');
    text[1] = c;
    return text;
  }

  static bool is_unquoted_name_char(char c) {
    const auto byte = static_cast<unsigned char>(c);
    return std::isalnum(byte) || c == '_' || byte >= 0x80;
  }

  bool accept(char c) {
    skip_whitespace();
    if (at_end() || text_[at_] != c) return false;
    ++at_;
    return true;
  }

  void skip_whitespace() {
    while (!at_end() && std::isspace(static_cast<unsigned char>(text_[at_]))) ++at_;
  }

  bool at_end() const { return at_ >= text_.size(); }

  [[noreturn]] void fail(size_t at, const std::string& message) const {
    throw InputError(message, static_cast<int>(at) + 1, text_);
  }

  const std::string& text_;
  size_t at_ = 0;
};

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

// Delta writes timestamps floored to the millisecond and strings cut to a prefix (docs/semantics.md §4.4, §4.5).
ColumnStats finish(const LeafAccumulator& acc, const DataType& type, const StatsConfig& config) {
  using coverage::Probe;
  ColumnStats out;
  out.null_count = acc.nulls;
  coverage::hit(Probe::WriterNullCount);
  if (!acc.min) return out;
  coverage::hit(Probe::WriterMinMax);
  out.min = acc.min;
  out.max = acc.max;
  if (is_timestamp(type.kind)) {
    coverage::hit(Probe::WriterTimestampFloor);
    out.min->data = floor_to_millis(out.min->as_int());
    out.max->data = floor_to_millis(out.max->as_int());
  } else if (type.kind == TypeKind::String) {
    out.min = Value::string(
        truncate_string_min(acc.min->as_string(), config.string_prefix_length, config.string_min_cut));
    if (*out.min != *acc.min) coverage::hit(Probe::WriterStringMinPrefix);
    const auto max = truncate_string_max(acc.max->as_string(), config.string_prefix_length);
    out.max = max ? std::optional<Value>(Value::string(*max)) : std::nullopt;
    if (!max) coverage::hit(Probe::WriterStringMaxOmitted);
    if (max && *max != acc.max->as_string()) coverage::hit(Probe::WriterStringMaxTieBreak);
  }
  if (is_floating(type.kind) && std::isnan(acc.max->as_double())) coverage::hit(Probe::WriterNaNMax);
  return out;
}

}  // namespace

std::vector<ColumnPath> parse_stats_columns(const std::string& text) {
  return StatsColumnsParser(text).parse();
}

int parse_num_indexed_cols(const std::string& text) {
  int value = 0;
  const std::string t = trim_whitespace(text);
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), value);
  if (ec != std::errc() || end != t.data() + t.size() || t.empty()) {
    throw InputError("not an integer: '" + text + "'");
  }
  if (value < -1) throw InputError("must be -1 or more, got " + text);
  return value;
}

StatsConfig StatsConfig::from_configuration(const std::map<std::string, std::string>& configuration,
                                            const std::vector<std::string>& partition_columns) {
  StatsConfig config;
  config.partition_columns = partition_columns;
  if (auto it = configuration.find(kNumIndexedColsKey); it != configuration.end()) {
    config.num_indexed_cols = with_error_context(it->first, [&] { return parse_num_indexed_cols(it->second); });
  }
  if (auto it = configuration.find(kStatsColumnsKey); it != configuration.end()) {
    config.stats_columns = with_error_context(it->first, [&] { return parse_stats_columns(it->second); });
  }
  return config;
}

void check_stats_columns(const Schema& schema, const StatsConfig& config) {
  if (!config.stats_columns) return;
  std::vector<int> listed(schema.leaves().size(), 0);
  for (const ColumnPath& column : *config.stats_columns) {
    const std::string name = path_to_sql(column);
    if (std::any_of(config.partition_columns.begin(), config.partition_columns.end(),
                    [&](const std::string& p) { return column.size() == 1 && ascii_iequals(p, column.front()); })) {
      throw InputError(name + " is a partition column: partition columns have no stats");
    }
    bool found = false;
    for (const Leaf& leaf : schema.leaves()) {
      if (!is_prefix_of(column, leaf.path)) continue;
      found = true;
      if (++listed[leaf.ordinal] > 1) throw InputError(path_to_sql(leaf.path) + " is listed twice");
    }
    if (!found) throw InputError("no column " + name + " in the schema");
  }
}

std::vector<bool> indexed_leaves(const Schema& schema, const StatsConfig& config) {
  std::vector<bool> indexed(schema.leaves().size(), false);
  int counted = 0;
  for (const Leaf& leaf : schema.leaves()) {
    const bool is_partition =
        std::any_of(config.partition_columns.begin(), config.partition_columns.end(),
                    [&](const std::string& p) { return ascii_iequals(p, leaf.path.front()); });
    if (is_partition) {
      coverage::hit(coverage::Probe::WriterPartitionColumn);
      continue;
    }
    if (config.stats_columns) {
      coverage::hit(coverage::Probe::WriterStatsColumns);
      indexed[leaf.ordinal] =
          std::any_of(config.stats_columns->begin(), config.stats_columns->end(),
                      [&](const ColumnPath& c) { return is_prefix_of(c, leaf.path); });
    } else {
      indexed[leaf.ordinal] = config.num_indexed_cols < 0 || counted < config.num_indexed_cols;
      ++counted;
    }
    if (!indexed[leaf.ordinal]) coverage::hit(coverage::Probe::WriterNotIndexed);
  }
  return indexed;
}

FileStats collect_stats(const std::vector<Row>& rows, const Schema& schema,
                        const StatsConfig& config, bool with_tight_bounds) {
  FileStats stats;
  stats.num_records = static_cast<int64_t>(rows.size());
  coverage::hit(coverage::Probe::WriterFile);
  if (with_tight_bounds) stats.tight_bounds = true;
  const std::vector<bool> indexed = indexed_leaves(schema, config);
  for (const Leaf& leaf : schema.leaves()) {
    if (!indexed[leaf.ordinal]) continue;
    const bool track_bounds = has_min_max(leaf.type.kind);
    if (!track_bounds) coverage::hit(coverage::Probe::WriterNoMinMaxForType);
    LeafAccumulator acc;
    for (const Row& row : rows) {
      // A short row lacks the trailing columns: they were absent from the written data, and a
      // reader sees NULL there (docs/semantics.md §4.6), unless the absent-leaf-nullcount-zero
      // mutant counts them as values.
      const bool present = static_cast<size_t>(leaf.ordinal) < row.size();
      if (present) {
        acc.add(row[leaf.ordinal], track_bounds);
      } else {
        coverage::hit(coverage::Probe::WriterAbsentLeaf);
        if (!fault_active(Mutant::AbsentLeafNullcountZero)) ++acc.nulls;
      }
    }
    stats.column_mut(leaf.ordinal) = finish(acc, leaf.type, config);
  }
  return stats;
}

}  // namespace skipsound
