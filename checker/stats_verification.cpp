#include "checker/stats_verification.h"

#include "model/coverage/coverage.h"
#include "model/mutants/fault_injection.h"

namespace skipsound {

namespace {

std::optional<int64_t> count_of(const StatRef& ref, const StatReadContext& ctx) {
  const Value v = read_stat(ref, ctx);
  return v.is_null() ? std::nullopt : std::optional<int64_t>(v.as_int());
}

bool present(const StatRef& ref, const StatReadContext& ctx) {
  switch (ref.kind) {
    case StatKind::NumRecords: return ctx.stats.num_records.has_value();
    case StatKind::NullCount: return ctx.stats.column(ref.leaf).null_count.has_value();
    case StatKind::Min:
    case StatKind::Max: {
      const ColumnStats& c = ctx.stats.column(ref.leaf);
      const std::optional<Value>& bound = ref.kind == StatKind::Min ? c.min : c.max;
      return bound.has_value() && !bound->is_null();
    }
  }
  return false;
}

bool stat_verified(const StatRef& ref, const StatReadContext& ctx) {
  if (present(ref, ctx)) return true;
  if (ref.kind != StatKind::Min && ref.kind != StatKind::Max) return false;
  // Counts go through read_stat so that every mutant reads them the same way everywhere.
  const auto null_count = count_of(StatRef{StatKind::NullCount, ref.leaf}, ctx);
  const auto num_records = count_of(StatRef{StatKind::NumRecords, -1}, ctx);
  const bool all_null = null_count && num_records && *null_count == *num_records;
  if (all_null) coverage::hit(coverage::Probe::VerifyAllNullPasses);
  return all_null;
}

}  // namespace

StatsVerification verify_stats(const std::set<StatRef>& referenced, const StatReadContext& ctx) {
  // The skip-missing-stats mutant's deviation: nothing is ever found missing.
  if (fault_active(Mutant::SkipMissingStats)) return {};
  for (const StatRef& ref : referenced) {
    if (!stat_verified(ref, ctx)) {
      coverage::hit(coverage::Probe::VerifyMissingStat);
      return StatsVerification{VerificationOutcome::Failed, ref};
    }
  }
  return {};
}

}  // namespace skipsound
