#include "checker/value_exact_tier.h"

#include <algorithm>
#include <exception>

#include "model/mutants/fault_injection.h"
#include "model/sql/evaluator.h"

namespace skipsound {

namespace {

bool read_matches(const std::vector<ExprPtr>& filters, const Row& row) {
  return std::all_of(filters.begin(), filters.end(),
                     [&](const ExprPtr& f) { return evaluate(*f, row) == Truth::True; });
}

// OR over reads, as the stats tier combines them (the and-across-reads mutant: AND).
bool row_matches(const std::vector<std::vector<ExprPtr>>& reads, const Row& row) {
  const auto matches = [&](const std::vector<ExprPtr>& filters) { return read_matches(filters, row); };
  if (fault_active(Mutant::ValueexactAndAcrossReads)) return std::all_of(reads.begin(), reads.end(), matches);
  return std::any_of(reads.begin(), reads.end(), matches);
}

bool some_live_row_matches(const std::vector<std::vector<ExprPtr>>& reads, const CandidateFile& file) {
  for (uint32_t position = 0; position < file.rows->size(); ++position) {
    if (std::binary_search(file.deleted->begin(), file.deleted->end(), position)) continue;
    if (row_matches(reads, (*file.rows)[position])) return true;
  }
  return false;
}

ValueExactResult scan(const std::vector<std::vector<ExprPtr>>& reads, const std::vector<const CandidateFile*>& survivors) {
  const bool some_read_unfiltered =
      std::any_of(reads.begin(), reads.end(), [](const std::vector<ExprPtr>& f) { return f.empty(); });
  if (some_read_unfiltered) {
    if (fault_active(Mutant::ValueexactEmptyReadDrops)) {
      return {ValueExactVerdict::DropAll, "valueexact-empty-read-drops mutant: a read without eligible filter drops all"};
    }
    return {ValueExactVerdict::KeepAll, "value-exact: a read has no eligible data filter, every survivor kept"};
  }
  for (const CandidateFile* file : survivors) {
    if (!file->rows || !file->deleted) {
      return {ValueExactVerdict::KeepAll, "value-exact: the rows of " + file->path + " are unknown, every survivor kept"};
    }
    if (some_live_row_matches(reads, *file)) {
      return {ValueExactVerdict::KeepAll, "value-exact: a live row of " + file->path + " matches a read"};
    }
  }
  return {ValueExactVerdict::DropAll, "value-exact: no live row of any survivor matches a read"};
}

}  // namespace

ValueExactResult value_exact_scan(const std::vector<std::vector<ExprPtr>>& eligible_filters,
                                  const std::vector<const CandidateFile*>& survivors) {
  try {
    return scan(eligible_filters, survivors);
  } catch (const std::exception& e) {
    return {ValueExactVerdict::KeepAll, std::string("value-exact: error, every survivor kept: ") + e.what()};
  }
}

}  // namespace skipsound
