// Explorer throughput: two-transaction trials per second on one thread with both oracles on
// (serial order and Z3), over the default mix of categories; and the time to kill the
// append-suppression mutant (target: at least 300 trials/s, a kill in under 5 s).
#include <benchmark/benchmark.h>

#include "proofs/explorer/explorer.h"

namespace skipsound {
namespace {

std::vector<generators::World> two_transaction_worlds(size_t count) {
  std::vector<generators::World> worlds;
  const auto& categories = generators::all_world_categories();
  for (size_t i = 0; worlds.size() < count; ++i) {
    const auto category = categories[i % categories.size()];
    generators::World w = generators::world(category)(rc::Random(trial_seed(3, category, i)), 50).value();
    if (w.transactions.size() == 2) worlds.push_back(std::move(w));
  }
  return worlds;
}

void BM_TwoTransactionTrial(benchmark::State& state) {
  const std::vector<generators::World> worlds = two_transaction_worlds(256);
  smt::Oracle oracle;
  size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(run_trial(worlds[i++ % worlds.size()], Mutant::None, oracle));
  }
  state.counters["trials/s"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_TwoTransactionTrial)->Unit(benchmark::kMicrosecond);

void BM_KillAppendSuppression(benchmark::State& state) {
  for (auto _ : state) {
    ExploreOptions o;
    o.seed = state.iterations() + 1;
    o.mutant = Mutant::AppendSuppression;
    o.stop_at_first_finding = true;
    o.trials_per_category = 2000;
    o.categories = {generators::WorldCategory::ValueMoving, generators::WorldCategory::Mixed};
    const auto results = explore(o);
    if (!results.back().finding) state.SkipWithError("append-suppression survived");
  }
}
BENCHMARK(BM_KillAppendSuppression)->Unit(benchmark::kMillisecond)->Iterations(5);

}  // namespace
}  // namespace skipsound
