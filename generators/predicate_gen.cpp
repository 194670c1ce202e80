#include "generators/predicate_gen.h"

#include <algorithm>
#include <cstdlib>
#include <memory>

#include "generators/boundary_literals.h"
#include "generators/combinators.h"
#include "model/sql/binder.h"
#include "model/values/utf8.h"

namespace skipsound::generators {
namespace {

using Weighted = std::vector<std::pair<std::size_t, rc::Gen<ExprPtr>>>;

constexpr int kSizePerDepth = 25;

// What the predicate generators draw from: the table's leaves and the file's near-bound literals.
struct Context {
  Schema schema;
  GeneratedFile file;
  std::vector<Leaf> leaves;
  std::vector<Leaf> strings, numerics, booleans, integrals_and_doubles, dates;
};

using ContextPtr = std::shared_ptr<const Context>;

ContextPtr make_context(const TableShape& table, const GeneratedFile& file) {
  auto ctx = std::make_shared<Context>();
  ctx->schema = table.schema;
  ctx->file = file;
  for (const Leaf& leaf : table.schema.leaves()) {
    ctx->leaves.push_back(leaf);
    const TypeKind k = leaf.type.kind;
    if (k == TypeKind::String) ctx->strings.push_back(leaf);
    if (is_numeric(k)) ctx->numerics.push_back(leaf);
    if (k == TypeKind::Boolean) ctx->booleans.push_back(leaf);
    if (k == TypeKind::Date) ctx->dates.push_back(leaf);
    if (k == TypeKind::Int || k == TypeKind::Long || k == TypeKind::Double) {
      ctx->integrals_and_doubles.push_back(leaf);
    }
  }
  return ctx;
}

ExprPtr column(const Leaf& leaf) { return make_column(leaf.path); }

rc::Gen<CompareOp> any_compare_op() {
  return rc::gen::element(CompareOp::Eq, CompareOp::Lt, CompareOp::Le, CompareOp::Gt, CompareOp::Ge,
                          CompareOp::Ne, CompareOp::NullSafeEq);
}

rc::Gen<ExprPtr> literal_of(const ContextPtr& ctx, const Leaf& leaf) {
  return rc::gen::map(literal_for(leaf, ctx->file), [](const Value& v) { return make_literal(v); });
}

// c op v, and now and then v op c (the builder swaps it back).
rc::Gen<ExprPtr> compare_with_literal(const ContextPtr& ctx) {
  return rc::gen::mapcat(rc::gen::elementOf(ctx->leaves), [ctx](const Leaf& leaf) {
    return rc::gen::apply(
        [leaf](CompareOp op, ExprPtr literal, bool literal_first) {
          return literal_first ? make_compare(op, literal, column(leaf))
                               : make_compare(op, column(leaf), literal);
        },
        any_compare_op(), literal_of(ctx, leaf), rc::gen::weightedElement<bool>({{3, false}, {1, true}}));
  });
}

rc::Gen<ExprPtr> compare_with_null(const ContextPtr& ctx) {
  return rc::gen::apply(
      [](const Leaf& leaf, CompareOp op) {
        return make_compare(op, column(leaf), make_literal(Value::null()));
      },
      rc::gen::elementOf(ctx->leaves), any_compare_op());
}

rc::Gen<ExprPtr> null_test(const ContextPtr& ctx) {
  return rc::gen::apply(
      [](const Leaf& leaf, bool negated) {
        return negated ? make_is_not_null(column(leaf)) : make_is_null(column(leaf));
      },
      rc::gen::elementOf(ctx->leaves), rc::gen::arbitrary<bool>());
}

// c [NOT] IN (v1..vn), items near the bounds, now and then a NULL among them.
rc::Gen<ExprPtr> in_list(const ContextPtr& ctx) {
  return rc::gen::mapcat(rc::gen::elementOf(ctx->leaves), [ctx](const Leaf& leaf) {
    auto item = rc::gen::weightedOneOf<ExprPtr>(
        {{6, literal_of(ctx, leaf)}, {1, rc::gen::just(make_literal(Value::null()))}});
    return rc::gen::apply(
        [leaf](std::vector<ExprPtr> items, bool negated) {
          ExprPtr in = make_in(column(leaf), std::move(items));
          return negated ? make_not(in) : in;
        },
        vector_of<ExprPtr>(1, 4, item), rc::gen::weightedElement<bool>({{3, false}, {1, true}}));
  });
}

// s [NOT] LIKE 'p%' with p a bound, a value or a prefix of one; sometimes another pattern shape.
rc::Gen<ExprPtr> like(const ContextPtr& ctx) {
  return rc::gen::mapcat(rc::gen::elementOf(ctx->strings), [ctx](const Leaf& leaf) {
    auto pattern = rc::gen::apply(
        [](const Value& text, int shape) {
          const std::string& s = text.as_string();
          const std::string p = shape <= 4 ? s + "%" : shape == 5 ? "%" + s : shape == 6 ? s : s + "_";
          return make_literal(Value::string(p));
        },
        literal_for(leaf, ctx->file), uniform_in(0, 8));
    return rc::gen::apply(
        [leaf](ExprPtr p, bool negated) {
          ExprPtr e = make_like(column(leaf), p);
          return negated ? make_not(e) : e;
        },
        pattern, rc::gen::weightedElement<bool>({{4, false}, {1, true}}));
  });
}

rc::Gen<ExprPtr> between(const ContextPtr& ctx) {
  return rc::gen::mapcat(rc::gen::elementOf(ctx->leaves), [ctx](const Leaf& leaf) {
    return rc::gen::apply(
        [leaf](ExprPtr low, ExprPtr high, bool negated) {
          ExprPtr e = make_between(column(leaf), low, high);
          return negated ? make_not(e) : e;
        },
        literal_of(ctx, leaf), literal_of(ctx, leaf), rc::gen::weightedElement<bool>({{3, false}, {1, true}}));
  });
}

// b, b = TRUE, b = FALSE: boolean columns have no min/max.
rc::Gen<ExprPtr> boolean_column(const ContextPtr& ctx) {
  return rc::gen::apply(
      [](const Leaf& leaf, int shape) {
        if (shape == 0) return column(leaf);
        return make_compare(CompareOp::Eq, column(leaf), make_literal(Value::boolean(shape == 1)));
      },
      rc::gen::elementOf(ctx->booleans), uniform_in(0, 3));
}

rc::Gen<ExprPtr> literal_only() {
  const ExprPtr one = make_literal(Value::integral(TypeKind::Int, 1));
  return rc::gen::element(make_literal(Value::boolean(true)), make_literal(Value::boolean(false)),
                          make_literal(Value::null()), make_compare(CompareOp::Eq, one, one),
                          make_compare(CompareOp::Lt, make_literal(Value::null()), one));
}

rc::Gen<ExprPtr> column_vs_column(const ContextPtr& ctx) {
  return rc::gen::mapcat(rc::gen::elementOf(ctx->leaves), [ctx](const Leaf& left) {
    std::vector<Leaf> same_type;
    for (const Leaf& l : ctx->leaves) {
      if (l.type == left.type) same_type.push_back(l);
    }
    return rc::gen::apply(
        [left](const Leaf& right, CompareOp op) { return make_compare(op, column(left), column(right)); },
        rc::gen::elementOf(same_type), any_compare_op());
  });
}

// c + 1 > v, CAST(c AS DOUBLE) <= v, abs(c) >= v: no skipping, but real predicates.
rc::Gen<ExprPtr> computed_numeric(const ContextPtr& ctx) {
  return rc::gen::mapcat(rc::gen::elementOf(ctx->integrals_and_doubles), [ctx](const Leaf& leaf) {
    return rc::gen::apply(
        [leaf](int shape, CompareOp op, ExprPtr literal) {
          ExprPtr lhs;
          if (shape == 0) {
            const Value one = leaf.type.kind == TypeKind::Double ? Value::floating(TypeKind::Double, 1.0)
                                                                 : Value::integral(leaf.type.kind, 1);
            lhs = make_arith(ArithOp::Add, {column(leaf), make_literal(one)});
          } else if (shape == 1) {
            lhs = make_call("abs", {column(leaf)});
          } else {
            return make_compare(op, make_cast(column(leaf), DataType::of(TypeKind::Double)),
                                make_literal(Value::floating(TypeKind::Double, 0.5)));
          }
          return make_compare(op, lhs, literal);
        },
        uniform_in(0, 3), any_compare_op(), literal_of(ctx, leaf));
  });
}

// upper(s) = v, startswith(s, v), endswith(s, v), contains(s, v), rand() < 0.5 (non-deterministic).
// Only startswith has a skipping rule (docs/semantics.md §5.3); the other two have its shape.
rc::Gen<ExprPtr> function_call(const ContextPtr& ctx) {
  auto random = rc::gen::just(make_compare(CompareOp::Lt, make_call("rand", {}),
                                           make_literal(Value::floating(TypeKind::Double, 0.5))));
  if (ctx->strings.empty()) return random;
  static const std::vector<std::string> kStringFunctions = {"upper", "startswith", "endswith", "contains"};
  auto on_string = rc::gen::mapcat(rc::gen::elementOf(ctx->strings), [ctx](const Leaf& leaf) {
    return rc::gen::apply(
        [leaf](const std::string& function, ExprPtr literal) {
          if (function == "upper") return make_compare(CompareOp::Eq, make_call("upper", {column(leaf)}), literal);
          return make_call(function, {column(leaf), literal});
        },
        rc::gen::elementOf(kStringFunctions), literal_of(ctx, leaf));
  });
  return rc::gen::oneOf(random, on_string);
}

// c IS [NOT] TRUE|FALSE (Spark's <=> TRUE|FALSE) over a boolean column or a comparison, c IS
// [NOT] UNKNOWN over a comparison, c IS [NOT] DISTINCT FROM v.
rc::Gen<ExprPtr> truth_test(const ContextPtr& ctx) {
  return rc::gen::apply(
      [](ExprPtr comparison, int shape, bool negated) {
        const auto maybe_not = [negated](ExprPtr e) { return negated ? make_not(e) : e; };
        if (shape == 0) return make_is_unknown(comparison, negated);
        if (shape == 1) {
          // comparison is `c op v`: c IS [NOT] DISTINCT FROM v.
          return maybe_not(make_not(make_compare(CompareOp::NullSafeEq, comparison->children[0], comparison->children[1])));
        }
        return maybe_not(make_compare(CompareOp::NullSafeEq, comparison, make_literal(Value::boolean(shape == 2))));
      },
      compare_with_literal(ctx), uniform_in(0, 4), rc::gen::arbitrary<bool>());
}

// '^x' for the first code point x of s (escaped when the regex grammar gives it a meaning), '^$'
// for the empty string.
std::string anchored_first_character(const std::string& s) {
  const std::vector<char32_t> cps = decode_utf8(s);
  if (cps.empty()) return "^$";
  std::string out = "^";
  if (cps[0] < 0x80 && std::string_view("\\^$.|?*+()[]{}").find(static_cast<char>(cps[0])) != std::string_view::npos) out += '\\';
  append_utf8(out, cps[0]);
  return out;
}

// s [NOT] RLIKE 'p', s [NOT] ILIKE 'p%', s LIKE 'p#%%' ESCAPE '#', s [NOT] LIKE ANY|ALL ('p%', …),
// p a bound, a value or a prefix of one.
rc::Gen<ExprPtr> string_match(const ContextPtr& ctx) {
  return rc::gen::mapcat(rc::gen::elementOf(ctx->strings), [ctx](const Leaf& leaf) {
    return rc::gen::apply(
        [leaf](const Value& near, const Value& other, int shape, bool negated) {
          const std::string& s = near.as_string();
          const auto maybe_not = [negated](ExprPtr e) { return negated ? make_not(e) : e; };
          const ExprPtr c = column(leaf);
          switch (shape) {
            case 0: return maybe_not(make_rlike(c, make_literal(Value::string(anchored_first_character(s)))));
            case 1: return maybe_not(make_like(make_call("lower", {c}), make_call("lower", {make_literal(Value::string(s + "%"))})));
            case 2: return maybe_not(make_like_escape(c, make_literal(Value::string(s + "%")), U'#'));
            case 3: return maybe_not(make_like_any(c, {make_literal(Value::string(s + "%")), make_literal(Value::string(other.as_string() + "%"))}));
            default: return maybe_not(make_like_all(c, {make_literal(Value::string(s + "%")), make_literal(Value::string("%" + other.as_string()))}));
          }
        },
        literal_for(leaf, ctx->file), literal_for(leaf, ctx->file), uniform_in(0, 5),
        rc::gen::weightedElement<bool>({{3, false}, {1, true}}));
  });
}

// CASE WHEN c op v THEN TRUE ELSE c2 op2 v2 END, if(c op v, c2 op2 v2, FALSE), and
// coalesce(c, v) op w: no skipping (Delta has no rule), exact in Z3.
rc::Gen<ExprPtr> conditional(const ContextPtr& ctx) {
  return rc::gen::apply(
      [](ExprPtr a, ExprPtr b, int shape) {
        if (shape == 0) return make_case({{a, make_literal(Value::boolean(true))}}, b);
        if (shape == 1) return make_call("if", {a, b, make_literal(Value::boolean(false))});
        // a is `c op v`: coalesce(c, v) op v.
        return make_compare(a->cmp_op, make_call("coalesce", {a->children[0], a->children[1]}), a->children[1]);
      },
      compare_with_literal(ctx), compare_with_literal(ctx), uniform_in(0, 3));
}

// c IN (v, c2) with a column among the items: no skipping (Delta needs literals).
rc::Gen<ExprPtr> in_expressions(const ContextPtr& ctx) {
  return rc::gen::mapcat(rc::gen::elementOf(ctx->leaves), [ctx](const Leaf& leaf) {
    return rc::gen::map(literal_of(ctx, leaf), [leaf](ExprPtr v) { return make_in(column(leaf), {v, column(leaf)}); });
  });
}

// date_add(d, n) op v, d <= current_date(): Z3 exact; current_date is one value per query.
rc::Gen<ExprPtr> date_function(const ContextPtr& ctx) {
  return rc::gen::mapcat(rc::gen::elementOf(ctx->dates), [ctx](const Leaf& leaf) {
    return rc::gen::apply(
        [leaf](CompareOp op, ExprPtr v, int days, bool today) {
          if (today) return make_compare(op, column(leaf), make_call("current_date", {}));
          const char* f = days < 0 ? "date_sub" : "date_add";
          return make_compare(op, make_call(f, {column(leaf), make_literal(Value::integral(TypeKind::Int, std::abs(days)))}), v);
        },
        any_compare_op(), literal_of(ctx, leaf), rc::gen::element(-30, -1, 1, 365), rc::gen::arbitrary<bool>());
  });
}

rc::Gen<ExprPtr> atom(const ContextPtr& ctx) {
  const auto when = [](bool possible, std::size_t weight) { return possible ? weight : 0; };
  return weighted_one_of<ExprPtr>({
      {12, compare_with_literal(ctx)},
      {2, literal_only()},
      {4, null_test(ctx)},
      {2, compare_with_null(ctx)},
      {4, in_list(ctx)},
      {when(!ctx->strings.empty(), 5), rc::gen::lazy([ctx] { return like(ctx); })},
      {3, between(ctx)},
      {when(!ctx->booleans.empty(), 2), rc::gen::lazy([ctx] { return boolean_column(ctx); })},
      {2, column_vs_column(ctx)},
      {when(!ctx->integrals_and_doubles.empty(), 2), rc::gen::lazy([ctx] { return computed_numeric(ctx); })},
      {1, function_call(ctx)},
      {1, truth_test(ctx)},
      {when(!ctx->strings.empty(), 1), rc::gen::lazy([ctx] { return string_match(ctx); })},
      {1, conditional(ctx)},
      {1, in_expressions(ctx)},
      {when(!ctx->dates.empty(), 1), rc::gen::lazy([ctx] { return date_function(ctx); })},
  });
}

rc::Gen<ExprPtr> predicate_at_depth(const ContextPtr& ctx, int depth) {
  if (depth <= 0) return atom(ctx);
  auto child = rc::gen::lazy([ctx, depth] { return predicate_at_depth(ctx, depth - 1); });
  return weighted_one_of<ExprPtr>({
      {6, atom(ctx)},
      {4, rc::gen::apply([](ExprPtr a, ExprPtr b) { return make_and(a, b); }, child, child)},
      {3, rc::gen::apply([](ExprPtr a, ExprPtr b) { return make_or(a, b); }, child, child)},
      {2, rc::gen::map(child, [](ExprPtr a) { return make_not(a); })},
      {1, rc::gen::map(child, [](ExprPtr a) { return make_is_null(a); })},
      {1, rc::gen::map(child, [](ExprPtr a) { return make_is_not_null(a); })},
  });
}

bool is_prefix_pattern(const Expr& like);

bool is_null_literal(const ExprPtr& e) { return e->kind == ExprKind::Literal && e->literal.is_null(); }

std::string call_form(const Expr& call) {
  const std::string& f = call.function;
  if (f == "coalesce" || f == "if" || f == "nvl" || f == "nvl2" || f == "nullif") return "conditional-function";
  if (f == "date_add" || f == "date_sub") return "date-function";
  if (is_query_time_function(f)) return "query-time";
  return "function";
}

std::string like_form(const Expr& like) {
  if (like.children.size() > 2) return "like-escape";
  if (like.children[0]->kind == ExprKind::Call) return "ilike";
  return is_prefix_pattern(like) ? "like-prefix" : "like-other";
}

std::string compare_form(const Expr& e) {
  const Expr& l = *e.children[0];
  const Expr& r = *e.children[1];
  const auto kind_on_either = [&](ExprKind k) { return l.kind == k || r.kind == k; };
  if (l.kind == ExprKind::Literal && r.kind == ExprKind::Literal) return "literal";
  if (is_null_literal(e.children[0]) || is_null_literal(e.children[1])) return "compare-null";
  if (kind_on_either(ExprKind::Arith)) return "arithmetic";
  if (kind_on_either(ExprKind::Cast)) return "cast";
  if (kind_on_either(ExprKind::Case)) return "case";
  if (kind_on_either(ExprKind::Call)) return call_form(l.kind == ExprKind::Call ? l : r);
  if (l.kind == ExprKind::Column && r.kind == ExprKind::Column) return "column-vs-column";
  if (e.cmp_op == CompareOp::NullSafeEq && r.kind == ExprKind::Literal && r.type.kind == TypeKind::Boolean) {
    return "is-true-false";
  }
  if (l.type.kind == TypeKind::Boolean || r.type.kind == TypeKind::Boolean) return "bool-column";
  if (e.cmp_op == CompareOp::NullSafeEq) return "null-safe-eq";
  return l.kind == ExprKind::Literal ? "compare(literal-first)" : "compare";
}

bool is_prefix_pattern(const Expr& like) {
  const Expr& pattern = *like.children[1];
  if (pattern.kind != ExprKind::Literal || pattern.literal.is_null()) return false;
  const std::string& p = pattern.literal.as_string();
  return !p.empty() && p.back() == '%' && p.find_first_of("%_") == p.size() - 1;
}

}  // namespace

rc::Gen<ExprPtr> predicate_for(const TableShape& table, const GeneratedFile& file) {
  const ContextPtr ctx = make_context(table, file);
  auto unbound = rc::gen::withSize([ctx](int size) { return predicate_at_depth(ctx, size / kSizePerDepth); });
  return rc::gen::map(unbound, [schema = table.schema](const ExprPtr& e) { return bind(e, schema); });
}

std::string predicate_form(const Expr& e) {
  switch (e.kind) {
    case ExprKind::Literal: return "literal";
    case ExprKind::Column: return "bool-column";
    case ExprKind::Compare: return compare_form(e);
    case ExprKind::And: return "and";
    case ExprKind::Or: return "or";
    case ExprKind::Not: {
      const Expr& inner = *e.children[0];
      if (inner.kind == ExprKind::In) return "not-in";
      if (inner.kind == ExprKind::Like) return "not-like";
      if (inner.kind == ExprKind::Between) return "not-between";
      if (inner.kind == ExprKind::RLike) return "not-rlike";
      if (inner.kind == ExprKind::LikeAny || inner.kind == ExprKind::LikeAll) return "not-like-any-all";
      if (inner.kind == ExprKind::Compare && inner.cmp_op == CompareOp::NullSafeEq) return "not-null-safe-eq";
      return "not";
    }
    case ExprKind::IsNull:
      if (e.unknown_form) return "is-unknown";
      return e.children[0]->kind == ExprKind::Column ? "is-null" : "is-null(expr)";
    case ExprKind::IsNotNull:
      if (e.unknown_form) return "is-unknown";
      return e.children[0]->kind == ExprKind::Column ? "is-not-null" : "is-not-null(expr)";
    case ExprKind::In: {
      const bool literals_only = std::all_of(e.children.begin() + 1, e.children.end(),
                                             [](const ExprPtr& c) { return c->kind == ExprKind::Literal; });
      return literals_only ? "in" : "in-expressions";
    }
    case ExprKind::Like: return like_form(e);
    case ExprKind::Between: return "between";
    case ExprKind::Arith: return "arithmetic";
    case ExprKind::Cast: return "cast";
    case ExprKind::Call:
      if (e.function == "startswith") return "startswith";
      return e.function == "endswith" || e.function == "contains" ? "endswith-contains" : call_form(e);
    case ExprKind::RLike: return "rlike";
    case ExprKind::LikeAny: return "like-any";
    case ExprKind::LikeAll: return "like-all";
    case ExprKind::Case: return "case";
    case ExprKind::InSubquery: return "in-subquery";
  }
  return "?";
}

const std::vector<std::string>& predicate_forms() {
  static const std::vector<std::string> forms = {
      "literal", "bool-column", "compare", "compare(literal-first)", "compare-null", "null-safe-eq",
      "column-vs-column", "arithmetic", "cast", "function", "and", "or", "not", "not-in",
      "not-like", "not-between", "is-null", "is-not-null", "is-null(expr)", "is-not-null(expr)",
      "in", "like-prefix", "like-other", "between",
      // Spark's grammar beyond comparisons (docs/semantics.md §3.1)
      "is-true-false", "is-unknown", "not-null-safe-eq", "rlike", "not-rlike", "ilike", "like-escape",
      "like-any", "like-all", "not-like-any-all", "in-expressions", "case", "conditional-function",
      "startswith", "endswith-contains", "date-function", "query-time"};
  return forms;
}

}  // namespace skipsound::generators
