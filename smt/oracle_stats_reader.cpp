#include "smt/oracle_stats_reader.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>

#include <nlohmann/json.hpp>

#include "model/sql/printer.h"
#include "model/values/exact_json.h"
#include "model/values/temporal.h"

namespace skipsound::smt {

namespace {

using nlohmann::json;

// Builds the document down to `keep_depth` levels, numbers kept as their exact text
// (model/values/exact_json.h); a container below that becomes one null and everything inside it
// is dropped, so an unknown field nested however deep reads as the production reader skips it.
class ShallowDocument {
 public:
  ShallowDocument(json& result, int keep_depth) : dom_(result), keep_depth_(keep_depth) {}
  bool null() { return skipping() || dom_.null(); }
  bool boolean(bool b) { return skipping() || dom_.boolean(b); }
  bool number_integer(json::number_integer_t v) { return skipping() || dom_.number_integer(v); }
  bool number_unsigned(json::number_unsigned_t v) { return skipping() || dom_.number_unsigned(v); }
  bool number_float(json::number_float_t, const std::string& text) {
    if (skipping()) return true;
    json kept = kept_number(text);
    return dom_.binary(kept.get_binary());
  }
  bool string(std::string& s) { return skipping() || dom_.string(s); }
  bool binary(json::binary_t& b) { return skipping() || dom_.binary(b); }
  bool key(std::string& k) { return skipping() || dom_.key(k); }
  bool start_object(std::size_t n) { return enter() || dom_.start_object(n); }
  bool start_array(std::size_t n) { return enter() || dom_.start_array(n); }
  bool end_object() { return leave() || dom_.end_object(); }
  bool end_array() { return leave() || dom_.end_array(); }
  template <typename Exception>
  bool parse_error(std::size_t position, const std::string&, const Exception& e) {
    throw_as_parse_error(position, e);
  }

 private:
  bool skipping() const { return depth_ > keep_depth_; }
  // True when the event is dropped: the container that crosses the depth stands as a null.
  bool enter() {
    if (++depth_ == keep_depth_ + 1) dom_.null();
    return skipping();
  }
  bool leave() { return depth_-- > keep_depth_; }

  nlohmann::detail::json_sax_dom_parser<json> dom_;
  int keep_depth_;
  int depth_ = 0;
};

// A JSON number's text split into its parts: [-]digits[.fraction][e[+-]exponent].
struct NumberText {
  bool negative = false;
  std::string digits;     // integer and fraction digits together, without leading zeros
  long long exponent = 0;  // the value is digits * 10^exponent
};

// The exponent beyond which no value of a 38-digit column survives (nor a zero changes).
constexpr long long kExponentCap = 1'000'000;

std::optional<NumberText> split_number(const std::string& text) {
  NumberText n;
  size_t i = 0;
  if (i < text.size() && (text[i] == '-' || text[i] == '+')) n.negative = text[i++] == '-';
  std::string all;
  size_t fraction_digits = 0;
  bool point = false;
  for (; i < text.size(); ++i) {
    if (text[i] == '.' && !point) {
      point = true;
    } else if (std::isdigit(static_cast<unsigned char>(text[i]))) {
      all += text[i];
      fraction_digits += point;
    } else {
      break;
    }
  }
  if (all.empty()) return std::nullopt;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    bool negative_exponent = false;
    if (i < text.size() && (text[i] == '-' || text[i] == '+')) negative_exponent = text[i++] == '-';
    const size_t start = i;
    for (; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); ++i) {
      n.exponent = std::min(kExponentCap, n.exponent * 10 + (text[i] - '0'));
    }
    if (i == start) return std::nullopt;
    if (negative_exponent) n.exponent = -n.exponent;
  }
  if (i != text.size()) return std::nullopt;
  n.exponent -= static_cast<long long>(fraction_digits);
  const size_t first = all.find_first_not_of('0');
  n.digits = first == std::string::npos ? "" : all.substr(first);
  while (!n.digits.empty() && n.digits.back() == '0') {  // trailing zeros move into the exponent
    n.digits.pop_back();
    ++n.exponent;
  }
  return n;
}

// The unscaled value at `scale` with at most `precision` digits, or nullopt when the number has
// digits below the scale or too many above it.
std::optional<__int128> unscaled_at(const NumberText& n, int scale, int precision) {
  if (n.digits.empty()) return 0;
  const long long shift = n.exponent + scale;
  if (shift < 0 || static_cast<long long>(n.digits.size()) + shift > precision) return std::nullopt;
  __int128 v = 0;
  for (char c : n.digits) v = v * 10 + (c - '0');
  for (long long k = 0; k < shift; ++k) v *= 10;
  return n.negative ? -v : v;
}

std::optional<int64_t> integer_of(const std::string& text, long long lowest, long long highest) {
  const std::optional<NumberText> n = split_number(text);
  // Integral columns and counts take JSON integers only: no point, no exponent.
  if (!n || text.find_first_of(".eE") != std::string::npos) return std::nullopt;
  const std::optional<__int128> v = unscaled_at(*n, 0, 19);
  if (!v || *v < lowest || *v > highest) return std::nullopt;
  return static_cast<int64_t>(*v);
}

std::optional<double> special_double(const std::string& s) {
  if (s == "NaN") return std::nan("");
  if (s == "Infinity" || s == "+Infinity" || s == "INF" || s == "+INF") return HUGE_VAL;
  if (s == "-Infinity" || s == "-INF") return -HUGE_VAL;
  return std::nullopt;
}

// One min or max, read as the column's type; nullopt when it is no value of that type.
std::optional<Value> bound_of(const json& j, const DataType& type) {
  const std::optional<std::string> number = number_text(j);
  const std::string* text = j.is_string() ? &j.get_ref<const std::string&>() : nullptr;
  const TypeKind k = type.kind;
  if (is_integral(k)) {
    if (!number) return std::nullopt;
    const auto v = integer_of(*number, integral_min(k), integral_max(k));
    return v ? std::optional(Value::integral(k, *v)) : std::nullopt;
  }
  if (is_floating(k)) {
    if (text) {
      const auto special = special_double(*text);
      return special ? std::optional(Value::floating(k, *special)) : std::nullopt;
    }
    return number ? std::optional(Value::floating(k, std::strtod(number->c_str(), nullptr))) : std::nullopt;
  }
  if (k == TypeKind::Decimal) {
    const std::optional<NumberText> n = split_number(text ? *text : number.value_or(""));
    const std::optional<__int128> v = n ? unscaled_at(*n, type.scale, type.precision) : std::nullopt;
    return v ? std::optional(Value::decimal(Decimal{*v, type.scale}, type.precision)) : std::nullopt;
  }
  if (!text) return std::nullopt;
  std::optional<int64_t> v;
  switch (k) {
    case TypeKind::String: return Value::string(*text);
    case TypeKind::Date: v = parse_date(*text); break;
    case TypeKind::Timestamp: v = parse_timestamp(*text, ZonePolicy::ConvertToUtc); break;
    case TypeKind::TimestampNtz: v = parse_timestamp(*text, ZonePolicy::Reject); break;
    default: return std::nullopt;
  }
  return v ? std::optional(Value::integral(k, *v)) : std::nullopt;
}

std::optional<Value> count_of(const json& j) {
  const std::optional<std::string> number = number_text(j);
  const auto v = number ? integer_of(*number, 0, INT64_MAX) : std::nullopt;
  return v ? std::optional(Value::integral(TypeKind::Long, *v)) : std::nullopt;
}

const char* section_key(StatField f) {
  switch (f) {
    case StatField::Min: return "minValues";
    case StatField::Max: return "maxValues";
    case StatField::NullCount: return "nullCount";
    case StatField::NumRecords: return "numRecords";
    case StatField::TightBounds: return "tightBounds";
  }
  return "";
}

// The leaf's value in a section, following its names through the struct objects; nullptr when
// absent or null.
const json* leaf_in(const json& stats, StatField f, const ColumnPath& names) {
  const auto section = stats.find(section_key(f));
  if (section == stats.end()) return nullptr;
  const json* at = &*section;
  for (const std::string& name : names) {
    if (!at->is_object()) return nullptr;
    const auto next = at->find(name);
    if (next == at->end()) return nullptr;
    at = &*next;
  }
  return at->is_null() ? nullptr : at;
}

std::optional<Value> production_value(const FileStats& s, StatField f, int leaf) {
  const ColumnStats& c = s.column(leaf);
  switch (f) {
    case StatField::Min: return c.min;
    case StatField::Max: return c.max;
    case StatField::NullCount:
      return c.null_count ? std::optional(Value::integral(TypeKind::Long, *c.null_count)) : std::nullopt;
    case StatField::NumRecords:
      return s.num_records ? std::optional(Value::integral(TypeKind::Long, *s.num_records)) : std::nullopt;
    case StatField::TightBounds: return s.tight_bounds ? std::optional(Value::boolean(*s.tight_bounds)) : std::nullopt;
  }
  return std::nullopt;
}

class Reader {
 public:
  Reader(const Schema& schema, const FileStats& production) : schema_(schema), production_(production) {}

  OracleStatsRead read(const json& stats, StatsNaming naming) {
    compare(StatField::NumRecords, -1, top_level(stats, "numRecords"), count_of);
    compare(StatField::TightBounds, -1, top_level(stats, "tightBounds"),
            [](const json& j) { return j.is_boolean() ? std::optional(Value::boolean(j.get<bool>())) : std::nullopt; });
    for (const Leaf& leaf : schema_.leaves()) {
      const ColumnPath& names = naming == StatsNaming::Physical ? leaf.physical_path : leaf.path;
      compare(StatField::NullCount, leaf.ordinal, leaf_in(stats, StatField::NullCount, names), count_of);
      if (!has_min_max(leaf.type.kind)) continue;
      const auto as_bound = [&](const json& j) { return bound_of(j, leaf.type); };
      compare(StatField::Min, leaf.ordinal, leaf_in(stats, StatField::Min, names), as_bound);
      compare(StatField::Max, leaf.ordinal, leaf_in(stats, StatField::Max, names), as_bound);
    }
    return std::move(out_);
  }

 private:
  static const json* top_level(const json& stats, const char* key) {
    const auto it = stats.find(key);
    return it == stats.end() || it->is_null() ? nullptr : &*it;
  }

  template <typename Decode>
  void compare(StatField f, int leaf, const json* j, Decode decode) {
    std::optional<Value> oracle = j != nullptr ? decode(*j) : std::nullopt;
    std::optional<Value> production = production_value(production_, f, leaf);
    ++out_.stats_read;
    if (oracle) keep(f, leaf, *oracle);
    if (oracle == production) return;
    out_.differences.push_back({f, leaf, j != nullptr ? dump_json(*j) : "", std::move(oracle), std::move(production)});
  }

  void keep(StatField f, int leaf, const Value& v) {
    switch (f) {
      case StatField::NumRecords: out_.stats.num_records = v.as_int(); break;
      case StatField::TightBounds: out_.stats.tight_bounds = v.as_bool(); break;
      case StatField::NullCount: out_.stats.column_mut(leaf).null_count = v.as_int(); break;
      case StatField::Min: out_.stats.column_mut(leaf).min = v; break;
      case StatField::Max: out_.stats.column_mut(leaf).max = v; break;
    }
  }

  const Schema& schema_;
  const FileStats& production_;
  OracleStatsRead out_;
};

std::string shown(const std::optional<Value>& v) {
  if (!v) return "nothing";
  return v->type.kind == TypeKind::String ? to_sql_literal(*v) : to_display(*v);
}

}  // namespace

OracleStatsRead read_stats_for_oracle(std::string_view text, const Schema& schema, StatsNaming naming,
                                      const FileStats& production) {
  // The stats object, its sections and each leaf's struct objects: what lies deeper is no stat
  // (the production reader skips unknown fields, however deeply nested).
  size_t depth = 0;
  for (const Leaf& leaf : schema.leaves()) depth = std::max(depth, leaf.path.size());
  json stats;
  try {
    ShallowDocument document(stats, static_cast<int>(depth) + 2);
    json::sax_parse(text.data(), text.data() + text.size(), &document);
  } catch (const json::exception&) {
    stats = json::object();  // the production reader refused it too, or every stat it read differs
  }
  if (!stats.is_object()) stats = json::object();
  return Reader(schema, production).read(stats, naming);
}

std::string stat_name(const DecodeDifference& d, const Schema& schema) {
  std::string name = section_key(d.field);
  if (d.leaf < 0) return name;
  for (const std::string& part : schema.leaves().at(static_cast<size_t>(d.leaf)).path) name += "." + part;
  return name;
}

std::string describe_difference(const DecodeDifference& d, const Schema& schema) {
  return stat_name(d, schema) + ": written " + (d.text.empty() ? "nothing" : d.text) + ", the oracle reads " +
         shown(d.oracle) + ", the production reader " + shown(d.production);
}

}  // namespace skipsound::smt
