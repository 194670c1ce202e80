#include "checker/removed_rows.h"

#include <algorithm>
#include <exception>

#include "checker/filter_classification.h"
#include "model/mutants/fault_injection.h"
#include "model/sql/evaluator.h"
#include "model/table/deletion_vector.h"

namespace skipsound {

namespace {

// A non-deterministic conjunct, or one the model cannot evaluate, counts as TRUE (§10.3).
bool conjunct_may_hold(const ExprPtr& conjunct, const Row& row) {
  if (!is_deterministic(*conjunct)) return true;
  try {
    return evaluate(*conjunct, row) == Truth::True;
  } catch (const std::exception&) {
    return true;
  }
}

// Some read of the loser matches the row: its partition and data conjuncts all TRUE (the row
// carries the file's partition values); a read without condition matches every row.
bool some_read_matches(const Transaction& loser, const Row& row) {
  return std::any_of(loser.reads.predicates.begin(), loser.reads.predicates.end(), [&](const ExprPtr& read) {
    if (!read) return true;
    const std::vector<ExprPtr> conjuncts = split_conjuncts(read);
    return std::all_of(conjuncts.begin(), conjuncts.end(), [&](const ExprPtr& c) { return conjunct_may_hold(c, row); });
  });
}

size_t matching_live_rows(const Transaction& loser, const std::vector<Row>& rows, const DeletedRows& deleted) {
  size_t n = 0;
  for (uint32_t p = 0; p < rows.size(); ++p) {
    if (!std::binary_search(deleted.begin(), deleted.end(), p) && some_read_matches(loser, rows[p])) ++n;
  }
  return n;
}

const TableFile* readded(const Commit& winner, const std::string& path) {
  for (const TableFile& add : winner.adds) {
    if (add.path == path) return &add;
  }
  return nullptr;
}

// The case1b-wrong-image mutant's rows: the winner's new images (its adds at other paths).
std::vector<Row> new_images(const Commit& winner, const std::string& path) {
  std::vector<Row> rows;
  for (const TableFile& add : winner.adds) {
    if (add.path == path) continue;
    const std::vector<Row> live = add.live_rows();
    rows.insert(rows.end(), live.begin(), live.end());
  }
  return rows;
}

RemovedRowsResult verdict_on(const Transaction& loser, const std::vector<Row>& removed, const std::string& path) {
  for (const Row& row : removed) {
    if (some_read_matches(loser, row)) return {RemovedRowsVerdict::Match, "a row the winner removed from " + path + " matches a read"};
  }
  return {RemovedRowsVerdict::NoMatch, "Case 1b: no row the winner removed from " + path + " matches a read"};
}

}  // namespace

RemovedRowsResult judge_removed_rows(const Transaction& loser, const Table& snapshot, const Commit& winner,
                                     const FileRemoval& removal) {
  const TableFile* file = snapshot.find_file(removal.path);
  if (!file || !file->rows) return {RemovedRowsVerdict::Match, "the rows of " + removal.path + " are unknown"};
  const std::vector<Row>& rows = *file->rows;
  const DeletedRows& dv_base = removal.deleted;
  const TableFile* post = readded(winner, removal.path);
  if (fault_active(Mutant::Case1bWrongImage)) return verdict_on(loser, new_images(winner, removal.path), removal.path);
  if (fault_active(Mutant::Case1bCountDiff)) {
    const size_t after = post ? matching_live_rows(loser, rows, post->deleted) : 0;
    if (matching_live_rows(loser, rows, dv_base) > after) {
      return {RemovedRowsVerdict::Match, "fewer rows of " + removal.path + " match after the winner"};
    }
    return {RemovedRowsVerdict::NoMatch, "case1b-count-diff mutant: as many rows of " + removal.path + " match"};
  }
  DeletedRows removed_positions;
  if (!post) {
    for (uint32_t p = 0; p < rows.size(); ++p) removed_positions.push_back(p);
    removed_positions = dv_minus(removed_positions, dv_base);
  } else if (dv_includes(post->deleted, dv_base)) {
    removed_positions = dv_minus(post->deleted, dv_base);
  } else {
    return {RemovedRowsVerdict::Match, "the winner re-added " + removal.path + " with a DV that does not grow"};
  }
  std::vector<Row> removed;
  for (uint32_t p : removed_positions) {
    if (p < rows.size()) removed.push_back(rows[p]);
  }
  return verdict_on(loser, removed, removal.path);
}

}  // namespace skipsound
