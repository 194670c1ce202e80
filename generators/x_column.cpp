#include "generators/x_column.h"

#include <cstdio>

#include "model/values/enum_names.h"
#include "model/values/temporal.h"

namespace skipsound::generators {

namespace {

// 31 code points (32 UTF-16 units: the emoji is a surrogate pair), so with two digits a value
// is 33 code points long and its stats are truncated to the prefix (docs/semantics.md §4.4).
const std::string kStringPrefix = "ab\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9"
                                  "\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9"
                                  "\u00e9\u00e9\u00e9\u00e9\U0001F600";

std::string decimal_text(int rank) {
  // rank / 4 with two digits of scale: -1 -> -0.25, 9 -> 2.25
  const int hundredths = rank * 25;
  const int whole = hundredths / 100;
  const int frac = hundredths % 100 < 0 ? -(hundredths % 100) : hundredths % 100;
  char text[32];
  std::snprintf(text, sizeof text, "%s%d.%02d", hundredths < 0 && whole == 0 ? "-" : "", whole, frac);
  return text;
}

std::string double_text(int rank) {
  if (rank == 0) return "-0.0";
  return std::to_string(rank) + ".5";  // between the integers, so no rank equals an int literal
}

std::string string_text(int rank) {
  if (rank < 0) return kStringPrefix;  // below every two-digit value
  return kStringPrefix + (rank < 10 ? "0" : "") + std::to_string(rank);
}

std::string date_text(int rank) { return format_date(days_from_civil(2024, 2, 20) + rank); }

std::string timestamp_text(int rank) {
  // 250 microseconds a rank from 01:59:59.995: rank 20 is the next second.
  const int micros = 995'000 + rank * 250;
  const int second = 59 + micros / 1'000'000;
  char text[40];
  std::snprintf(text, sizeof text, "2024-03-10 %s.%06d", second == 59 ? "01:59:59" : "02:00:00", micros % 1'000'000);
  return text;
}

// before + text + after, appended in place (GCC 12 warns, wrongly, on "literal" + temporary).
std::string wrapped(const char* before, const std::string& text, const char* after) {
  std::string out(before);
  out.append(text).append(after);
  return out;
}

constexpr EnumNames kXTypeNames{std::to_array<EnumName<XType>>({
    {XType::Int, "int"},
    {XType::Decimal, "decimal(10,2)"},
    {XType::Double, "double"},
    {XType::String, "string"},
    {XType::Date, "date"},
    {XType::Timestamp, "timestamp"},
})};

}  // namespace

const char* x_type_sql(XType type) { return kXTypeNames.name(type); }

const std::vector<XType>& all_x_types() {
  static const std::vector<XType> kAll = kXTypeNames.values();
  return kAll;
}

std::string x_literal(XType type, int rank) {
  switch (type) {
    case XType::Int: return std::to_string(rank);
    case XType::Decimal: return decimal_text(rank);
    // The D suffix makes a double literal: Spark reads 1.5 as a decimal, which UPDATE does not assign.
    case XType::Double: return rank >= kDoubleNanRank ? "CAST('NaN' AS DOUBLE)" : double_text(rank) + "D";
    case XType::String: return wrapped("'", string_text(rank), "'");
    case XType::Date: return wrapped("DATE '", date_text(rank), "'");
    case XType::Timestamp: return wrapped("TIMESTAMP '", timestamp_text(rank), "'");
  }
  return "?";
}

std::string x_json(XType type, std::optional<int> rank) {
  if (!rank) return "null";
  switch (type) {
    case XType::Int: return std::to_string(*rank);
    case XType::Decimal: return wrapped("\"", decimal_text(*rank), "\"");
    case XType::Double: return *rank >= kDoubleNanRank ? "\"NaN\"" : double_text(*rank);
    case XType::String: return wrapped("\"", string_text(*rank), "\"");
    case XType::Date: return wrapped("\"", date_text(*rank), "\"");
    case XType::Timestamp: return wrapped("\"", timestamp_text(*rank), "\"");
  }
  return "null";
}

bool x_has_plus_one(XType type) {
  return type == XType::Int || type == XType::Decimal || type == XType::Double;
}

}  // namespace skipsound::generators
