#include "proofs/oracles/stats_audit.h"

#include "model/sql/printer.h"
#include "model/stats/stats_consistency.h"

namespace skipsound {

namespace {

std::string show(const Value& v) { return v.is_null() ? "NULL" : to_sql_literal(v); }

Value long_value(int64_t v) { return Value::integral(TypeKind::Long, v); }

class Auditor {
 public:
  Auditor(const Schema& schema, const AuditedFile& file) : schema_(schema), file_(file) {}

  std::vector<StatsClaimFinding> run() {
    const FileStats& s = *file_.stats;
    const auto physical = static_cast<int64_t>(file_.rows->size());
    if (s.num_records && *s.num_records != physical) {
      findings_.push_back({StatsClaim::NumRecords, -1, long_value(*s.num_records), physical, std::nullopt});
    }
    for (const Leaf& leaf : schema_.leaves()) audit_column(leaf);
    return std::move(findings_);
  }

 private:
  const Value* value_at(size_t r, const Leaf& leaf) const {
    const Row& row = (*file_.rows)[r];
    return static_cast<size_t>(leaf.ordinal) < row.size() ? &row[leaf.ordinal] : nullptr;
  }

  bool is_null(size_t r, const Leaf& leaf) const {
    const Value* v = value_at(r, leaf);
    return v == nullptr || v->is_null();
  }

  bool deleted(size_t r) const { return r < file_.deleted.size() && file_.deleted[r]; }

  void audit_null_count(const Leaf& leaf, int64_t claimed) {
    int64_t physical_nulls = 0, live_nulls = 0, live = 0;
    for (size_t r = 0; r < file_.rows->size(); ++r) {
      const bool null = is_null(r, leaf);
      physical_nulls += null;
      if (!deleted(r)) {
        ++live;
        live_nulls += null;
      }
    }
    const bool has_dv = live != static_cast<int64_t>(file_.rows->size());
    // Tight stats of a file without a DV count exactly; otherwise nullCount reads as a tri-state
    // (docs/semantics.md §4.6): all live rows NULL, none, or unknown.
    if (!file_.stats->wide() && !has_dv) {
      if (claimed != physical_nulls) {
        findings_.push_back({StatsClaim::NullCountExact, leaf.ordinal, long_value(claimed), physical_nulls, std::nullopt});
      }
      return;
    }
    const int64_t records = file_.stats->num_records.value_or(static_cast<int64_t>(file_.rows->size()));
    if (claimed == records && live_nulls != live) {
      findings_.push_back({StatsClaim::AllNull, leaf.ordinal, long_value(claimed), live - live_nulls, std::nullopt});
    } else if (claimed == 0 && live_nulls != 0) {
      findings_.push_back({StatsClaim::NoneNull, leaf.ordinal, long_value(claimed), live_nulls, std::nullopt});
    }
  }

  void audit_bound(const Leaf& leaf, const Value& bound, bool is_max) {
    Value limit = bound;
    if (is_max && is_timestamp(bound.type.kind)) limit.data = bound.as_int() + kTimestampStatSlackMicros;
    for (size_t r = 0; r < file_.rows->size(); ++r) {
      if (deleted(r) || is_null(r, leaf)) continue;
      const auto order = spark_compare(*value_at(r, leaf), limit);
      if (order && (is_max ? *order > 0 : *order < 0)) {
        findings_.push_back({is_max ? StatsClaim::Max : StatsClaim::Min, leaf.ordinal, bound, 0, r});
        return;
      }
    }
  }

  void audit_column(const Leaf& leaf) {
    const ColumnStats& c = file_.stats->column(leaf.ordinal);
    if (c.null_count) audit_null_count(leaf, *c.null_count);
    if (c.min && !c.min->is_null()) audit_bound(leaf, *c.min, false);
    if (c.max && !c.max->is_null()) audit_bound(leaf, *c.max, true);
  }

  const Schema& schema_;
  const AuditedFile& file_;
  std::vector<StatsClaimFinding> findings_;
};

std::string column_of(const StatsClaimFinding& f, const Schema& schema) {
  return path_to_sql(schema.leaves().at(static_cast<size_t>(f.leaf)).path);
}

}  // namespace

const char* stats_claim_name(StatsClaim c) {
  switch (c) {
    case StatsClaim::NumRecords: return "numRecords";
    case StatsClaim::NullCountExact: return "exact nullCount";
    case StatsClaim::AllNull: return "all null";
    case StatsClaim::NoneNull: return "none null";
    case StatsClaim::Min: return "min";
    case StatsClaim::Max: return "max";
  }
  return "?";
}

std::vector<StatsClaimFinding> audit_file_stats(const Schema& schema, const AuditedFile& file) {
  if (file.stats == nullptr || file.rows == nullptr) return {};
  return Auditor(schema, file).run();
}

std::string claim_text(const StatsClaimFinding& f, const Schema& schema) {
  const auto count_claim = [&] { return std::to_string(f.stated.as_int()); };  // a count claim's stated long
  switch (f.claim) {
    case StatsClaim::NumRecords: return "numRecords = " + count_claim();
    case StatsClaim::NullCountExact: return "nullCount(" + column_of(f, schema) + ") = " + count_claim();
    case StatsClaim::AllNull: return "nullCount(" + column_of(f, schema) + ") = " + count_claim() + " (all live rows NULL)";
    case StatsClaim::NoneNull: return "nullCount(" + column_of(f, schema) + ") = " + count_claim() + " (no live row NULL)";
    case StatsClaim::Min: return "min(" + column_of(f, schema) + ") = " + show(f.stated);
    case StatsClaim::Max: return "max(" + column_of(f, schema) + ") = " + show(f.stated);
  }
  return "?";
}

std::string refutation_text(const StatsClaimFinding& f, const Schema& schema, const AuditedFile& file) {
  switch (f.claim) {
    case StatsClaim::NumRecords: return "the file holds " + std::to_string(f.observed) + " physical rows";
    case StatsClaim::NullCountExact: return std::to_string(f.observed) + " of the rows are NULL";
    case StatsClaim::AllNull: return std::to_string(f.observed) + " live rows are not NULL";
    case StatsClaim::NoneNull: return std::to_string(f.observed) + " live rows are NULL";
    case StatsClaim::Min:
    case StatsClaim::Max: {
      const size_t r = f.row.value_or(0);
      const Row& row = file.rows->at(r);
      const std::string value = static_cast<size_t>(f.leaf) < row.size() ? show(row[f.leaf]) : "NULL";
      return "row " + std::to_string(r) + (r < file.deleted.size() && file.deleted[r] ? " (deleted)" : " (live)") + ": " +
             column_of(f, schema) + " = " + value + (f.claim == StatsClaim::Max ? ", above the max" : ", below the min");
    }
  }
  return "?";
}

}  // namespace skipsound
