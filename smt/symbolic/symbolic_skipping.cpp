#include "smt/symbolic/symbolic_skipping.h"

#include <limits>
#include <stdexcept>

#include "smt/expr_encoding.h"
#include "model/values/temporal.h"

namespace skipsound::smt {

namespace {

z3::expr saturating_bump(const z3::expr& micros) {
  z3::context& ctx = micros.ctx();
  const int64_t limit = std::numeric_limits<int64_t>::max();
  return z3::ite(micros > ctx.int_val(limit - kMicrosPerMilli), ctx.int_val(limit),
                 micros + ctx.int_val(kMicrosPerMilli));
}

}  // namespace

SymbolicSkipping::SymbolicSkipping(const SymbolicFile& file, const Schema& schema,
                                   const CodePointMap& alphabet, Mutant mutant, LiteralBinding bind_literal)
    : file_(file), schema_(schema), alphabet_(alphabet), mutant_(mutant), bind_literal_(std::move(bind_literal)) {}

// Each stat as checker/skipping_expr.cpp's stat_value reads it; an absent stat is a NULL symbol.
SymValue SymbolicSkipping::read_stat(const StatRef& s) const {
  if (s.kind == StatKind::NumRecords) {
    // numRecords counts physical rows, as a wide file's nullCount does, so the two compare.
    const z3::expr& n = file_.num_records();
    // The trust-wide-nullcount mutant compares wide nullCounts against the live row count.
    const z3::expr read = mutant_ == Mutant::TrustWideNullcount
                              ? z3::ite(file_.wide(), n - file_.dv_cardinality(), n)
                              : n;
    return {file_.num_records_absent(), read, Domain::Int};
  }
  const SymbolicColumn& column = file_.column(s.leaf);
  // nullCount >= the live NULLs (deleted rows may add to it), so "nullCount > 0" bounds IS NULL.
  if (s.kind == StatKind::NullCount) return column.null_count;
  // min(c) <= every live non-null value (a truncated string min only sorts lower).
  if (s.kind == StatKind::Min) return column.min;
  const TypeKind kind = schema_.leaves().at(s.leaf).type.kind;
  // Writers floor a timestamp max to the millisecond, so only max(c) + 1 ms bounds the true max.
  if (is_timestamp(kind) && mutant_ != Mutant::NoTimestampMaxBump)
    return {column.max.is_null, saturating_bump(column.max.payload), column.max.domain};
  // max(c) >= every live non-null value (the writer bumps a truncated string max above it).
  return column.max;
}

z3::expr SymbolicSkipping::verified(const std::set<StatRef>& referenced) const {
  z3::context& ctx = file_.num_records().ctx();
  // The skip-missing-stats mutant's deviation: nothing is ever found missing.
  if (mutant_ == Mutant::SkipMissingStats) return ctx.bool_val(true);
  z3::expr all = ctx.bool_val(true);
  for (const StatRef& ref : referenced) {
    // An absent stat says nothing about the rows, so a skip that reads it must not stand.
    z3::expr passes = !read_stat(ref).is_null;
    // A column whose every row is NULL has no min/max to record; its counts say so instead.
    if (ref.kind == StatKind::Min || ref.kind == StatKind::Max) {
      const SymValue null_count = read_stat(StatRef{StatKind::NullCount, ref.leaf});
      const SymValue num_records = read_stat(StatRef{StatKind::NumRecords, -1});
      passes = passes || (!null_count.is_null && !num_records.is_null &&
                          null_count.payload == num_records.payload);
    }
    all = all && passes;
  }
  return all;
}

SymValue SymbolicSkipping::compare(const SkipExpr& e) const {
  const SymValue lhs = evaluate(*e.children[0]);
  const SymValue rhs = evaluate(*e.children[1]);
  // Stats and literals compare in Spark's total order (NaN above every number), NULL on a NULL side.
  const std::optional<SymValue> spark = sym_compare(e.op, lhs, rhs);
  if (!spark) throw std::invalid_argument("smt: a skipping comparison of incomparable stats");
  if (mutant_ != Mutant::IeeeNanOrder || (lhs.domain != Domain::Float && rhs.domain != Domain::Float))
    return *spark;
  // The mutant's IEEE order: any comparison of two non-null values with a NaN is false (<> true).
  z3::context& ctx = lhs.is_null.ctx();
  auto nan = [&](const SymValue& v) {
    return v.domain == Domain::Float ? fp_is_nan(v.payload) : ctx.bool_val(false);
  };
  const z3::expr nan_involved = !lhs.is_null && !rhs.is_null && (nan(lhs) || nan(rhs));
  return {spark->is_null, z3::ite(nan_involved, ctx.bool_val(e.op == CompareOp::Ne), spark->payload),
          Domain::Bool};
}

SymValue SymbolicSkipping::evaluate(const SkipExpr& e) const {
  z3::context& ctx = file_.num_records().ctx();
  switch (e.kind) {
    // A template's placeholder stands for its symbolic literal; any other literal is itself.
    case SkipKind::Literal:
      if (bind_literal_)
        if (std::optional<SymValue> bound = bind_literal_(e.literal)) return std::move(*bound);
      return encode_literal(ctx, e.literal, alphabet_);
    // Absent = NULL, a timestamp max bumped: as read_stat reads it.
    case SkipKind::Stat: return read_stat(e.stat);
    // Compared as the concrete evaluator compares (compare above), mutants included.
    case SkipKind::Compare: return compare(e);
    // substr(., 1, n) is monotone in code-point order, so a bound's prefix bounds every prefix.
    case SkipKind::Substr: {
      const SymValue operand = evaluate(*e.children[0]);
      if (!operand.sequence) throw std::invalid_argument("smt: substr of a stat that is not a string");
      const CodeSequence first = sequence_first(*operand.sequence, e.length);
      return {operand.is_null, first.length, Domain::String, std::nullopt, first};
    }
    // a AND b can only hold where both sides can: three-valued AND.
    case SkipKind::And: return truth_and(evaluate(*e.children[0]), evaluate(*e.children[1]));
    // a OR b can hold where either side can: three-valued OR.
    case SkipKind::Or: return truth_or(evaluate(*e.children[0]), evaluate(*e.children[1]));
    // NOT flips TRUE and FALSE and keeps NULL, as the builder's pushed-down NOT assumes.
    case SkipKind::Not: return truth_not(evaluate(*e.children[0]));
  }
  throw std::invalid_argument("smt: unknown skipping-expression node");
}

// The expression is TRUE on every file that may hold a matching row, and only verified stats may
// rule a row out: keep = (expr IS TRUE) OR NOT verified.
z3::expr SymbolicSkipping::skips(const SkippingPredicate& p) const {
  return !truth_is_true(evaluate(*p.expr)) && verified(p.referenced);
}

}  // namespace skipsound::smt
