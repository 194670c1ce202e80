#include "generators/file_gen.h"

#include <algorithm>
#include <functional>

#include "generators/combinators.h"
#include "generators/row_gen.h"
#include "model/mutants/fault_injection.h"
#include "model/stats/stats_collection.h"
#include "model/stats/stats_widening.h"

namespace skipsound::generators {
namespace {

// The random choices that turn rows into a file, drawn independently of the rows so that each
// side shrinks on its own.
struct FileChoices {
  StatsHistory history = StatsHistory::Written;
  bool written_tight = false;      // whether a DV-less writer recorded tightBounds:true
  std::vector<bool> first_delete;  // by row (cycled)
  std::vector<bool> second_delete;
  std::vector<int> drops;          // indices into the file's present stats fields (cycled)
  int absent_leaves = 0;           // wanted; fewer when the trailing leaves cannot be absent
  LogShape log;
  StringMinCut string_min_cut = StringMinCut::CodePoints;
};

rc::Gen<FileChoices> file_choices() {
  auto history = rc::gen::weightedElement<StatsHistory>({{4, StatsHistory::Written},
                                                         {3, StatsHistory::DeletedOnce},
                                                         {1, StatsHistory::DeletedTwice},
                                                         {1, StatsHistory::RecomputedThenDeleted}});
  auto deletes = vector_of<bool>(1, 8, rc::gen::weightedElement<bool>({{2, false}, {1, true}}));
  auto drops = rc::gen::weightedOneOf<std::vector<int>>(
      {{3, rc::gen::just(std::vector<int>())}, {1, vector_of<int>(1, 3, uniform_in(0, 1000))}});
  auto absent = rc::gen::weightedElement<int>({{6, 0}, {1, 1}, {1, 2}});
  // Offsets as real writers log them: Z, a US and an Indian zone, the +14:00 extreme.
  auto offset = rc::gen::weightedElement<int>({{3, 0}, {1, -480}, {1, 330}, {1, 840}});
  // Decimal stats as JSON numbers (Delta's) or strings (other writers'): a reader must take both.
  auto log = rc::gen::apply(
      [](int minutes, bool add_first, bool dropped, bool decimal_strings) {
        return LogShape{minutes, add_first, dropped, decimal_strings};
      },
      offset, rc::gen::arbitrary<bool>(), rc::gen::weightedElement<bool>({{3, false}, {1, true}}),
      rc::gen::weightedElement<bool>({{3, false}, {1, true}}));
  // Stats derived from Parquet footers cut a string min by UTF-16 units (docs/semantics.md §4.4).
  auto min_cut = rc::gen::weightedElement<StringMinCut>({{3, StringMinCut::CodePoints}, {1, StringMinCut::Utf16Units}});
  return rc::gen::apply(
      [](StatsHistory h, bool tight, std::vector<bool> d1, std::vector<bool> d2, std::vector<int> dr, int a,
         LogShape l, StringMinCut cut) {
        return FileChoices{h, tight, std::move(d1), std::move(d2), std::move(dr), a, l, cut};
      },
      history, rc::gen::arbitrary<bool>(), deletes, deletes, drops, absent, log, min_cut);
}

// How many trailing leaves can be absent from the written data, up to `wanted`: nullable ones
// that are no partition column (those are not in the data file at all).
int absent_leaf_count(const TableShape& table, int wanted) {
  const std::vector<Leaf>& leaves = table.schema.leaves();
  int n = 0;
  while (n < wanted && n + 1 < static_cast<int>(leaves.size())) {
    const Leaf& leaf = leaves[leaves.size() - 1 - static_cast<size_t>(n)];
    if (!leaf.nullable || is_partition_leaf(leaf, table.stats_config)) break;
    ++n;
  }
  return n;
}

// The rows as the writer saw them: without the absent trailing leaves.
std::vector<Row> written_rows(const std::vector<Row>& rows, int absent) {
  std::vector<Row> out = rows;
  for (Row& row : out) row.resize(row.size() - static_cast<size_t>(absent));
  return out;
}

// Rows marked by `dice` (cycled over the rows) plus those already deleted; at least one more.
std::vector<bool> delete_more(const std::vector<bool>& already, const std::vector<bool>& dice) {
  std::vector<bool> out = already;
  bool any_new = false;
  for (size_t r = 0; r < out.size(); ++r) {
    if (!out[r] && dice[r % dice.size()]) out[r] = any_new = true;
  }
  if (!any_new) {
    auto first_live = std::find(out.begin(), out.end(), false);
    if (first_live != out.end()) *first_live = true;
  }
  return out;
}

int64_t count_deleted(const std::vector<bool>& deleted) {
  return std::count(deleted.begin(), deleted.end(), true);
}

std::vector<Row> rows_not_deleted(const std::vector<Row>& rows, const std::vector<bool>& deleted) {
  std::vector<Row> live;
  for (size_t r = 0; r < rows.size(); ++r) {
    if (!deleted[r]) live.push_back(rows[r]);
  }
  return live;
}

// Each droppable field of the stats, with the action that removes it.
struct StatsField {
  std::string name;
  std::function<void(FileStats&)> remove;
};

std::vector<StatsField> present_fields(const FileStats& stats, const Schema& schema) {
  std::vector<StatsField> fields;
  if (stats.num_records) fields.push_back({"numRecords", [](FileStats& s) { s.num_records.reset(); }});
  if (stats.tight_bounds) fields.push_back({"tightBounds", [](FileStats& s) { s.tight_bounds.reset(); }});
  for (const Leaf& leaf : schema.leaves()) {
    const ColumnStats& c = stats.column(leaf.ordinal);
    const std::string column = path_to_sql(leaf.path);
    const int i = leaf.ordinal;
    if (c.min) fields.push_back({"min(" + column + ")", [i](FileStats& s) { s.column_mut(i).min.reset(); }});
    if (c.max) fields.push_back({"max(" + column + ")", [i](FileStats& s) { s.column_mut(i).max.reset(); }});
    if (c.null_count) {
      fields.push_back({"nullCount(" + column + ")", [i](FileStats& s) { s.column_mut(i).null_count.reset(); }});
    }
  }
  return fields;
}

void drop_fields(GeneratedFile& file, const Schema& schema, const std::vector<int>& drops) {
  for (int drop : drops) {
    const auto fields = present_fields(file.stats, schema);
    if (fields.empty()) return;
    const StatsField& field = fields[drop % fields.size()];
    field.remove(file.stats);
    file.dropped.push_back(field.name);
  }
}

GeneratedFile make_file(const TableShape& table, Mutant writer_mutant, std::vector<Row> rows,
                        const FileChoices& choices) {
  const Schema& schema = table.schema;
  StatsConfig config = table.stats_config;
  config.string_min_cut = choices.string_min_cut;
  GeneratedFile file;
  file.rows = std::move(rows);
  file.absent_leaves = absent_leaf_count(table, choices.absent_leaves);
  file.log = choices.log;
  file.string_min_cut = choices.string_min_cut;
  for (Row& row : file.rows) {
    for (size_t l = row.size() - static_cast<size_t>(file.absent_leaves); l < row.size(); ++l) {
      row[l] = Value::null(schema.leaves()[l].type);
    }
  }
  // Delta writes an empty-string partition value as null: a reader sees NULL (docs/semantics.md §4.7).
  for (const Leaf& leaf : schema.leaves()) {
    if (!is_partition_leaf(leaf, config) || leaf.type.kind != TypeKind::String) continue;
    for (Row& row : file.rows) {
      if (!row[leaf.ordinal].is_null() && row[leaf.ordinal].as_string().empty()) row[leaf.ordinal] = Value::null(leaf.type);
    }
  }
  file.deleted.assign(file.rows.size(), false);
  file.history = file.rows.empty() ? StatsHistory::Written : choices.history;
  const auto collect = [&](const std::vector<Row>& rows_seen, bool tight) {
    return writer_stats(table, rows_seen, file.absent_leaves, writer_mutant, tight);
  };
  const auto collect_tight = [&](const std::vector<Row>& rows_seen) { return collect(rows_seen, true); };
  switch (file.history) {
    case StatsHistory::Written:
      file.stats = collect(file.rows, choices.written_tight);
      break;
    case StatsHistory::DeletedOnce:
      file.stats = widen_for_deletion_vector(collect_tight(file.rows), 0);
      file.deleted = delete_more(file.deleted, choices.first_delete);
      break;
    case StatsHistory::DeletedTwice: {
      const auto first = delete_more(file.deleted, choices.first_delete);
      file.stats = widen_for_deletion_vector(widen_for_deletion_vector(collect_tight(file.rows), 0),
                                             count_deleted(first));
      file.deleted = delete_more(first, choices.second_delete);
      break;
    }
    case StatsHistory::RecomputedThenDeleted: {
      // Stats recomputed exactly over the live rows keep the physical numRecords (docs/semantics.md §4.6).
      const auto first = delete_more(file.deleted, choices.first_delete);
      FileStats recomputed = collect_tight(rows_not_deleted(file.rows, first));
      recomputed.num_records = static_cast<int64_t>(file.rows.size());
      file.stats = widen_for_deletion_vector(recomputed, count_deleted(first));
      file.deleted = delete_more(first, choices.second_delete);
      break;
    }
  }
  drop_fields(file, schema, choices.drops);
  return file;
}

}  // namespace

FileStats writer_stats(const TableShape& table, const std::vector<Row>& rows, int absent_leaves,
                       Mutant writer_mutant, bool with_tight_bounds) {
  const FaultScope writer(writer_mutant);
  return collect_stats(written_rows(rows, absent_leaves), table.schema, table.stats_config, with_tight_bounds);
}

void drop_stats_fields(FileStats& stats, const Schema& schema, const std::vector<std::string>& names) {
  for (const std::string& name : names) {
    for (const StatsField& field : present_fields(stats, schema)) {
      if (field.name == name) field.remove(stats);
    }
  }
}

const char* stats_history_name(StatsHistory h) {
  switch (h) {
    case StatsHistory::Written: return "written";
    case StatsHistory::DeletedOnce: return "deleted-once";
    case StatsHistory::DeletedTwice: return "deleted-twice";
    case StatsHistory::RecomputedThenDeleted: return "recomputed-then-deleted";
  }
  return "?";
}

std::vector<Row> GeneratedFile::live_rows() const { return rows_not_deleted(rows, deleted); }

int64_t GeneratedFile::dv_cardinality() const { return count_deleted(deleted); }

rc::Gen<GeneratedFile> file_for(const TableShape& table, Mutant writer_mutant) {
  return rc::gen::apply(
      [table, writer_mutant](std::vector<Row> rows, const FileChoices& choices) {
        return make_file(table, writer_mutant, std::move(rows), choices);
      },
      rows_for(table), file_choices());
}

}  // namespace skipsound::generators
