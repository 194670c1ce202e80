#include "generators/value_gen.h"

#include <cmath>
#include <limits>

#include "generators/combinators.h"
#include "model/values/temporal.h"
#include "model/values/utf8.h"

namespace skipsound::generators {
namespace {

constexpr int64_t kMicrosPerSecond = 1'000'000;
// 0001-01-01 and 9999-12-31: the range Delta's text formats round-trip.
const int64_t kFirstDay = days_from_civil(1, 1, 1);
const int64_t kLastDay = days_from_civil(9999, 12, 31);
const int64_t kFirstSecond = kFirstDay * 86'400;
const int64_t kLastSecond = kLastDay * 86'400 + 86'399;

__int128 pow10(int digits) {
  __int128 p = 1;
  for (int i = 0; i < digits; ++i) p *= 10;
  return p;
}

constexpr char32_t kGrin = 0x1F600;  // a supplementary character: two UTF-16 units

std::string repeated(char32_t c, int n) { return encode_utf8(std::vector<char32_t>(n, c)); }

std::vector<Value> string_edges() {
  std::vector<Value> edges;
  for (const std::string& s :
       {std::string(), std::string("a"), repeated(U'a', 31), repeated(U'a', 32), repeated(U'a', 33),
        repeated(U'a', 64), repeated(U'a', 65), repeated(U'a', 32) + encode_utf8({0x7F}),
        repeated(U'a', 32) + encode_utf8({0x10FFFF}), repeated(U'a', 32) + repeated(0x10FFFF, 33),
        repeated(kGrin, 33),
        encode_utf8({0x7F}), encode_utf8({0xFFFF}), encode_utf8({0x10FFFF})}) {
    edges.push_back(Value::string(s));
  }
  // A surrogate pair at UTF-16 units N−2, N−1 and N (N = 32), alone and followed by more: a cut
  // by code points and one by units differ there (docs/semantics.md §4.4).
  for (int before = kUnitBoundaryFirst; before <= kUnitBoundaryLast; ++before) {
    for (const char* tail : {"", "a", "\x7F"})
      edges.push_back(Value::string(repeated(U'a', before) + encode_utf8({kGrin}) + tail));
  }
  return edges;
}

std::vector<Value> floating_edges(TypeKind kind) {
  const bool is_float = kind == TypeKind::Float;
  const double max = is_float ? std::numeric_limits<float>::max() : std::numeric_limits<double>::max();
  const double tiny = is_float ? std::numeric_limits<float>::denorm_min()
                               : std::numeric_limits<double>::denorm_min();
  std::vector<Value> edges;
  for (double d : {std::numeric_limits<double>::quiet_NaN(), 0.0, -0.0,
                   std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
                   max, -max, tiny, 1.0, -1.0, 0.5}) {
    edges.push_back(Value::floating(kind, d));
  }
  return edges;
}

std::vector<Value> timestamp_edges(TypeKind kind) {
  std::vector<Value> edges;
  for (int64_t us : {int64_t{0}, int64_t{-1}, int64_t{1}, int64_t{999}, int64_t{1000},
                     int64_t{1001}, int64_t{999'999}, int64_t{1'000'000}, int64_t{-1000},
                     int64_t{-999'999}, kFirstSecond * kMicrosPerSecond,
                     kLastSecond * kMicrosPerSecond + 999'999}) {
    edges.push_back(Value::integral(kind, us));
  }
  return edges;
}

std::vector<Value> decimal_edges(const DataType& type) {
  const __int128 largest = pow10(type.precision) - 1;
  std::vector<Value> edges;
  for (__int128 u : {__int128{0}, __int128{1}, __int128{-1}, largest, -largest}) {
    edges.push_back(Value::decimal(Decimal{u, type.scale}, type.precision));
  }
  return edges;
}

rc::Gen<int64_t> int64_in(int64_t lo, int64_t hi_inclusive) {
  // rc::gen::inRange is half-open; the full int64 range is handled by arbitrary<int64_t>.
  if (lo == std::numeric_limits<int64_t>::min() && hi_inclusive == std::numeric_limits<int64_t>::max()) {
    return rc::gen::arbitrary<int64_t>();
  }
  return uniform_in<int64_t>(lo, hi_inclusive + 1);
}

// Small values, any value of the type, and the type's ends: a long near ±2^63 has more digits
// than a double holds.
rc::Gen<Value> random_integral(TypeKind kind) {
  const auto near_end = [kind](int64_t inside, bool low) -> int64_t {
    return low ? integral_min(kind) + inside : integral_max(kind) - inside;
  };
  return rc::gen::map(rc::gen::oneOf(int64_in(-3, 3), int64_in(integral_min(kind), integral_max(kind)),
                                     rc::gen::apply(near_end, int64_in(0, 3), rc::gen::arbitrary<bool>())),
                      [kind](int64_t v) { return Value::integral(kind, v); });
}

rc::Gen<Value> random_floating(TypeKind kind) {
  auto narrow = [kind](double d) {
    return Value::floating(kind, kind == TypeKind::Float ? static_cast<double>(static_cast<float>(d)) : d);
  };
  // One ulp above a tenth: the shortest text that reads back needs all 17 digits (0.10000000000000002).
  const auto seventeen_digits = [](int tenths) { return std::nextafter(tenths / 10.0, INFINITY); };
  return rc::gen::map(
      rc::gen::oneOf(rc::gen::map(uniform_in(-8, 9), [](int v) { return v / 2.0; }),
                     rc::gen::arbitrary<double>(), rc::gen::map(uniform_in(-1000, 1000), seventeen_digits)),
      narrow);
}

rc::Gen<Value> random_date() {
  return rc::gen::map(rc::gen::oneOf(int64_in(-3, 3), int64_in(kFirstDay, kLastDay)),
                      [](int64_t d) { return Value::integral(TypeKind::Date, d); });
}

// A second, then a fraction that lands on, just before or just after a millisecond edge.
rc::Gen<Value> random_timestamp(TypeKind kind) {
  auto seconds = rc::gen::oneOf(int64_in(-2, 2), int64_in(kFirstSecond, kLastSecond - 1));
  auto fraction = rc::gen::oneOf(
      rc::gen::element<int64_t>(0, 1, 999, 1000, 1001, 999'000, 999'999),
      rc::gen::map(uniform_in(0, 1000), [](int ms) { return int64_t{ms} * kMicrosPerMilli; }),
      int64_in(0, 999'999));
  return rc::gen::apply(
      [kind](int64_t s, int64_t f) { return Value::integral(kind, s * kMicrosPerSecond + f); },
      seconds, fraction);
}

// Small values, any int64 within the precision, and the precision's ends: a decimal(38) holds
// 38 digits, more than an int64 or a double (the readers must keep every one).
rc::Gen<Value> random_decimal(const DataType& type) {
  const __int128 largest = pow10(type.precision) - 1;
  // int64_in takes an inclusive end below the int64 maximum.
  const auto int64_reach = static_cast<int64_t>(std::min<__int128>(largest, std::numeric_limits<int64_t>::max() - 1));
  const auto make = [type](__int128 u) { return Value::decimal(Decimal{u, type.scale}, type.precision); };
  const auto near_end = [largest, make](int below, bool negative) {
    const __int128 u = largest - below;
    return make(negative ? -u : u);
  };
  // Every one of the precision's digits drawn, the first not zero: no double holds them past 15.
  const auto all_digits = [make](const std::vector<int>& digits, bool negative) {
    __int128 u = 0;
    for (int d : digits) u = u * 10 + d;
    return make(negative ? -u : u);
  };
  const auto full_width = rc::gen::apply(
      all_digits,
      rc::gen::mapcat(uniform_in(1, 10), [type](int first) {
        return rc::gen::map(rc::gen::container<std::vector<int>>(static_cast<size_t>(type.precision - 1), uniform_in(0, 10)),
                            [first](std::vector<int> rest) {
                              rest.insert(rest.begin(), first);
                              return rest;
                            });
      }),
      rc::gen::arbitrary<bool>());
  const auto small = static_cast<int64_t>(std::min<__int128>(largest, 200));
  return rc::gen::oneOf(rc::gen::map(rc::gen::oneOf(int64_in(-small, small), int64_in(-int64_reach, int64_reach)), make),
                        rc::gen::apply(near_end, uniform_in(0, 3), rc::gen::arbitrary<bool>()), full_width);
}

rc::Gen<Value> random_binary() {
  return rc::gen::map(
      vector_of<int>(0, 3, uniform_in(0, 256)),
      [](const std::vector<int>& bytes) {
        std::string s;
        for (int b : bytes) s.push_back(static_cast<char>(b));
        return Value::binary(s);
      });
}

rc::Gen<Value> random_value(const DataType& type) {
  switch (type.kind) {
    case TypeKind::Boolean:
      return rc::gen::map(rc::gen::arbitrary<bool>(), [](bool b) { return Value::boolean(b); });
    case TypeKind::Byte:
    case TypeKind::Short:
    case TypeKind::Int:
    case TypeKind::Long:
      return random_integral(type.kind);
    case TypeKind::Float:
    case TypeKind::Double:
      return random_floating(type.kind);
    case TypeKind::Decimal:
      return random_decimal(type);
    case TypeKind::Date:
      return random_date();
    case TypeKind::Timestamp:
    case TypeKind::TimestampNtz:
      return random_timestamp(type.kind);
    case TypeKind::String:
      return rc::gen::map(utf8_string(), [](const std::string& s) { return Value::string(s); });
    case TypeKind::Binary:
      return random_binary();
    default:
      throw std::invalid_argument("value_of: no generator for type " + type_name(type));
  }
}

}  // namespace

const std::vector<char32_t>& string_alphabet() {
  static const std::vector<char32_t> alphabet = {
      U'a', U'b', U'z', U'A', 0x7F, 0xE9 /* é */, 0x20AC /* € */, 0xFFFF, 0x1F600, 0x10FFFF};
  return alphabet;
}

rc::Gen<std::string> utf8_string() {
  // Mostly 'a'/'b' so that strings share long prefixes; the rest exercise byte lengths and the
  // code points truncation treats specially.
  auto code_point = rc::gen::weightedOneOf<char32_t>(
      {{6, rc::gen::element<char32_t>(U'a', U'b')}, {1, rc::gen::elementOf(string_alphabet())}});
  auto length = rc::gen::weightedOneOf<int>({{3, uniform_in(0, 5)},
                                             {2, rc::gen::element(31, 32, 33, 64, 65)},
                                             {1, uniform_in(0, 71)}});
  auto drawn = rc::gen::mapcat(
      length, [code_point](int n) { return rc::gen::container<std::vector<char32_t>>(n, code_point); });
  // ASCII up to UTF-16 unit N−2, N−1 or N, then a supplementary character, then a short tail.
  auto at_unit_boundary = rc::gen::apply(
      [](int before, char32_t supplementary, std::vector<char32_t> tail) {
        std::vector<char32_t> cps(static_cast<size_t>(before), U'a');
        cps.push_back(supplementary);
        cps.insert(cps.end(), tail.begin(), tail.end());
        return cps;
      },
      uniform_in(kUnitBoundaryFirst, kUnitBoundaryLast + 1), rc::gen::element(char32_t{kGrin}, char32_t{0x10FFFF}),
      vector_of<char32_t>(0, 2, code_point));
  return rc::gen::map(rc::gen::weightedOneOf<std::vector<char32_t>>({{5, drawn}, {1, at_unit_boundary}}),
                      [](const std::vector<char32_t>& cps) { return encode_utf8(cps); });
}

rc::Gen<DataType> primitive_type() {
  using K = TypeKind;
  return rc::gen::weightedOneOf<DataType>(
      {{3, rc::gen::element(DataType::of(K::Int), DataType::of(K::Long))},
       {1, rc::gen::element(DataType::of(K::Byte), DataType::of(K::Short))},
       {3, rc::gen::element(DataType::of(K::Double), DataType::of(K::Float))},
       {1, rc::gen::element(DataType::decimal(5, 2), DataType::decimal(18, 0), DataType::decimal(38, 0),
                            DataType::decimal(38, 18))},
       // Every precision up to 38, at any scale it allows.
       {1, rc::gen::mapcat(uniform_in(1, kMaxDecimalPrecision + 1),
                           [](int p) { return rc::gen::map(uniform_in(0, p + 1), [p](int s) { return DataType::decimal(p, s); }); })},
       {1, rc::gen::just(DataType::of(K::Date))},
       {3, rc::gen::element(DataType::of(K::Timestamp), DataType::of(K::TimestampNtz))},
       {3, rc::gen::just(DataType::of(K::String))},
       {1, rc::gen::element(DataType::of(K::Boolean), DataType::of(K::Binary))}});
}

std::vector<Value> edge_values(const DataType& type) {
  switch (type.kind) {
    case TypeKind::Boolean:
      return {Value::boolean(false), Value::boolean(true)};
    case TypeKind::Byte:
    case TypeKind::Short:
    case TypeKind::Int:
    case TypeKind::Long: {
      const int64_t lo = integral_min(type.kind), hi = integral_max(type.kind);
      std::vector<Value> edges;
      for (int64_t v : {lo, lo + 1, int64_t{-1}, int64_t{0}, int64_t{1}, hi - 1, hi}) {
        edges.push_back(Value::integral(type.kind, v));
      }
      return edges;
    }
    case TypeKind::Float:
    case TypeKind::Double:
      return floating_edges(type.kind);
    case TypeKind::Decimal:
      return decimal_edges(type);
    case TypeKind::Date: {
      std::vector<Value> edges;
      for (int64_t d : {int64_t{-1}, int64_t{0}, int64_t{1}, kFirstDay, kLastDay}) {
        edges.push_back(Value::integral(TypeKind::Date, d));
      }
      return edges;
    }
    case TypeKind::Timestamp:
    case TypeKind::TimestampNtz:
      return timestamp_edges(type.kind);
    case TypeKind::String:
      return string_edges();
    case TypeKind::Binary:
      return {Value::binary(""), Value::binary(std::string(1, '\0')), Value::binary("\xff")};
    default:
      throw std::invalid_argument("edge_values: no edges for type " + type_name(type));
  }
}

rc::Gen<Value> value_of(const DataType& type) {
  return rc::gen::oneOf(rc::gen::elementOf(edge_values(type)), random_value(type));
}

}  // namespace skipsound::generators
