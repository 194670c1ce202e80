// Shared vocabulary for the checker tests: a schema with one column per interesting type,
// bound-IR constructors and file stats written field by field.
#pragma once
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <memory>
#include <string>

#include "checker/file_decision.h"
#include "checker/skipping_builder.h"
#include "checker/stats_eligibility.h"
#include "model/mutants/fault_injection.h"
#include "model/sql/expr.h"

namespace skipsound::test {

inline StructField field(std::string name, TypeKind kind) {
  return StructField{std::move(name), DataType::of(kind), true, ""};
}

// Leaf ordinals: x 0, y 1, d 2, s 3, b 4, t 5, bin 6, arr 7, st.a 8, p 9 (the partition column).
inline Schema test_schema() {
  DataType st = DataType::of(TypeKind::Struct);
  st.fields = {field("a", TypeKind::Int)};
  return Schema({field("x", TypeKind::Long), field("y", TypeKind::Long), field("d", TypeKind::Double),
                 field("s", TypeKind::String), field("b", TypeKind::Boolean),
                 field("t", TypeKind::Timestamp), field("bin", TypeKind::Binary),
                 field("arr", TypeKind::Array), StructField{"st", st, true, ""},
                 field("p", TypeKind::Int)});
}
enum Leaves { X = 0, Y, D, S, B, T, BIN, ARR, ST_A, P };

inline Value lng(int64_t v) { return Value::integral(TypeKind::Long, v); }
inline Value dbl(double v) { return Value::floating(TypeKind::Double, v); }
inline Value ts(int64_t micros) { return Value::integral(TypeKind::Timestamp, micros); }
inline Value str(std::string s) { return Value::string(std::move(s)); }
inline double nan() { return std::numeric_limits<double>::quiet_NaN(); }

class CheckerTest : public ::testing::Test {
 protected:
  Schema schema = test_schema();
  StatsConfig config = [] {
    StatsConfig c;
    c.partition_columns = {"p"};
    return c;
  }();
  std::unique_ptr<StatsEligibility> eligibility = std::make_unique<StatsEligibility>(schema, config);

  void reconfigure(const StatsConfig& c) {
    config = c;
    eligibility = std::make_unique<StatsEligibility>(schema, config);
  }

  ExprPtr col(const std::string& dotted) const {
    ColumnPath path;
    size_t start = 0;
    for (size_t dot; (dot = dotted.find('.', start)) != std::string::npos; start = dot + 1) {
      path.push_back(dotted.substr(start, dot - start));
    }
    path.push_back(dotted.substr(start));
    const Leaf* leaf = schema.find_leaf(path);
    auto e = std::make_shared<Expr>();
    e->kind = ExprKind::Column;
    e->path = path;
    e->leaf = leaf ? leaf->ordinal : -1;
    if (leaf) e->type = leaf->type;
    return e;
  }
  static ExprPtr lit(Value v) { return make_literal(std::move(v)); }
  static ExprPtr lit(int64_t v) { return make_literal(lng(v)); }
  static ExprPtr null_lit() { return make_literal(Value::null()); }
  static ExprPtr cmp(CompareOp op, ExprPtr a, ExprPtr b) { return make_compare(op, a, b); }

  // A file with `rows` physical rows and no column stats yet.
  static FileStats file(int64_t rows) {
    FileStats s;
    s.num_records = rows;
    return s;
  }
  static void set(FileStats& s, int leaf, std::optional<Value> min, std::optional<Value> max,
                  std::optional<int64_t> nulls) {
    s.column_mut(leaf) = ColumnStats{std::move(min), std::move(max), nulls};
  }

  // `m`: the mutant injected (model/mutants/fault_injection.h) while building and deciding.
  std::optional<SkippingPredicate> build(const ExprPtr& p, Mutant m = Mutant::None) const {
    const FaultScope fault(m);
    return build_skipping_predicate(p, *eligibility);
  }
  std::string expression(const ExprPtr& p) const {
    const auto built = build(p);
    return built ? to_string(built->expr, schema) : "none";
  }
  // The verdict through the explained path; the fast path must agree with it.
  FileVerdict decide(const ExprPtr& p, const FileStats& s, Mutant m = Mutant::None,
                     int64_t dv = 0) const {
    const auto built = build(p, m);
    const FaultScope fault(m);
    const FileView view{&s, dv};
    const FileDecision explained = decide_file(built, view, schema);
    if (built) {
      EXPECT_EQ(explained.verdict, decide_verdict(*built, view, schema));
    }
    return explained.verdict;
  }
};

inline constexpr FileVerdict KEEP = FileVerdict::Keep;
inline constexpr FileVerdict SKIP = FileVerdict::Skip;

}  // namespace skipsound::test
