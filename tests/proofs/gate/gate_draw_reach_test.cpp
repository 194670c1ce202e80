// The default gate's own draw reaches every form and shape docs/gate.md names: the per-file cases
// and the explorer's worlds are re-drawn exactly as the default gate draws them (same seed, same
// budgets, same generation size), labelled, and every label must occur. The distribution is
// printed, so a generator change that starves a form shows before it fails.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <iostream>
#include <map>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "generators/predicate_gen.h"
#include "model/values/temporal.h"
#include "proofs/explorer/explorer.h"
#include "proofs/gate/gate.h"
#include "proofs/perfile/per_file_hunt.h"

namespace skipsound {
namespace {

using generators::World;
using generators::WorldCategory;

using Labels = std::map<std::string, size_t>;

void print(const std::string& title, const Labels& labels, size_t total) {
  std::cout << title << " (" << total << " draws)\n";
  for (const auto& [label, count] : labels) {
    std::cout << "  " << label << ": " << count << " (" << 100.0 * static_cast<double>(count) / static_cast<double>(total)
              << "%)\n";
  }
}

void expect_all(const Labels& labels, const std::set<std::string>& named) {
  for (const std::string& label : named) EXPECT_GT(labels.count(label) ? labels.at(label) : 0, 0u) << label << " never drawn";
}

GateOptions default_gate() {
  GateOptions o;
  o.seed = kDefaultGateSeed;
  return o;
}

bool has_type(const Schema& schema, TypeKind kind) {
  return std::any_of(schema.leaves().begin(), schema.leaves().end(), [&](const Leaf& l) { return l.type.kind == kind; });
}

bool null_string_partition(const generators::FileCase& c) {
  for (const Leaf& leaf : c.table.schema.leaves()) {
    if (generators::is_partition_leaf(leaf, c.table.stats_config) && leaf.type.kind == TypeKind::String &&
        !c.file.rows.empty() && c.file.rows.front()[leaf.ordinal].is_null()) {
      return true;
    }
  }
  return false;
}

// Whether some min or max of a `kind` leaf satisfies `holds`.
template <typename Holds>
bool some_bound(const generators::FileCase& c, TypeKind kind, Holds holds) {
  for (const Leaf& leaf : c.table.schema.leaves()) {
    if (leaf.type.kind != kind) continue;
    const ColumnStats& s = c.file.stats.column(leaf.ordinal);
    for (const auto* bound : {&s.min, &s.max}) {
      if (*bound && !(*bound)->is_null() && holds(**bound)) return true;
    }
  }
  return false;
}

// Significant digits of a double's shortest round-trip text.
size_t shortest_digits(double d) {
  std::string text = nlohmann::json(d).dump();
  text = text.substr(0, text.find_first_of("eE"));
  std::string digits;
  for (char ch : text) {
    if (std::isdigit(static_cast<unsigned char>(ch))) digits += ch;
  }
  const size_t first = digits.find_first_not_of('0');
  return first == std::string::npos ? 0 : digits.size() - first;
}

// A timestamp value off the millisecond: its stats are floored, its rows keep the microseconds.
bool timestamp_micros(const generators::FileCase& c) {
  for (const Leaf& leaf : c.table.schema.leaves()) {
    if (leaf.type.kind != TypeKind::Timestamp) continue;
    for (const Row& row : c.file.rows) {
      if (!row[leaf.ordinal].is_null() && row[leaf.ordinal].as_int() % kMicrosPerMilli != 0) return true;
    }
  }
  return false;
}

// How the case's file reaches the reader (proofs/perfile/per_file_log.h): the shapes the input-path
// mutants need.
std::vector<std::string> log_labels(const generators::FileCase& c) {
  std::vector<std::string> labels;
  const auto add_if = [&](bool holds, const char* label) { if (holds) labels.push_back(label); };
  const bool dv = c.file.dv_cardinality() > 0;
  add_if(std::any_of(c.table.schema.leaves().begin(), c.table.schema.leaves().end(),
                     [](const Leaf& l) { return l.physical_path != l.path; }),
         "column mapping, renamed columns");
  add_if(c.file.absent_leaves > 0, "leaves absent from the data");
  add_if(c.file.log.timestamp_offset_minutes != 0 && has_type(c.table.schema, TypeKind::Timestamp),
         "timestamp stats at a zone offset");
  add_if(has_type(c.table.schema, TypeKind::Decimal), "decimal stats");
  // Past 15 digits a decimal read through a double changes (decimal-stats-as-double).
  const bool large_decimal = some_bound(c, TypeKind::Decimal, [](const Value& v) { return decimal_digits(v.as_decimal()) > 15; });
  add_if(large_decimal && !c.file.log.decimals_as_strings, "decimal stats over 15 digits as JSON numbers");
  add_if(large_decimal && c.file.log.decimals_as_strings, "decimal stats over 15 digits as JSON strings");
  add_if(some_bound(c, TypeKind::Long, [](const Value& v) { return v.as_int() > (int64_t{1} << 62) || v.as_int() < -(int64_t{1} << 62); }),
         "long stats near ±2^63");
  add_if(some_bound(c, TypeKind::Double, [](const Value& v) { return std::isfinite(v.as_double()) && shortest_digits(v.as_double()) == 17; }),
         "double stats with 17 shortest digits");
  add_if(c.file.log.timestamp_offset_minutes != 0 && timestamp_micros(c), "timestamps with microseconds at a zone offset");
  add_if(c.file.string_min_cut == StringMinCut::Utf16Units && has_type(c.table.schema, TypeKind::String),
         "string mins cut by UTF-16 units");
  add_if(dv && c.file.log.add_before_remove, "DV update, add before remove");
  add_if(dv && !c.file.log.add_before_remove, "DV update, remove before add");
  add_if(c.file.log.dropped_column_stats, "stats of a dropped column");
  add_if(null_string_partition(c), "NULL string partition value");
  return labels;
}

TEST(GateDraw, PerFileCasesReachEveryPredicateFormAndLogShape) {
  const GateOptions options = default_gate();
  const size_t cases = gate_budget(options).file_cases;
  Labels forms, rows, logs;
  for (size_t i = 0; i < cases; ++i) {
    const generators::FileCase c = hunt_file_case(options.seed, Mutant::None, i);
    for (const ExprPtr& p : c.predicates) ++forms[generators::predicate_form(*p)];
    ++rows[std::to_string(c.file.rows.size()) + " rows"];
    for (const std::string& label : log_labels(c)) ++logs[label];
  }
  print("per-file predicate forms", forms, cases);
  print("per-file file sizes", rows, cases);
  print("per-file log shapes", logs, cases);
  const std::vector<std::string>& named = generators::predicate_forms();
  expect_all(forms, std::set<std::string>(named.begin(), named.end()));
  expect_all(logs, {"column mapping, renamed columns", "leaves absent from the data", "timestamp stats at a zone offset",
                    "decimal stats", "decimal stats over 15 digits as JSON numbers",
                    "decimal stats over 15 digits as JSON strings", "long stats near ±2^63",
                    "double stats with 17 shortest digits", "timestamps with microseconds at a zone offset",
                    "string mins cut by UTF-16 units", "DV update, add before remove",
                    "DV update, remove before add",
                    "stats of a dropped column", "NULL string partition value"});
}

// The transactions, by index, with an operation containing `text`.
std::set<size_t> transactions_with(const World& w, const std::string& text) {
  std::set<size_t> found;
  for (size_t t = 0; t < w.transactions.size(); ++t) {
    for (const std::string& op : w.transactions[t].operations) {
      if (op.find(text) != std::string::npos) found.insert(t);
    }
  }
  return found;
}

bool any_operation(const World& w, const std::string& text) { return !transactions_with(w, text).empty(); }

// docs/semantics.md §10.2 (c): a MERGE of WHEN MATCHED clauses only that updates, a row-local loser.
bool matched_only_merge_update(const World& w) {
  return std::any_of(w.transactions.begin(), w.transactions.end(), [](const generators::WorldTransaction& t) {
    return std::any_of(t.operations.begin(), t.operations.end(), [](const std::string& op) {
      return op.starts_with("MERGE USING") && op.find("THEN UPDATE") != std::string::npos &&
             op.find("NOT MATCHED") == std::string::npos;
    });
  });
}

std::set<size_t> transactions_with_any(const World& w, const std::vector<std::string>& texts) {
  std::set<size_t> found;
  for (const std::string& text : texts) found.merge(transactions_with(w, text));
  return found;
}

// docs/semantics.md §7.1 checks 1-4: the table changes of one world in eight, and whether a
// changing transaction commits first (a winner for every other) or later (a loser).
void table_change_labels(const World& w, std::vector<std::string>& labels) {
  const auto add_if = [&](bool holds, const char* label) { if (holds) labels.push_back(label); };
  const std::set<size_t> protocol = transactions_with_any(w, {"'delta.feature.", "'delta.enableDeletionVectors'", "DROP FEATURE"});
  add_if(!transactions_with_any(w, {"'delta.appendOnly'", "'delta.logRetentionDuration'"}).empty(),
         "ALTER of a harmless property");
  add_if(!transactions_with_any(w, {"'delta.dataSkippingNumIndexedCols'", "'delta.isolationLevel'"}).empty(),
         "ALTER of a depended-on property");
  add_if(!transactions_with_any(w, {"'delta.feature.", "'delta.enableDeletionVectors'"}).empty(), "ALTER enabling a feature");
  add_if(any_operation(w, "DROP FEATURE"), "ALTER dropping a feature");
  add_if(protocol.size() >= 2, "two protocol changes");
  add_if(transactions_with(w, "SET TXN").size() >= 2, "SET TXN on a shared app id");
  add_if(transactions_with(w, "SET DOMAIN").size() >= 2, "SET DOMAIN on a shared domain");
  const std::set<size_t> changers = transactions_with_any(w, {"ALTER TABLE", "SET TXN", "SET DOMAIN"});
  add_if(changers.count(w.commit_order.front()) > 0, "table change committing first");
  add_if(std::any_of(changers.begin(), changers.end(), [&](size_t t) { return t != w.commit_order.front(); }),
         "table change committing later");
}

bool has_null_x(const World& w) {
  for (const auto& f : w.files) {
    for (const auto& r : f.rows) {
      if (!r.x) return true;
    }
  }
  return false;
}

// docs/semantics.md §4.6's shape: a DV DELETE by id of a row of a file whose x holds NULL and
// non-NULL rows, and a later transaction reading x.
bool splits_null_x(const World& w) {
  if (!w.deletion_vectors || !any_operation(w, "DELETE WHERE id = ")) return false;
  return std::any_of(w.files.begin(), w.files.end(), [](const generators::WorldFile& f) {
    const auto null = [](const generators::WorldRow& r) { return !r.x; };
    return std::any_of(f.rows.begin(), f.rows.end(), null) && !std::all_of(f.rows.begin(), f.rows.end(), null);
  });
}

bool later_read_on_x(const World& w) {
  if (!w.late_start) return false;
  for (const std::string& op : w.transactions[*w.late_start].operations) {
    if (op.find("x IS") != std::string::npos || op.find("x <=>") != std::string::npos || op.find("x >=") != std::string::npos ||
        op.find("x <") != std::string::npos)
      return true;
  }
  return false;
}

std::vector<std::string> world_labels(const World& w) {
  std::vector<std::string> labels = {std::to_string(w.transactions.size()) + " transactions",
                                     std::to_string(w.files.size()) + " initial files"};
  const auto add_if = [&](bool holds, const char* label) { if (holds) labels.push_back(label); };
  add_if(any_operation(w, "INSERT"), "INSERT");
  add_if(any_operation(w, "DELETE"), "DELETE");
  add_if(any_operation(w, "UPDATE"), "UPDATE");
  add_if(any_operation(w, "MERGE"), "MERGE");
  add_if(any_operation(w, "MERGE ON id USING"), "MERGE key shorthand");
  add_if(any_operation(w, "ON t.id = s.id AND t.x"), "MERGE target-only ON conjunct");
  add_if(any_operation(w, "WHEN MATCHED AND t.x"), "MERGE clause condition");
  add_if(any_operation(w, "THEN DELETE"), "MERGE matched-only DELETE");
  add_if(any_operation(w, "OPTIMIZE"), "OPTIMIZE");
  add_if(any_operation(w, "SELECT WHERE"), "several scans");
  add_if(any_operation(w, "INSERT SELECT"), "INSERT SELECT");
  add_if(any_operation(w, "OPTIMIZE FILES"), "OPTIMIZE FILES");
  add_if(any_operation(w, "RESTORE TO VERSION"), "RESTORE");
  add_if(any_operation(w, "THEN DELETE WHEN NOT MATCHED"), "non-local MERGE");
  add_if(matched_only_merge_update(w), "MERGE matched-only UPDATE");
  add_if(any_operation(w, "IN (SELECT x FROM t"), "subquery condition");
  add_if(any_operation(w, "rand("), "rand() condition");
  add_if(!w.history.empty(), "history steps");
  add_if(w.late_start.has_value(), "later-start transaction");
  add_if(w.late_start && w.transactions[w.commit_order.front()].operations.front().starts_with("OPTIMIZE") &&
             w.commit_order.back() != *w.late_start,
         "compaction, a later writer, then an earlier reader");
  for (generators::Tier tier : generators::all_tiers()) {
    labels.push_back(std::string(generators::tier_name(tier)) + (generators::tier_on(w.flags, tier) ? " on" : " off"));
  }
  add_if(any_operation(w, " OR "), "OR");
  add_if(any_operation(w, "x IN ("), "x IN");
  add_if(any_operation(w, "x IS NULL") || any_operation(w, "x IS NOT NULL"), "x IS [NOT] NULL");
  add_if(any_operation(w, "NOT (x"), "NOT on x");
  add_if(any_operation(w, "x = x + 1"), "x = x + 1");
  add_if(any_operation(w, "id <") || any_operation(w, "id >="), "predicate on id");
  add_if(has_null_x(w), "NULL x");
  add_if(splits_null_x(w), "DV delete splitting NULL and non-NULL x");
  add_if(splits_null_x(w) && later_read_on_x(w), "later read on the split x");
  add_if(w.deletion_vectors, "deletion vectors");
  add_if(w.partitioned, "partitioned");
  add_if(std::any_of(w.transactions.begin(), w.transactions.end(), [](const auto& t) { return t.whole_table_read; }),
         "whole-table read");
  add_if(w.write_serializable, "WriteSerializable");
  labels.push_back(std::string("x ") + generators::x_type_sql(w.x_type));
  add_if(w.log == generators::WorldLog::Replayed, "log replayed");
  add_if(w.log == generators::WorldLog::Directory, "log from a table directory");
  add_if(std::any_of(w.transactions.begin(), w.transactions.end(), [](const auto& t) { return t.blind_unknown; }),
         "isBlindAppend unknown");
  add_if(std::any_of(w.files.begin(), w.files.end(), [](const auto& f) { return !f.deleted.empty(); }),
         "initial file with a DV");
  table_change_labels(w, labels);
  return labels;
}

TEST(GateDraw, WorldsReachEveryOperationAndShape) {
  const GateOptions options = default_gate();
  const size_t trials = gate_budget(options).trials_per_category;
  Labels all;
  std::map<WorldCategory, Labels> by_category;
  for (WorldCategory category : generators::all_world_categories()) {
    for (size_t i = 0; i < trials; ++i) {
      for (const std::string& label : world_labels(trial_world(options.seed, category, i))) {
        ++all[label];
        ++by_category[category][label];
      }
    }
  }
  print("explorer worlds, all categories", all, trials * by_category.size());
  expect_all(all, {"2 transactions", "3 transactions", "4 transactions", "INSERT", "DELETE", "UPDATE", "MERGE",
                   "MERGE key shorthand", "MERGE target-only ON conjunct", "MERGE clause condition",
                   "MERGE matched-only DELETE", "OPTIMIZE", "several scans", "OR", "x IN", "x IS [NOT] NULL", "NOT on x", "x = x + 1",
                   "predicate on id", "NULL x", "deletion vectors", "partitioned", "whole-table read",
                   "WriteSerializable", "isBlindAppend unknown", "initial file with a DV", "INSERT SELECT",
                   "OPTIMIZE FILES", "RESTORE", "non-local MERGE", "history steps", "later-start transaction",
                   "ALTER dropping a feature", "DV delete splitting NULL and non-NULL x", "later read on the split x"});
  for (WorldCategory category : generators::all_world_categories()) {
    SCOPED_TRACE(world_category_name(category));
    // Every category's worlds commit table changes, from the first committer and from later ones.
    expect_all(by_category[category], {"ALTER of a harmless property", "ALTER of a depended-on property",
                                       "ALTER enabling a feature", "two protocol changes", "SET TXN on a shared app id",
                                       "SET DOMAIN on a shared domain", "table change committing first",
                                       "table change committing later"});
    // Every category's worlds draw every type of x (generators/x_column.h).
    expect_all(by_category[category], {"x int", "x decimal(10,2)", "x double", "x string", "x date", "x timestamp",
                                       "log replayed", "log from a table directory"});
    if (category == WorldCategory::NoDataChange) {
      expect_all(by_category[category], {"compaction, a later writer, then an earlier reader"});  // §10.4's guard
    }
    if (category == WorldCategory::SameFileDisjoint || category == WorldCategory::SameFileOverlap) {
      // docs/semantics.md §10.2 (c): row-local MERGE losers and the losers the guard exists for.
      expect_all(by_category[category], {"MERGE matched-only DELETE", "MERGE matched-only UPDATE", "non-local MERGE",
                                         "subquery condition", "rand() condition"});
    }
    if (category == WorldCategory::Disjoint) continue;  // disjoint x bands: no shared reads by design
    // Partitioning, deletion vectors and whole-table reads are not confined to their own category.
    expect_all(by_category[category], {"partitioned", "deletion vectors"});
    // value-moving is the two-transaction write-skew pair, and the same-file, image-files and
    // restore categories a pair on the first file (docs/semantics.md §10.2); their reads are the pair's own.
    const bool pair = category == WorldCategory::ValueMoving || category == WorldCategory::SameFileDisjoint ||
                      category == WorldCategory::SameFileOverlap || category == WorldCategory::ImageFiles ||
                      category == WorldCategory::Restore;
    if (!pair) expect_all(by_category[category], {"whole-table read"});
    // docs/semantics.md §10 "Flags": every tier on and off, but where a category exists for one tier.
    for (generators::Tier tier : generators::all_tiers()) {
      const std::string name = generators::tier_name(tier);
      const bool forced_on = (category == WorldCategory::ImageFiles && tier == generators::Tier::Case2) ||
                             (category == WorldCategory::NoDataChange && tier == generators::Tier::Case3);
      expect_all(by_category[category], {name + " on"});
      if (!forced_on) expect_all(by_category[category], {name + " off"});
    }
  }
}

}  // namespace
}  // namespace skipsound
