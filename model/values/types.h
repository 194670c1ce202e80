// Spark SQL data types as skipsound models them (docs/semantics.md §2.1).
#pragma once
#include <memory>
#include <string>
#include <vector>

namespace skipsound {

enum class TypeKind {
  Null,  // the type of an untyped NULL literal
  Boolean,
  Byte,
  Short,
  Int,
  Long,
  Float,
  Double,
  Decimal,
  Date,          // days since 1970-01-01
  Timestamp,     // microseconds since the epoch, UTC session zone
  TimestampNtz,  // microseconds since the epoch, no zone
  String,        // UTF-8
  Binary,
  Struct,
  Array,
  Map,
};

struct StructField;

struct DataType {
  TypeKind kind = TypeKind::Null;
  int precision = 0;  // decimal only
  int scale = 0;      // decimal only
  // Struct: its fields. Array: one field "element" (nullable = containsNull). Map: two fields,
  // "key" and "value" (value nullable = valueContainsNull). Reusing `fields` keeps one recursive
  // shape for every nested type.
  std::vector<StructField> fields;

  static DataType of(TypeKind k);
  static DataType decimal(int p, int s);
  static DataType array(DataType element, bool contains_null = true);
  static DataType map(DataType key, DataType value, bool value_contains_null = true);

  bool operator==(const DataType& other) const;
};

struct StructField {
  std::string name;  // logical name
  DataType type;
  bool nullable = true;
  std::string physical_name;  // column mapping; empty when not mapped
  bool operator==(const StructField& other) const = default;
};

// Defined after StructField: DataType's vector<StructField> needs the complete type (clang).
inline DataType DataType::of(TypeKind k) { return DataType{k, 0, 0, {}}; }
inline DataType DataType::decimal(int p, int s) { return DataType{TypeKind::Decimal, p, s, {}}; }


bool is_integral(TypeKind k);     // byte, short, int, long
bool is_floating(TypeKind k);     // float, double
bool is_numeric(TypeKind k);      // integral, floating, decimal
bool is_temporal(TypeKind k);     // date, timestamp, timestamp_ntz
bool is_timestamp(TypeKind k);    // timestamp, timestamp_ntz
bool is_int64_backed(TypeKind k); // integral or temporal: stored as int64
// Types for which a Delta writer records min/max (docs/semantics.md §4.2): never boolean, binary or nested.
bool has_min_max(TypeKind k);

inline constexpr int kMaxDecimalPrecision = 38;

// Spark's simpleString: "int", "decimal(10,2)", "timestamp_ntz", "struct<a:int>", "array<string>".
std::string type_name(const DataType& t);
// Parses a simple type name as written in CAST(... AS type) or a schema, case-insensitively:
// Spark SQL names (tinyint, smallint, int, bigint, real, ...) and schema-JSON names (byte, short,
// integer, long, ...); "decimal" alone is decimal(10,0). Throws std::invalid_argument.
DataType parse_type_name(const std::string& name);

// Inclusive value range of an integral type.
long long integral_min(TypeKind k);
long long integral_max(TypeKind k);

}  // namespace skipsound
