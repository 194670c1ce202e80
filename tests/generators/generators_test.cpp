// The generators themselves: every value is well-formed for its type, the edge cases the
// per-file mutants need are reached (see the printed distributions), and generated predicates
// are valid bound IR that prints and re-parses to the same tree.
#include <cmath>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "generators/boundary_literals.h"
#include "generators/file_case.h"
#include "generators/predicate_gen.h"
#include "generators/value_gen.h"
#include "model/sql/binder.h"
#include "model/sql/evaluator.h"
#include "model/sql/printer.h"
#include "model/values/utf8.h"

namespace skipsound::generators {
namespace {

// The UTF-16 unit the string's first supplementary character starts at, or -1 when it has none.
int first_pair_unit(const std::string& s) {
  int units = 0;
  for (const char32_t c : decode_utf8(s)) {
    if (c >= 0x10000) return units;
    ++units;
  }
  return -1;
}

bool pair_at_unit_boundary(const std::string& s) {
  const int unit = first_pair_unit(s);
  return unit >= kUnitBoundaryFirst && unit <= kUnitBoundaryLast;
}

RC_GTEST_PROP(ValueGenerators, ValuesAreWellFormedAndReachTheEdges, ()) {
  const DataType type = *primitive_type();
  const Value v = *value_of(type);
  RC_ASSERT(v.type == type);
  RC_TAG(type_name(type));
  if (is_floating(type.kind)) {
    const double d = v.as_double();
    if (type.kind == TypeKind::Float && !std::isnan(d)) RC_ASSERT(static_cast<double>(static_cast<float>(d)) == d);
    RC_CLASSIFY(std::isnan(d), "NaN");
    RC_CLASSIFY(d == 0.0 && std::signbit(d), "-0.0");
    RC_CLASSIFY(std::isinf(d), "infinity");
  }
  if (is_integral(type.kind)) {
    RC_ASSERT(v.as_int() >= integral_min(type.kind));
    RC_ASSERT(v.as_int() <= integral_max(type.kind));
    RC_CLASSIFY(v.as_int() == integral_min(type.kind) || v.as_int() == integral_max(type.kind), "integral extreme");
  }
  if (type.kind == TypeKind::Timestamp || type.kind == TypeKind::TimestampNtz) {
    const int64_t sub_milli = ((v.as_int() % 1000) + 1000) % 1000;
    RC_CLASSIFY(sub_milli == 999, "x.xxx999 (1 µs before a ms edge)");
    RC_CLASSIFY(sub_milli == 0, "on a ms edge");
  }
  if (type.kind == TypeKind::String) {
    RC_ASSERT(is_valid_utf8(v.as_string()));
    const auto length = decode_utf8(v.as_string()).size();
    RC_CLASSIFY(length == 0, "empty string");
    RC_CLASSIFY(length == 31 || length == 32 || length == 33, "31-33 code points");
    RC_CLASSIFY(length == 64 || length == 65, "64-65 code points");
    RC_CLASSIFY(pair_at_unit_boundary(v.as_string()), "surrogate pair at UTF-16 units 30-32");
  }
  if (type.kind == TypeKind::Decimal) {
    RC_CLASSIFY(decimal_digits(v.as_decimal()) == 38, "decimal of 38 digits");
    RC_CLASSIFY(decimal_digits(v.as_decimal()) > 17, "decimal beyond a double's 17 digits");
  }
}

// value_of's strings hold no quote; the literal's escaping needs some.
rc::Gen<Value> quoted_strings() {
  return rc::gen::map(rc::gen::element<std::string>("'", "it's", "''", "\\'", "a''b'"), &Value::string);
}

RC_GTEST_PROP(ValueGenerators, SqlLiteralsRoundTrip, ()) {
  const DataType type = *primitive_type();
  const Value v = type.kind == TypeKind::String
                      ? *rc::gen::weightedOneOf<Value>({{3, value_of(type)}, {1, quoted_strings()}})
                      : *value_of(type);
  RC_TAG(type_name(type));
  RC_CLASSIFY(v.is_null(), "NULL");
  RC_CLASSIFY(!v.is_null() && type.kind == TypeKind::String && v.as_string().find('\'') != std::string::npos,
              "string with a quote");
  RC_CLASSIFY(!v.is_null() && is_floating(type.kind) && !std::isfinite(v.as_double()), "NaN or infinity");
  const ExprPtr parsed = parse_and_bind(to_sql_literal(v) + " IS NOT NULL", Schema());
  RC_ASSERT(parsed->children.at(0)->literal == v);
}

RC_GTEST_PROP(FileGenerators, FilesReachDeletionVectorsTruncationAndMissingStats, ()) {
  const FileCase c = *file_case();
  const GeneratedFile& f = c.file;
  RC_ASSERT(f.deleted.size() == f.rows.size());
  for (const Row& row : f.rows) RC_ASSERT(row.size() == c.table.schema.leaves().size());
  RC_TAG(stats_history_name(f.history));
  RC_CLASSIFY(!f.dropped.empty(), "stats fields dropped");
  RC_CLASSIFY(static_cast<int>(c.table.schema.leaves().size()) > c.table.stats_config.num_indexed_cols &&
                  c.table.stats_config.num_indexed_cols >= 0,
              "more leaves than numIndexedCols");
  RC_CLASSIFY(!c.table.stats_config.partition_columns.empty(), "partitioned");
  bool truncated = false, nan = false;
  for (const Leaf& leaf : c.table.schema.leaves()) {
    const auto& max = f.stats.column(leaf.ordinal).max;
    bool max_is_a_row_value = false;
    for (const Row& row : f.rows) {
      const Value& v = row[leaf.ordinal];
      max_is_a_row_value |= max && v == *max;
      nan |= !v.is_null() && is_floating(leaf.type.kind) && std::isnan(v.as_double());
    }
    truncated |= leaf.type.kind == TypeKind::String && max && !max->is_null() && !max_is_a_row_value;
  }
  RC_CLASSIFY(truncated, "truncated string max");
  RC_CLASSIFY(nan, "NaN in a float column");
  RC_TAG(std::string("string mins cut by ") + string_min_cut_name(f.string_min_cut));
  bool boundary_min = false, boundary_max = false;
  for (const Leaf& leaf : c.table.schema.leaves()) {
    const ColumnStats& stats = f.stats.column(leaf.ordinal);
    if (leaf.type.kind != TypeKind::String) continue;
    boundary_min |= stats.min && pair_at_unit_boundary(stats.min->as_string());
    boundary_max |= stats.max && pair_at_unit_boundary(stats.max->as_string());
  }
  RC_CLASSIFY(boundary_min, "string min with a surrogate pair at units 30-32");
  RC_CLASSIFY(boundary_max, "string max with a surrogate pair at units 30-32");
}

RC_GTEST_PROP(PredicateGenerators, PredicatesAreBoundPrintableAndEvaluable, ()) {
  const FileCase c = *file_case();
  RC_TAG(predicate_form(*c.predicates.front()));
  for (const ExprPtr& p : c.predicates) {
    RC_ASSERT(p->type.kind == TypeKind::Boolean || p->type.kind == TypeKind::Null);
    const ExprPtr reparsed = parse_and_bind(to_sql(p), c.table.schema);
    RC_ASSERT(same_expr(reparsed, p));
    for (const Row& row : c.file.rows) {
      try {
        evaluate(*p, row);
      } catch (const NotEvaluable&) {
        RC_TAG("not evaluable");
      }
    }
  }
}

TEST(BoundaryLiterals, IncludeTheBoundsAndTheirNeighbours) {
  const Schema schema({StructField{"t", DataType::of(TypeKind::Timestamp), true, ""}});
  GeneratedFile file;
  file.rows = {{Value::integral(TypeKind::Timestamp, 1'500'999)}};
  file.deleted = {false};
  file.stats.column_mut(0).max = Value::integral(TypeKind::Timestamp, 1'500'000);
  const auto near = boundary_literals(schema.leaves()[0], file);
  const auto has = [&](int64_t us) {
    return std::find(near.begin(), near.end(), Value::integral(TypeKind::Timestamp, us)) != near.end();
  };
  EXPECT_TRUE(has(1'500'000));   // the bound itself
  EXPECT_TRUE(has(1'501'000));   // +1 ms
  EXPECT_TRUE(has(1'499'999));   // -1 µs
  EXPECT_TRUE(has(1'500'999));   // the row value, just under the next ms edge
}

}  // namespace
}  // namespace skipsound::generators
