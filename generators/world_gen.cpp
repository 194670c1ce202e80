// One file on purpose, over 600 lines: the categories draw their worlds from shared operation
// drawers (predicates on the x bands, inserts, updates, merges) that only mean something together.
#include "generators/world_gen.h"

#include <algorithm>
#include <numeric>

#include "model/values/enum_names.h"
#include "generators/combinators.h"
#include "generators/x_column.h"

namespace skipsound::generators {

namespace {

constexpr int kMaxX = 40;
constexpr int kBandWidth = 10;  // disjoint worlds give transaction t the x band [10t, 10t+9]
const std::vector<std::string> kPartitionValues = {"a", "b", "c"};

// Everything the operation generators look at: the table as generated so far.
struct Context {
  const World* world = nullptr;
  std::vector<int> xs;       // every non-null x of the initial table
  std::vector<int64_t> ids;  // every id of the initial table
};

// Rank v of x as a literal of the world's type (generators/x_column.h).
std::string lit(const Context& c, int v) { return x_literal(c.world->x_type, v); }

Context context_of(const World& w) {
  Context c{&w, {}, {}};
  for (const WorldFile& f : w.files) {
    for (const WorldRow& r : f.rows) {
      c.ids.push_back(r.id);
      if (r.x) c.xs.push_back(*r.x);
    }
  }
  return c;
}

// True with probability 1/n; shrinks towards false, so a shrunk world drops the optional parts.
bool one_in(int n) { return *uniform_in(0, n) == n - 1; }

// A value of x next to the table's own values (a boundary of some file's stats), else anywhere.
int boundary_x(const Context& c) {
  if (c.xs.empty() || one_in(4)) return *uniform_in(0, kMaxX + 1);
  return *rc::gen::elementOf(c.xs) + *uniform_in(-1, 2);
}

std::string partition_value() { return *rc::gen::elementOf(kPartitionValues); }

// An atom over column x, written as `column` ("x", or "t.x" in a MERGE condition).
std::string x_atom(const Context& c, const std::string& column = "x") {
  const int v = boundary_x(c);
  switch (*uniform_in(0, 10)) {
    case 0: return column + " > " + lit(c, v);
    case 1: return column + " >= " + lit(c, v);
    case 2: return column + " < " + lit(c, v);
    case 3: return column + " <= " + lit(c, v);
    case 4: return column + " = " + lit(c, v);
    case 5: return column + " <> " + lit(c, v);
    case 6: return column + " BETWEEN " + lit(c, v) + " AND " + lit(c, v + *uniform_in(0, 6));
    case 7: return column + " IN (" + lit(c, v) + ", " + lit(c, boundary_x(c)) + ")";
    case 8: return one_in(2) ? column + " IS NULL" : column + " IS NOT NULL";
    default: return "NOT (" + column + " > " + lit(c, v) + ")";
  }
}

std::string id_atom(const Context& c) {
  const int64_t k = c.ids.empty() ? 1 : *rc::gen::elementOf(c.ids) + *uniform_in(0, 2);
  return (one_in(2) ? "id < " : "id >= ") + std::to_string(k);
}

std::string p_atom() {
  switch (*uniform_in(0, 3)) {
    case 0: return "p = '" + partition_value() + "'";
    case 1: return "p IN ('" + partition_value() + "', '" + partition_value() + "')";
    default: return "p <> '" + partition_value() + "'";
  }
}

std::string atom(const Context& c, bool prefer_partition) {
  if (prefer_partition && one_in(2)) return p_atom();
  if (one_in(5)) return id_atom(c);
  if (c.world->partitioned && one_in(4)) return p_atom();
  return x_atom(c);
}

std::string predicate(const Context& c, bool prefer_partition = false) {
  switch (*uniform_in(0, 4)) {
    case 0:
    case 1: return atom(c, prefer_partition);
    case 2: return atom(c, prefer_partition) + " AND " + atom(c, false);
    default: return "(" + atom(c, prefer_partition) + " OR " + atom(c, false) + ")";
  }
}

WorldRow new_row(const Context& c, int64_t id, const std::string& p) {
  WorldRow r{id, std::nullopt, p};
  if (!one_in(10)) r.x = std::clamp(boundary_x(c), 0, kMaxX);
  return r;
}

std::string rows_json(const Context& c, const std::vector<WorldRow>& rows) {
  std::string text = "[";
  for (size_t i = 0; i < rows.size(); ++i) text += (i ? ", " : "") + world_row_json(rows[i], c.world->x_type);
  return text + "]";
}

// New ids never collide: transaction t inserts ids 1000 * (t + 1) + j.
std::vector<WorldRow> new_rows(const Context& c, size_t txn, int max_rows) {
  std::vector<WorldRow> rows;
  const int n = *uniform_in(1, max_rows + 1);
  for (int j = 0; j < n; ++j) rows.push_back(new_row(c, 1000 * static_cast<int64_t>(txn + 1) + j, partition_value()));
  return rows;
}

std::string insert_op(const Context& c, size_t txn) { return "INSERT " + rows_json(c, new_rows(c, txn, 3)); }

std::string delete_op(const Context& c, bool prefer_partition = false) {
  return "DELETE WHERE " + predicate(c, prefer_partition);
}

std::string update_op(const Context& c, bool prefer_partition = false) {
  const std::string set = one_in(4) && x_has_plus_one(c.world->x_type) ? "x = x + 1" : "x = " + lit(c, std::clamp(boundary_x(c), 0, kMaxX));
  return "UPDATE SET " + set + " WHERE " + predicate(c, prefer_partition);
}

// Upserts: some source rows match existing ids (replaced), the rest are new. Besides the key
// shorthand, the full MERGE form: a target-only ON conjunct (Delta records it, so winner files
// outside it are skipped), clause conditions, a MATCHED-only DELETE and an INSERT-only MERGE.
std::string merge_op(const Context& c, size_t txn) {
  std::vector<WorldRow> rows = new_rows(c, txn, 2);
  if (!c.ids.empty() && !one_in(4)) {
    rows.front().id = *rc::gen::elementOf(c.ids);
  }
  const std::string head = "MERGE USING " + rows_json(c, rows) + " ON t.id = s.id";
  const std::string on_x = " AND " + x_atom(c, "t.x");
  switch (*uniform_in(0, 6)) {
    case 0: return "MERGE ON id USING " + rows_json(c, rows);
    case 1: return head + on_x + " WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *";
    case 2: return head + " WHEN MATCHED AND " + x_atom(c, "t.x") + " THEN UPDATE SET x = s.x WHEN NOT MATCHED THEN INSERT *";
    case 3: return head + " WHEN MATCHED AND " + x_atom(c, "t.x") + " THEN DELETE";
    case 4: return head + on_x + " WHEN NOT MATCHED AND s.x IS NOT NULL THEN INSERT *";
    default:
      return head + " WHEN MATCHED THEN UPDATE SET x = " + (x_has_plus_one(c.world->x_type) ? "t.x + 1" : "s.x") +
             " WHEN NOT MATCHED THEN INSERT (id, x, p) VALUES (s.id, s.x, s.p)";
  }
}

// Compaction of every file or of a subset (the files are f0, f1, ... in the scenario text).
std::string optimize_op(const Context& c) {
  std::string subset;
  for (size_t f = 0; f < c.world->files.size(); ++f) {
    if (one_in(2)) subset += (subset.empty() ? " FILES f" : ", f") + std::to_string(f);
  }
  switch (*uniform_in(0, 4)) {
    case 0: return "OPTIMIZE";
    case 1: return "OPTIMIZE CLUSTER BY x";
    case 2: return "OPTIMIZE CLUSTER BY x ROWS PER FILE 2";
    default: return "OPTIMIZE" + (subset.empty() ? " FILES f0" : subset);
  }
}

std::string any_write(const Context& c, size_t txn, bool prefer_partition = false) {
  switch (*uniform_in(0, 10)) {
    case 0:
    case 1: return insert_op(c, txn);
    case 2:
    case 3:
    case 4: return delete_op(c, prefer_partition);
    case 5:
    case 6:
    case 7: return update_op(c, prefer_partition);
    case 8: return merge_op(c, txn);
    default: return optimize_op(c);
  }
}

// A write, sometimes preceded by a read of its own (several scans: several read predicates).
WorldTransaction plain_transaction(const Context& c, size_t txn, int select_one_in,
                                   bool prefer_partition = false) {
  WorldTransaction t;
  if (one_in(select_one_in)) t.operations.push_back("SELECT WHERE " + predicate(c, prefer_partition));
  t.operations.push_back(any_write(c, txn, prefer_partition));
  return t;
}

// Writes that read the rows they change. A MERGE reads files it may leave untouched (its matched
// rows decide what it inserts), so only the delete/read check sees a winner removing them.
WorldTransaction wide_dv_transaction(const Context& c, size_t txn) {
  WorldTransaction t;
  if (one_in(3)) t.operations.push_back("SELECT WHERE " + predicate(c));
  switch (*uniform_in(0, 5)) {
    case 0:
    case 1: t.operations.push_back(delete_op(c)); break;
    case 2:
    case 3: t.operations.push_back(update_op(c)); break;
    default: t.operations.push_back(merge_op(c, txn)); break;
  }
  return t;
}

bool same_file(WorldCategory c) {
  return c == WorldCategory::SameFileDisjoint || c == WorldCategory::SameFileOverlap;
}

// Categories whose writers share the first file, which then has rows enough for two writers.
bool shares_first_file(WorldCategory c) {
  return same_file(c) || c == WorldCategory::ImageFiles || c == WorldCategory::Restore;
}

std::vector<WorldFile> initial_files(const World& w) {
  std::vector<WorldFile> files(*uniform_in<size_t>(1, 5));
  int64_t next_id = 1;
  for (size_t k = 0; k < files.size(); ++k) {
    const std::string p = w.partitioned ? kPartitionValues[k % kPartitionValues.size()] : "";
    // The same-file writers' file, the first, has rows enough for two (one may carry a DV).
    const int rows = *uniform_in(k == 0 && shares_first_file(w.category) ? 3 : 1, 5);
    for (int j = 0; j < rows; ++j) {
      WorldRow r{next_id++, std::nullopt, w.partitioned ? p : partition_value()};
      if (w.clustered) {
        r.x = static_cast<int>(k) * kBandWidth + *uniform_in(0, kBandWidth);
      } else if (!one_in(w.category == WorldCategory::WideDv ? 3 : 10)) {  // wide-DV worlds split NULLs by DVs
        r.x = *uniform_in(0, kMaxX + 1);
      }
      files[k].rows.push_back(r);
    }
    // A file an earlier DV delete touched: its removal then carries that DV (docs/semantics.md §7.3).
    const bool earlier_delete = w.category == WorldCategory::WideDv || one_in(3);
    if (w.deletion_vectors && rows > 1 && earlier_delete) files[k].deleted.push_back(*uniform_in(0, rows));
  }
  return files;
}

std::string band_predicate(const Context& c, size_t band) {
  const int lo = static_cast<int>(band) * kBandWidth;
  return one_in(2) ? "x BETWEEN " + lit(c, lo) + " AND " + lit(c, lo + kBandWidth - 1)
                   : "x >= " + lit(c, lo) + " AND x < " + lit(c, lo + kBandWidth);
}

// Transaction t works in x band t only: its reads and its writes stay there.
WorldTransaction disjoint_transaction(const Context& c, size_t txn) {
  const int lo = static_cast<int>(txn) * kBandWidth;
  const auto band_x = [&] { return lit(c, lo + *uniform_in(0, kBandWidth)); };
  WorldTransaction t;
  switch (*uniform_in(0, 3)) {
    case 0: {
      std::vector<WorldRow> rows = new_rows(c, txn, 3);
      for (WorldRow& r : rows) r.x = lo + *uniform_in(0, kBandWidth);
      t.operations.push_back("INSERT " + rows_json(c, rows));
      break;
    }
    case 1: t.operations.push_back("DELETE WHERE " + band_predicate(c, txn)); break;
    default: t.operations.push_back("UPDATE SET x = " + band_x() + " WHERE " + band_predicate(c, txn)); break;
  }
  return t;
}

// The write-skew shape: the mover's UPDATE takes row k across the reader's threshold.
std::vector<WorldTransaction> value_moving_pair(const Context& c) {
  std::vector<const WorldRow*> rows;
  for (const WorldFile& f : c.world->files) {
    for (const WorldRow& r : f.rows) if (r.x) rows.push_back(&r);
  }
  // Draw an index, never a pointer: shrinking replays the draw on a later copy of the world.
  const WorldRow& moved =
      rows.empty() ? c.world->files.front().rows.front() : *rows[*uniform_in<size_t>(0, rows.size())];
  const int old_x = moved.x.value_or(0);
  const bool into = !one_in(2);
  const bool greater = one_in(2);
  const int gap = *uniform_in(0, 3);
  // "x > t" holds for the new value and not the old one (into), or the reverse (out of).
  int threshold = 0;
  int new_x = 0;
  if (greater) {
    threshold = into ? old_x + gap : old_x - 1 - gap;
    new_x = into ? threshold + 1 + *uniform_in(0, 3) : threshold - *uniform_in(0, 3);
  } else {
    threshold = into ? old_x - gap : old_x + 1 + gap;
    new_x = into ? threshold - 1 - *uniform_in(0, 3) : threshold + *uniform_in(0, 3);
  }
  WorldTransaction mover;
  mover.operations.push_back("UPDATE SET x = " + lit(c, new_x) + " WHERE id = " + std::to_string(moved.id));
  WorldTransaction reader;
  const std::string condition = std::string("x ") + (greater ? "> " : "< ") + lit(c, threshold);
  switch (*uniform_in(0, 3)) {
    case 0: reader.operations.push_back("DELETE WHERE " + condition); break;
    case 1: reader.operations.push_back("UPDATE SET x = " + lit(c, threshold) + " WHERE " + condition); break;
    default:
      reader.operations.push_back("SELECT WHERE " + condition);
      reader.operations.push_back(insert_op(c, 1));
      reader.not_blind = true;
      break;
  }
  return {mover, reader};
}

std::vector<size_t> commit_order(size_t n) {
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  for (size_t i = n; i-- > 1;) std::swap(order[i], order[*uniform_in<size_t>(0, i + 1)]);
  return order;
}

std::string id_list(const std::vector<int64_t>& ids) {
  std::string list;
  for (int64_t id : ids) list += (list.empty() ? "" : ", ") + std::to_string(id);
  return list;
}

// A DELETE, or an UPDATE of x to a boundary value, of the rows `where` selects.
WorldTransaction delete_or_update(const Context& c, const std::string& where) {
  WorldTransaction t;
  t.operations.push_back(one_in(2) ? "DELETE" + where : "UPDATE SET x = " + lit(c, boundary_x(c)) + where);
  return t;
}

// A DELETE or UPDATE of exactly the rows with these ids.
WorldTransaction by_ids(const Context& c, const std::vector<int64_t>& ids) {
  return delete_or_update(c, " WHERE id IN (" + id_list(ids) + ")");
}

// The first file's live rows in a drawn order.
std::vector<WorldRow> shuffled_live_rows(const WorldFile& file) {
  std::vector<WorldRow> rows;
  for (size_t r = 0; r < file.rows.size(); ++r) {
    const bool deleted = std::find(file.deleted.begin(), file.deleted.end(), static_cast<int>(r)) != file.deleted.end();
    if (!deleted) rows.push_back(file.rows[r]);
  }
  for (size_t i = rows.size(); i-- > 1;) std::swap(rows[i], rows[*uniform_in<size_t>(0, i + 1)]);
  return rows;
}

std::vector<WorldRow> slice(const std::vector<WorldRow>& rows, size_t begin, size_t end) {
  return {rows.begin() + static_cast<std::ptrdiff_t>(begin), rows.begin() + static_cast<std::ptrdiff_t>(end)};
}

std::vector<int64_t> ids_of(const std::vector<WorldRow>& rows, size_t begin, size_t end) {
  std::vector<int64_t> ids;
  for (const WorldRow& r : slice(rows, begin, end)) ids.push_back(r.id);
  return ids;
}

// A read, then an append: not blind (isBlindAppend=false), so the append check judges its read.
WorldTransaction reading_append(const Context& c, size_t txn) {
  WorldTransaction t;
  t.operations = {"SELECT WHERE " + predicate(c), insert_op(c, txn)};
  t.not_blind = true;
  return t;
}

// INSERT INTO t SELECT: appends copies of the rows it reads, so what it writes depends on them.
// Its copies get ids of their own: insert_op's are 1000 * (txn + 1) + j with j < 3.
WorldTransaction self_reading_insert(const Context& c, size_t txn) {
  WorldTransaction t;
  t.operations = {"INSERT SELECT SET id = id + " + std::to_string(1000 * (txn + 1) + 100) + " WHERE " + predicate(c)};
  return t;
}

// A loser that is not row-local (docs/semantics.md §10.2 (c)): a MERGE whose NOT MATCHED clause
// inserts the source rows the target lacks, so what it writes depends on rows it leaves alone.
// Its source holds the rows it deletes and `witness`, a row another writer may delete first.
WorldTransaction non_local_merge(const Context& c, std::vector<WorldRow> source, const WorldRow& witness) {
  // Two source rows matching one target row would fail the MERGE, as in Delta.
  const bool has_witness = std::any_of(source.begin(), source.end(), [&](const WorldRow& r) { return r.id == witness.id; });
  if (!has_witness) source.push_back(witness);
  WorldTransaction t;
  t.operations.push_back("MERGE USING " + rows_json(c, source) + " ON t.id = s.id WHEN MATCHED AND t.x > " +
                         lit(c, boundary_x(c)) + " THEN DELETE WHEN NOT MATCHED THEN INSERT *");
  return t;
}

// A MERGE of WHEN MATCHED clauses only over `source`'s ids, row-local (docs/semantics.md
// §10.2 (c)): a DELETE, an UPDATE to a new x, or both, with or without conditions on t.x (of two
// MATCHED clauses only the last may go without one, as in Spark).
WorldTransaction matched_only_merge(const Context& c, std::vector<WorldRow> source) {
  const auto condition = [&] { return one_in(2) ? std::string() : " AND " + x_atom(c, "t.x"); };
  for (WorldRow& r : source) r.x = std::clamp(boundary_x(c), 0, kMaxX);
  std::string clauses;
  switch (*uniform_in(0, 3)) {
    case 0: clauses = " WHEN MATCHED" + condition() + " THEN DELETE"; break;
    case 1: clauses = " WHEN MATCHED" + condition() + " THEN UPDATE SET x = s.x"; break;
    default:
      clauses = " WHEN MATCHED AND " + x_atom(c, "t.x") + " THEN DELETE WHEN MATCHED" + condition() + " THEN UPDATE SET x = s.x";
      break;
  }
  WorldTransaction t;
  t.operations.push_back("MERGE USING " + rows_json(c, source) + " ON t.id = s.id" + clauses);
  return t;
}

// Losers that are not row-local (docs/semantics.md §10.2 (c)) although they write only rows of
// their own: a DELETE or UPDATE whose condition reads other rows through a subquery over the
// table (x equal to the x of some row by id), or draws rand() (its values shift when an earlier
// row of the file is deleted).
WorldTransaction self_reading_dml(const Context& c, const std::vector<int64_t>& ids) {
  return delete_or_update(c, " WHERE x IN (SELECT x FROM t WHERE id IN (" + id_list(ids) + "))");
}

WorldTransaction random_dml(const std::vector<int64_t>& ids) {
  WorldTransaction t;
  t.operations.push_back("DELETE WHERE id IN (" + id_list(ids) + ") AND rand(" + std::to_string(*uniform_in(0, 1000)) +
                         ") < 0." + std::to_string(*uniform_in(1, 10)));
  return t;
}

// Who writes rows of the shared file beside a DML by ids: row-local writers (DML by ids, a
// MATCHED-only MERGE) and losers that are not (docs/semantics.md §10.2 (c)).
enum class SameFileWriter { ByIds, MatchedOnlyMerge, NonLocalMerge, SelfReadingDml, RandomDml };

// Two writers of the first file's live rows: T1 takes rows[0, a), T2 rows[b, e) of a shuffle,
// with b >= a (disjoint) or b < a (at least rows[b] shared). T2 works by ids, is a MATCHED-only
// MERGE, or is a non-local loser: a MERGE whose source also holds rows[0], a row T1 changes, or a
// subquery or rand() DML over rows[0, e), which T1's rows are among.
std::vector<WorldTransaction> same_file_pair(const Context& c, bool overlap) {
  const std::vector<WorldRow> rows = shuffled_live_rows(c.world->files.front());
  const size_t a = *uniform_in<size_t>(1, rows.size());  // at least 2 live rows: a < size
  const size_t b = overlap ? *uniform_in<size_t>(0, a) : *uniform_in<size_t>(a, rows.size());
  const size_t e = *uniform_in<size_t>(b + 1, rows.size() + 1);
  const SameFileWriter writer = *rc::gen::weightedElement<SameFileWriter>(
      {{3, SameFileWriter::ByIds},
       {2, SameFileWriter::MatchedOnlyMerge},
       {2, SameFileWriter::NonLocalMerge},
       {1, SameFileWriter::SelfReadingDml},
       {1, SameFileWriter::RandomDml}});
  WorldTransaction second;
  switch (writer) {
    case SameFileWriter::ByIds: second = by_ids(c, ids_of(rows, b, e)); break;
    case SameFileWriter::MatchedOnlyMerge: second = matched_only_merge(c, slice(rows, b, e)); break;
    case SameFileWriter::NonLocalMerge: second = non_local_merge(c, slice(rows, b, e), rows.front()); break;
    case SameFileWriter::SelfReadingDml: second = self_reading_dml(c, ids_of(rows, 0, e)); break;
    case SameFileWriter::RandomDml: second = random_dml(ids_of(rows, 0, e)); break;
  }
  return {by_ids(c, ids_of(rows, 0, a)), std::move(second)};
}

// x compared with a value next to v.
std::string near_atom(const Context& c, int v) {
  static const std::vector<std::string> kOps = {" > ", " >= ", " < ", " <= ", " = "};
  return "x" + *rc::gen::elementOf(kOps) + lit(c, v + *uniform_in(-1, 2));
}

// An UPDATE, or a MATCHED-only MERGE, gives rows[0, a) of the first file the value v: their DV
// path reconciles under Case 2 and their new images land in a new file. The other writer works by
// ids (rows disjoint from or shared with those) or by a predicate next to v, so an image may move
// a row into or out of what it reads.
std::vector<WorldTransaction> image_files_pair(const Context& c) {
  const std::vector<WorldRow> rows = shuffled_live_rows(c.world->files.front());
  const size_t a = *uniform_in<size_t>(1, rows.size());
  const int v = std::clamp(boundary_x(c), 0, kMaxX);
  WorldTransaction imager;
  if (one_in(2)) {
    imager.operations.push_back("UPDATE SET x = " + lit(c, v) + " WHERE id IN (" + id_list(ids_of(rows, 0, a)) + ")");
  } else {
    std::vector<WorldRow> source = slice(rows, 0, a);
    for (WorldRow& r : source) r.x = v;
    imager.operations.push_back("MERGE USING " + rows_json(c, source) + " ON t.id = s.id WHEN MATCHED THEN UPDATE SET x = s.x");
  }
  WorldTransaction other;
  switch (*uniform_in(0, 3)) {
    case 0: {
      const size_t b = *uniform_in<size_t>(0, rows.size());
      other = by_ids(c, ids_of(rows, b, *uniform_in<size_t>(b + 1, rows.size() + 1)));
      break;
    }
    case 1: other.operations.push_back("DELETE WHERE " + near_atom(c, v)); break;
    default: other.operations.push_back("UPDATE SET x = " + lit(c, boundary_x(c)) + " WHERE " + near_atom(c, v)); break;
  }
  return {imager, other};
}

// History: step i deletes a row of the first file (its DV grows) or restores an earlier version
// (it shrinks), so versions hold DVs that neither contains the other.
void draw_history(World& w) {
  const std::vector<WorldRow> rows = shuffled_live_rows(w.files.front());
  const int steps = *uniform_in(1, static_cast<int>(std::min<size_t>(rows.size(), 4)));
  for (int i = 0; i < steps; ++i) {
    w.history.push_back(i > 0 && one_in(3) ? "RESTORE TO VERSION " + std::to_string(*uniform_in(0, i))
                                           : "DELETE WHERE id = " + std::to_string(rows[static_cast<size_t>(i)].id));
  }
}

// A RESTORE to an earlier version against a writer or reader of the first file: DML by ids, a
// non-local MERGE, a read followed by an append, or a self-reading INSERT SELECT.
std::vector<WorldTransaction> restore_transactions(const Context& c, int latest_version) {
  WorldTransaction restore;
  restore.operations.push_back("RESTORE TO VERSION " + std::to_string(*uniform_in(0, latest_version)));
  const std::vector<WorldRow> rows = shuffled_live_rows(c.world->files.front());
  const size_t b = *uniform_in<size_t>(0, rows.size());
  const size_t e = *uniform_in<size_t>(b + 1, rows.size() + 1);
  WorldTransaction other;
  switch (*uniform_in(0, 4)) {
    case 0: other = by_ids(c, ids_of(rows, b, e)); break;
    case 1: other = non_local_merge(c, slice(rows, b, e), rows.front()); break;
    case 2: other = reading_append(c, 1); break;
    default: other = self_reading_insert(c, 1); break;
  }
  return {restore, other};
}

// Beside an OPTIMIZE (dataChange=false): DML on the files it compacts, blind and reading
// appends, and a self-reading INSERT SELECT.
WorldTransaction no_data_change_transaction(const Context& c, size_t txn) {
  switch (*uniform_in(0, 4)) {
    case 0: return reading_append(c, txn);
    case 1: return self_reading_insert(c, txn);
    default: return plain_transaction(c, txn, 4);
  }
}

// docs/semantics.md §10.4's relocation guard: an OPTIMIZE commits first, a writer that starts
// after it rewrites or deletes rows of the compacted files, and a reader from before the OPTIMIZE
// commits last, its reads on files that no longer exist.
void compaction_then_rewrite(World& w) {
  const Context c = context_of(w);
  WorldTransaction rewrite;
  rewrite.operations = {one_in(2) ? delete_op(c) : update_op(c)};
  w.transactions = {WorldTransaction{{optimize_op(c)}}, one_in(2) ? reading_append(c, 1) : self_reading_insert(c, 1),
                    std::move(rewrite)};
  w.commit_order = {0, 2, 1};
  w.late_start = 2;
}

// docs/semantics.md §4.6's nullCount widening: a DV DELETE by id splits a file whose x holds NULL
// and non-NULL rows, then a transaction that starts after it reads x by its NULLs, `<=>` or a
// comparison. Only tight stats have their nullCount rewritten, so the file loses the DV of an
// earlier delete. nullopt when no initial file holds both.
std::optional<std::vector<WorldTransaction>> null_split_pair(World& w) {
  const Context c = context_of(w);
  std::vector<WorldFile*> split;
  for (WorldFile& f : w.files) {
    const bool nulls = std::any_of(f.rows.begin(), f.rows.end(), [](const WorldRow& r) { return !r.x; });
    const bool values = std::any_of(f.rows.begin(), f.rows.end(), [](const WorldRow& r) { return r.x.has_value(); });
    if (nulls && values) split.push_back(&f);
  }
  if (split.empty()) return std::nullopt;
  WorldFile& file = **rc::gen::elementOf(split);
  file.deleted.clear();
  const WorldRow& deleted = *rc::gen::elementOf(file.rows);
  const std::string value = lit(c, boundary_x(c));
  const std::string read = *rc::gen::element<std::string>("x IS NOT NULL", "x IS NULL", "x <=> " + value,
                                                          "NOT (x <=> " + value + ")", "x >= " + value,
                                                          "x < " + value);
  WorldTransaction reader;
  switch (*uniform_in(0, 3)) {
    case 0: reader.operations = {"UPDATE SET x = " + lit(c, boundary_x(c)) + " WHERE " + read}; break;
    case 1: reader.operations = {"DELETE WHERE " + read}; break;
    default: reader.operations = {"SELECT WHERE " + read, insert_op(c, 1)}; break;
  }
  return std::vector<WorldTransaction>{WorldTransaction{{"DELETE WHERE id = " + std::to_string(deleted.id)}},
                                       std::move(reader)};
}

void draw_table(World& w) {
  const WorldCategory c = w.category;
  // Every category but the disjoint bands sees partitioned tables and deletion vectors too.
  w.partitioned = c == WorldCategory::Partitioned || (c != WorldCategory::Disjoint && one_in(3));
  w.deletion_vectors = c == WorldCategory::WideDv || shares_first_file(c) || (c != WorldCategory::Disjoint && one_in(3));
  w.clustered = c == WorldCategory::Disjoint || one_in(3);
  w.write_serializable = c != WorldCategory::Disjoint && one_in(3);
  // Every tier on and off in every category; Case 2 stays on where image files are the point,
  // Case 3 where OPTIMIZE's dataChange=false files are. Each shrinks towards its default.
  w.flags.value_exact = !one_in(2);
  w.flags.row_level_concurrency = c == WorldCategory::ImageFiles || !one_in(2);
  w.flags.removed_rows = one_in(2);
  w.flags.exclude_no_data_change = c == WorldCategory::NoDataChange || one_in(2);
  // Half the worlds keep x an int, the others spread over the types with stats edges; shrinks to int.
  w.x_type = *rc::gen::weightedElement<XType>({{5, XType::Int}, {1, XType::Decimal}, {1, XType::Double},
                                                {1, XType::String}, {1, XType::Date}, {1, XType::Timestamp}});
  // One world in four goes through the real input path: its log is written and replayed, half of
  // them from a table directory.
  if (one_in(4)) w.log = one_in(2) ? WorldLog::Directory : WorldLog::Replayed;
  w.files = initial_files(w);
  if (c == WorldCategory::MissingStats || (c == WorldCategory::Mixed && one_in(4))) {
    if (one_in(3)) w.num_indexed_cols = 1;
    for (WorldFile& f : w.files) f.has_stats = !one_in(2);
  }
}

std::vector<WorldTransaction> draw_transactions(const World& w) {
  const Context c = context_of(w);
  const WorldCategory cat = w.category;
  if (same_file(cat)) return same_file_pair(c, cat == WorldCategory::SameFileOverlap);
  if (cat == WorldCategory::ImageFiles) return image_files_pair(c);
  if (cat == WorldCategory::Restore) return restore_transactions(c, static_cast<int>(w.history.size()));
  if (cat == WorldCategory::ValueMoving) {
    std::vector<WorldTransaction> txns = value_moving_pair(c);
    if (one_in(3)) txns.push_back(plain_transaction(c, 2, 3));
    return txns;
  }
  const size_t n = *uniform_in<size_t>(2, cat == WorldCategory::Disjoint ? 4 : 5);
  std::vector<WorldTransaction> txns;
  for (size_t t = 0; t < n; ++t) {
    switch (cat) {
      case WorldCategory::Disjoint: txns.push_back(disjoint_transaction(c, t)); break;
      case WorldCategory::Partitioned: txns.push_back(plain_transaction(c, t, 3, true)); break;
      case WorldCategory::WideDv: txns.push_back(wide_dv_transaction(c, t)); break;
      case WorldCategory::Mixed: txns.push_back(plain_transaction(c, t, 2)); break;
      case WorldCategory::NoDataChange: txns.push_back(no_data_change_transaction(c, t)); break;
      default: txns.push_back(plain_transaction(c, t, 4)); break;
    }
  }
  const size_t special = *uniform_in<size_t>(0, n);
  if (cat == WorldCategory::WholeTable) {
    switch (*uniform_in(0, 3)) {
      case 0: txns[special].whole_table_read = true; break;
      case 1: txns[special].operations = {"DELETE"}; break;
      default: txns[special].operations = {"UPDATE SET x = " + lit(c, boundary_x(c))}; break;
    }
  } else if (cat == WorldCategory::EmptyReads) {
    txns[special] = WorldTransaction{{insert_op(c, special)}, false, true, false};
  } else if (cat == WorldCategory::NoDataChange) {
    txns[special] = WorldTransaction{{optimize_op(c)}, false, false, false, false};
  } else if (cat == WorldCategory::MissingStats) {
    for (WorldTransaction& t : txns) t.no_stats = one_in(2);
  }
  if (cat != WorldCategory::Disjoint && cat != WorldCategory::Mixed && one_in(8)) {
    txns[*uniform_in<size_t>(0, n)].whole_table_read = true;
  }
  if (cat == WorldCategory::Mixed) {
    for (WorldTransaction& t : txns) {
      t.whole_table_read = one_in(8);
      t.not_blind = one_in(6);
      t.no_stats = one_in(8);
    }
  }
  if (cat != WorldCategory::Disjoint) {
    for (WorldTransaction& t : txns) t.blind_unknown = one_in(5);
  }
  return txns;
}

// docs/semantics.md §7.1 checks 1-4: what a transaction may commit besides files. One world in
// eight lets one or two of its transactions commit such actions.
enum class TableChange {
  None,
  HarmlessProperty,    // an ALTER of a property nothing reads: check 2 still aborts the others
  DependedOnProperty,  // an ALTER of what the others' skipping and checks read: indexed columns, isolation
  ProtocolFeature,     // an ALTER enabling (or on DV tables dropping) a protocol feature: check 1
  TwoProtocolChanges,  // two ALTERs enabling features: the later one aborts (check 1)
  SharedAppId,         // two idempotent writers reading and setting one app id: check 4
  SharedDomain,        // two writers committing one domain's metadata: check 3
};

std::string set_tblproperties(const std::string& assignment) {
  return "ALTER TABLE SET TBLPROPERTIES (" + assignment + ")";
}

std::string harmless_property_alter() {
  static const std::vector<std::string> kAssignments = {"'delta.appendOnly' = 'false'",
                                                        "'delta.logRetentionDuration' = 'interval 30 days'"};
  return set_tblproperties(*rc::gen::elementOf(kAssignments));
}

// Setting the value a table already has is a metaData action that changes nothing: it aborts no one.
std::string depended_on_property_alter() {
  static const std::vector<std::string> kAssignments = {
      "'delta.dataSkippingNumIndexedCols' = '0'", "'delta.dataSkippingNumIndexedCols' = '1'",
      "'delta.dataSkippingNumIndexedCols' = '32'", "'delta.isolationLevel' = 'WriteSerializable'",
      "'delta.isolationLevel' = 'Serializable'"};
  return set_tblproperties(*rc::gen::elementOf(kAssignments));
}

// Enabling deletion vectors is allow-listed and its feature fails no one, so concurrent writers
// commit and later ones write DVs; catalogManaged fails every concurrent transaction.
std::string feature_enablement() {
  static const std::vector<std::string> kAssignments = {
      "'delta.feature.appendOnly' = 'supported'", "'delta.feature.changeDataFeed' = 'supported'",
      "'delta.enableDeletionVectors' = 'true'", "'delta.feature.catalogManaged' = 'supported'"};
  return set_tblproperties(*rc::gen::elementOf(kAssignments));
}

std::string protocol_alter(const World& w) {
  if (w.deletion_vectors && one_in(4)) return "ALTER TABLE DROP FEATURE deletionVectors";
  return feature_enablement();
}

// Drawn after everything else, so a world without a table change is drawn as it was before they
// existed. The changing transaction is any of them: by the commit order, a winner or a loser.
void draw_table_change(World& w) {
  const TableChange change = *rc::gen::weightedElement<TableChange>({
      {42, TableChange::None},
      {1, TableChange::HarmlessProperty},
      {1, TableChange::DependedOnProperty},
      {1, TableChange::ProtocolFeature},
      {1, TableChange::TwoProtocolChanges},
      {1, TableChange::SharedAppId},
      {1, TableChange::SharedDomain},
  });
  if (change == TableChange::None) return;
  const size_t n = w.transactions.size();  // every category draws at least two
  const size_t first = *uniform_in<size_t>(0, n);
  const size_t second = (first + *uniform_in<size_t>(1, n)) % n;
  // An ALTER is a transaction's one main write, so it replaces the data write. SET TXN and SET
  // DOMAIN come on top of the data write, before it: an idempotent writer reads its app id's
  // version before it writes.
  const auto prepend = [&](size_t t, std::string op) {
    auto& ops = w.transactions[t].operations;
    ops.insert(ops.begin(), std::move(op));
  };
  switch (change) {
    case TableChange::None: break;
    case TableChange::HarmlessProperty: w.transactions[first].operations = {harmless_property_alter()}; break;
    case TableChange::DependedOnProperty: w.transactions[first].operations = {depended_on_property_alter()}; break;
    case TableChange::ProtocolFeature: w.transactions[first].operations = {protocol_alter(w)}; break;
    case TableChange::TwoProtocolChanges:
      w.transactions[first].operations = {feature_enablement()};
      w.transactions[second].operations = {feature_enablement()};
      break;
    case TableChange::SharedAppId:
      for (size_t t : {first, second}) prepend(t, "SET TXN etl VERSION " + std::to_string(t + 1));
      break;
    case TableChange::SharedDomain:
      for (size_t t : {first, second}) prepend(t, "SET DOMAIN myApp.state {\"writer\": \"T" + std::to_string(t + 1) + "\"}");
      break;
  }
}

constexpr EnumNames kWorldCategoryNames{std::to_array<EnumName<WorldCategory>>({
    {WorldCategory::Disjoint, "disjoint"},
    {WorldCategory::Overlapping, "overlapping"},
    {WorldCategory::MissingStats, "missing-stats"},
    {WorldCategory::WideDv, "wide-dv"},
    {WorldCategory::Partitioned, "partitioned"},
    {WorldCategory::WholeTable, "whole-table"},
    {WorldCategory::EmptyReads, "empty-reads"},
    {WorldCategory::ValueMoving, "value-moving"},
    {WorldCategory::Mixed, "mixed"},
    {WorldCategory::SameFileDisjoint, "same-file-disjoint"},
    {WorldCategory::SameFileOverlap, "same-file-overlap"},
    {WorldCategory::ImageFiles, "image-files"},
    {WorldCategory::NoDataChange, "no-data-change"},
    {WorldCategory::Restore, "restore"},
})};

constexpr EnumNames kTierNames{std::to_array<EnumName<Tier>>({
    {Tier::ValueExact, "value-exact"},
    {Tier::Case2, "case2-dv-union"},
    {Tier::Case1b, "case1b-removed-rows"},
    {Tier::Case3, "case3-no-data-change"},
})};
// CategoryStats keeps one TierSplit per tier, indexed by the enum's value.
static_assert(kTierNames.size() == kTierCount);

}  // namespace

const char* world_category_name(WorldCategory c) { return kWorldCategoryNames.name(c); }

const std::vector<WorldCategory>& all_world_categories() {
  static const std::vector<WorldCategory> kAll = kWorldCategoryNames.values();
  return kAll;
}

std::optional<WorldCategory> world_category_from_name(std::string_view name) {
  return kWorldCategoryNames.value(name);
}

const std::vector<Tier>& all_tiers() {
  static const std::vector<Tier> kAll = kTierNames.values();
  return kAll;
}

const char* tier_name(Tier t) { return kTierNames.name(t); }

const char* tier_flag_name(Tier t) {
  switch (t) {
    case Tier::ValueExact: return "valueExact";
    case Tier::Case2: return "rowLevelConcurrency";
    case Tier::Case1b: return "removedRows";
    case Tier::Case3: return "excludeNoDataChangeFiles";
  }
  return "?";
}

bool tier_on(const WorldFlags& flags, Tier t) {
  switch (t) {
    case Tier::ValueExact: return flags.value_exact;
    case Tier::Case2: return flags.row_level_concurrency;
    case Tier::Case1b: return flags.removed_rows;
    case Tier::Case3: return flags.exclude_no_data_change;
  }
  return false;
}

std::string world_row_json(const WorldRow& row, XType x_type) {
  return "{\"id\": " + std::to_string(row.id) + ", \"x\": " + x_json(x_type, row.x) +
         ", \"p\": \"" + row.p + "\"}";
}

rc::Gen<World> world(WorldCategory category) {
  return rc::gen::exec([category] {
    World w;
    w.category = category;
    draw_table(w);
    if (category == WorldCategory::Restore) draw_history(w);
    w.transactions = draw_transactions(w);
    w.commit_order = commit_order(w.transactions.size());
    // Transactions that start at a later version than the others (docs/semantics.md §7.1: each
    // is checked only against the winners after its own snapshot).
    if (category != WorldCategory::Disjoint && w.commit_order.size() >= 3 && one_in(4)) {
      w.late_start = w.commit_order[*uniform_in<size_t>(1, w.commit_order.size())];
    }
    if (category == WorldCategory::NoDataChange && one_in(3)) compaction_then_rewrite(w);
    if (category == WorldCategory::WideDv && w.deletion_vectors && one_in(3)) {
      if (auto pair = null_split_pair(w)) {
        w.transactions = std::move(*pair);
        w.commit_order = {0, 1};
        w.late_start = 1;  // the reader's snapshot holds the widened stats
      }
    }
    draw_table_change(w);
    return w;
  });
}

}  // namespace skipsound::generators
