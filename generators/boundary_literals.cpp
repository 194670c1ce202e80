#include "generators/boundary_literals.h"

#include <cmath>

#include "generators/value_gen.h"
#include "model/values/utf8.h"
#include "model/values/temporal.h"

namespace skipsound::generators {
namespace {

void add_unique(std::vector<Value>& out, const Value& v) {
  for (const Value& existing : out) {
    if (existing == v) return;
  }
  out.push_back(v);
}

int64_t floor_to_milli(int64_t micros) {
  const int64_t r = micros % kMicrosPerMilli;
  return r < 0 ? micros - r - kMicrosPerMilli : micros - r;
}

void add_integral_neighbours(std::vector<Value>& out, const Value& v) {
  const TypeKind kind = v.type.kind;
  const int64_t x = v.as_int();
  const bool timestamp = kind == TypeKind::Timestamp || kind == TypeKind::TimestampNtz;
  const int64_t lo = timestamp || kind == TypeKind::Date ? INT64_MIN / 2 : integral_min(kind);
  const int64_t hi = timestamp || kind == TypeKind::Date ? INT64_MAX / 2 : integral_max(kind);
  std::vector<int64_t> steps = {-1, 1};
  if (timestamp) {
    const int64_t floor = floor_to_milli(x);
    steps = {-1, 1, -kMicrosPerMilli, kMicrosPerMilli, floor - x, floor + kMicrosPerMilli - 1 - x,
             floor + kMicrosPerMilli - x};
  }
  for (int64_t step : steps) {
    if ((step < 0 && x >= lo - step) || (step >= 0 && x <= hi - step)) {
      add_unique(out, Value::integral(kind, x + step));
    }
  }
}

void add_floating_neighbours(std::vector<Value>& out, const Value& v) {
  const double x = v.as_double();
  if (std::isnan(x)) return;
  if (v.type.kind == TypeKind::Float) {
    const auto f = static_cast<float>(x);
    for (float n : {std::nextafter(f, -INFINITY), std::nextafter(f, INFINITY), -f}) {
      add_unique(out, Value::floating(TypeKind::Float, n));
    }
  } else {
    for (double n : {std::nextafter(x, -INFINITY), std::nextafter(x, INFINITY), -x}) {
      add_unique(out, Value::floating(TypeKind::Double, n));
    }
  }
  add_unique(out, Value::floating(v.type.kind, NAN));
}

void add_decimal_neighbours(std::vector<Value>& out, const Value& v) {
  for (int step : {-1, 1}) {
    Decimal d = v.as_decimal();
    d.unscaled += step;
    if (fits_precision(d, v.type.precision)) add_unique(out, Value::decimal(d, v.type.precision));
  }
}

// Prefixes (including the 31/32/33-code-point cuts the stats writer makes) and the strings
// just above: s + U+007F, s + U+10FFFF, s + 'a', and s with its last code point moved by one.
void add_string_neighbours(std::vector<Value>& out, const Value& v) {
  const std::vector<char32_t> cps = decode_utf8(v.as_string());
  const int n = static_cast<int>(cps.size());
  for (int length : {n - 1, 1, 31, 32, 33, 64}) {
    if (length >= 0 && length < n) {
      add_unique(out, Value::string(encode_utf8({cps.begin(), cps.begin() + length})));
    }
  }
  for (char32_t tail : {char32_t{0x7F}, char32_t{0x10FFFF}, char32_t{U'a'}}) {
    std::vector<char32_t> longer = cps;
    longer.push_back(tail);
    add_unique(out, Value::string(encode_utf8(longer)));
  }
  if (n > 0) {
    for (int step : {-1, 1}) {
      std::vector<char32_t> moved = cps;
      const char32_t c = moved.back() + step;
      const bool valid = c <= 0x10FFFF && !(c >= 0xD800 && c <= 0xDFFF);  // 0 - 1 wraps above
      if (!valid) continue;
      moved.back() = c;
      add_unique(out, Value::string(encode_utf8(moved)));
    }
  }
}

void add_neighbours(std::vector<Value>& out, const Value& v) {
  switch (v.type.kind) {
    case TypeKind::Byte:
    case TypeKind::Short:
    case TypeKind::Int:
    case TypeKind::Long:
    case TypeKind::Date:
    case TypeKind::Timestamp:
    case TypeKind::TimestampNtz:
      add_integral_neighbours(out, v);
      break;
    case TypeKind::Float:
    case TypeKind::Double:
      add_floating_neighbours(out, v);
      break;
    case TypeKind::Decimal:
      add_decimal_neighbours(out, v);
      break;
    case TypeKind::String:
      add_string_neighbours(out, v);
      break;
    default:
      break;
  }
}

// Stats values carry the leaf's type except where the stats reader chose another
// representation; only same-typed values are safe to print as literals of the column.
bool usable_as_literal(const Value& v, const Leaf& leaf) { return !v.is_null() && v.type == leaf.type; }

}  // namespace

std::vector<Value> boundary_literals(const Leaf& leaf, const GeneratedFile& file) {
  std::vector<Value> anchors;
  const ColumnStats& stats = file.stats.column(leaf.ordinal);
  for (const auto& bound : {stats.min, stats.max}) {
    if (bound && usable_as_literal(*bound, leaf)) add_unique(anchors, *bound);
  }
  for (const Row& row : file.rows) {
    if (usable_as_literal(row[leaf.ordinal], leaf)) add_unique(anchors, row[leaf.ordinal]);
  }
  std::vector<Value> out = anchors;
  for (const Value& anchor : anchors) add_neighbours(out, anchor);
  return out;
}

rc::Gen<Value> literal_for(const Leaf& leaf, const GeneratedFile& file) {
  const std::vector<Value> near = boundary_literals(leaf, file);
  if (near.empty()) return value_of(leaf.type);
  return rc::gen::weightedOneOf<Value>({{6, rc::gen::elementOf(near)}, {1, value_of(leaf.type)}});
}

}  // namespace skipsound::generators
