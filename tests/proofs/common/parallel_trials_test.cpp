// The shared parallel-trials utility: results merge in index order whatever the threads, a
// worker's exception reaches the caller, and generating on a worker is refused.
#include "proofs/common/parallel_trials.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <stdexcept>
#include <thread>
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
      workers, TrialBudget{trials, std::nullopt, 4, true}, [](size_t i) { return i; },
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
  EXPECT_EQ(runs, done);  // a run that may stop starts no trial past the chunk being merged
  return merged;
}

TEST(ParallelTrials, MergeInIndexOrderAndStopAfterTheChunk) {
  const std::vector<size_t> one = squares_merged(1, 10, 5);
  EXPECT_EQ(one, (std::vector<size_t>{0, 1, 2, 3, 4, 5, 6, 7}));  // chunks of 4: the stop ends the second
  EXPECT_EQ(squares_merged(3, 10, 5), one);
  EXPECT_EQ(squares_merged(3, 10, 99).size(), 10u);
}

// Chunks are no barrier: while trial 0 is still running, another worker runs a trial of the next
// chunk. Trial 0 waits (at most 30 s, so a barrier fails the test instead of hanging it) for trial
// 5 to have run; with a barrier after each chunk of 4, trial 5 could only start after trial 0 ended.
TEST(ParallelTrials, ATrialOfTheNextChunkRunsWhileAnEarlierOneIsStillRunning) {
  Workers<Counter> workers(2, [] { return std::make_unique<Counter>(); });
  std::atomic<bool> next_chunk_ran{false};
  bool seen_by_trial_0 = false;
  std::vector<size_t> merged;
  const size_t done = run_trials(
      workers, TrialBudget{12, std::nullopt, 4}, [](size_t i) { return i; },
      [&](const size_t& i, Counter&) {
        if (i == 5) next_chunk_ran = true;
        if (i != 0) return i;
        const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(30);
        while (!next_chunk_ran && std::chrono::steady_clock::now() < give_up) std::this_thread::yield();
        seen_by_trial_0 = next_chunk_ran;
        return i;
      },
      [&](size_t, size_t value) {
        merged.push_back(value);
        return true;
      },
      [](size_t) {});
  EXPECT_TRUE(seen_by_trial_0);
  EXPECT_EQ(done, 12u);
  EXPECT_EQ(merged, (std::vector<size_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}));
}

// A stop merges exactly the stopping chunk and runs nothing past it, on any thread count; a
// worker's exception inside run_trials reaches the caller.
TEST(ParallelTrials, AStopRunsNothingPastItsChunk) {
  for (unsigned threads : {1u, 2u, 4u}) {
    EXPECT_EQ(squares_merged(threads, 40, 1), (std::vector<size_t>{0, 1, 2, 3})) << threads << " threads";
  }
  Workers<Counter> workers(2, [] { return std::make_unique<Counter>(); });
  EXPECT_THROW(run_trials(
                   workers, TrialBudget{40, std::nullopt, 4}, [](size_t i) { return i; },
                   [](const size_t& i, Counter&) {
                     if (i == 9) throw std::runtime_error("trial 9");
                     return i;
                   },
                   [](size_t, size_t) { return true; }, [](size_t) {}),
               std::runtime_error);
}

TEST(ParallelTrials, AWorkersExceptionReachesTheCaller) {
  Workers<Counter> workers(2, [] { return std::make_unique<Counter>(); });
  EXPECT_THROW(workers.run(8, [](size_t i, Counter&) { if (i == 5) throw std::runtime_error("trial 5"); }),
               std::runtime_error);
}

// The pool without per-thread state (the cross-checks' batches, the bad-input corpus's processes):
// every index once, on up to the threads asked for, and a job's exception reaches the caller.
TEST(ParallelTrials, ForEachIndexRunsEveryIndexOnceAndRethrows) {
  std::vector<std::atomic<int>> runs(100);
  for_each_index(3, runs.size(), [&](size_t i) { ++runs[i]; });
  for (const std::atomic<int>& n : runs) EXPECT_EQ(n.load(), 1);
  for_each_index(2, 0, [](size_t) { ADD_FAILURE() << "no index to run"; });
  EXPECT_THROW(for_each_index(2, 10, [](size_t i) { if (i == 7) throw std::runtime_error("job 7"); }),
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
