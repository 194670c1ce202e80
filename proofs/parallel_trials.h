// Running independent trials on several threads, the one way the gate, the explorer and the
// composition sweep do it:
//   - Workers: one piece of state per thread (a Z3 context is not shared between threads); a
//     worker's exception stops the others and is rethrown on the caller once all have stopped.
//   - run_trials: trials in chunks; a chunk's inputs are generated on the calling thread in index
//     order while the other workers already run the ones generated, and merged on the calling
//     thread in index order, so the same seed gives the same results whatever the thread count.
//   - shrink_greedily: descent through RapidCheck's shrink tree, on the calling thread.
// RapidCheck keeps its generation context in process-wide statics: generating (or reading a
// Shrinkable's value) on two threads at once corrupts it, so generation never happens on a worker.
// require_generation_thread() enforces that.
#pragma once
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <type_traits>
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

// Runs work(w) for w in [0, count) on count threads, the caller being worker 0; rethrows the
// exception of the lowest-numbered worker that threw, once every worker has returned.
void run_on_threads(size_t count, const std::function<void(size_t)>& work);
}  // namespace detail

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
  // Like run, with the inputs made on the calling thread while the others already run: worker 0
  // (the caller, outside the worker scope, so it may generate) calls produce(index) for every
  // index in order, the others run each index once it is produced, and worker 0 joins them after
  // the last. So generation overlaps the trials instead of preceding them.
  template <class Produce, class Job>
  void run_produced(size_t n, const Produce& produce, const Job& job) {
    std::atomic<size_t> next{0};
    std::atomic<size_t> produced{0};
    std::atomic<bool> failed{false};
    const auto stop = [&] {
      failed = true;
      produced = n;  // wakes the waiting workers, who then see `failed`
      produced.notify_all();
    };
    detail::run_on_threads(size(), [&](size_t worker) {
      try {
        for (size_t i = 0; worker == 0 && i < n && !failed; ++i) {
          produce(i);
          size_t expected = i;  // not when stop() has already set n
          produced.compare_exchange_strong(expected, i + 1);
          produced.notify_all();
        }
        const detail::WorkerScope scope;
        for (size_t i = next++; i < n && !failed; i = next++) {
          for (size_t ready = produced; ready <= i; ready = produced) produced.wait(ready);
          if (failed) break;
          job(i, *states_[worker]);
        }
      } catch (...) {
        stop();
        throw;
      }
    });
  }

  template <class Job>
  void run(size_t n, const Job& job) {
    std::atomic<size_t> next{0};
    std::atomic<bool> failed{false};
    detail::run_on_threads(std::min(size(), n), [&](size_t worker) {
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

struct TrialBudget {
  size_t trials = 0;              // planned trials; SIZE_MAX runs until the time or a stop
  std::optional<double> seconds;  // checked between chunks
  size_t chunk = 32;              // trials between progress reports, stops and time checks
};

// Runs trials [0, budget.trials) in chunks: generate(index) -> Input on the calling thread,
// run(const Input&, State&) -> Result on the workers, keep_going = merge(index, Result&&) on the
// calling thread in index order (a chunk is always merged whole; a false stops after it), then
// after_chunk(trials done). Returns the trials run.
template <class State, class Generate, class Run, class Merge, class AfterChunk>
size_t run_trials(Workers<State>& workers, const TrialBudget& budget, const Generate& generate, const Run& run,
                  const Merge& merge, const AfterChunk& after_chunk) {
  using Input = std::invoke_result_t<Generate, size_t>;
  using Result = std::invoke_result_t<Run, const Input&, State&>;
  const Stopwatch clock;
  const auto out_of_time = [&] { return budget.seconds && clock.seconds() >= *budget.seconds; };
  size_t done = 0;
  for (bool keep_going = true; keep_going && done < budget.trials && !out_of_time();) {
    const size_t n = std::min(budget.chunk, budget.trials - done);
    std::vector<std::optional<Input>> inputs(n);
    std::vector<std::optional<Result>> results(n);
    const auto produce = [&](size_t k) {
      require_generation_thread();
      inputs[k].emplace(generate(done + k));
    };
    workers.run_produced(n, produce, [&](size_t k, State& state) { results[k].emplace(run(*inputs[k], state)); });
    for (size_t k = 0; k < n; ++k) keep_going = merge(done + k, std::move(*results[k])) && keep_going;
    done += n;
    after_chunk(done);
  }
  return done;
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
