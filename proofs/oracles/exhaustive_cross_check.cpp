#include "proofs/oracles/exhaustive_cross_check.h"

#include <algorithm>
#include <chrono>
#include <mutex>
#include <random>
#include <sstream>
#include <unordered_set>

#include <nlohmann/json.hpp>

#include "model/sql/binder.h"
#include "model/sql/printer.h"
#include "proofs/common/parallel_trials.h"
#include "smt/oracle.h"
#include "model/values/exact_json.h"

namespace skipsound {
namespace {

using exhaustive::BruteForce;
using exhaustive::StatsQuestion;
using exhaustive::Universe;
using exhaustive::WideReading;

struct Pair {
  size_t question;
  size_t predicate;
};

// Exactly min(wanted, total) of the pairs, each subset equally likely (Floyd's sampling: one draw
// per pair taken, where selection sampling drew once per pair of the universe, millions of them),
// in pair order; the same seed gives the same pairs.
std::vector<Pair> sample_pairs(size_t questions, size_t predicates, size_t wanted, uint64_t seed) {
  const size_t total = questions * predicates;
  std::vector<size_t> chosen;
  if (wanted >= total) {
    for (size_t i = 0; i < total; ++i) chosen.push_back(i);
  } else {
    std::mt19937_64 random(seed);
    std::unordered_set<size_t> taken;
    for (size_t j = total - wanted; j < total; ++j) {
      const size_t t = random() % (j + 1);
      taken.insert(taken.contains(t) ? j : t);
    }
    chosen.assign(taken.begin(), taken.end());
    std::sort(chosen.begin(), chosen.end());
  }
  std::vector<Pair> out;
  for (size_t i : chosen) out.push_back({i / predicates, i % predicates});
  return out;
}

std::string tightness_of(const FileStats& s) {
  if (!s.tight_bounds) return "tight (no tightBounds field)";
  return *s.tight_bounds ? "tight" : "wide";
}

// One universe's comparisons and findings, merged across threads.
struct UniverseRun {
  UniverseTally tally;
  std::map<std::string, size_t> classes;
  std::map<std::string, std::map<size_t, Disagreement>> first;  // by pair index
  std::map<std::string, size_t> unknown_reasons;

  void merge(const UniverseRun& o) {
    tally.comparisons += o.tally.comparisons;
    tally.unsat += o.tally.unsat;
    tally.sat += o.tally.sat;
    tally.unknown += o.tally.unknown;
    tally.wide_over_approximations += o.tally.wide_over_approximations;
    tally.disagreements += o.tally.disagreements;
    for (const auto& [k, n] : o.classes) classes[k] += n;
    for (const auto& [k, n] : o.unknown_reasons) unknown_reasons[k] += n;
    for (const auto& [k, f] : o.first) first[k].insert(f.begin(), f.end());
  }
};

class Comparer {
 public:
  Comparer(const BruteForce& brute, const std::vector<StatsQuestion>& questions, const std::vector<ExprPtr>& predicates,
           size_t examples_per_class)
      : brute_(brute), questions_(questions), predicates_(predicates), examples_per_class_(examples_per_class) {
    const ExprPtr restriction = exhaustive::domain_restriction(brute.universe());
    for (const ExprPtr& p : predicates) restricted_.push_back(skipsound::bind(make_and(p, restriction), brute.schema()));
  }

  void compare(size_t pair_index, const Pair& pair, smt::Oracle& oracle, UniverseRun& run) const {
    const StatsQuestion& q = questions_[pair.question];
    const FileEvidence evidence{&q.stats, q.deleted_rows, {}, brute_.universe().string_prefix_length};
    const smt::OracleResult result = oracle.check(restricted_[pair.predicate], brute_.schema(), evidence);
    ++run.tally.comparisons;
    const ExprPtr& predicate = predicates_[pair.predicate];
    switch (smt::verdict_of(result)) {
      case smt::OracleVerdict::Unknown:
        ++run.tally.unknown;
        ++run.unknown_reasons[smt::describe(result, brute_.schema())];
        return;
      case smt::OracleVerdict::InternalError:
        return record(DisagreementKind::InternalError, pair_index, pair, std::nullopt, result, run);
      case smt::OracleVerdict::ImpossibleStats:
        return record(DisagreementKind::WrittenStatsCalledImpossible, pair_index, pair, std::nullopt, result, run);
      case smt::OracleVerdict::Unsat: {
        ++run.tally.unsat;
        const std::optional<Row> row = brute_.find_row(q, predicate);
        if (row) record(DisagreementKind::UnsoundSkip, pair_index, pair, row, result, run);
        return;
      }
      case smt::OracleVerdict::Sat: {
        ++run.tally.sat;
        if (brute_.find_row(q, predicate)) return;
        if (q.stats.wide() && brute_.find_row(q, predicate, WideReading::Bounds)) {
          ++run.tally.wide_over_approximations;
          return;
        }
        return record(DisagreementKind::FalseAlarm, pair_index, pair, std::nullopt, result, run);
      }
    }
  }

 private:
  void record(DisagreementKind kind, size_t pair_index, const Pair& pair, const std::optional<Row>& row,
              const smt::OracleResult& result, UniverseRun& run) const {
    const StatsQuestion& q = questions_[pair.question];
    const std::string key = std::string(disagreement_name(kind)) + " / " + brute_.universe().name + " / " + tightness_of(q.stats);
    ++run.tally.disagreements;
    ++run.classes[key];
    // Each thread keeps its first few; the merge keeps the first few of all in pair order.
    if (run.first[key].size() >= examples_per_class_) return;
    Disagreement d;
    d.kind = kind;
    d.universe = brute_.universe().name;
    // ASCII-escaped: U+007F and U+10FFFF are invisible on a terminal.
    d.stats_json = dump_json(stats_to_json(q.stats, brute_.schema()), -1, true);
    d.deleted_rows = q.deleted_rows;
    d.predicate = to_sql(predicates_[pair.predicate]);
    d.brute_force = row ? dump_json(row_to_json(*row, brute_.schema()), -1, true) : "no row";
    d.oracle = smt::describe(result, brute_.schema());
    run.first[key].emplace(pair_index, std::move(d));
  }

  const BruteForce& brute_;
  const std::vector<StatsQuestion>& questions_;
  const std::vector<ExprPtr>& predicates_;
  size_t examples_per_class_;
  std::vector<ExprPtr> restricted_;
};

// A universe's questions, predicates and brute force, made before the budget is shared out.
struct UniverseWork {
  const Universe* universe = nullptr;
  std::vector<StatsQuestion> questions;
  std::vector<ExprPtr> predicates;
  std::optional<BruteForce> brute;
  size_t pairs() const { return questions.size() * predicates.size(); }
};

// Enumerating the universes (the writer run on every small file) took most of this cross-check's
// time while it ran on one thread: each universe is now enumerated by whichever thread is free,
// into its own slot.
std::vector<UniverseWork> enumerate_universes(const std::vector<Universe>& universes, const ExhaustiveOptions& o) {
  std::vector<UniverseWork> work(universes.size());
  parallel::for_each_index(o.threads, universes.size(), [&](size_t u) {
    work[u] = {&universes[u], exhaustive::enumerate_questions(universes[u], o.writer_break),
               exhaustive::enumerate_predicates(universes[u]), std::nullopt};
    work[u].brute.emplace(universes[u], o.writer_break);
  });
  return work;
}

// The budget shared equally, a small universe's unused share going to the larger ones.
std::vector<size_t> shares(const std::vector<UniverseWork>& work, size_t budget) {
  std::vector<size_t> order(work.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return work[a].pairs() < work[b].pairs(); });
  std::vector<size_t> out(work.size(), 0);
  size_t left = budget;
  for (size_t k = 0; k < order.size(); ++k) {
    const size_t fair = left / (order.size() - k);
    out[order[k]] = std::min(work[order[k]].pairs(), fair);
    left -= out[order[k]];
  }
  return out;
}

UniverseRun run_universe(const UniverseWork& work, size_t wanted, uint64_t seed, const ExhaustiveOptions& o) {
  const std::vector<Pair> pairs = sample_pairs(work.questions.size(), work.predicates.size(), wanted, seed);
  const Comparer comparer(*work.brute, work.questions, work.predicates, o.examples_per_class);

  // Each thread compares with an oracle and a tally of its own, taking pairs in index order; a
  // thread that throws stops the others and the exception reaches the caller.
  struct Comparing {
    smt::Oracle oracle;
    UniverseRun run;
  };
  parallel::Workers<Comparing> workers(o.threads, [] { return std::make_unique<Comparing>(); });
  workers.run(pairs.size(), [&](size_t i, Comparing& c) { comparer.compare(i, pairs[i], c.oracle, c.run); });

  UniverseRun merged;
  merged.tally.name = work.universe->name;
  merged.tally.questions = work.questions.size();
  merged.tally.predicates = work.predicates.size();
  for (size_t w = 0; w < workers.size(); ++w) merged.merge(workers.state(w).run);
  return merged;
}

}  // namespace

const char* disagreement_name(DisagreementKind k) {
  switch (k) {
    case DisagreementKind::UnsoundSkip: return "unsound skip";
    case DisagreementKind::FalseAlarm: return "false alarm";
    case DisagreementKind::InternalError: return "internal error";
    case DisagreementKind::WrittenStatsCalledImpossible: return "written stats called impossible";
  }
  return "?";
}

namespace {

size_t total(const std::vector<UniverseTally>& universes, size_t UniverseTally::*count) {
  size_t n = 0;
  for (const UniverseTally& u : universes) n += u.*count;
  return n;
}

}  // namespace

size_t ExhaustiveReport::comparisons() const { return total(universes, &UniverseTally::comparisons); }
size_t ExhaustiveReport::disagreements() const { return total(universes, &UniverseTally::disagreements); }
size_t ExhaustiveReport::unknowns() const { return total(universes, &UniverseTally::unknown); }
size_t ExhaustiveReport::wide_over_approximations() const {
  return total(universes, &UniverseTally::wide_over_approximations);
}

ExhaustiveReport run_exhaustive_cross_check(const ExhaustiveOptions& o) {
  const auto start = std::chrono::steady_clock::now();
  const std::vector<Universe> universes = o.universes.empty() ? exhaustive::standard_universes() : o.universes;
  ExhaustiveReport report;
  report.seed = o.seed;
  const std::vector<UniverseWork> work = enumerate_universes(universes, o);
  const std::vector<size_t> budget = shares(work, o.comparisons);
  for (size_t u = 0; u < work.size(); ++u) {
    UniverseRun run = run_universe(work[u], budget[u], o.seed * 0x9E3779B97F4A7C15ULL + u, o);
    report.universes.push_back(run.tally);
    for (const auto& [k, n] : run.classes) report.disagreement_classes[k] += n;
    for (const auto& [k, n] : run.unknown_reasons) report.unknown_reasons[k] += n;
    for (auto& [k, f] : run.first) {
      for (auto& [index, d] : f) {
        if (report.examples[k].size() < o.examples_per_class) report.examples[k].push_back(std::move(d));
      }
    }
    if (run.tally.disagreements && !report.first_disagreement_seconds) {
      report.first_disagreement_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (o.stop_at_first_disagreement) break;
    }
  }
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

std::string exhaustive_summary_text(const ExhaustiveReport& r) {
  std::ostringstream out;
  out << "bounded exhaustive cross-check: seed " << r.seed << ", " << r.comparisons() << " comparisons, "
      << r.disagreements() << " disagreements, " << r.unknowns() << " unknown, " << r.wide_over_approximations()
      << " wide over-approximations, " << static_cast<int>(r.seconds * 10) / 10.0 << " s\n";
  for (const UniverseTally& u : r.universes) {
    out << "  " << u.name << ": " << u.questions << " stats x " << u.predicates << " predicates, " << u.comparisons
        << " compared: " << u.unsat << " unsat, " << u.sat << " sat, " << u.unknown << " unknown, "
        << u.wide_over_approximations << " wide over-approx, " << u.disagreements << " disagreements\n";
  }
  for (const auto& [key, n] : r.disagreement_classes) {
    out << "DISAGREEMENT " << key << " x" << n << "\n";
    for (const Disagreement& d : r.examples.at(key)) {
      out << "  stats:       " << d.stats_json << (d.deleted_rows ? ", DV deletes " + std::to_string(d.deleted_rows) : "") << "\n"
          << "  predicate:   " << d.predicate << "\n"
          << "  brute force: " << d.brute_force << "\n"
          << "  oracle:      " << d.oracle << "\n";
    }
  }
  for (const auto& [reason, n] : r.unknown_reasons) out << "UNKNOWN x" << n << ": " << reason << "\n";
  return out.str();
}

}  // namespace skipsound
