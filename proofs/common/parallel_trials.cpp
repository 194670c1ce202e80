#include "proofs/common/parallel_trials.h"

#include <exception>
#include <stdexcept>
#include <thread>

namespace skipsound::parallel {

namespace {
thread_local bool on_worker = false;
}  // namespace

void require_generation_thread() {
  if (on_worker) {
    throw std::logic_error("RapidCheck generation on a worker thread: its context is process-wide, "
                           "so inputs are generated on the calling thread");
  }
}

namespace detail {

WorkerScope::WorkerScope() : was_worker_(on_worker) { on_worker = true; }
WorkerScope::~WorkerScope() { on_worker = was_worker_; }

}  // namespace detail

void run_on_threads(size_t count, const std::function<void(size_t)>& work) {
  std::vector<std::exception_ptr> errors(std::max<size_t>(count, 1));
  const auto guarded = [&](size_t w) {
    try {
      work(w);
    } catch (...) {
      errors[w] = std::current_exception();
    }
  };
  std::vector<std::thread> threads;
  for (size_t w = 1; w < count; ++w) threads.emplace_back(guarded, w);
  guarded(0);
  for (std::thread& t : threads) t.join();
  for (const std::exception_ptr& e : errors) {
    if (e) std::rethrow_exception(e);
  }
}

}  // namespace skipsound::parallel
