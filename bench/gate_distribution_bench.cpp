// The gate's per-file phase as a benchmark: the very cases `skipsound gate` draws for
// its default seed (proofs/perfile/per_file_hunt.h hunt_file_case), each decision judged by the same pipeline
// (production decision, live-row ground truth, the oracle sampled as check_case samples it), once
// with Z3 alone and once with the interval procedure first (smt/interval_decider.h, Z3 outside
// its fragment and on every 50th answer). Counters: decisions/s and oracle queries/s on one
// thread (its CPU time), the share the interval procedure answered, and p50/p99 of a decision per
// predicate form in microseconds of CPU time ("p50:compare"); the same table goes to stderr, with
// each form's total. SKIPSOUND_GATE_CASES=N judges the first N cases instead of 400 (16000: the
// per-file phase of `gate --budget 8000`).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <map>
#include <vector>

#include "generators/predicate_gen.h"
#include "model/sql/printer.h"
#include "proofs/common/oracle_config.h"
#include "proofs/gate/gate.h"
#include "proofs/perfile/per_file_hunt.h"
#include "proofs/perfile/per_file_log.h"
#include "proofs/perfile/per_file_properties.h"
#include "smt/oracle_stats_reader.h"

namespace skipsound {
namespace {

constexpr size_t kDefaultCases = 400;
constexpr size_t kSlowestShown = 12;  // the decisions that cost the most, printed with their predicate

size_t case_count() {
  const char* text = std::getenv("SKIPSOUND_GATE_CASES");
  return text ? std::strtoull(text, nullptr, 10) : kDefaultCases;
}

const std::vector<generators::FileCase>& gate_cases() {
  static const std::vector<generators::FileCase> cases = [] {
    std::vector<generators::FileCase> out;
    for (size_t i = 0, n = case_count(); i < n; ++i) out.push_back(hunt_file_case(kDefaultGateSeed, Mutant::None, i));
    return out;
  }();
  return cases;
}

// This thread's CPU seconds: the machine's other load does not count against a decision.
double thread_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

double percentile(std::vector<double>& sorted_later, double q) {
  std::sort(sorted_later.begin(), sorted_later.end());
  return sorted_later[static_cast<size_t>(q * static_cast<double>(sorted_later.size() - 1))];
}

smt::OracleOptions engine(bool intervals) {
  smt::OracleOptions options;
  options.intervals_first = intervals;
  options.interval_cross_check_stride = intervals ? kIntervalCrossCheckStride : 0;
  return options;
}

// One pass over the cases, each decision timed alone; OracleUse::Sampled as check_case applies
// it: the oracle judges every skip and the decisions up to a case's first keep.
void BM_GateDistribution(benchmark::State& state) {
  const bool intervals = state.range(0) == 1;
  const auto& cases = gate_cases();
  smt::Oracle oracle(engine(intervals));
  std::map<std::string, std::vector<double>> micros_by_form;
  std::vector<std::pair<double, std::string>> slowest;  // seconds, predicate
  size_t decisions = 0;
  size_t queries = 0;
  double seconds = 0;
  for (auto _ : state) {
    for (const generators::FileCase& c : cases) {
      bool keep_seen = false;
      for (const ExprPtr& p : c.predicates) {
        const PerFileOptions options{Mutant::None, keep_seen ? OracleUse::SkipsOnly : OracleUse::Always};
        const double start = thread_seconds();
        const DecisionCheck check = check_decision(c.table, c.file, p, &oracle, options);
        const double elapsed = thread_seconds() - start;
        benchmark::DoNotOptimize(check.outcome);
        keep_seen |= check.production.verdict == FileVerdict::Keep;
        seconds += elapsed;
        ++decisions;
        queries += check.oracle.has_value();
        micros_by_form[generators::predicate_form(*p)].push_back(elapsed * 1e6);
        slowest.push_back({elapsed, to_sql(p)});
      }
    }
  }
  const smt::OracleCounters& asked = oracle.counters();
  state.counters["decisions/s"] = static_cast<double>(decisions) / seconds;
  state.counters["queries/s"] = static_cast<double>(queries) / seconds;
  state.counters["by_intervals%"] =
      100.0 * static_cast<double>(asked.by_intervals) / static_cast<double>(std::max<size_t>(1, queries));
  std::fprintf(stderr, "%s: %zu decisions, %zu oracle queries (%zu by intervals, %zu re-asked of Z3), %.0f decisions/s\n",
               intervals ? "intervals" : "z3", decisions, queries, asked.by_intervals, asked.cross_checked,
               static_cast<double>(decisions) / seconds);
  std::fprintf(stderr, "  %-24s %7s %10s %10s %10s\n", "form", "count", "p50 µs", "p99 µs", "total ms");
  std::sort(slowest.rbegin(), slowest.rend());
  for (size_t i = 0; i < std::min<size_t>(kSlowestShown, slowest.size()); ++i)
    std::fprintf(stderr, "  slow: %8.1f ms  %s\n", slowest[i].first * 1e3, slowest[i].second.c_str());
  for (auto& [form, micros] : micros_by_form) {
    double total = 0;
    for (double m : micros) total += m;
    const double p50 = percentile(micros, 0.5);
    const double p99 = percentile(micros, 0.99);
    state.counters["p50:" + form] = p50;
    state.counters["p99:" + form] = p99;
    std::fprintf(stderr, "  %-24s %7zu %10.0f %10.0f %10.0f\n", form.c_str(), micros.size(), p50, p99, total / 1e3);
  }
}
BENCHMARK(BM_GateDistribution)->ArgName("intervals")->Arg(0)->Arg(1)->Iterations(1)->Unit(benchmark::kMillisecond);

// What the oracle's own reading of the stats text (docs/semantics.md §6.7) costs per-file judging,
// in one run: each decision is judged as the gate judges it (its log read back, the cross-check
// included), and the cross-check is timed again alone on the same text. Counters: decisions/s
// with it, decisions/s without its time, and its share of the judging time.
void BM_DecodeCrossCheckShare(benchmark::State& state) {
  const auto& cases = gate_cases();
  smt::Oracle oracle(engine(true));
  size_t decisions = 0;
  double judging = 0, decoding = 0;
  for (auto _ : state) {
    for (const generators::FileCase& c : cases) {
      const LogReadBack read = read_back(c.table, c.file, Mutant::None);
      bool keep_seen = false;
      for (const ExprPtr& p : c.predicates) {
        const PerFileOptions options{Mutant::None, keep_seen ? OracleUse::SkipsOnly : OracleUse::Always};
        double start = thread_seconds();
        const DecisionCheck check = check_decision(c.table, c.file, p, &oracle, options);
        judging += thread_seconds() - start;
        keep_seen |= check.production.verdict == FileVerdict::Keep;
        ++decisions;
        if (!read.stats || read.stats_text.empty()) continue;
        start = thread_seconds();
        benchmark::DoNotOptimize(smt::read_stats_for_oracle(read.stats_text, c.table.schema, read.stats_naming, *read.stats));
        decoding += thread_seconds() - start;
      }
    }
  }
  state.counters["decisions/s"] = static_cast<double>(decisions) / judging;
  state.counters["decisions/s without decode"] = static_cast<double>(decisions) / (judging - decoding);
  state.counters["decode%"] = 100.0 * decoding / judging;
  std::fprintf(stderr, "decode cross-check: %zu decisions, %.0f decisions/s, %.0f/s without it (%.2f %% of the time)\n",
               decisions, static_cast<double>(decisions) / judging, static_cast<double>(decisions) / (judging - decoding),
               100.0 * decoding / judging);
}
BENCHMARK(BM_DecodeCrossCheckShare)->Iterations(1)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace skipsound
