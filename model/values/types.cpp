#include "model/values/types.h"

#include <algorithm>
#include <cctype>
#include <limits>
#include <stdexcept>

namespace skipsound {

DataType DataType::array(DataType element, bool contains_null) {
  DataType t = of(TypeKind::Array);
  t.fields.push_back(StructField{"element", std::move(element), contains_null, {}});
  return t;
}

DataType DataType::map(DataType key, DataType value, bool value_contains_null) {
  DataType t = of(TypeKind::Map);
  t.fields.push_back(StructField{"key", std::move(key), false, {}});
  t.fields.push_back(StructField{"value", std::move(value), value_contains_null, {}});
  return t;
}

bool DataType::operator==(const DataType& other) const {
  if (kind != other.kind) return false;
  if (kind == TypeKind::Decimal) return precision == other.precision && scale == other.scale;
  return fields == other.fields;
}

bool is_integral(TypeKind k) {
  return k == TypeKind::Byte || k == TypeKind::Short || k == TypeKind::Int || k == TypeKind::Long;
}
bool is_floating(TypeKind k) { return k == TypeKind::Float || k == TypeKind::Double; }
bool is_numeric(TypeKind k) { return is_integral(k) || is_floating(k) || k == TypeKind::Decimal; }
bool is_timestamp(TypeKind k) { return k == TypeKind::Timestamp || k == TypeKind::TimestampNtz; }
bool is_temporal(TypeKind k) { return k == TypeKind::Date || is_timestamp(k); }
bool is_int64_backed(TypeKind k) { return is_integral(k) || is_temporal(k); }
bool has_min_max(TypeKind k) { return is_numeric(k) || is_temporal(k) || k == TypeKind::String; }

std::string type_name(const DataType& t) {
  switch (t.kind) {
    case TypeKind::Null: return "void";
    case TypeKind::Boolean: return "boolean";
    case TypeKind::Byte: return "tinyint";
    case TypeKind::Short: return "smallint";
    case TypeKind::Int: return "int";
    case TypeKind::Long: return "bigint";
    case TypeKind::Float: return "float";
    case TypeKind::Double: return "double";
    case TypeKind::Decimal:
      return "decimal(" + std::to_string(t.precision) + "," + std::to_string(t.scale) + ")";
    case TypeKind::Date: return "date";
    case TypeKind::Timestamp: return "timestamp";
    case TypeKind::TimestampNtz: return "timestamp_ntz";
    case TypeKind::String: return "string";
    case TypeKind::Binary: return "binary";
    case TypeKind::Struct: {
      std::string out = "struct<";
      for (size_t i = 0; i < t.fields.size(); ++i) {
        if (i > 0) out += ",";
        out += t.fields[i].name + ":" + type_name(t.fields[i].type);
      }
      return out + ">";
    }
    case TypeKind::Array:
      return t.fields.empty() ? "array" : "array<" + type_name(t.fields[0].type) + ">";
    case TypeKind::Map:
      return t.fields.size() < 2
                 ? "map"
                 : "map<" + type_name(t.fields[0].type) + "," + type_name(t.fields[1].type) + ">";
  }
  return "?";
}

namespace {

std::string lower_trimmed(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (!std::isspace(static_cast<unsigned char>(c))) {
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
  }
  return out;
}

int parse_small_int(const std::string& digits, const std::string& whole) {
  if (digits.empty() || digits.size() > 3 ||
      !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    throw std::invalid_argument("bad decimal type: " + whole);
  }
  return std::stoi(digits);
}

DataType parse_decimal_type(const std::string& name, const std::string& args) {
  if (args.empty()) return DataType::decimal(10, 0);
  if (args.front() != '(' || args.back() != ')') throw std::invalid_argument("bad type: " + name);
  std::string inner = args.substr(1, args.size() - 2);
  size_t comma = inner.find(',');
  int precision = parse_small_int(inner.substr(0, comma), name);
  int scale = comma == std::string::npos ? 0 : parse_small_int(inner.substr(comma + 1), name);
  if (precision < 1 || precision > kMaxDecimalPrecision || scale > precision) {
    throw std::invalid_argument("decimal precision/scale out of range: " + name);
  }
  return DataType::decimal(precision, scale);
}

}  // namespace

DataType parse_type_name(const std::string& name) {
  const std::string n = lower_trimmed(name);
  struct Alias {
    const char* name;
    TypeKind kind;
  };
  static const Alias aliases[] = {
      {"boolean", TypeKind::Boolean},   {"bool", TypeKind::Boolean},
      {"byte", TypeKind::Byte},         {"tinyint", TypeKind::Byte},
      {"short", TypeKind::Short},       {"smallint", TypeKind::Short},
      {"int", TypeKind::Int},           {"integer", TypeKind::Int},
      {"long", TypeKind::Long},         {"bigint", TypeKind::Long},
      {"float", TypeKind::Float},       {"real", TypeKind::Float},
      {"double", TypeKind::Double},     {"date", TypeKind::Date},
      {"timestamp", TypeKind::Timestamp}, {"timestamp_ltz", TypeKind::Timestamp},
      {"timestamp_ntz", TypeKind::TimestampNtz}, {"string", TypeKind::String},
      {"binary", TypeKind::Binary},     {"void", TypeKind::Null},
  };
  for (const Alias& a : aliases) {
    if (n == a.name) return DataType::of(a.kind);
  }
  for (const char* prefix : {"decimal", "numeric", "dec"}) {
    const std::string p = prefix;
    if (n.compare(0, p.size(), p) == 0 && (n.size() == p.size() || n[p.size()] == '(')) {
      return parse_decimal_type(name, n.substr(p.size()));
    }
  }
  // char(n) / varchar(n) are strings to Spark once stored.
  for (const char* prefix : {"varchar(", "char("}) {
    const std::string p = prefix;
    if (n.compare(0, p.size(), p) == 0 && n.back() == ')') return DataType::of(TypeKind::String);
  }
  throw std::invalid_argument("unknown type: " + name);
}

long long integral_min(TypeKind k) {
  switch (k) {
    case TypeKind::Byte: return std::numeric_limits<int8_t>::min();
    case TypeKind::Short: return std::numeric_limits<int16_t>::min();
    case TypeKind::Int: return std::numeric_limits<int32_t>::min();
    default: return std::numeric_limits<int64_t>::min();
  }
}

long long integral_max(TypeKind k) {
  switch (k) {
    case TypeKind::Byte: return std::numeric_limits<int8_t>::max();
    case TypeKind::Short: return std::numeric_limits<int16_t>::max();
    case TypeKind::Int: return std::numeric_limits<int32_t>::max();
    default: return std::numeric_limits<int64_t>::max();
  }
}

}  // namespace skipsound
