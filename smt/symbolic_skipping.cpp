#include "smt/symbolic_skipping.h"

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

SymValue SymbolicSkipping::read_stat(const StatRef& s) const {
  if (s.kind == StatKind::NumRecords) {
    const z3::expr& n = file_.num_records();
    // The trust-wide-nullcount mutant compares wide nullCounts against the live row count.
    const z3::expr read = mutant_ == Mutant::TrustWideNullcount
                              ? z3::ite(file_.wide(), n - file_.dv_cardinality(), n)
                              : n;
    return {file_.num_records_absent(), read, Domain::Int};
  }
  const SymbolicColumn& column = file_.column(s.leaf);
  if (s.kind == StatKind::NullCount) return column.null_count;
  if (s.kind == StatKind::Min) return column.min;
  const TypeKind kind = schema_.leaves().at(s.leaf).type.kind;
  if (is_timestamp(kind) && mutant_ != Mutant::NoTimestampMaxBump)
    return {column.max.is_null, saturating_bump(column.max.payload), column.max.domain};
  return column.max;
}

z3::expr SymbolicSkipping::verified(const std::set<StatRef>& referenced) const {
  z3::context& ctx = file_.num_records().ctx();
  if (mutant_ == Mutant::SkipMissingStats) return ctx.bool_val(true);
  z3::expr all = ctx.bool_val(true);
  for (const StatRef& ref : referenced) {
    z3::expr passes = !read_stat(ref).is_null;
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
    case SkipKind::Literal:
      if (bind_literal_)
        if (std::optional<SymValue> bound = bind_literal_(e.literal)) return std::move(*bound);
      return encode_literal(ctx, e.literal, alphabet_);
    case SkipKind::Stat: return read_stat(e.stat);
    case SkipKind::Compare: return compare(e);
    case SkipKind::Substr: {
      const SymValue operand = evaluate(*e.children[0]);
      if (!operand.sequence) throw std::invalid_argument("smt: substr of a stat that is not a string");
      const CodeSequence first = sequence_first(*operand.sequence, e.length);
      return {operand.is_null, first.length, Domain::String, std::nullopt, first};
    }
    case SkipKind::And: return truth_and(evaluate(*e.children[0]), evaluate(*e.children[1]));
    case SkipKind::Or: return truth_or(evaluate(*e.children[0]), evaluate(*e.children[1]));
    case SkipKind::Not: return truth_not(evaluate(*e.children[0]));
  }
  throw std::invalid_argument("smt: unknown skipping-expression node");
}

z3::expr SymbolicSkipping::skips(const SkippingPredicate& p) const {
  return !truth_is_true(evaluate(*p.expr)) && verified(p.referenced);
}

}  // namespace skipsound::smt
