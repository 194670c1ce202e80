// One file on purpose, over 600 lines: every operation runs through one OperationRun (its scan,
// its read set and its actions), which is the model of one Delta transaction.
#include "model/table/operations.h"

#include <algorithm>
#include <optional>
#include <set>

#include "model/mutants/fault_injection.h"
#include "model/sql/binder.h"
#include "model/sql/evaluator.h"
#include "model/values/ascii_text.h"
#include "model/values/cast.h"
#include "model/values/input_error.h"
#include "model/sql/printer.h"
#include "model/stats/stats_widening.h"
#include "model/table/random_draws.h"

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
    case OperationKind::Alter: return "ALTER TABLE";
    case OperationKind::AddFile: return "ADD FILE";
    case OperationKind::RemoveFile: return "REMOVE FILE";
    case OperationKind::SetTxn: return "SET TXN";
    case OperationKind::SetDomain: return "SET DOMAIN";
  }
  return "?";
}

namespace {

// Delta's commitInfo.operation for each kind; explicit actions are committed as a WRITE, as
// Delta's tests commit them (DeltaOperations.Write).
std::string logged_operation_name(const Operation* main) {
  if (!main || main->kind == OperationKind::Select) return "WRITE";
  if (main->kind == OperationKind::Insert || main->kind == OperationKind::InsertSelect) return "WRITE";
  if (main->kind == OperationKind::Alter) {
    if (!main->change.added_columns.empty()) return "ADD COLUMNS";
    if (!main->change.dropped_features.empty()) return "DROP FEATURE";
    return "SET TBLPROPERTIES";
  }
  return operation_kind_name(main->kind);
}

// Protocol features a reader must support too (Delta's ReaderWriterFeature list, in part).
bool reader_writer_feature(const std::string& feature) {
  static const std::set<std::string> kFeatures = {"deletionVectors", "columnMapping", "timestampNtz",
                                                  "v2Checkpoint", "vacuumProtocolCheck", "typeWidening"};
  return kFeatures.count(feature) > 0;
}

void add_feature(Protocol& protocol, const std::string& feature) {
  const auto add = [&](std::optional<std::vector<std::string>>& list) {
    if (!list) list.emplace();
    if (std::find(list->begin(), list->end(), feature) == list->end()) list->push_back(feature);
  };
  protocol.min_writer_version = 7;
  add(protocol.writer_features);
  if (reader_writer_feature(feature)) {
    protocol.min_reader_version = 3;
    add(protocol.reader_features);
  }
}

void drop_feature(Protocol& protocol, const std::string& feature) {
  bool found = false;
  for (auto* list : {&protocol.reader_features, &protocol.writer_features}) {
    if (*list) found |= std::erase(**list, feature) > 0;
  }
  if (!found) throw InputError("DROP FEATURE " + feature + ": the table has no such feature");
}

int version_value(const std::string& key, const std::string& value) {
  try {
    size_t used = 0;
    const int v = std::stoi(value, &used);
    if (used == value.size() && v >= 1) return v;
  } catch (const std::exception&) {
  }
  throw InputError(key + " must be a positive integer, got '" + value + "'");
}

bool matches(const ExprPtr& condition, const Row& row, const Operation& op, const CallValues& draws = {}) {
  if (!condition) return true;
  try {
    return evaluate(*condition, row, draws) == Truth::True;
  } catch (const NotEvaluable& e) {
    throw InputError("cannot evaluate the condition of '" + op.text + "' on a row: " + e.what());
  }
}

// The assigned value converted to the column's type, as Spark's implicit cast on assignment.
Value assign_as(const Value& v, const DataType& type, const Operation& op) {
  if (v.is_null()) return Value::null(type);
  if (v.type.kind == type.kind && (type.kind != TypeKind::Decimal || v.type == type)) return v;
  // A decimal of another precision or scale (x + 1 is decimal(11,2) on a decimal(10,2) column) is
  // cast to the column's, as Spark's store assignment does; one that does not fit is refused, as
  // its ANSI policy does. Kept as it was, it put values of another type into the file's stats.
  if (v.type.kind == TypeKind::Decimal && type.kind == TypeKind::Decimal) {
    if (const auto cast = cast_value(v, type); cast && !cast->is_null()) return *cast;
    throw InputError("'" + op.text + "' assigns " + spark_string_of(v) + ", which does not fit a " + type_name(type) +
                     " column");
  }
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

// The conjuncts of a condition: AND split recursively; none for nullptr.
std::vector<ExprPtr> merge_conjuncts(const ExprPtr& condition) {
  if (!condition) return {};
  if (condition->kind != ExprKind::And) return {condition};
  std::vector<ExprPtr> parts = merge_conjuncts(condition->children[0]);
  for (const ExprPtr& part : merge_conjuncts(condition->children[1])) parts.push_back(part);
  return parts;
}

// Whether every column of `e` is a target column of merge_schema (a leaf below `width`); a
// conjunct without columns counts as target-only, as Spark's `references.subsetOf` does.
bool target_only(const Expr& e, int width) {
  if (e.kind == ExprKind::Column && e.leaf >= width) return false;
  return std::all_of(e.children.begin(), e.children.end(),
                     [&](const ExprPtr& c) { return target_only(*c, width); });
}

// A target-only expression with `t.` dropped from its columns: the same leaves of the table.
ExprPtr without_target_alias(const ExprPtr& e) {
  auto copy = std::make_shared<Expr>(*e);
  if (copy->kind == ExprKind::Column && !copy->path.empty()) copy->path.erase(copy->path.begin());
  for (ExprPtr& child : copy->children) child = without_target_alias(child);
  return copy;
}

// The AND of a condition's target-only conjuncts, as table expressions; nullptr when none.
ExprPtr target_conjuncts(const ExprPtr& condition, int width) {
  ExprPtr all;
  for (const ExprPtr& conjunct : merge_conjuncts(condition)) {
    if (!target_only(*conjunct, width)) continue;
    ExprPtr part = without_target_alias(conjunct);
    all = all ? make_and(all, part) : part;
  }
  return all;
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
      case OperationKind::Select:
        resolve_subqueries(op, op.condition);  // their scans are reads of the SELECT's own
        scan(op.condition);
        break;
      case OperationKind::Delete: rewrite(scan_matching(op, op.condition), {}); break;
      case OperationKind::Update: update(op); break;
      case OperationKind::Merge: merge(op); break;
      case OperationKind::Optimize: optimize(op); break;
      case OperationKind::Restore: restore(op); break;
      case OperationKind::Alter: alter(op); break;
      case OperationKind::AddFile: add_file(op); break;
      case OperationKind::RemoveFile: remove_named_file(op); break;
      case OperationKind::SetTxn:
        result_.reads.app_ids.insert(op.name);
        result_.commit.other_actions.push_back(Txn{op.name, op.txn_version, std::nullopt});
        break;
      case OperationKind::SetDomain:
        result_.commit.other_actions.push_back(DomainMetadata{op.name, op.domain_configuration, false});
        break;
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

  // docs/semantics.md §10.2 (c): each subquery of `condition` over the table is a scan of its
  // own, recorded as a read before the condition's, and its result takes its place:
  // `v IN (the selected values of the rows its WHERE holds for)`.
  ExprPtr resolve_subqueries(const Operation& op, const ExprPtr& condition) {
    if (!condition || !contains_subquery(*condition)) return condition;
    auto resolved = std::make_shared<Expr>(*condition);
    if (condition->kind != ExprKind::InSubquery) {
      for (ExprPtr& child : resolved->children) child = resolve_subqueries(op, child);
      return resolved;
    }
    const Expr& selected = *condition->children[1];
    const ExprPtr where = condition->children.size() > 2 ? condition->children[2] : nullptr;
    resolved->kind = ExprKind::In;
    resolved->children = {resolve_subqueries(op, condition->children[0])};
    for (const TouchedFile& t : scan_matching(op, where)) {
      for (uint32_t r : t.matched) {
        const Row& row = (*snapshot_.files()[t.file_index].rows)[r];
        resolved->children.push_back(make_literal(value_of(selected, row, op)));
      }
    }
    return resolved;
  }

  // The live rows of the scanned files the condition holds for, its subqueries resolved; rand()
  // draws per file and live row (model/table/random_draws.h).
  std::vector<TouchedFile> scan_matching(const Operation& op, const ExprPtr& condition) {
    const ExprPtr resolved = resolve_subqueries(op, condition);
    std::vector<TouchedFile> touched;
    const bool random = draws_random(resolved);
    for (size_t i : scan(condition)) {
      const TableFile& file = snapshot_.files()[i];
      TouchedFile t{i, {}};
      uint32_t live = 0;
      for (uint32_t r = 0; r < file.physical_count(); ++r) {
        if (file.is_deleted(r)) continue;
        const CallValues draws = random ? random_draws(resolved, settings_.random_seed, file.path, live++) : CallValues{};
        if (matches(resolved, (*file.rows)[r], op, draws)) t.matched.push_back(r);
      }
      if (!t.matched.empty()) touched.push_back(std::move(t));
    }
    return touched;
  }

  void write(const std::vector<Row>& rows, bool data_change = true) {
    if (rows.empty()) return;
    std::vector<TableFile> files =
        snapshot_.write_files(rows, settings_.path_prefix, next_file_index_, settings_.stats);
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

  // The same physical file with a larger DV and stats widened before the new DV is attached
  // (docs/semantics.md §4.6: with the previous DV's cardinality; widening-counts-new-dv takes the new one).
  TableFile with_more_deleted(const TableFile& file, const std::vector<uint32_t>& more) const {
    TableFile changed = file;
    changed.deleted = dv_union(file.deleted, more);
    if (file.stats) {
      const bool counts_new_dv = fault_active(Mutant::WideningCountsNewDv);
      const size_t previous_cardinality = (counts_new_dv ? changed : file).deleted.size();
      changed.stats = widen_for_deletion_vector(*file.stats, static_cast<int64_t>(previous_cardinality));
    }
    changed.data_change = true;
    return changed;
  }

  void insert(const Operation& op) { write_in_chunks(op.rows, op.rows_per_file, /*data_change=*/true); }

  // One write per `rows_per_file` consecutive rows (0: all of them), each split by partition.
  void write_in_chunks(const std::vector<Row>& rows, int rows_per_file, bool data_change) {
    const size_t chunk = rows_per_file > 0 ? static_cast<size_t>(rows_per_file) : rows.size();
    for (size_t begin = 0; begin < rows.size(); begin += chunk) {
      const size_t end = std::min(rows.size(), begin + chunk);
      write(std::vector<Row>(rows.begin() + static_cast<std::ptrdiff_t>(begin),
                             rows.begin() + static_cast<std::ptrdiff_t>(end)),
            data_change);
    }
  }

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
      const auto leaf = static_cast<size_t>(a.leaf);
      row[leaf] = assign_as(value_of(a, old_row, op), snapshot_.schema().leaves()[leaf].type, op);
    }
    return row;
  }

  static Value value_of(const Assignment& a, const Row& row, const Operation& op) {
    try {
      return evaluate_value(*a.value, row);
    } catch (const NotEvaluable& e) {
      throw InputError("cannot evaluate an assignment of '" + op.text + "': " + e.what());
    }
  }

  static Value value_of(const Expr& selected, const Row& row, const Operation& op) {
    try {
      return evaluate_value(selected, row);
    } catch (const NotEvaluable& e) {
      throw InputError("cannot evaluate the subquery of '" + op.text + "' on a row: " + e.what());
    }
  }

  // docs/semantics.md §7.3 "MERGE": the target files the recorded read keeps are scanned; each
  // live row joins the source rows its ON condition holds for, and the first WHEN MATCHED clause
  // whose condition holds updates or deletes it. A matched row no clause acts on is rewritten
  // unchanged (Delta rewrites every file the join touched), except in a MERGE of MATCHED clauses
  // only, where Delta prunes such rows from the touched set, and in an insert-only MERGE, which
  // Delta runs as an anti-join writing only the inserts. Source rows no target row matched go to
  // the first WHEN NOT MATCHED clause whose condition holds.
  void merge(const Operation& op) {
    const MergeSpec& m = op.merge;
    std::vector<bool> source_matched(op.rows.size(), false);
    std::vector<TouchedFile> touched;
    std::vector<Row> images;
    for (size_t i : scan(merge_read(op))) {
      const TableFile& file = snapshot_.files()[i];
      TouchedFile t{i, {}};
      for (uint32_t r = 0; r < file.physical_count(); ++r) {
        if (file.is_deleted(r)) continue;
        const Row& target = (*file.rows)[r];
        const std::optional<size_t> s = matching_source_row(op, target);
        if (!s) continue;
        source_matched[*s] = true;
        const Row joined = joined_row(target, op.rows[*s]);
        const MergeClause* clause = first_clause(op, m.matched, joined);
        if (!clause && (m.matched_only() || m.insert_only())) continue;
        t.matched.push_back(r);
        if (!clause) {
          images.push_back(target);
        } else if (clause->action == MergeAction::Update) {
          images.push_back(assigned(op, *clause, target, joined));
        }
      }
      if (!t.matched.empty()) touched.push_back(std::move(t));
    }
    const Row no_target = null_row();
    for (size_t s = 0; s < op.rows.size(); ++s) {
      if (source_matched[s]) continue;
      const Row joined = joined_row(no_target, op.rows[s]);
      if (const MergeClause* clause = first_clause(op, m.not_matched, joined)) {
        images.push_back(assigned(op, *clause, no_target, joined));
      }
    }
    rewrite(touched, std::move(images));
  }

  Row null_row() const {
    Row row;
    for (const Leaf& leaf : snapshot_.schema().leaves()) row.push_back(Value::null(leaf.type));
    return row;
  }

  static Row joined_row(const Row& target, const Row& source) {
    Row joined = target;
    joined.insert(joined.end(), source.begin(), source.end());
    return joined;
  }

  // The one source row the ON condition joins `target` with. Several are an error when a
  // MATCHED clause could act on the row (Delta: "multiple source rows matched").
  std::optional<size_t> matching_source_row(const Operation& op, const Row& target) const {
    std::optional<size_t> found;
    for (size_t s = 0; s < op.rows.size(); ++s) {
      if (!matches(op.merge.on, joined_row(target, op.rows[s]), op)) continue;
      if (found && !op.merge.matched.empty()) {
        throw InputError("'" + op.text + "': several source rows match the target row " +
                         row_text(target) + "");
      }
      if (!found) found = s;
    }
    return found;
  }

  std::string row_text(const Row& row) const {
    std::string text = "(";
    for (size_t i = 0; i < row.size(); ++i) text += (i ? ", " : "") + to_sql_literal(row[i]);
    return text + ")";
  }

  static const MergeClause* first_clause(const Operation& op, const std::vector<MergeClause>& clauses,
                                         const Row& joined) {
    for (const MergeClause& clause : clauses) {
      if (matches(clause.condition, joined, op)) return &clause;
    }
    return nullptr;
  }

  // `base` with the clause's assignments, each evaluated on the joined row.
  Row assigned(const Operation& op, const MergeClause& clause, Row base, const Row& joined) const {
    Row row = std::move(base);
    for (const Assignment& a : clause.assignments) {
      const auto leaf = static_cast<size_t>(a.leaf);
      row[leaf] = assign_as(value_of(a, joined, op), snapshot_.schema().leaves()[leaf].type, op);
    }
    return row;
  }

  // The read the MERGE records and scans with: Delta's, or the source-key option's tighter one.
  ExprPtr merge_read(const Operation& op) const {
    ExprPtr read = merge_target_read(op.merge, snapshot_.schema());
    if (settings_.merge_read != MergeRead::SourceKeys) return read;
    for (const ExprPtr& keys : source_key_reads(op)) read = read ? make_and(read, keys) : keys;
    return parse_and_bind(to_sql(read), snapshot_.schema());
  }

  // `t.k IN (distinct non-NULL s.j of the source)` for each ON conjunct t.k = s.j (FALSE when the
  // source has no such value: no target row can match). Throws when ON has no such conjunct.
  std::vector<ExprPtr> source_key_reads(const Operation& op) const {
    const auto width = static_cast<int>(snapshot_.schema().leaves().size());
    std::vector<ExprPtr> reads;
    for (const ExprPtr& conjunct : merge_conjuncts(op.merge.on)) {
      if (conjunct->kind != ExprKind::Compare || conjunct->cmp_op != CompareOp::Eq) continue;
      const Expr* target = conjunct->children[0].get();
      const Expr* source = conjunct->children[1].get();
      if (target->kind == ExprKind::Column && target->leaf >= width) std::swap(target, source);
      if (target->kind != ExprKind::Column || source->kind != ExprKind::Column ||
          target->leaf >= width || source->leaf < width) {
        continue;
      }
      std::vector<ExprPtr> keys;
      for (const Row& row : op.rows) {
        const Value& key = row[static_cast<size_t>(source->leaf - width)];
        const bool seen = std::any_of(keys.begin(), keys.end(), [&](const ExprPtr& k) {
          return spark_compare(k->literal, key) == std::strong_ordering::equal;
        });
        if (!key.is_null() && !seen) keys.push_back(make_literal(key));
      }
      ExprPtr column = make_column(snapshot_.schema().leaves()[static_cast<size_t>(target->leaf)].path);
      reads.push_back(keys.empty() ? make_literal(Value::boolean(false)) : make_in(column, std::move(keys)));
    }
    if (reads.empty()) {
      throw InputError("'" + op.text + "': the source-key read needs an ON conjunct t.<column> = s.<column>");
    }
    return reads;
  }

  // ALTER TABLE commits a metaData action (and a protocol action when the features or versions
  // change); it reads nothing and changes no data.
  void alter(const Operation& op) {
    const Metadata before = snapshot_.metadata();
    Metadata after = before;
    Protocol protocol = snapshot_.protocol();
    for (const auto& [key, value] : op.change.properties) {
      if (key.rfind("delta.feature.", 0) == 0) {
        add_feature(protocol, key.substr(14));
      } else if (key == "delta.minReaderVersion") {
        protocol.min_reader_version = std::max(protocol.min_reader_version, version_value(key, value));
      } else if (key == "delta.minWriterVersion") {
        protocol.min_writer_version = std::max(protocol.min_writer_version, version_value(key, value));
      } else {
        after.configuration[key] = value;
        if (key == "delta.enableDeletionVectors" && ascii_lower(value) == "true") add_feature(protocol, "deletionVectors");
      }
    }
    for (const std::string& feature : op.change.dropped_features) {
      drop_feature(protocol, feature);
      if (feature == "deletionVectors") after.configuration["delta.enableDeletionVectors"] = "false";
    }
    if (!op.change.added_columns.empty()) {
      std::vector<StructField> fields = before.schema.fields();
      for (const StructField& column : op.change.added_columns) {
        if (before.schema.find_leaf({column.name}) || before.schema.find_field({column.name})) {
          throw InputError("ADD COLUMNS: the table already has a column '" + column.name + "'");
        }
        fields.push_back(column);
      }
      after.schema = Schema(std::move(fields));
      after.schema_string = after.schema.to_json().dump();
    }
    Table validated = snapshot_;
    validated.apply_metadata(after);  // throws InputError on a bad property value
    // Delta's SET TBLPROPERTIES and ADD COLUMNS commit their new metadata even when it is equal.
    const bool sets_metadata = !op.change.properties.empty() || !op.change.added_columns.empty();
    if (sets_metadata || !(after == before)) result_.commit.other_actions.push_back(after);
    if (!(protocol == snapshot_.protocol())) result_.commit.other_actions.push_back(protocol);
    result_.commit.changes_data = false;
  }

  void add_file(const Operation& op) {
    std::vector<TableFile> files = snapshot_.write_files(op.rows, op.name, 0, op.file_stats);
    if (files.size() > 1) throw InputError("'" + op.text + "': the rows of one file mix partition values");
    TableFile file;
    if (files.empty()) {
      file.rows = std::make_shared<const std::vector<Row>>();
    } else {
      file = std::move(files.front());
    }
    file.path = op.name;
    result_.commit.adds.push_back(std::move(file));
  }

  // Delta's tests remove a file of the snapshot without a scan: nothing is recorded as read.
  void remove_named_file(const Operation& op) {
    const TableFile* file = snapshot_.find_file(op.name);
    if (file) {
      remove(*file);
    } else {
      result_.commit.removes.push_back(FileRemoval{op.name, {}, {}, true});
    }
  }

  // OPTIMIZE FILES compacts the named live files only: it reads them and records no predicate.
  std::vector<size_t> read_named_files(const std::vector<std::string>& names) {
    std::vector<size_t> read;
    for (size_t i = 0; i < snapshot_.files().size(); ++i) {
      const std::string& path = snapshot_.files()[i].path;
      if (std::find(names.begin(), names.end(), path) == names.end()) continue;
      read.push_back(i);
      result_.reads.files.push_back(path);
    }
    return read;
  }

  void optimize(const Operation& op) {
    std::vector<size_t> read = op.optimize_files.empty() ? scan(nullptr) : read_named_files(op.optimize_files);
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
    write_in_chunks(rows, op.rows_per_file, /*data_change=*/false);
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


// Delta: a blind append only adds files and depends on no file or predicate it read.
bool blind_append(const OperationResult& result) {
  return result.commit.removes.empty() && result.reads.predicates.empty() &&
         result.reads.files.empty() && !result.reads.whole_table;
}

}  // namespace

Schema merge_schema(const Schema& table) {
  DataType row_type = DataType::of(TypeKind::Struct);
  row_type.fields = table.fields();
  return Schema({StructField{"t", row_type, true, {}}, StructField{"s", row_type, true, {}}});
}

MergeSpec upsert_on_key(const Schema& table, int key_leaf) {
  const Schema joint = merge_schema(table);
  const auto& leaves = table.leaves();
  const auto prefixed = [](const char* alias, const ColumnPath& path) {
    ColumnPath p{alias};
    p.insert(p.end(), path.begin(), path.end());
    return make_column(std::move(p));
  };
  MergeSpec spec;
  const ColumnPath& key = leaves.at(static_cast<size_t>(key_leaf)).path;
  spec.on = skipsound::bind(make_compare(CompareOp::Eq, prefixed("t", key), prefixed("s", key)), joint);
  MergeClause update{MergeAction::Update, nullptr, {}};
  for (const Leaf& leaf : leaves) {
    const ExprPtr source = skipsound::bind(make_is_null(prefixed("s", leaf.path)), joint)->children.front();
    update.assignments.push_back(Assignment{leaf.ordinal, source});
  }
  MergeClause insert = update;
  insert.action = MergeAction::Insert;
  spec.matched.push_back(std::move(update));
  spec.not_matched.push_back(std::move(insert));
  return spec;
}

ExprPtr merge_target_read(const MergeSpec& merge, const Schema& table) {
  const auto width = static_cast<int>(table.leaves().size());
  ExprPtr read = target_conjuncts(merge.on, width);
  if (merge.matched_only()) {
    // One clause without a target-only conjunct makes the OR TRUE: nothing to add.
    ExprPtr any_clause;
    for (const MergeClause& clause : merge.matched) {
      ExprPtr part = target_conjuncts(clause.condition, width);
      if (!part) {
        any_clause = nullptr;
        break;
      }
      any_clause = any_clause ? make_or(any_clause, part) : part;
    }
    if (any_clause) read = read ? make_and(read, any_clause) : any_clause;
  }
  return read ? parse_and_bind(to_sql(read), table) : nullptr;
}

std::vector<size_t> EveryFilePlanner::files_to_read(const Table& snapshot, const ExprPtr&) const {
  std::vector<size_t> every(snapshot.files().size());
  for (size_t i = 0; i < every.size(); ++i) every[i] = i;
  return every;
}

namespace {

// docs/semantics.md §10.4: a writer that commits its file actions with dataChange=false whatever
// they do to the rows (Delta's dataChange=false write option, PR 223).
void declare_no_data_change(Commit& commit) {
  for (TableFile& add : commit.adds) add.data_change = false;
  for (FileRemoval& remove : commit.removes) remove.data_change = false;
}

}  // namespace

OperationResult execute(const Table& snapshot, const std::vector<Operation>& operations,
                        const ScanPlanner& planner, const WriterSettings& settings) {
  OperationResult result;
  result.reads.whole_table = settings.reads_whole_table;
  const Operation* writer = nullptr;
  OperationRun run(snapshot, planner, settings, result);
  for (const Operation& op : operations) {
    if (is_main_write(op.kind)) {
      if (writer) {
        throw InputError("a transaction may run one writing operation; '" + op.text +
                         "' follows '" + writer->text + "'");
      }
      writer = &op;
    }
    run.run(op);
  }
  CommitInfo& info = result.commit.info;
  info.operation = logged_operation_name(writer);
  info.is_blind_append = !settings.force_not_blind && blind_append(result);
  if (settings.blind_flag_unknown) info.is_blind_append.reset();
  info.read_version = snapshot.version();
  if (settings.declares_no_data_change) declare_no_data_change(result.commit);
  return result;
}

bool is_main_write(OperationKind kind) {
  switch (kind) {
    case OperationKind::Insert:
    case OperationKind::Delete:
    case OperationKind::Update:
    case OperationKind::Merge:
    case OperationKind::Optimize:
    case OperationKind::Alter: return true;
    default: return false;
  }
}

void apply_commit(Table& table, const Commit& commit) {
  for (const Action& action : commit.other_actions) {
    if (const auto* metadata = std::get_if<Metadata>(&action)) table.apply_metadata(*metadata);
    if (const auto* protocol = std::get_if<Protocol>(&action)) table.apply_protocol(*protocol);
  }
  table.apply(commit.removes, commit.adds);
}

}  // namespace skipsound
