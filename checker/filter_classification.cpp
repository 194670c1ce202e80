#include "checker/filter_classification.h"

#include <algorithm>
#include <cctype>

#include "model/coverage/coverage.h"
#include "model/values/ascii_text.h"

namespace skipsound {

namespace {

void collect_conjuncts(const ExprPtr& e, std::vector<ExprPtr>& out) {
  if (e->kind == ExprKind::And) {
    for (const ExprPtr& c : e->children) collect_conjuncts(c, out);
  } else {
    out.push_back(e);
  }
}

bool only_partition_columns(const Expr& e, const StatsEligibility& eligibility) {
  if (e.kind == ExprKind::Column) return eligibility.is_partition_column(e.leaf);
  return std::all_of(e.children.begin(), e.children.end(), [&](const ExprPtr& c) {
    return only_partition_columns(*c, eligibility);
  });
}

bool is_metadata_name(const std::string& name) {
  return ascii_iequals(name, "_metadata");
}

}  // namespace

std::vector<ExprPtr> split_conjuncts(const ExprPtr& predicate) {
  std::vector<ExprPtr> out;
  if (predicate) collect_conjuncts(predicate, out);
  return out;
}

bool is_deterministic(const Expr& e) {
  if (e.kind == ExprKind::Call && !e.deterministic) return false;
  return std::all_of(e.children.begin(), e.children.end(),
                     [](const ExprPtr& c) { return is_deterministic(*c); });
}

bool references_metadata_column(const Expr& e) {
  if (e.kind == ExprKind::Column) return !e.path.empty() && is_metadata_name(e.path.front());
  return std::any_of(e.children.begin(), e.children.end(),
                     [](const ExprPtr& c) { return references_metadata_column(*c); });
}

ClassifiedFilters classify_filters(const ExprPtr& predicate, const StatsEligibility& eligibility) {
  ClassifiedFilters result;
  for (const ExprPtr& filter : split_conjuncts(predicate)) {
    if (!is_deterministic(*filter) || references_metadata_column(*filter) || contains_subquery(*filter)) {
      coverage::hit(coverage::Probe::FilterIneligibleDropped);
      result.dropped.push_back(filter);
    } else if (only_partition_columns(*filter, eligibility)) {
      coverage::hit(coverage::Probe::FilterPartition);
      result.read.partition_filters.push_back(filter);
    } else {
      result.read.data_filters.push_back(filter);
    }
  }
  return result;
}

}  // namespace skipsound
