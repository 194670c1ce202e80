// Running independent trials on several threads, the one way the gate, the explorer and the
// composition sweep do it:
//   - Workers: one piece of state per thread (a Z3 context is not shared between threads); a
//     worker's exception stops the others and is rethrown on the caller once all have stopped.
//     for_each_index is the same without the state.
//   - run_trials: trials generated on the calling thread in index order while the workers run
//     the ones generated, merged on the calling thread in index order, stopped only at chunk
//     ends, so the same seed gives the same results whatever the thread count.
//   - shrink_greedily: descent through RapidCheck's shrink tree, on the calling thread.
// RapidCheck keeps its generation context in process-wide statics: generating (or reading a
// Shrinkable's value) on two threads at once corrupts it, so generation never happens on a worker.
// require_generation_thread() enforces that.
#pragma once
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include <rapidcheck/Shrinkable.h>

namespace skipsound::parallel {

// Wall time since construction: budgets and reported durations.
class Stopwatch {
 public:
  double seconds() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(); }

 private:
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

// Throws std::logic_error on a worker thread of Workers::run: generation belongs to the caller.
void require_generation_thread();

namespace detail {
// Marks the current thread as a worker for the lifetime of the object.
class WorkerScope {
 public:
  WorkerScope();
  ~WorkerScope();
  WorkerScope(const WorkerScope&) = delete;
  WorkerScope& operator=(const WorkerScope&) = delete;

 private:
  bool was_worker_;
};

}  // namespace detail

// Runs work(w) for w in [0, count) on count threads, the caller being worker 0; rethrows the
// exception of the lowest-numbered worker that threw, once every worker has returned.
void run_on_threads(size_t count, const std::function<void(size_t)>& work);

template <class State>
class Workers {
 public:
  Workers(unsigned threads, const std::function<std::unique_ptr<State>()>& make_state) {
    for (unsigned i = 0; i < std::max(1u, threads); ++i) states_.push_back(make_state());
  }
  size_t size() const { return states_.size(); }
  State& state(size_t worker) { return *states_[worker]; }

  // Runs job(index, state) for every index in [0, n); indexes are handed out in order to
  // whichever worker is free. After an exception no new index is started.
  template <class Job>
  void run(size_t n, const Job& job) {
    std::atomic<size_t> next{0};
    std::atomic<bool> failed{false};
    run_on_threads(std::min(size(), n), [&](size_t worker) {
      const detail::WorkerScope scope;
      try {
        for (size_t i = next++; i < n && !failed; i = next++) job(i, *states_[worker]);
      } catch (...) {
        failed = true;
        throw;
      }
    });
  }

 private:
  std::vector<std::unique_ptr<State>> states_;
};

// Runs job(index) for every index in [0, n) on up to `threads` threads with no state of their
// own (processes to wait for, batches for another solver): Workers::run without the state.
template <class Job>
void for_each_index(unsigned threads, size_t n, const Job& job) {
  struct NoState {};
  Workers<NoState> workers(threads, [] { return std::make_unique<NoState>(); });
  workers.run(n, [&](size_t i, NoState&) { job(i); });
}

struct TrialBudget {
  size_t trials = 0;              // planned trials; SIZE_MAX runs until the time or a stop
  std::optional<double> seconds;  // checked at the end of each chunk
  size_t chunk = 32;              // trials between progress reports, stops and time checks
  // The merge may stop the run (a hunt that ends at its first finding): trials then start only
  // within the chunk being merged, so a stop leaves no trial run past its chunk — every side
  // effect of a trial (coverage counters, queued cross-checks) is one of a merged trial's.
  bool merge_may_stop = false;
};

// Runs trials [0, budget.trials): generate(index) -> Input on the calling thread, run(const
// Input&, State&) -> Result on any worker, keep_going = merge(index, Result&&) on the calling
// thread in index order, then after_chunk(trials merged) at the end of each chunk, where a false
// keep_going or the time budget stops the run. Returns the trials merged.
//
// The calling thread (worker 0) generates ahead, merges each result as soon as the ones before it
// are merged, and runs trials itself in between. Unless budget.merge_may_stop, chunks are no
// barrier: it generates up to two chunks past the last merged trial, so no worker waits for a
// chunk's slowest trial. A stop takes effect at the end of the chunk it is decided in, as if the
// chunks ran one after the other, so the trials merged are the same whatever the thread count;
// only a time budget, checked at chunk ends, lets trials past the last merged chunk run (their
// results are dropped).
template <class State, class Generate, class Run, class Merge, class AfterChunk>
size_t run_trials(Workers<State>& workers, const TrialBudget& budget, const Generate& generate, const Run& run,
                  const Merge& merge, const AfterChunk& after_chunk) {
  using Input = std::invoke_result_t<Generate, size_t>;
  using Result = std::invoke_result_t<Run, const Input&, State&>;
  const Stopwatch clock;
  const auto out_of_time = [&] { return budget.seconds && clock.seconds() >= *budget.seconds; };
  const size_t chunk = std::max<size_t>(1, budget.chunk);
  // With the lock held: the first trial not to generate yet.
  const auto generation_end = [&](size_t merged_so_far) {
    return budget.merge_may_stop ? (merged_so_far / chunk + 1) * chunk : merged_so_far + 2 * chunk;
  };

  std::mutex mutex;
  std::condition_variable changed;
  std::deque<std::pair<size_t, Input>> queued;  // generated, not started
  std::map<size_t, Result> finished;            // run, not merged
  size_t limit = out_of_time() ? 0 : budget.trials;  // no trial at or past it starts; a stop lowers it
  size_t produced = 0;
  size_t merged = 0;
  bool closed = false;  // the caller is done or a worker threw: everyone leaves

  // With the lock held: the next queued trial still below the limit.
  const auto take = [&]() -> std::optional<std::pair<size_t, Input>> {
    while (!queued.empty()) {
      std::pair<size_t, Input> item = std::move(queued.front());
      queued.pop_front();
      if (item.first < limit) return item;
    }
    return std::nullopt;
  };
  const auto run_one = [&](std::unique_lock<std::mutex>& lock, const std::pair<size_t, Input>& item, State& state) {
    lock.unlock();
    std::optional<Result> result;
    {
      const detail::WorkerScope scope;
      result.emplace(run(item.second, state));
    }
    lock.lock();
    finished.emplace(item.first, std::move(*result));
    changed.notify_all();
  };
  // Worker 0's turn: merge what is ready, else generate ahead, else run a trial, else wait.
  const auto caller_step = [&](std::unique_lock<std::mutex>& lock, State& state) {
    if (auto ready = finished.find(merged); ready != finished.end()) {
      Result result = std::move(ready->second);
      finished.erase(ready);
      lock.unlock();
      bool keep_going = merge(merged, std::move(result));
      const size_t done = merged + 1;
      if (done % chunk == 0 || done == limit) {
        after_chunk(done);
        keep_going = keep_going && !out_of_time();
      }
      lock.lock();
      merged = done;
      if (!keep_going) limit = std::min(limit, (done + chunk - 1) / chunk * chunk);
      return;
    }
    if (produced < limit && produced < generation_end(merged)) {
      lock.unlock();
      require_generation_thread();
      Input input = generate(produced);
      lock.lock();
      queued.emplace_back(produced++, std::move(input));
      changed.notify_all();
      return;
    }
    if (auto item = take()) return run_one(lock, *item, state);
    changed.wait(lock);
  };

  run_on_threads(workers.size(), [&](size_t worker) {
    State& state = workers.state(worker);
    std::unique_lock<std::mutex> lock(mutex);
    try {
      if (worker == 0) {
        while (!closed && merged < limit) caller_step(lock, state);
        closed = true;
        changed.notify_all();
        return;
      }
      while (!closed) {
        if (auto item = take()) {
          run_one(lock, *item, state);
        } else {
          changed.wait(lock);
        }
      }
    } catch (...) {
      if (!lock.owns_lock()) lock.lock();
      closed = true;
      changed.notify_all();
      throw;
    }
  });
  return merged;
}

template <class T>
struct Shrunk {
  rc::Shrinkable<T> minimal;
  size_t steps = 0;  // shrinks taken
};

// Greedy descent through the shrink tree: takes the first shrink for which still_fails(value)
// holds, until none does or trial_limit candidates have been tried.
template <class T, class StillFails>
Shrunk<T> shrink_greedily(rc::Shrinkable<T> failing, size_t trial_limit, const StillFails& still_fails) {
  Shrunk<T> out{std::move(failing), 0};
  size_t tried = 0;
  for (bool progressed = true; progressed && tried < trial_limit;) {
    progressed = false;
    auto shrinks = out.minimal.shrinks();
    while (auto candidate = shrinks.next()) {
      if (++tried > trial_limit) break;
      require_generation_thread();
      if (still_fails(candidate->value())) {
        out.minimal = std::move(*candidate);
        ++out.steps;
        progressed = true;
        break;
      }
    }
  }
  return out;
}

}  // namespace skipsound::parallel
