// Parsing one file's stats JSON: the per-file cost of every conflict check (target >= 200k/s).
#include <benchmark/benchmark.h>

#include "model/stats/stats.h"

namespace {

using skipsound::DataType;
using skipsound::StructField;
using skipsound::TypeKind;

const skipsound::Schema& six_columns() {
  static const skipsound::Schema schema({
      StructField{"id", DataType::of(TypeKind::Long), true, {}},
      StructField{"qty", DataType::of(TypeKind::Int), true, {}},
      StructField{"name", DataType::of(TypeKind::String), true, {}},
      StructField{"city", DataType::of(TypeKind::String), true, {}},
      StructField{"created", DataType::of(TypeKind::Timestamp), true, {}},
      StructField{"updated", DataType::of(TypeKind::Timestamp), true, {}},
  });
  return schema;
}

const std::string kStats =
    R"({"numRecords":1000,"minValues":{"id":1,"qty":-20,"name":"alice","city":"Amsterdam",)"
    R"("created":"2024-01-01T00:00:00.000Z","updated":"2024-01-02T08:00:00.000-08:00"},)"
    R"("maxValues":{"id":1000,"qty":500,"name":"zoe","city":"Zurich",)"
    R"("created":"2024-06-30T23:59:59.999Z","updated":"2024-07-01T12:30:00.123Z"},)"
    R"("nullCount":{"id":0,"qty":3,"name":0,"city":12,"created":0,"updated":7},"tightBounds":true})";

void BM_StatsFromJsonText(benchmark::State& state) {
  const skipsound::Schema& schema = six_columns();
  for (auto _ : state) {
    benchmark::DoNotOptimize(skipsound::stats_from_json_text(kStats, schema));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_StatsFromJsonText);

}  // namespace
