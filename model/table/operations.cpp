#include "model/table/operations.h"

#include <algorithm>

#include "model/sql/binder.h"
#include "model/sql/evaluator.h"
#include "model/values/input_error.h"
#include "model/sql/printer.h"
#include "model/stats/stats_widening.h"

namespace skipsound {

const char* operation_kind_name(OperationKind kind) {
  switch (kind) {
    case OperationKind::Insert: return "INSERT";
    case OperationKind::InsertSelect: return "INSERT SELECT";
    case OperationKind::Select: return "SELECT";
    case OperationKind::Delete: return "DELETE";
    case OperationKind::Update: return "UPDATE";
    case OperationKind::Merge: return "MERGE";
    case OperationKind::Optimize: return "OPTIMIZE";
    case OperationKind::Restore: return "RESTORE";
  }
  return "?";
}

namespace {

// Delta's commitInfo.operation for each kind.
const char* logged_operation_name(OperationKind kind) {
  return kind == OperationKind::Insert || kind == OperationKind::InsertSelect ? "WRITE" : operation_kind_name(kind);
}

bool matches(const ExprPtr& condition, const Row& row, const Operation& op) {
  if (!condition) return true;
  try {
    return evaluate(*condition, row) == Truth::True;
  } catch (const NotEvaluable& e) {
    throw InputError("cannot evaluate the condition of '" + op.text + "' on a row: " + e.what());
  }
}

// The assigned value converted to the column's type, as Spark's implicit cast on assignment.
Value assign_as(const Value& v, const DataType& type, const Operation& op) {
  if (v.is_null()) return Value::null(type);
  if (v.type.kind == type.kind) return v;
  if (is_int64_backed(type.kind) && std::holds_alternative<int64_t>(v.data)) {
    return Value::integral(type.kind, v.as_int());
  }
  if (is_floating(type.kind) && std::holds_alternative<double>(v.data)) {
    return Value::floating(type.kind, v.as_double());
  }
  if (is_floating(type.kind) && std::holds_alternative<int64_t>(v.data)) {
    return Value::floating(type.kind, static_cast<double>(v.as_int()));
  }
  throw InputError("'" + op.text + "' assigns a " + type_name(v.type) + " to a " +
                   type_name(type) + " column");
}

// The rows of one file an operation touches, by physical index.
struct TouchedFile {
  size_t file_index = 0;
  std::vector<uint32_t> matched;  // live rows whose new image (or absence) the operation writes
};

class OperationRun {
 public:
  OperationRun(const Table& snapshot, const ScanPlanner& planner, const WriterSettings& settings,
               OperationResult& result)
      : snapshot_(snapshot), planner_(planner), settings_(settings), result_(result) {}

  void run(const Operation& op) {
    switch (op.kind) {
      case OperationKind::Insert: insert(op); break;
      case OperationKind::InsertSelect: insert_select(op); break;
      case OperationKind::Select: scan(op.condition); break;
      case OperationKind::Delete: rewrite(scan_matching(op, op.condition), {}); break;
      case OperationKind::Update: update(op); break;
      case OperationKind::Merge: merge(op); break;
      case OperationKind::Optimize: optimize(op); break;
      case OperationKind::Restore: restore(op); break;
    }
  }

 private:
  // Records the scan and returns the files it reads.
  std::vector<size_t> scan(const ExprPtr& condition) {
    std::vector<size_t> read = planner_.files_to_read(snapshot_, condition);
    result_.reads.predicates.push_back(condition);
    for (size_t i : read) result_.reads.files.push_back(snapshot_.files()[i].path);
    return read;
  }

  std::vector<TouchedFile> scan_matching(const Operation& op, const ExprPtr& condition) {
    std::vector<TouchedFile> touched;
    for (size_t i : scan(condition)) {
      const TableFile& file = snapshot_.files()[i];
      TouchedFile t{i, {}};
      for (uint32_t r = 0; r < file.physical_count(); ++r) {
        if (!file.is_deleted(r) && matches(condition, (*file.rows)[r], op)) t.matched.push_back(r);
      }
      if (!t.matched.empty()) touched.push_back(std::move(t));
    }
    return touched;
  }

  void write(const std::vector<Row>& rows, bool data_change = true) {
    if (rows.empty()) return;
    std::vector<TableFile> files =
        snapshot_.write_files(rows, settings_.path_prefix, next_file_index_, settings_.stats,
                              settings_.writer_mutant);
    next_file_index_ += static_cast<int>(files.size());
    for (TableFile& f : files) {
      f.data_change = data_change;
      result_.commit.adds.push_back(std::move(f));
    }
  }

  void remove(const TableFile& file, bool data_change = true) {
    result_.commit.removes.push_back(
        FileRemoval{file.path, file.deleted, file.partition_values, data_change});
  }

  // Removes (or DV-marks) the matched rows of each touched file and writes `new_rows` plus, in
  // copy-on-write mode, the touched files' untouched live rows.
  void rewrite(const std::vector<TouchedFile>& touched, std::vector<Row> new_rows) {
    for (const TouchedFile& t : touched) {
      const TableFile& file = snapshot_.files()[t.file_index];
      remove(file);
      const bool every_live_row = static_cast<int64_t>(t.matched.size()) == file.live_count();
      if (every_live_row) continue;
      if (snapshot_.properties().deletion_vectors) {
        result_.commit.adds.push_back(with_more_deleted(file, t.matched));
      } else {
        for (uint32_t r = 0; r < file.physical_count(); ++r) {
          if (!file.is_deleted(r) && !std::binary_search(t.matched.begin(), t.matched.end(), r)) {
            new_rows.push_back((*file.rows)[r]);
          }
        }
      }
    }
    write(new_rows);
  }

  // The same physical file with a larger DV and stats widened before the new DV is attached.
  static TableFile with_more_deleted(const TableFile& file, const std::vector<uint32_t>& more) {
    TableFile changed = file;
    changed.deleted = dv_union(file.deleted, more);
    if (file.stats) {
      changed.stats =
          widen_for_deletion_vector(*file.stats, static_cast<int64_t>(file.deleted.size()));
    }
    changed.data_change = true;
    return changed;
  }

  void insert(const Operation& op) { write(op.rows); }

  // A self-reading append (docs/semantics.md §10.3's non-DML reader): what it writes depends on rows it reads
  // but does not change, so only Case 1b and the append check protect it.
  void insert_select(const Operation& op) {
    std::vector<Row> images;
    for (const TouchedFile& t : scan_matching(op, op.condition)) {
      const TableFile& file = snapshot_.files()[t.file_index];
      for (uint32_t r : t.matched) images.push_back(updated(op, (*file.rows)[r]));
    }
    write(images);
  }

  void update(const Operation& op) {
    std::vector<TouchedFile> touched = scan_matching(op, op.condition);
    std::vector<Row> images;
    for (const TouchedFile& t : touched) {
      const TableFile& file = snapshot_.files()[t.file_index];
      for (uint32_t r : t.matched) images.push_back(updated(op, (*file.rows)[r]));
    }
    rewrite(touched, std::move(images));
  }

  Row updated(const Operation& op, const Row& old_row) const {
    Row row = old_row;
    for (const Assignment& a : op.assignments) {
      Value v;
      try {
        v = evaluate_value(*a.value, old_row);
      } catch (const NotEvaluable& e) {
        throw InputError("cannot evaluate an assignment of '" + op.text + "': " + e.what());
      }
      const auto leaf = static_cast<size_t>(a.leaf);
      row[leaf] = assign_as(v, snapshot_.schema().leaves()[leaf].type, op);
    }
    return row;
  }

  void merge(const Operation& op) {
    const auto key = static_cast<size_t>(op.key_leaf);
    ExprPtr on = merge_condition(op);
    std::vector<TouchedFile> touched = scan_matching(op, on);
    std::vector<bool> source_matched(op.rows.size(), false);
    std::vector<Row> images;
    for (const TouchedFile& t : touched) {
      const TableFile& file = snapshot_.files()[t.file_index];
      for (uint32_t r : t.matched) {
        const size_t s = source_row_with_key(op, (*file.rows)[r][key]);
        source_matched[s] = true;
        images.push_back(op.rows[s]);
      }
    }
    for (size_t s = 0; s < op.rows.size(); ++s) {
      if (!source_matched[s]) images.push_back(op.rows[s]);
    }
    rewrite(touched, std::move(images));
  }

  // The MERGE ON condition as the read predicate: target.key IN (source keys).
  ExprPtr merge_condition(const Operation& op) const {
    const Leaf& leaf = snapshot_.schema().leaves().at(static_cast<size_t>(op.key_leaf));
    std::vector<ExprPtr> keys;
    for (size_t s = 0; s < op.rows.size(); ++s) {
      const Value& k = op.rows[s][static_cast<size_t>(op.key_leaf)];
      if (k.is_null()) continue;
      for (size_t t = 0; t < s; ++t) {
        if (spark_compare(op.rows[t][static_cast<size_t>(op.key_leaf)], k) ==
            std::strong_ordering::equal) {
          throw InputError("'" + op.text + "': the MERGE source repeats the key " +
                           to_sql_literal(k));
        }
      }
      keys.push_back(make_literal(k));
    }
    ExprPtr column = make_column(leaf.path);
    ExprPtr condition;
    if (keys.empty()) {
      condition = make_literal(Value::boolean(false));
    } else if (keys.size() == 1) {
      condition = make_compare(CompareOp::Eq, column, keys.front());
    } else {
      condition = make_in(column, std::move(keys));
    }
    return skipsound::bind(condition, snapshot_.schema());
  }

  size_t source_row_with_key(const Operation& op, const Value& key) const {
    for (size_t s = 0; s < op.rows.size(); ++s) {
      if (spark_compare(op.rows[s][static_cast<size_t>(op.key_leaf)], key) ==
          std::strong_ordering::equal) {
        return s;
      }
    }
    throw InputError("'" + op.text + "': a matched row has no source row");  // unreachable by ON
  }

  void optimize(const Operation& op) {
    std::vector<size_t> read = scan(nullptr);
    // Files grouped by partition, in first-seen order.
    std::vector<std::vector<size_t>> groups;
    for (size_t i : read) {
      const TableFile& file = snapshot_.files()[i];
      auto same_partition = [&](const std::vector<size_t>& g) {
        return snapshot_.files()[g.front()].partition_values == file.partition_values;
      };
      auto found = std::find_if(groups.begin(), groups.end(), same_partition);
      if (found == groups.end()) {
        groups.push_back({i});
      } else {
        found->push_back(i);
      }
    }
    for (const std::vector<size_t>& group : groups) optimize_group(op, group);
    result_.commit.changes_data = false;
  }

  void optimize_group(const Operation& op, const std::vector<size_t>& group) {
    const bool clustering = op.optimize_mode == OptimizeMode::Clustering;
    const bool has_dv = std::any_of(group.begin(), group.end(), [&](size_t i) {
      return !snapshot_.files()[i].deleted.empty();
    });
    if (!clustering && group.size() < 2 && !has_dv) return;  // nothing to compact
    std::vector<Row> rows;
    for (size_t i : group) {
      const TableFile& file = snapshot_.files()[i];
      remove(file, /*data_change=*/false);
      std::vector<Row> live = file.live_rows();
      rows.insert(rows.end(), live.begin(), live.end());
    }
    if (!clustering) {
      write(rows, /*data_change=*/false);
      return;
    }
    const auto key = static_cast<size_t>(op.key_leaf);
    std::stable_sort(rows.begin(), rows.end(), [key](const Row& a, const Row& b) {
      if (a[key].is_null() || b[key].is_null()) return a[key].is_null() && !b[key].is_null();
      return spark_compare(a[key], b[key]) == std::strong_ordering::less;
    });
    const size_t chunk = op.rows_per_file > 0 ? static_cast<size_t>(op.rows_per_file) : rows.size();
    for (size_t begin = 0; begin < rows.size(); begin += chunk) {
      const size_t end = std::min(rows.size(), begin + chunk);
      write(std::vector<Row>(rows.begin() + static_cast<std::ptrdiff_t>(begin),
                             rows.begin() + static_cast<std::ptrdiff_t>(end)),
            /*data_change=*/false);
    }
  }

  // docs/semantics.md §10.8: the earlier version's adds come back verbatim (their stats, dataChange=true)
  // and the current files that version lacks are removed. Which files that is depends on every
  // live file, so RESTORE reads the whole table.
  void restore(const Operation& op) {
    result_.reads.whole_table = true;
    const auto in = [](const std::vector<TableFile>& files, const TableFile& f) {
      return std::any_of(files.begin(), files.end(),
                         [&](const TableFile& g) { return g.path == f.path && g.deleted == f.deleted; });
    };
    for (size_t i : scan(nullptr)) {
      const TableFile& current = snapshot_.files()[i];
      if (!in(op.restore_to, current)) remove(current);
    }
    for (const TableFile& earlier : op.restore_to) {
      if (in(snapshot_.files(), earlier)) continue;
      TableFile readded = earlier;
      readded.data_change = true;
      result_.commit.adds.push_back(std::move(readded));
    }
  }

  const Table& snapshot_;
  const ScanPlanner& planner_;
  const WriterSettings& settings_;
  OperationResult& result_;
  int next_file_index_ = 1;
};

bool writes(OperationKind kind) { return kind != OperationKind::Select; }

// Delta: a blind append only adds files and depends on no file or predicate it read.
bool blind_append(const OperationResult& result) {
  return result.commit.removes.empty() && result.reads.predicates.empty() &&
         result.reads.files.empty() && !result.reads.whole_table;
}

}  // namespace

std::vector<size_t> EveryFilePlanner::files_to_read(const Table& snapshot, const ExprPtr&) const {
  std::vector<size_t> every(snapshot.files().size());
  for (size_t i = 0; i < every.size(); ++i) every[i] = i;
  return every;
}

OperationResult execute(const Table& snapshot, const std::vector<Operation>& operations,
                        const ScanPlanner& planner, const WriterSettings& settings) {
  OperationResult result;
  result.reads.whole_table = settings.reads_whole_table;
  const Operation* writer = nullptr;
  OperationRun run(snapshot, planner, settings, result);
  for (const Operation& op : operations) {
    if (writes(op.kind)) {
      if (writer) {
        throw InputError("a transaction may run one writing operation; '" + op.text +
                         "' follows '" + writer->text + "'");
      }
      writer = &op;
    }
    run.run(op);
  }
  CommitInfo& info = result.commit.info;
  info.operation = logged_operation_name(writer ? writer->kind : OperationKind::Select);
  info.is_blind_append = !settings.force_not_blind && blind_append(result);
  info.read_version = snapshot.version();
  return result;
}

void apply_commit(Table& table, const Commit& commit) {
  table.apply(commit.removes, commit.adds);
}

}  // namespace skipsound
