// The shared parallel-trials utility: results merge in index order whatever the threads, a
// worker's exception reaches the caller, and generating on a worker is refused.
#include "proofs/parallel_trials.h"

#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>
#include <vector>

namespace skipsound::parallel {
namespace {

struct Counter {
  size_t runs = 0;
};

std::vector<size_t> squares_merged(unsigned threads, size_t trials, size_t stop_at) {
  Workers<Counter> workers(threads, [] { return std::make_unique<Counter>(); });
  std::vector<size_t> merged;
  const size_t done = run_trials(
      workers, TrialBudget{trials, std::nullopt, 4}, [](size_t i) { return i; },
      [](const size_t& i, Counter& counter) {
        ++counter.runs;
        return i * i;
      },
      [&](size_t i, size_t square) {
        EXPECT_EQ(square, i * i);
        merged.push_back(i);
        return i != stop_at;
      },
      [](size_t) {});
  EXPECT_EQ(done, merged.size());
  size_t runs = 0;
  for (size_t w = 0; w < workers.size(); ++w) runs += workers.state(w).runs;
  EXPECT_EQ(runs, done);
  return merged;
}

TEST(ParallelTrials, MergeInIndexOrderAndStopAfterTheChunk) {
  const std::vector<size_t> one = squares_merged(1, 10, 5);
  EXPECT_EQ(one, (std::vector<size_t>{0, 1, 2, 3, 4, 5, 6, 7}));  // chunks of 4: the stop ends the second
  EXPECT_EQ(squares_merged(3, 10, 5), one);
  EXPECT_EQ(squares_merged(3, 10, 99).size(), 10u);
}

TEST(ParallelTrials, AWorkersExceptionReachesTheCaller) {
  Workers<Counter> workers(2, [] { return std::make_unique<Counter>(); });
  EXPECT_THROW(workers.run(8, [](size_t i, Counter&) { if (i == 5) throw std::runtime_error("trial 5"); }),
               std::runtime_error);
}

TEST(ParallelTrials, GenerationIsRefusedOnAWorker) {
  EXPECT_NO_THROW(require_generation_thread());
  Workers<Counter> workers(2, [] { return std::make_unique<Counter>(); });
  EXPECT_THROW(workers.run(4, [](size_t, Counter&) { require_generation_thread(); }), std::logic_error);
  EXPECT_NO_THROW(require_generation_thread());
}

}  // namespace
}  // namespace skipsound::parallel
