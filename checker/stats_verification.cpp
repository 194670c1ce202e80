#include "checker/stats_verification.h"

namespace skipsound {

namespace {

bool stat_verified(const StatRef& ref, const StatReadContext& ctx) {
  if (!read_stat(ref, ctx).is_null()) return true;
  if (ref.kind != StatKind::Min && ref.kind != StatKind::Max) return false;
  const Value null_count = read_stat(StatRef{StatKind::NullCount, ref.leaf}, ctx);
  const Value num_records = read_stat(StatRef{StatKind::NumRecords, -1}, ctx);
  return !null_count.is_null() && !num_records.is_null() &&
         null_count.as_int() == num_records.as_int();
}

}  // namespace

StatsVerification verify_stats(const std::set<StatRef>& referenced, const StatReadContext& ctx) {
  // The skip-missing-stats mutant's deviation: nothing is ever found missing.
  if (ctx.mutant == Mutant::SkipMissingStats) return {};
  for (const StatRef& ref : referenced) {
    if (!stat_verified(ref, ctx)) return StatsVerification{VerificationOutcome::Failed, ref};
  }
  return {};
}

}  // namespace skipsound
