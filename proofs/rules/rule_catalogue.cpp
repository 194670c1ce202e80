#include "proofs/rules/rule_catalogue.h"

#include <algorithm>
#include <functional>
#include <stdexcept>

#include "checker/skipping_builder.h"
#include "model/sql/printer.h"

namespace skipsound {

namespace {

// Builds one template: hands out sentinels slot by slot and binds columns as it goes.
class TemplateBuilder {
 public:
  explicit TemplateBuilder(std::shared_ptr<const Schema> schema) : schema_(std::move(schema)) {}

  ExprPtr column(int leaf) const {
    auto e = std::make_shared<Expr>();
    const Leaf& l = schema_->leaves().at(leaf);
    e->kind = ExprKind::Column;
    e->path = l.path;
    e->leaf = leaf;
    e->type = l.type;
    return e;
  }

  // A fresh symbolic literal of the column's type. Booleans stay the concrete TRUE: substituting
  // a Z3 `true` would also hit the formula's own constants, and no rule reads a boolean's bounds.
  ExprPtr literal(int leaf, std::optional<size_t> not_below = std::nullopt) {
    const DataType& type = schema_->leaves().at(leaf).type;
    if (type.kind == TypeKind::Boolean) return make_literal(Value::boolean(true));
    const int i = static_cast<int>(slots_.size());
    slots_.push_back({sentinel(type, i), SlotShape::Free, not_below});
    return make_literal(slots_.back().sentinel);
  }

  ExprPtr like_pattern(size_t prefix_length) {
    const int i = static_cast<int>(slots_.size());
    const std::string prefix = std::string(prefix_length - 1, 'p') + static_cast<char>('a' + i);
    slots_.push_back({Value::string(prefix), SlotShape::LikePrefix, std::nullopt});
    return make_literal(Value::string(prefix + "%"));
  }

  ExprPtr null_literal(int leaf) const { return make_literal(Value::null(schema_->leaves().at(leaf).type)); }

  size_t next_slot() const { return slots_.size(); }

  PredicateTemplate finish(std::string rule, std::string type, ExprPtr predicate) {
    PredicateTemplate t;
    t.rule = std::move(rule);
    t.type = std::move(type);
    t.schema = schema_;
    t.predicate = std::move(predicate);
    t.slots = std::move(slots_);
    slots_.clear();
    return t;
  }

 private:
  static Value sentinel(const DataType& type, int i) {
    switch (type.kind) {
      case TypeKind::Float: case TypeKind::Double: return Value::floating(type.kind, 101.5 + 2 * i);
      case TypeKind::Decimal: return Value::decimal(Decimal{10150 + 2 * i, type.scale}, type.precision);
      case TypeKind::Timestamp: case TypeKind::TimestampNtz:
        return Value::integral(type.kind, 1000001 + 2 * i);
      case TypeKind::String: return Value::string(std::string("s") + static_cast<char>('a' + i));
      case TypeKind::Binary: return Value::binary(std::string(1, static_cast<char>(0xA1 + i)));
      default:
        if (is_int64_backed(type.kind)) return Value::integral(type.kind, 101 + 2 * i);
        throw std::invalid_argument("no sentinel for type " + type_name(type));
    }
  }

  std::shared_ptr<const Schema> schema_;
  std::vector<LiteralSlot> slots_;
};

std::shared_ptr<const Schema> two_column_schema(const DataType& c0, const DataType& c1) {
  return std::make_shared<const Schema>(
      std::vector<StructField>{{"c0", c0, true, {}}, {"c1", c1, true, {}}});
}

struct RuleForm {
  std::string name;
  std::function<ExprPtr(TemplateBuilder&)> make;
  bool single_comparison = false;
  bool non_strict_bound = false;
  bool strings_only = false;
  bool booleans_only = false;
};

ExprPtr in_two(TemplateBuilder& b) {
  const ExprPtr low = b.literal(0);
  return make_in(b.column(0), {low, b.literal(0, b.next_slot() - 1)});
}

std::vector<RuleForm> rule_forms() {
  using B = TemplateBuilder;
  auto cmp = [](CompareOp op) {
    return [op](B& b) { return make_compare(op, b.column(0), b.literal(0)); };
  };
  auto not_cmp = [](CompareOp op) {
    return [op](B& b) { return make_not(make_compare(op, b.column(0), b.literal(0))); };
  };
  return {
      {"c = v", cmp(CompareOp::Eq), true},
      {"c <> v", cmp(CompareOp::Ne), true},
      {"NOT (c = v)", not_cmp(CompareOp::Eq), true},
      {"c < v", cmp(CompareOp::Lt), true},
      {"c <= v", cmp(CompareOp::Le), true, true},
      {"c > v", cmp(CompareOp::Gt), true},
      {"c >= v", cmp(CompareOp::Ge), true, true},
      {"v < c", [](B& b) { return make_compare(CompareOp::Lt, b.literal(0), b.column(0)); }, true},
      {"v >= c", [](B& b) { return make_compare(CompareOp::Ge, b.literal(0), b.column(0)); }, true, true},
      {"NOT (c < v)", not_cmp(CompareOp::Lt), true, true},
      {"NOT (c >= v)", not_cmp(CompareOp::Ge), true},
      {"c <=> v", cmp(CompareOp::NullSafeEq), true},
      {"NOT (c <=> v)", not_cmp(CompareOp::NullSafeEq), true},
      {"c <=> NULL", [](B& b) { return make_compare(CompareOp::NullSafeEq, b.column(0), b.null_literal(0)); }, true},
      {"NOT (c <=> NULL)",
       [](B& b) { return make_not(make_compare(CompareOp::NullSafeEq, b.column(0), b.null_literal(0))); }, true},
      {"c = NULL", [](B& b) { return make_compare(CompareOp::Eq, b.column(0), b.null_literal(0)); }},
      {"c IS NULL", [](B& b) { return make_is_null(b.column(0)); }, true},
      {"c IS NOT NULL", [](B& b) { return make_is_not_null(b.column(0)); }, true},
      {"NOT (c IS NULL)", [](B& b) { return make_not(make_is_null(b.column(0))); }, true},
      {"NOT (c IS NOT NULL)", [](B& b) { return make_not(make_is_not_null(b.column(0))); }, true},
      {"(c > v) IS NULL", [](B& b) { return make_is_null(make_compare(CompareOp::Gt, b.column(0), b.literal(0))); }},
      {"(c > v AND c < w) IS NULL",
       [](B& b) {
         return make_is_null(make_and(make_compare(CompareOp::Gt, b.column(0), b.literal(0)),
                                      make_compare(CompareOp::Lt, b.column(0), b.literal(0))));
       }},
      {"(c = v OR c IS NULL) IS NULL",
       [](B& b) {
         return make_is_null(make_or(make_compare(CompareOp::Eq, b.column(0), b.literal(0)),
                                     make_is_null(b.column(0))));
       }},
      {"(c > v) IS NOT NULL",
       [](B& b) { return make_is_not_null(make_compare(CompareOp::Gt, b.column(0), b.literal(0))); }},
      {"NOT ((c = v) IS NULL)",
       [](B& b) { return make_not(make_is_null(make_compare(CompareOp::Eq, b.column(0), b.literal(0)))); }},
      {"(c IN (v1, v2)) IS NOT NULL", [](B& b) { return make_is_not_null(in_two(b)); }},
      {"c IN (v1, v2)", in_two, true},
      {"c IN (v, NULL)", [](B& b) { return make_in(b.column(0), {b.literal(0), b.null_literal(0)}); }, true},
      {"c IN (NULL)", [](B& b) { return make_in(b.column(0), {b.null_literal(0)}); }},
      {"NOT (c IN (v1, v2))", [](B& b) { return make_not(in_two(b)); }},
      {"c BETWEEN v AND w",
       [](B& b) { return make_between(b.column(0), b.literal(0), b.literal(0)); }, true, true},
      {"c LIKE 'p%'", [](B& b) { return make_like(b.column(0), b.like_pattern(1)); }, true, false, true},
      {"c LIKE 'pp%'", [](B& b) { return make_like(b.column(0), b.like_pattern(2)); }, true, false, true},
      {"NOT (c LIKE 'p%')", [](B& b) { return make_not(make_like(b.column(0), b.like_pattern(1))); }, false,
       false, true},
      {"c", [](B& b) { return b.column(0); }, false, false, false, true},
      {"NOT c", [](B& b) { return make_not(b.column(0)); }, false, false, false, true},
  };
}

std::vector<DataType> theorem_types() {
  return {DataType::of(TypeKind::Byte),      DataType::of(TypeKind::Short),
          DataType::of(TypeKind::Int),       DataType::of(TypeKind::Long),
          DataType::of(TypeKind::Float),     DataType::of(TypeKind::Double),
          DataType::decimal(10, 2),          DataType::of(TypeKind::Date),
          DataType::of(TypeKind::Timestamp), DataType::of(TypeKind::TimestampNtz),
          DataType::of(TypeKind::String),    DataType::of(TypeKind::Boolean),
          DataType::of(TypeKind::Binary)};
}

// The composition sweep's atoms: at least one of each docs/semantics.md §5.3 form, on both columns.
using AtomMaker = std::function<ExprPtr(TemplateBuilder&)>;
std::vector<AtomMaker> composition_atoms() {
  using B = TemplateBuilder;
  return {
      [](B& b) { return make_compare(CompareOp::Lt, b.column(0), b.literal(0)); },
      [](B& b) { return make_is_null(b.column(0)); },
      [](B& b) { return make_between(b.column(0), b.literal(0), b.literal(0)); },
      [](B& b) { return make_compare(CompareOp::NullSafeEq, b.column(1), b.literal(1)); },
      [](B& b) {
        const ExprPtr low = b.literal(1);
        return make_in(b.column(1), {low, b.literal(1, b.next_slot() - 1)});
      },
      [](B& b) { return make_like(b.column(1), b.like_pattern(1)); },
  };
}

// An abstract AND/OR/NOT tree over atom indices.
struct Shape {
  enum Kind { Atom, Not, And, Or } kind = Atom;
  int atom = 0;
  std::vector<std::shared_ptr<const Shape>> children;
};
using ShapePtr = std::shared_ptr<const Shape>;

std::vector<std::vector<ShapePtr>> shapes_by_connectives(int atoms, int max_connectives) {
  std::vector<std::vector<ShapePtr>> by_count(max_connectives + 1);
  for (int a = 0; a < atoms; ++a) by_count[0].push_back(std::make_shared<Shape>(Shape{Shape::Atom, a, {}}));
  for (int n = 1; n <= max_connectives; ++n) {
    for (const ShapePtr& s : by_count[n - 1])
      by_count[n].push_back(std::make_shared<Shape>(Shape{Shape::Not, 0, {s}}));
    // Binary nodes up to commutativity: left has no more connectives than right, and within
    // equal counts the left comes first in enumeration order.
    for (int left = 0; left <= (n - 1) / 2; ++left) {
      const int right = n - 1 - left;
      const auto& ls = by_count[left];
      const auto& rs = by_count[right];
      for (size_t i = 0; i < ls.size(); ++i)
        for (size_t j = left == right ? i : 0; j < rs.size(); ++j)
          for (const Shape::Kind k : {Shape::And, Shape::Or})
            by_count[n].push_back(std::make_shared<Shape>(Shape{k, 0, {ls[i], rs[j]}}));
    }
  }
  return by_count;
}

ExprPtr realise(const Shape& s, const std::vector<AtomMaker>& atoms, TemplateBuilder& b) {
  switch (s.kind) {
    case Shape::Atom: return atoms[s.atom](b);
    case Shape::Not: return make_not(realise(*s.children[0], atoms, b));
    case Shape::And: {
      ExprPtr lhs = realise(*s.children[0], atoms, b);
      return make_and(lhs, realise(*s.children[1], atoms, b));
    }
    case Shape::Or: {
      ExprPtr lhs = realise(*s.children[0], atoms, b);
      return make_or(lhs, realise(*s.children[1], atoms, b));
    }
  }
  return nullptr;
}

bool contains(const SkipExpr& e, const std::function<bool(const SkipExpr&)>& wanted) {
  if (wanted(e)) return true;
  for (const SkipExprPtr& child : e.children)
    if (contains(*child, wanted)) return true;
  return false;
}

bool reads_stat(const SkipExpr& e, StatKind kind) {
  return contains(e, [kind](const SkipExpr& n) { return n.kind == SkipKind::Stat && n.stat.kind == kind; });
}

// `nullCount(c) > 0` as a disjunct (NOT (c <=> v)): a file whose live rows may all be NULL is
// kept by it whatever the bounds say.
bool keeps_files_with_nulls(const SkipExpr& e) {
  return contains(e, [](const SkipExpr& n) {
    return n.kind == SkipKind::Compare && n.op == CompareOp::Gt && n.children[0]->kind == SkipKind::Stat &&
           n.children[0]->stat.kind == StatKind::NullCount;
  });
}

// Evaluates the same on every file: literals, comparisons with a NULL literal (always NULL), and
// connectives over those.
bool constant_expression(const SkipExpr& e) {
  switch (e.kind) {
    case SkipKind::Literal: return true;
    case SkipKind::Compare:
      return std::any_of(e.children.begin(), e.children.end(), [](const SkipExprPtr& c) {
        return c->kind == SkipKind::Literal && c->literal.is_null();
      });
    case SkipKind::And: case SkipKind::Or: case SkipKind::Not:
      return std::all_of(e.children.begin(), e.children.end(),
                         [](const SkipExprPtr& c) { return constant_expression(*c); });
    default: return false;
  }
}

}  // namespace

std::vector<PredicateTemplate> rule_templates() {
  std::vector<PredicateTemplate> out;
  for (const DataType& type : theorem_types()) {
    const auto schema = two_column_schema(type, DataType::of(TypeKind::Int));
    for (const RuleForm& form : rule_forms()) {
      if (form.strings_only && type.kind != TypeKind::String) continue;
      if (form.booleans_only && type.kind != TypeKind::Boolean) continue;
      TemplateBuilder builder(schema);
      ExprPtr predicate = form.make(builder);
      PredicateTemplate t = builder.finish(form.name, type_name(type), std::move(predicate));
      t.single_comparison = form.single_comparison;
      t.non_strict_bound = form.non_strict_bound;
      out.push_back(std::move(t));
    }
  }
  return out;
}

std::vector<PredicateTemplate> composition_templates(int max_connectives) {
  const auto schema = two_column_schema(DataType::of(TypeKind::Int), DataType::of(TypeKind::String));
  const std::vector<AtomMaker> atoms = composition_atoms();
  std::vector<PredicateTemplate> out;
  for (const auto& shapes : shapes_by_connectives(static_cast<int>(atoms.size()), max_connectives)) {
    for (const ShapePtr& shape : shapes) {
      TemplateBuilder builder(schema);
      ExprPtr predicate = realise(*shape, atoms, builder);
      std::string rule = to_sql(predicate);
      out.push_back(builder.finish(std::move(rule), "", std::move(predicate)));
    }
  }
  return out;
}

bool expected_to_break(const PredicateTemplate& t, Mutant mutant) {
  const StatsEligibility eligibility(*t.schema, StatsConfig{});
  const std::optional<SkippingPredicate> built = build_skipping_predicate(t.predicate, eligibility);
  // A constant expression (the predicate is never TRUE) depends on no stat a mutant could misread.
  if (!built || constant_expression(*built->expr)) return false;
  auto references = [&](StatKind kind) {
    for (const StatRef& r : built->referenced)
      if (r.kind == kind) return true;
    return false;
  };
  const TypeKind kind = t.schema->leaves().at(0).type.kind;
  const bool starts_with = t.rule.find("LIKE") != std::string::npos;
  switch (mutant) {
    case Mutant::SkipMissingStats: return true;  // every rule reads some stat a file may lack
    case Mutant::TrustWideNullcount:
      // It only changes what numRecords reads: in the expression, or in verifying a min/max.
      return reads_stat(*built->expr, StatKind::NumRecords) ||
             (references(StatKind::NumRecords) && !keeps_files_with_nulls(*built->expr));
    case Mutant::NoTimestampMaxBump:
      return (kind == TypeKind::Timestamp || kind == TypeKind::TimestampNtz) && references(StatKind::Max);
    case Mutant::StringMaxPlainPrefix:
      // A LIKE prefix shorter than the stats prefix reads the same characters either way.
      return kind == TypeKind::String && references(StatKind::Max) && !starts_with;
    case Mutant::IeeeNanOrder:
      return is_floating(kind) && (references(StatKind::Min) || references(StatKind::Max));
    case Mutant::LeAsLt:
      return t.non_strict_bound && (references(StatKind::Min) || references(StatKind::Max));
    default: return false;
  }
}

}  // namespace skipsound
