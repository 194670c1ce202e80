#include "checker/conflict_filter.h"

#include <algorithm>
#include <exception>

#include "checker/partition_match.h"
#include "checker/skipping_builder.h"
#include "checker/value_exact_tier.h"
#include "model/coverage/coverage.h"
#include "model/mutants/fault_injection.h"
#include "model/values/enum_names.h"
#include "model/values/input_error.h"

namespace skipsound {

namespace {

std::vector<ExprPtr> eligible_data_filters(const ReadPredicate& read) {
  std::vector<ExprPtr> kept;
  for (const ExprPtr& filter : read.data_filters) {
    if (is_deterministic(*filter) && !references_metadata_column(*filter)) kept.push_back(filter);
  }
  return kept;
}

ConflictFilterResult every_file(const std::vector<CandidateFile>& added, CandidateVerdict verdict,
                                const std::string& why) {
  ConflictFilterResult result;
  result.summary = why;
  for (const CandidateFile& file : added) {
    result.files.push_back(CandidateOutcome{file.path, verdict, why, {}});
  }
  return result;
}

bool suppresses_appends(const ConflictFilterOptions& options) {
  return fault_active(Mutant::AppendSuppression) &&
         options.winner_operation != WinnerOperation::Other;
}

// Data step: a file survives a read when that read's data skipping keeps it, and survives the
// step when it survives any read (the and-across-reads mutant: every read).
void apply_data_skipping(const LoserReads& loser, const std::vector<CandidateFile>& added,
                         const StatsEligibility& eligibility, ConflictFilterResult& result) {
  const bool every_read_must_keep = fault_active(Mutant::AndAcrossReads);
  std::vector<bool> survives(added.size(), every_read_must_keep);
  if (loser.reads.size() > 1) coverage::hit(coverage::Probe::ConflictSeveralReads);
  std::vector<std::optional<SkippingPredicate>> predicates;
  for (const ReadPredicate& read : loser.reads) {
    const auto& predicate =
        predicates.emplace_back(build_conjunction(eligible_data_filters(read), eligibility));
    if (!predicate) coverage::hit(coverage::Probe::ConflictReadWithoutFilter);
    for (size_t i = 0; i < added.size(); ++i) {
      // The verdict alone: every commit attempt runs this for each (file, read), and the text of
      // decide_file is for reports.
      const bool kept = !predicate || decide_verdict(*predicate, FileView{added[i].stats, added[i].dv_cardinality},
                                                     eligibility.schema()) == FileVerdict::Keep;
      survives[i] = every_read_must_keep ? survives[i] && kept : survives[i] || kept;
    }
  }
  for (size_t i = 0; i < added.size(); ++i) {
    result.files[i].decided_by = FilterStep::DataSkipping;
    if (!survives[i]) {
      result.files[i].verdict = CandidateVerdict::Excluded;
      result.files[i].reason = every_read_must_keep
                                   ? "excluded: some read's data skipping skips it"
                                   : "excluded: every read's data skipping skips it";
    } else {
      result.files[i].reason = "survives: some read's data skipping keeps it";
      // A survivor makes a conflict, which a report explains read by read; the text is built
      // only here, never for the many files a check excludes.
      for (const auto& predicate : predicates) {
        result.files[i].per_read.push_back(decide_file(predicate, FileView{added[i].stats, added[i].dv_cardinality},
                                                       eligibility.schema()));
      }
    }
  }
}

// Partition step: (OR over reads of data survivors) AND (OR over reads of each read's ANDed
// partition predicates) — deliberately not read by read.
void apply_partition_filters(const LoserReads& loser, const std::vector<CandidateFile>& added,
                             ConflictFilterResult& result) {
  coverage::hit(coverage::Probe::ConflictPartitionStep);
  for (size_t i = 0; i < added.size(); ++i) {
    const bool some_read_matches =
        std::any_of(loser.reads.begin(), loser.reads.end(), [&](const ReadPredicate& read) {
          return match_partition(read.partition_filters, added[i].partition_values) ==
                 PartitionMatch::Match;
        });
    if (!some_read_matches && result.files[i].verdict == CandidateVerdict::Survives) {
      result.files[i].verdict = CandidateVerdict::Excluded;
      result.files[i].decided_by = FilterStep::Partition;
      result.files[i].reason = "excluded: no read's partition predicates match its partition values";
    }
  }
}

// docs/semantics.md §10.1: on the stats tier's survivors, all kept or all dropped by reading their rows.
void apply_value_exact(const LoserReads& loser, const std::vector<CandidateFile>& added, ConflictFilterResult& result) {
  std::vector<std::vector<ExprPtr>> eligible;
  for (const ReadPredicate& read : loser.reads) eligible.push_back(eligible_data_filters(read));
  std::vector<const CandidateFile*> survivors;
  std::vector<size_t> indexes;
  for (size_t i = 0; i < added.size(); ++i) {
    if (result.files[i].verdict != CandidateVerdict::Survives) continue;
    survivors.push_back(&added[i]);
    indexes.push_back(i);
  }
  if (survivors.empty()) return;
  const ValueExactResult scan = value_exact_scan(eligible, survivors);
  for (size_t i : indexes) {
    result.files[i].decided_by = FilterStep::ValueExact;
    result.files[i].reason = (scan.verdict == ValueExactVerdict::DropAll ? "excluded: " : "survives: ") + scan.reason;
    if (scan.verdict == ValueExactVerdict::DropAll) result.files[i].verdict = CandidateVerdict::Excluded;
  }
}

ConflictFilterResult filter(const LoserReads& loser, const std::vector<CandidateFile>& added,
                            const StatsEligibility& eligibility, const ConflictFilterOptions& options) {
  if (suppresses_appends(options)) {
    return every_file(added, CandidateVerdict::Excluded,
                      "append-suppression mutant: an UPDATE/DELETE winner's adds are not checked");
  }
  if (loser.whole_table && !fault_active(Mutant::SkipWholeTableRead)) {
    coverage::hit(coverage::Probe::ConflictWholeTableRead);
    return every_file(added, CandidateVerdict::Survives, "whole-table read: every added file counts");
  }
  if (loser.reads.empty() && fault_active(Mutant::EmptyReadsSkipAll)) {
    return every_file(added, CandidateVerdict::Excluded,
                      "empty-reads-skip-all mutant: no read predicate, no file kept");
  }
  // Every survivor carries its reason; the partition step below may still exclude it.
  ConflictFilterResult result;
  if (!options.data_skipping_enabled) {
    coverage::hit(coverage::Probe::ConflictFlagOff);
    result = every_file(added, CandidateVerdict::Survives, "data skipping off: partition filters only");
  } else if (loser.reads.empty()) {
    coverage::hit(coverage::Probe::ConflictNoReadPredicate);
    result = every_file(added, CandidateVerdict::Survives, "no recorded read predicate: data skipping keeps every file");
  } else {
    result = every_file(added, CandidateVerdict::Survives, "data skipping per read, OR across reads");
    apply_data_skipping(loser, added, eligibility, result);
    if (options.value_exact) {
      result.summary += "; then value-exact rows";
      apply_value_exact(loser, added, result);
    }
  }
  if (eligibility.partitioned()) {
    result.summary += "; then partition predicates";
    apply_partition_filters(loser, added, result);
  }
  return result;
}

}  // namespace

bool ConflictFilterResult::any_survivor() const {
  return std::any_of(files.begin(), files.end(), [](const CandidateOutcome& f) {
    return f.verdict == CandidateVerdict::Survives;
  });
}

namespace {

constexpr EnumNames kFilterStepNames{std::to_array<EnumName<FilterStep>>({
    {FilterStep::Default, "whole-filter rule"},
    {FilterStep::NoDataChange, "no-data-change filter"},
    {FilterStep::DataSkipping, "stats tier"},
    {FilterStep::ValueExact, "value-exact tier"},
    {FilterStep::Partition, "partition step"},
})};

// docs/semantics.md §10.4, before every other step: a dataChange=false add is no candidate at all.
ConflictFilterResult filter_data_changes(const LoserReads& loser, const std::vector<CandidateFile>& added,
                                         const StatsEligibility& eligibility, const ConflictFilterOptions& options) {
  if (!options.exclude_no_data_change) return filter(loser, added, eligibility, options);
  std::vector<CandidateFile> changing;
  for (const CandidateFile& file : added) {
    if (file.data_change) changing.push_back(file);
  }
  ConflictFilterResult judged = filter(loser, changing, eligibility, options);
  ConflictFilterResult result;
  result.summary = "dataChange=false adds dropped; " + judged.summary;
  size_t next = 0;
  for (const CandidateFile& file : added) {
    if (file.data_change) {
      result.files.push_back(std::move(judged.files[next++]));
    } else {
      result.files.push_back(CandidateOutcome{file.path, CandidateVerdict::Excluded,
                                              "excluded: dataChange=false", {}, FilterStep::NoDataChange});
    }
  }
  return result;
}

}  // namespace

const char* filter_step_name(FilterStep step) { return kFilterStepNames.name(step); }

ConflictFilterResult filter_conflict_candidates(const LoserReads& loser,
                                                const std::vector<CandidateFile>& added,
                                                const StatsEligibility& eligibility,
                                                const ConflictFilterOptions& options) {
  try {
    return filter_data_changes(loser, added, eligibility, options);
  } catch (const InputError& e) {
    coverage::hit(coverage::Probe::ConflictErrorKeepsAll);
    return every_file(added, CandidateVerdict::Survives,
                      std::string("error, every file kept: ") + e.what());
  } catch (const std::exception& e) {
    coverage::hit(coverage::Probe::ConflictErrorKeepsAll);
    ConflictFilterResult kept = every_file(added, CandidateVerdict::Survives,
                                           std::string("unexpected error, every file kept: ") + e.what());
    kept.unexpected_error = e.what();
    return kept;
  }
}

}  // namespace skipsound
