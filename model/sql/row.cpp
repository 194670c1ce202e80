#include "model/sql/row.h"

#include <algorithm>
#include <cmath>

#include <nlohmann/json.hpp>

#include "model/values/exact_json.h"
#include "model/values/input_error.h"
#include "model/values/temporal.h"
#include "model/values/utf8.h"

namespace skipsound {

namespace {

using nlohmann::json;

[[noreturn]] void wrong(const json& j, const DataType& type, const std::string& expected) {
  std::string shown = dump_json(j, -1, false, json::error_handler_t::replace);
  if (shown.size() > 60) shown = shown.substr(0, 57) + "...";
  throw InputError("expected " + expected + " for " + type_name(type) + ", got " + shown);
}

Value integral_from_json(const json& j, const DataType& type) {
  long long v = 0;
  if (j.is_number_unsigned()) {
    if (j.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX)) wrong(j, type, "an in-range integer");
    v = static_cast<long long>(j.get<uint64_t>());
  } else if (j.is_number_integer()) {
    v = j.get<int64_t>();
  } else {
    wrong(j, type, "an integer");
  }
  if (v < integral_min(type.kind) || v > integral_max(type.kind)) {
    wrong(j, type, "an in-range integer");
  }
  return Value::integral(type.kind, v);
}

std::optional<double> special_floating(const std::string& s) {
  if (s == "NaN") return std::nan("");
  if (s == "Infinity" || s == "+Infinity" || s == "INF" || s == "+INF") return INFINITY;
  if (s == "-Infinity" || s == "-INF") return -INFINITY;
  return std::nullopt;
}

Value floating_from_json(const json& j, const DataType& type) {
  if (j.is_string()) {
    auto special = special_floating(j.get<std::string>());
    if (!special) wrong(j, type, "a number, \"NaN\", \"Infinity\" or \"-Infinity\"");
    return Value::floating(type.kind, *special);
  }
  auto text = number_text(j);
  if (!text) wrong(j, type, "a number");
  if (j.is_number()) return Value::floating(type.kind, j.get<double>());
  // Kept number text: strtod rounds correctly and saturates to +-inf as Jackson does.
  return Value::floating(type.kind, std::strtod(text->c_str(), nullptr));
}

// The same number without the zeros that end its fraction: "1.50" as "1.5", "2.0E3" as "2E3".
std::string without_trailing_fraction_zeros(std::string text) {
  const size_t point = text.find('.');
  if (point == std::string::npos) return text;
  const size_t exponent = std::min(text.find_first_of("eE"), text.size());
  size_t end = exponent;
  while (end > point + 1 && text[end - 1] == '0') --end;
  if (end == point + 1) --end;  // no fraction digit left: no point either
  return text.erase(end, exponent - end);
}

// How skipsound writes a decimal in JSON: a number with the decimal's digits, the trailing zeros
// of its fraction dropped and one fraction digit at least (1.50 as 1.5, -1 as -1.0), the text the
// double a smaller decimal fits in prints, without its rounding.
std::string decimal_json_text(const Decimal& d) {
  const std::string text = without_trailing_fraction_zeros(decimal_to_string(d));
  return text.find('.') == std::string::npos ? text + ".0" : text;
}

Value decimal_from_json(const json& j, const DataType& type) {
  std::optional<std::string> text = j.is_string() ? j.get<std::string>() : number_text(j);
  if (!text) wrong(j, type, "a decimal number");
  Decimal d;
  try {
    // Zeros that end the fraction say nothing of the value, and a decimal(38,0) written as
    // 99999999999999999999999999999999999999.0 has 39 digits with them (Spark reads it too).
    d = parse_decimal(without_trailing_fraction_zeros(*text));
  } catch (const std::invalid_argument&) {
    wrong(j, type, "a decimal number");
  }
  auto at_scale = rescale_decimal(d, type.scale);
  if (!at_scale || !fits_precision(*at_scale, type.precision)) {
    wrong(j, type, "a value that fits " + type_name(type));
  }
  return Value::decimal(*at_scale, type.precision);
}

Value temporal_from_json(const json& j, const DataType& type) {
  if (!j.is_string()) wrong(j, type, "a quoted " + type_name(type));
  const std::string& s = j.get_ref<const std::string&>();
  std::optional<int64_t> v;
  switch (type.kind) {
    case TypeKind::Date: v = parse_date(s); break;
    case TypeKind::Timestamp: v = parse_timestamp(s, ZonePolicy::ConvertToUtc); break;
    default: v = parse_timestamp(s, ZonePolicy::Reject); break;
  }
  if (!v) wrong(j, type, type.kind == TypeKind::Date ? "a date yyyy-mm-dd" : "a timestamp");
  return Value::integral(type.kind, *v);
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

Value binary_from_json(const json& j, const DataType& type) {
  if (!j.is_string()) wrong(j, type, "a hex string");
  const std::string& hex = j.get_ref<const std::string&>();
  if (hex.size() % 2 != 0) wrong(j, type, "a hex string");
  std::string bytes;
  for (size_t i = 0; i < hex.size(); i += 2) {
    const int hi = hex_digit(hex[i]), lo = hex_digit(hex[i + 1]);
    if (hi < 0 || lo < 0) wrong(j, type, "a hex string");
    bytes += static_cast<char>(hi * 16 + lo);
  }
  return Value::binary(std::move(bytes));
}

void row_values_from_json(const json& object, const std::vector<StructField>& fields,
                          std::string prefix, Row& row, int& ordinal);

void field_from_json(const json* j, const StructField& field, const std::string& path,
                     Row& row, int& ordinal) {
  if (field.type.kind == TypeKind::Struct) {
    if (j != nullptr && !j->is_null() && !j->is_object()) {
      throw InputError("column " + path + ": expected an object for a struct");
    }
    static const json empty = json::object();
    row_values_from_json(j != nullptr && j->is_object() ? *j : empty, field.type.fields,
                         path + ".", row, ordinal);
    return;
  }
  if (j != nullptr) {
    try {
      row[ordinal] = value_from_json(*j, field.type);
    } catch (const InputError& e) {
      throw InputError("column " + path + ": " + e.message());
    }
  }
  ++ordinal;
}

void row_values_from_json(const json& object, const std::vector<StructField>& fields,
                          std::string prefix, Row& row, int& ordinal) {
  for (const StructField& field : fields) {
    auto it = object.find(field.name);
    field_from_json(it == object.end() ? nullptr : &*it, field, prefix + field.name, row, ordinal);
  }
}

}  // namespace

Value value_from_json(const json& j, const DataType& type) {
  if (j.is_null()) return Value::null(type);
  const TypeKind k = type.kind;
  if (k == TypeKind::Boolean) {
    if (!j.is_boolean()) wrong(j, type, "true or false");
    return Value::boolean(j.get<bool>());
  }
  if (is_integral(k)) return integral_from_json(j, type);
  if (is_floating(k)) return floating_from_json(j, type);
  if (k == TypeKind::Decimal) return decimal_from_json(j, type);
  if (is_temporal(k)) return temporal_from_json(j, type);
  if (k == TypeKind::String) {
    if (!j.is_string()) wrong(j, type, "a string");
    if (!is_valid_utf8(j.get_ref<const std::string&>())) wrong(j, type, "valid UTF-8");
    return Value::string(j.get<std::string>());
  }
  if (k == TypeKind::Binary) return binary_from_json(j, type);
  if (k == TypeKind::Array && j.is_array()) return Value::opaque(type, dump_json(j));
  if (k == TypeKind::Map && j.is_object()) return Value::opaque(type, dump_json(j));
  wrong(j, type, k == TypeKind::Array ? "an array" : k == TypeKind::Map ? "an object" : "a scalar");
}

json value_to_json(const Value& v) {
  if (v.is_null()) return nullptr;
  switch (v.type.kind) {
    case TypeKind::Boolean: return v.as_bool();
    case TypeKind::Float:
    case TypeKind::Double:
      if (std::isnan(v.as_double())) return "NaN";
      if (std::isinf(v.as_double())) return v.as_double() > 0 ? "Infinity" : "-Infinity";
      return v.as_double();
    // A JSON number, as Delta writes decimal stats, from the decimal's own digits: no double holds 38.
    case TypeKind::Decimal: return kept_number(decimal_json_text(v.as_decimal()));
    case TypeKind::Date: return format_date(v.as_int());
    case TypeKind::Timestamp: return format_timestamp(v.as_int(), TimestampFormat{'T', 3, true});
    case TypeKind::TimestampNtz:
      return format_timestamp(v.as_int(), TimestampFormat{'T', 3, false});
    case TypeKind::String: return v.as_string();
    case TypeKind::Binary: return hex_upper(v.as_string());
    case TypeKind::Array:
    case TypeKind::Map: return parse_json_exact(v.as_string());
    default:
      if (is_integral(v.type.kind)) return v.as_int();
      throw std::invalid_argument("no JSON form for " + type_name(v.type));
  }
}

Row row_from_json(const json& j, const Schema& schema) {
  if (!j.is_object()) throw InputError("a row must be a JSON object");
  Row row;
  row.reserve(schema.leaves().size());
  for (const Leaf& leaf : schema.leaves()) row.push_back(Value::null(leaf.type));
  int ordinal = 0;
  row_values_from_json(j, schema.fields(), "", row, ordinal);
  return row;
}

json row_to_json(const Row& row, const Schema& schema) {
  json out = json::object();
  for (const Leaf& leaf : schema.leaves()) {
    if (leaf.ordinal >= static_cast<int>(row.size()) || row[leaf.ordinal].is_null()) continue;
    json* at = &out;
    for (size_t i = 0; i + 1 < leaf.path.size(); ++i) at = &(*at)[leaf.path[i]];
    (*at)[leaf.path.back()] = value_to_json(row[leaf.ordinal]);
  }
  return out;
}

}  // namespace skipsound
