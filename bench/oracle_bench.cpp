// Z3 oracle throughput and latency (docs/semantics.md §6.1): one Oracle (one thread), many queries. Target: at
// least 2,000 queries per second per thread on single-column comparisons over tight stats. The
// mix reports p50/p99 latency per predicate form as counters (microseconds).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <vector>

#include "model/sql/binder.h"
#include "smt/oracle.h"

namespace skipsound {
namespace {

StructField column(const char* name, TypeKind kind) { return StructField{name, DataType::of(kind), true, ""}; }

const Schema& bench_schema() {
  static const Schema schema({column("x", TypeKind::Long), column("s", TypeKind::String),
                              column("d", TypeKind::Double)});
  return schema;
}

// Tight stats of a 1,000-row file: x in [100, 200], s in ['apple', 'pear'], d in [0.5, 2.5].
const FileStats& tight_stats() {
  static const FileStats stats = [] {
    FileStats s;
    s.num_records = 1000;
    s.tight_bounds = true;
    s.columns = {ColumnStats{Value::integral(TypeKind::Long, 100), Value::integral(TypeKind::Long, 200), 5},
                 ColumnStats{Value::string("apple"), Value::string("pear"), 0},
                 ColumnStats{Value::floating(TypeKind::Double, 0.5), Value::floating(TypeKind::Double, 2.5), 0}};
    return s;
  }();
  return stats;
}

std::vector<ExprPtr> bound(const std::vector<const char*>& predicates) {
  std::vector<ExprPtr> out;
  for (const char* p : predicates) out.push_back(parse_and_bind(p, bench_schema()));
  return out;
}

// Sat and Unsat answers alike, so neither path alone is measured.
const std::vector<ExprPtr>& comparisons() {
  static const std::vector<ExprPtr> predicates =
      bound({"x > 150", "x < 50", "x = 120", "x >= 300", "x <= 100", "x <> 7", "d > 3.0", "d <= 1.0"});
  return predicates;
}

struct Form {
  const char* name;
  std::vector<const char*> predicates;
};

const std::vector<Form>& forms() {
  static const std::vector<Form> all = {
      {"comparison", {"x > 150", "x < 50", "x = 120", "x >= 300"}},
      {"in", {"x IN (1, 2, 3)", "x IN (150, 250, 350)"}},
      {"is_null", {"x IS NULL", "s IS NULL"}},
      {"like_prefix", {"s LIKE 'ban%'", "s LIKE 'zebra%'"}},
      {"string_compare", {"s > 'orange'", "s < 'aardvark'", "s = 'kiwi'"}},
      {"and_or", {"x > 150 AND s < 'b'", "x < 50 OR s > 'zz'", "x = 120 OR x IS NULL"}},
  };
  return all;
}

void BM_OracleComparisons(benchmark::State& state) {
  smt::Oracle oracle;
  const FileEvidence file{&tight_stats(), 0, {}};
  size_t i = 0;
  for (auto _ : state) {
    const ExprPtr& p = comparisons()[i++ % comparisons().size()];
    benchmark::DoNotOptimize(oracle.check(p, bench_schema(), file));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_OracleComparisons)->Unit(benchmark::kMicrosecond);

double percentile(std::vector<double>& sorted_micros, double q) {
  const size_t index = std::min(sorted_micros.size() - 1, static_cast<size_t>(q * sorted_micros.size()));
  return sorted_micros[index];
}

void BM_OracleMix(benchmark::State& state) {
  const Form& form = forms()[static_cast<size_t>(state.range(0))];
  const std::vector<ExprPtr> predicates = bound(form.predicates);
  smt::Oracle oracle;
  const FileEvidence file{&tight_stats(), 0, {}};
  std::vector<double> micros;
  size_t i = 0;
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    benchmark::DoNotOptimize(oracle.check(predicates[i++ % predicates.size()], bench_schema(), file));
    micros.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(micros.begin(), micros.end());
  state.SetLabel(form.name);
  state.SetItemsProcessed(state.iterations());
  state.counters["p50_us"] = percentile(micros, 0.50);
  state.counters["p99_us"] = percentile(micros, 0.99);
}
BENCHMARK(BM_OracleMix)->DenseRange(0, 5)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace skipsound
