// Parse + bind throughput for typical read predicates (target: >= 100,000 per second per core).
#include <benchmark/benchmark.h>

#include "model/sql/binder.h"
#include "model/sql/parser.h"

namespace {

using namespace skipsound;

StructField field(std::string name, TypeKind kind) {
  StructField f;
  f.name = std::move(name);
  f.type = DataType::of(kind);
  return f;
}

const Schema& bench_schema() {
  static const Schema schema({field("a", TypeKind::Long), field("b", TypeKind::String),
                              field("c", TypeKind::Double), field("d", TypeKind::Int),
                              field("e", TypeKind::Date)});
  return schema;
}

constexpr const char* kFiveConjuncts =
    "a > 5 AND b <= 'x' AND c IS NOT NULL AND d IN (1,2,3) AND "
    "e BETWEEN DATE '2020-01-01' AND DATE '2020-12-31'";

void BM_ParseAndBindFiveConjuncts(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(parse_and_bind(kFiveConjuncts, bench_schema()));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ParseAndBindFiveConjuncts);

void BM_ParseOnlyFiveConjuncts(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(parse_predicate(kFiveConjuncts));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ParseOnlyFiveConjuncts);

}  // namespace
