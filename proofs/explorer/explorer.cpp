#include "proofs/explorer/explorer.h"

#include <algorithm>
#include <limits>
#include <memory>

#include "checker/conflict_filter.h"
#include "checker/scan_planner.h"
#include "model/sql/evaluator.h"
#include "model/values/input_error.h"
#include "model/sql/printer.h"
#include "model/table/deletion_vector.h"
#include "model/table/random_draws.h"
#include "proofs/common/oracle_config.h"
#include "proofs/scenario/interleaving_report.h"
#include "proofs/common/parallel_trials.h"
#include "proofs/scenario/scenario.h"

namespace skipsound {

namespace {

using generators::World;
using generators::WorldCategory;

constexpr int kGenerationSize = 50;
constexpr size_t kChunk = 32;  // trials between progress reports, early stops and time checks

// ---- the Z3 side: every conflict-time skip must be proved ----

// What the loser is taken to have read (docs/semantics.md §5.7): a whole-table read, or no recorded predicate on
// an unpartitioned table, reads everything; a partitioned table's loser without predicates has
// no append conflict, so nothing needs proving.
std::vector<ExprPtr> reads_to_prove(const Transaction& loser, const Table& snapshot) {
  const ExprPtr everything = make_literal(Value::boolean(true));
  if (loser.reads.whole_table) return {everything};
  if (loser.reads.predicates.empty()) {
    return snapshot.properties().partitioned() ? std::vector<ExprPtr>{} : std::vector<ExprPtr>{everything};
  }
  std::vector<ExprPtr> reads;
  for (const ExprPtr& p : loser.reads.predicates) reads.push_back(p ? p : everything);
  return reads;
}

FileEvidence evidence_of(const CandidateFile& file, const Schema& schema, const StatsConfig& config) {
  FileEvidence evidence{file.stats, file.dv_cardinality, {}, config.string_prefix_length};
  for (const std::string& column : config.partition_columns) {
    if (const Leaf* leaf = schema.find_leaf({column})) {
      evidence.partition_values[leaf->ordinal] = file.partition_values.at(leaf->ordinal);
    }
  }
  return evidence;
}

// A live row of a winner's added file that one of the loser's reads makes TRUE, by the model's
// evaluator (a read it cannot evaluate proves nothing either way).
struct LiveMatch {
  ExprPtr read;
  uint32_t position = 0;
};

std::optional<LiveMatch> live_row_matching_a_read(const CandidateFile& file, const std::vector<ExprPtr>& reads) {
  if (!file.rows || !file.deleted) return std::nullopt;
  for (uint32_t position = 0; position < file.rows->size(); ++position) {
    if (std::binary_search(file.deleted->begin(), file.deleted->end(), position)) continue;
    for (const ExprPtr& read : reads) {
      try {
        if (evaluate(*read, (*file.rows)[position]) == Truth::True) return LiveMatch{read, position};
      } catch (const NotEvaluable&) {
      }
    }
  }
  return std::nullopt;
}

WrongExclusion live_exclusion(size_t loser, size_t winner, const CandidateFile& file, const LiveMatch& match) {
  return WrongExclusion{loser, winner, file.path, to_sql(match.read), (*file.rows)[match.position],
                        "live row " + std::to_string(match.position) + " of " + file.path};
}

// A missed conflict's culprit, when it is a file: the first winner-added file a check of the
// loser's attempt excluded although one of its live rows matches a read of the loser.
std::optional<WrongExclusion> excluded_file_with_a_matching_row(const ScenarioRun& run, size_t loser_index) {
  for (const CommitAttempt& attempt : run.schedule.attempts) {
    if (attempt.transaction != loser_index) continue;
    const Transaction& loser = run.transactions[loser_index];
    const std::vector<ExprPtr> reads = reads_to_prove(loser, run.schedule.at_version(loser.snapshot_version));
    for (size_t k = 0; k < attempt.checks.size(); ++k) {
      if (!attempt.checks[k].append) continue;
      const AppendCheck& check = *attempt.checks[k].append;
      for (size_t i = 0; i < check.added.size(); ++i) {
        if (check.filtered.files[i].verdict != CandidateVerdict::Excluded) continue;
        if (const auto match = live_row_matching_a_read(check.added[i], reads)) {
          return live_exclusion(loser_index, attempt.winners[k], check.added[i], *match);
        }
      }
    }
  }
  return std::nullopt;
}

// Appends a finding; the first one gives the trial its verdict and headline.
void add_finding(TrialResult& result, TrialVerdict verdict, RunFinding finding) {
  if (result.verdict == TrialVerdict::Sound) {
    result.verdict = verdict;
    result.headline = finding.headline;
  }
  result.findings.push_back(std::move(finding));
}

// The row the oracle answered with, when its answer has one.
std::optional<Row> witness_of(const smt::OracleResult& answer) {
  if (const auto* sat = std::get_if<smt::Sat>(&answer)) return sat->witness;
  if (const auto* error = std::get_if<smt::InternalError>(&answer)) return error->witness;
  return std::nullopt;
}

void flag_unjustified_skip(TrialResult& result, const std::string& headline, const std::string& detail,
                           WrongExclusion exclusion) {
  add_finding(result, TrialVerdict::UnjustifiedSkip, RunFinding{headline, detail, std::nullopt, false, std::move(exclusion)});
  result.report += detail + "\n";
}

void prove_skips(const ScenarioRun& run, smt::Oracle& oracle, CrossChecker* cross_check,
                 TrialResult& result) {
  for (const CommitAttempt& attempt : run.schedule.attempts) {
    const Transaction& loser = run.transactions[attempt.transaction];
    const Table& snapshot = run.schedule.at_version(loser.snapshot_version);
    const Schema& schema = snapshot.schema();
    for (size_t k = 0; k < attempt.checks.size(); ++k) {
      if (!attempt.checks[k].append) continue;
      const Transaction& winner = run.transactions[attempt.winners[k]];
      const AppendCheck& check = *attempt.checks[k].append;
      for (size_t i = 0; i < check.added.size(); ++i) {
        const CandidateOutcome& decided = check.filtered.files[i];
        if (decided.verdict != CandidateVerdict::Excluded) continue;
        // A dataChange=false exclusion (docs/semantics.md §10.4) has no per-file proof: the serial oracle judges it.
        if (decided.decided_by == FilterStep::NoDataChange) continue;
        if (decided.decided_by == FilterStep::ValueExact) {
          ++result.skip_checks;
          if (const auto match = live_row_matching_a_read(check.added[i], reads_to_prove(loser, snapshot))) {
            flag_unjustified_skip(result,
                                  "UNJUSTIFIED SKIP: " + loser.name + "'s check against " + winner.name +
                                      " dropped " + decided.path + " by its rows, but a live row matches " +
                                      to_sql(match->read),
                                  "unjustified value-exact skip of " + decided.path + ": " + decided.reason,
                                  live_exclusion(attempt.transaction, attempt.winners[k], check.added[i], *match));
          } else {
            ++result.proved_skips;
          }
          continue;
        }
        const FileEvidence evidence = evidence_of(check.added[i], schema, snapshot.properties().stats);
        for (const ExprPtr& read : reads_to_prove(loser, snapshot)) {
          ++result.skip_checks;
          const smt::OracleResult answer = oracle.check(read, schema, evidence);
          const smt::OracleVerdict verdict = smt::verdict_of(answer);
          if (cross_check) cross_check->check(oracle.last_smt2(), verdict, "conflict-skip-" + decided.path);
          if (verdict == smt::OracleVerdict::Unsat) ++result.proved_skips;
          if (const auto* unknown = std::get_if<smt::Unknown>(&answer)) ++result.z3_unknowns[unknown->reason];
          // Impossible stats are a finding here: the model's own writer wrote them.
          if (verdict != smt::OracleVerdict::Sat && verdict != smt::OracleVerdict::InternalError &&
              verdict != smt::OracleVerdict::ImpossibleStats)
            continue;
          flag_unjustified_skip(result,
                                "UNJUSTIFIED SKIP: " + loser.name + "'s check against " + winner.name + " excluded " +
                                    decided.path + ", but Z3 finds a row it can hold matching " + to_sql(read),
                                "unjustified skip of " + decided.path + " (" + loser.name + " checked against " +
                                    winner.name + ", read " + to_sql(read) + "): " + decided.reason +
                                    "; Z3: " + smt::describe(answer, schema),
                                WrongExclusion{attempt.transaction, attempt.winners[k], decided.path, to_sql(read),
                                               witness_of(answer), "Z3"});
        }
      }
    }
  }
}

// ---- the shapes a trial really contained (asserted by the tests per category) ----

// A predicate one row cannot decide (rand(), a subquery) counts as holding.
bool is_true(const ExprPtr& p, const Row& row) {
  try {
    return evaluate(*p, row) == Truth::True;
  } catch (const NotEvaluable&) {
    return true;
  }
}

// An UPDATE or MERGE whose new image of a row flips another transaction's predicate.
bool moves_value_across(const ScenarioRun& run, const Table& snapshot) {
  std::map<int64_t, Row> before;
  for (const Row& row : snapshot.live_rows()) {
    if (!row[0].is_null()) before[row[0].as_int()] = row;
  }
  for (size_t a = 0; a < run.transactions.size(); ++a) {
    for (const TableFile& added : run.transactions[a].commit.adds) {
      for (const Row& image : added.live_rows()) {
        const auto old = before.find(image[0].is_null() ? -1 : image[0].as_int());
        if (old == before.end() || old->second == image) continue;
        for (size_t b = 0; b < run.transactions.size(); ++b) {
          if (b == a) continue;
          for (const ExprPtr& p : run.transactions[b].reads.predicates) {
            if (p && is_true(p, old->second) != is_true(p, image)) return true;
          }
        }
      }
    }
  }
  return false;
}

bool two_read_the_same_row(const ScenarioRun& run, const Table& snapshot) {
  for (const Row& row : snapshot.live_rows()) {
    size_t readers = 0;
    for (const Transaction& t : run.transactions) {
      const auto& ps = t.reads.predicates;
      if (std::any_of(ps.begin(), ps.end(), [&](const ExprPtr& p) { return !p || is_true(p, row); })) ++readers;
    }
    if (readers >= 2) return true;
  }
  return false;
}

// The positions a transaction newly deleted from `path` with a DV (its add's DV minus its
// remove's), when it rewrote that path so; nullopt otherwise.
std::optional<DeletedRows> new_deletions(const Transaction& t, const std::string& path) {
  const auto remove = std::find_if(t.commit.removes.begin(), t.commit.removes.end(),
                                   [&](const FileRemoval& r) { return r.path == path; });
  const auto add = std::find_if(t.commit.adds.begin(), t.commit.adds.end(),
                                [&](const TableFile& f) { return f.path == path; });
  if (remove == t.commit.removes.end() || add == t.commit.adds.end()) return std::nullopt;
  return dv_minus(add->deleted, remove->deleted);
}

// docs/semantics.md §10.2: two transactions that both changed one file's DV, on disjoint new
// positions or on a shared one.
void same_file_shapes(const ScenarioRun& run, std::vector<std::string>& shapes) {
  bool disjoint = false, overlap = false;
  for (size_t a = 0; a < run.transactions.size(); ++a) {
    for (const FileRemoval& removed : run.transactions[a].commit.removes) {
      const std::optional<DeletedRows> mine = new_deletions(run.transactions[a], removed.path);
      if (!mine) continue;
      for (size_t b = a + 1; b < run.transactions.size(); ++b) {
        const std::optional<DeletedRows> theirs = new_deletions(run.transactions[b], removed.path);
        if (!theirs) continue;
        (dv_intersection(*mine, *theirs).empty() ? disjoint : overlap) = true;
      }
    }
  }
  if (disjoint) shapes.push_back("same-file-disjoint");
  if (overlap) shapes.push_back("same-file-overlap");
}

bool has_operation(const Transaction& t, OperationKind kind) {
  return std::any_of(t.operations.begin(), t.operations.end(), [&](const Operation& op) { return op.kind == kind; });
}

// docs/semantics.md §10.2-§10.4's shapes: a DV rewrite that also wrote new image files; a
// dataChange=false file; a re-added DV that lost positions (a shrinking RESTORE); a Case 2
// candidate that is not row-local (a MERGE with a NOT MATCHED clause, a condition with a subquery
// or rand(), rewriting a DV) and one that is although it is a MERGE (WHEN MATCHED clauses only).
void row_level_shapes(const ScenarioRun& run, std::vector<std::string>& shapes) {
  bool image = false, no_data_change = false, shrinks = false, non_local = false, matched_only_merge = false;
  bool subquery = false, random = false;
  for (const Transaction& t : run.transactions) {
    bool rewrote_dv = false, new_file = false;
    for (const TableFile& added : t.commit.adds) {
      no_data_change = no_data_change || !added.data_change;
      const auto removed = std::find_if(t.commit.removes.begin(), t.commit.removes.end(),
                                        [&](const FileRemoval& r) { return r.path == added.path; });
      if (removed == t.commit.removes.end()) {
        new_file = true;
        continue;
      }
      rewrote_dv = rewrote_dv || !added.deleted.empty();
      shrinks = shrinks || !dv_minus(removed->deleted, added.deleted).empty();
    }
    image = image || (rewrote_dv && new_file && (has_operation(t, OperationKind::Update) || has_operation(t, OperationKind::Merge)));
    const auto merges = [&](bool matched_only) {
      return std::any_of(t.operations.begin(), t.operations.end(), [&](const Operation& op) {
        return op.kind == OperationKind::Merge && op.merge.matched_only() == matched_only;
      });
    };
    const auto conditions = [&](auto holds) {
      return std::any_of(t.operations.begin(), t.operations.end(),
                         [&](const Operation& op) { return op.condition && holds(op.condition); });
    };
    non_local = non_local || (rewrote_dv && merges(false));
    matched_only_merge = matched_only_merge || (rewrote_dv && merges(true));
    subquery = subquery || (rewrote_dv && conditions([](const ExprPtr& c) { return contains_subquery(*c); }));
    random = random || (rewrote_dv && conditions([](const ExprPtr& c) { return draws_random(c); }));
  }
  if (image) shapes.push_back("image-file");
  if (no_data_change) shapes.push_back("no-data-change");
  if (shrinks) shapes.push_back("dv-shrinks");
  if (non_local) shapes.push_back("non-local-loser");
  if (matched_only_merge) shapes.push_back("matched-only-merge");
  if (subquery) shapes.push_back("subquery-loser");
  if (random) shapes.push_back("random-loser");
}

std::vector<std::string> shapes_of(const ScenarioRun& run, const Scenario& scenario, const World& world) {
  std::vector<std::string> shapes;
  const auto add_if = [&](bool holds, const char* shape) { if (holds) shapes.push_back(shape); };
  const auto any_txn = [&](auto pred) { return std::any_of(run.transactions.begin(), run.transactions.end(), pred); };
  add_if(moves_value_across(run, scenario.table), "value-moving");
  add_if(two_read_the_same_row(run, scenario.table), "shared-row");
  add_if(any_txn([](const Transaction& t) { return t.reads.predicates.size() >= 2; }), "multi-read");
  add_if(any_txn([](const Transaction& t) {
           return t.reads.whole_table || std::any_of(t.reads.predicates.begin(), t.reads.predicates.end(),
                                                      [](const ExprPtr& p) { return !p; });
         }), "whole-table-read");
  add_if(any_txn([](const Transaction& t) {
           return !t.commit.is_blind_append() && !t.commit.adds.empty() && t.reads.predicates.empty() &&
                  !t.reads.whole_table;
         }), "empty-reads");
  add_if(any_txn([](const Transaction& t) {
           return std::any_of(t.commit.adds.begin(), t.commit.adds.end(),
                              [](const TableFile& f) { return !f.deleted.empty(); });
         }), "wide-dv-add");
  const auto& files = scenario.table.files();
  add_if(world.num_indexed_cols < 2 || std::any_of(files.begin(), files.end(), [](const TableFile& f) { return !f.stats; }) ||
             any_txn([](const Transaction& t) { return t.settings.stats == StatsPresence::Missing; }),
         "missing-stats");
  add_if(scenario.table.properties().partitioned(), "partitioned");
  same_file_shapes(run, shapes);
  row_level_shapes(run, shapes);
  add_if(std::all_of(run.verdicts.begin(), run.verdicts.end(),
                     [](const TransactionVerdict& v) { return v.kind == VerdictKind::SerializableCommit; }),
         "all-committed");
  return shapes;
}

std::string expect_line(const std::string& name, const TransactionVerdict& v) {
  return "expect " + name + ": " + expected_verdict_text(ExpectedVerdict{v.kind, v.exception, std::nullopt, std::nullopt});
}

}  // namespace

smt::OracleOptions skip_oracle_options(bool recording) {
  smt::OracleOptions options;
  options.record_smt2 = recording;
  options.intervals_first = !recording;
  options.interval_cross_check_stride = kIntervalCrossCheckStride;
  return options;
}

const char* trial_verdict_name(TrialVerdict v) {
  switch (v) {
    case TrialVerdict::Sound: return "sound";
    case TrialVerdict::WrongResult: return "WRONG RESULT";
    case TrialVerdict::MissedConflict: return "MISSED CONFLICT";
    case TrialVerdict::UnjustifiedSkip: return "UNJUSTIFIED SKIP";
    case TrialVerdict::InternalError: return "INTERNAL ERROR";
    case TrialVerdict::LogReadBack: return "LOG READ-BACK";
    case TrialVerdict::UnsoundStats: return "UNSOUND STATS";
    case TrialVerdict::Discarded: return "discarded";
  }
  return "?";
}

TrialResult judge_run(const ScenarioRun& run, smt::Oracle& oracle, CrossChecker* cross_check) {
  TrialResult result;
  const auto found = [&](TrialVerdict verdict, std::string headline, std::optional<size_t> transaction = std::nullopt) {
    add_finding(result, verdict, RunFinding{std::move(headline), "", transaction});
  };
  for (const TransactionVerdict& v : run.verdicts) {
    ++result.attempts;
    const std::string& name = run.transactions[v.transaction].name;
    result.expect_lines.push_back(expect_line(name, v));
    if (v.exception) {
      ++result.aborts[exception_name(*v.exception)];
    } else {
      ++result.commits;
    }
    if (v.kind == VerdictKind::FalseConflict) ++result.false_conflicts;
    if (v.kind == VerdictKind::WrongResult) {
      ++result.wrong_results;
      found(TrialVerdict::WrongResult, "WRONG RESULT: " + name + " committed actions its operations do not give on its snapshot",
            v.transaction);
    }
    if (v.kind == VerdictKind::MissedConflict) {
      ++result.missed_conflicts;
      add_finding(result, TrialVerdict::MissedConflict,
                  RunFinding{"MISSED CONFLICT: " + name + " committed, and no serial order gives its outcome", "",
                             v.transaction, false, excluded_file_with_a_matching_row(run, v.transaction)});
    }
  }
  result.unexpected_errors = unexpected_errors(run.schedule, run.transactions);
  for (const std::string& error : result.unexpected_errors) {
    found(TrialVerdict::InternalError,
          "INTERNAL ERROR: the conflict filter kept every file after an unexpected exception (" + error + ")");
  }
  for (const std::string& problem : run.schedule.log_problems) {
    found(TrialVerdict::LogReadBack, "LOG READ-BACK: the Delta log replays differently from the model's table at " + problem);
  }
  for (const LiveStatsFinding& f : run.stats_audit) {
    found(TrialVerdict::UnsoundStats, "UNSOUND STATS: the stats of " + f.text);
  }
  prove_skips(run, oracle, cross_check, result);
  return result;
}

ScenarioRun run_judged_scenario(const Scenario& scenario, smt::Oracle& oracle) {
  ScenarioRun run = run_scenario(scenario);
  run.findings = judge_run(run, oracle).findings;
  for (RunFinding& finding : run.findings) {
    // A transaction's `expect` line judges its own verdict (run_scenario compared them).
    finding.expected = scenario.findings == FindingExpectation::Killed ||
                       (finding.transaction && scenario.expected.count(*finding.transaction));
    if (!finding.expected) run.mismatches.push_back(finding.headline);
  }
  if (scenario.findings == FindingExpectation::Killed && run.findings.empty()) {
    run.mismatches.push_back("expect mutant: killed, but the run (mutant " +
                             std::string(mutant_name(scenario.mutant)) + ") shows no finding");
  }
  return run;
}

TrialResult run_trial(const World& world, Mutant mutant, smt::Oracle& oracle, bool with_report,
                      CrossChecker* cross_check) {
  Scenario scenario;
  ScenarioRun run;
  try {
    scenario = world_scenario(world, mutant);
    run = run_scenario(scenario);
  } catch (const InputError& e) {
    TrialResult discarded;
    discarded.verdict = TrialVerdict::Discarded;
    discarded.headline = e.what();
    return discarded;
  }
  TrialResult result = judge_run(run, oracle, cross_check);
  result.flags = world.flags;
  result.shapes = shapes_of(run, scenario, world);
  if (with_report) {
    result.report = render_report(scenario, run) + result.report;
    run.findings = result.findings;
    result.shown = std::make_shared<const JudgedRun>(JudgedRun{std::move(scenario), std::move(run)});
  }
  return result;
}

// ---- category statistics ----

size_t CategoryStats::abort_count() const {
  size_t n = 0;
  for (const auto& [name, count] : aborts) n += count;
  return n;
}

size_t CategoryStats::unknown_count() const {
  size_t n = 0;
  for (const auto& [reason, count] : z3_unknowns) n += count;
  return n;
}

double CategoryStats::false_conflict_rate() const {
  const size_t n = abort_count();
  return n == 0 ? 0.0 : static_cast<double>(false_conflicts) / static_cast<double>(n);
}

double CategoryStats::trials_per_second() const { return seconds > 0 ? trials / seconds : 0.0; }

void CategoryStats::add(const TrialResult& r) {
  ++trials;
  if (r.verdict == TrialVerdict::Discarded && discarded++ == 0) first_discard = r.headline;
  if (r.verdict == TrialVerdict::UnjustifiedSkip) ++unjustified_skips;
  attempts += r.attempts;
  commits += r.commits;
  false_conflicts += r.false_conflicts;
  missed_conflicts += r.missed_conflicts;
  wrong_results += r.wrong_results;
  if (first_unexpected_error.empty() && !r.unexpected_errors.empty()) first_unexpected_error = r.unexpected_errors.front();
  unexpected_errors += r.unexpected_errors.size();
  skip_checks += r.skip_checks;
  proved_skips += r.proved_skips;
  for (const auto& [reason, count] : r.z3_unknowns) z3_unknowns[reason] += count;
  for (const auto& [name, count] : r.aborts) aborts[name] += count;
  for (const std::string& shape : r.shapes) ++shapes[shape];
  if (r.verdict == TrialVerdict::Discarded) return;
  for (generators::Tier tier : generators::all_tiers()) {
    TierSplit::Side& side = tiers[static_cast<size_t>(tier)].side[generators::tier_on(r.flags, tier)];
    ++side.trials;
    side.attempts += r.attempts;
    side.false_conflicts += r.false_conflicts;
  }
}

// ---- the exploration loop ----

namespace {

rc::Shrinkable<World> generate(WorldCategory category, uint64_t seed) {
  parallel::require_generation_thread();
  return generators::world(category)(rc::Random(seed), kGenerationSize);
}

// Delta debugging on what RapidCheck's shrink tree cannot drop without redrawing everything
// after it: a transaction, a history step, an initial file, a row. Candidate worlds whose
// scenario no longer parses or runs (a dropped file an OPTIMIZE FILES names) are discarded
// trials, never failures, so they are not kept.
World without_transaction(World w, size_t t) {
  w.transactions.erase(w.transactions.begin() + static_cast<std::ptrdiff_t>(t));
  std::erase(w.commit_order, t);
  for (size_t& i : w.commit_order) i -= i > t ? 1 : 0;
  if (w.late_start == t) w.late_start.reset();
  if (w.late_start > t) --*w.late_start;
  if (w.late_start && w.commit_order.front() == *w.late_start) w.late_start.reset();  // never the first to commit
  return w;
}

World without_row(World w, size_t f, size_t r) {
  generators::WorldFile& file = w.files[f];
  file.rows.erase(file.rows.begin() + static_cast<std::ptrdiff_t>(r));
  std::erase(file.deleted, static_cast<int>(r));
  for (int& d : file.deleted) d -= d > static_cast<int>(r) ? 1 : 0;
  if (file.rows.empty()) w.files.erase(w.files.begin() + static_cast<std::ptrdiff_t>(f));
  return w;
}

World without_step(World w, size_t s) {
  w.history.erase(w.history.begin() + static_cast<std::ptrdiff_t>(s));
  return w;
}

// The smaller worlds to try, largest cut first.
std::vector<World> structural_cuts(const World& w) {
  std::vector<World> cuts;
  if (w.transactions.size() > 1) {
    for (size_t t = 0; t < w.transactions.size(); ++t) cuts.push_back(without_transaction(w, t));
  }
  for (size_t s = 0; s < w.history.size(); ++s) cuts.push_back(without_step(w, s));
  for (size_t f = 0; f < w.files.size(); ++f) {
    if (w.files.size() > 1) {
      World without = w;
      without.files.erase(without.files.begin() + static_cast<std::ptrdiff_t>(f));
      cuts.push_back(std::move(without));
    }
    for (size_t r = 0; r < w.files[f].rows.size(); ++r) {
      if (w.files[f].rows.size() > 1) cuts.push_back(without_row(w, f, r));
    }
  }
  return cuts;
}

World shrink_structure(World world, size_t trial_limit, const std::function<bool(const World&)>& still_fails,
                       size_t& steps) {
  size_t tried = 0;
  for (bool progressed = true; progressed && tried < trial_limit;) {
    progressed = false;
    for (World& cut : structural_cuts(world)) {
      if (++tried > trial_limit) break;
      if (still_fails(cut)) {
        world = std::move(cut);
        ++steps;
        progressed = true;
        break;
      }
    }
  }
  return world;
}

// A saved finding's comments: its headline first, where it came from, what it observed. The file
// itself expects what must happen (`expect findings: none`), so it fails while the bug is there.
std::string finding_header(const TrialResult& shown, uint64_t seed, size_t shrink_steps, Mutant mutant) {
  std::string header = "# " + shown.headline + "\n# found by the explorer (seed " + std::to_string(seed) + ", " +
                       std::to_string(shrink_steps) + " shrink steps" +
                       (mutant == Mutant::None ? "" : std::string(", mutant ") + mutant_name(mutant)) +
                       "); replay: skipsound replay FILE (or skipsound scenario FILE)\n"
                       "# It fails while the finding is there: it expects what must happen, not what happened";
  header += mutant == Mutant::None ? ".\n" : "; `--mutant none` replays it on the sound checker.\n";
  header += "# Observed:\n";
  for (const std::string& line : shown.expect_lines) header += "#   " + line + "\n";
  for (const RunFinding& finding : shown.findings) header += "#   " + finding.headline + "\n";
  return header;
}

// The failing world shrunk greedily, then structurally, rendered and saved as a replayable scenario.
InterleavingFinding shrink_finding(WorldCategory category, uint64_t seed, Mutant mutant, smt::Oracle& oracle,
                                   size_t trial_limit) {
  rc::Shrinkable<World> failing_world = generate(category, seed);
  TrialResult failing = run_trial(failing_world.value(), mutant, oracle);
  const auto still_fails = [&](const World& world) {
    TrialResult r = run_trial(world, mutant, oracle);
    if (!is_finding(r.verdict)) return false;
    failing = std::move(r);
    return true;
  };
  auto shrunk = parallel::shrink_greedily(std::move(failing_world), trial_limit, still_fails);
  const World minimal = shrink_structure(shrunk.minimal.value(), trial_limit, still_fails, shrunk.steps);
  const TrialResult shown = run_trial(minimal, mutant, oracle, true);
  InterleavingFinding finding;
  finding.category = category;
  finding.seed = seed;
  finding.verdict = shown.verdict;
  finding.headline = shown.headline.empty() ? failing.headline : shown.headline;
  finding.report = shown.report;
  finding.shrunk = shown.shown;
  finding.shrink_steps = shrunk.steps;
  finding.scenario_text = finding_header(shown, seed, shrunk.steps, mutant) +
                          world_scenario_text(minimal, mutant, {"expect findings: none"});
  return finding;
}

// One worker's oracles, reused across chunks and categories. The conflict-time skip queries are in
// the interval procedure's fragment (comparisons, IN and ranges on id, x and p): it answers them
// (skip_oracle_options). With a second solver, one trial in kCrossCheckTrialStride (by trial
// index, so the same seed re-asks the same trials whatever the threads) goes to Z3 alone with its
// query text kept, and the second solver re-asks those queries.
struct TrialOracles {
  explicit TrialOracles(bool cross_checked) : fast(skip_oracle_options()) {
    if (cross_checked) recording.emplace(skip_oracle_options(true));
  }
  smt::Oracle fast;
  std::optional<smt::Oracle> recording;
};
using Workers = parallel::Workers<TrialOracles>;

bool cross_checked_trial(const ExploreOptions& options, size_t global_index) {
  return options.cross_check && global_index % kCrossCheckTrialStride == 0;
}

CategoryResult explore_category(WorldCategory category, const ExploreOptions& options, Workers& workers,
                                const ExploreProgress& progress) {
  CategoryResult result;
  result.category = category;
  const parallel::Stopwatch clock;
  const size_t planned = options.seconds_per_category ? std::numeric_limits<size_t>::max() : options.trials_per_category;
  const size_t shard_count = std::max<size_t>(1, options.shard.count);
  const auto global_index = [&](size_t local) { return (options.first_trial + local) * shard_count + options.shard.index; };
  std::optional<size_t> first_failure;  // local index
  double seconds_at_failure = 0;
  struct Indexed {
    size_t global;
    World world;
  };
  const auto draw = [&](size_t local) {
    const size_t global = global_index(local);
    return Indexed{global, generate(category, trial_seed(options.seed, category, global)).value()};
  };
  const auto run = [&](const Indexed& in, TrialOracles& oracles) {
    if (!cross_checked_trial(options, in.global)) return run_trial(in.world, options.mutant, oracles.fast);
    return run_trial(in.world, options.mutant, *oracles.recording, false, options.cross_check);
  };
  const auto merge = [&](size_t local, TrialResult&& trial) {
    result.stats.add(trial);
    if (!is_finding(trial.verdict)) return true;
    ++result.failing_trials;
    if (!first_failure) {
      first_failure = local;
      seconds_at_failure = clock.seconds();
    }
    return !options.stop_at_first_finding;
  };
  const auto report = [&](size_t done) {
    if (progress) progress(category, done, options.seconds_per_category ? 0 : planned);
  };
  const parallel::TrialBudget budget{planned, options.seconds_per_category, kChunk, options.stop_at_first_finding};
  parallel::run_trials(workers, budget, draw, run, merge, report);
  result.stats.seconds = clock.seconds();
  if (first_failure) {
    const size_t global = global_index(*first_failure);
    InterleavingFinding finding = shrink_finding(category, trial_seed(options.seed, category, global), options.mutant,
                                                 workers.state(0).fast, options.shrink_trial_limit);
    finding.global_index = global;
    finding.trials_to_find = *first_failure + 1;
    finding.seconds_to_find = seconds_at_failure;
    result.finding = std::move(finding);
  }
  return result;
}

}  // namespace

std::vector<CategoryResult> explore(const ExploreOptions& options, const ExploreProgress& progress) {
  Workers workers(options.threads, [&] { return std::make_unique<TrialOracles>(options.cross_check != nullptr); });
  const std::vector<WorldCategory>& categories =
      options.categories.empty() ? generators::all_world_categories() : options.categories;
  std::vector<CategoryResult> results;
  for (WorldCategory category : categories) {
    results.push_back(explore_category(category, options, workers, progress));
    if (options.stop_at_first_finding && results.back().finding) break;
  }
  return results;
}

generators::World trial_world(uint64_t master_seed, WorldCategory category, size_t global_index) {
  return generate(category, trial_seed(master_seed, category, global_index)).value();
}

generators::World shrink_trial_world(uint64_t master_seed, WorldCategory category, size_t global_index,
                                     size_t trial_limit, const std::function<bool(const World&)>& still_fails,
                                     size_t& steps) {
  auto shrunk = parallel::shrink_greedily(generate(category, trial_seed(master_seed, category, global_index)),
                                          trial_limit, still_fails);
  steps = shrunk.steps;
  return shrink_structure(shrunk.minimal.value(), trial_limit, still_fails, steps);
}

}  // namespace skipsound
