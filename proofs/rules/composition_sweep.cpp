#include "proofs/rules/composition_sweep.h"

#include <algorithm>
#include <memory>
#include <mutex>
#include <optional>

#include "proofs/common/parallel_trials.h"

namespace skipsound {

namespace {

// Hands results to the listener in template order: a finished template waits until every
// earlier one is in.
class OrderedResults {
 public:
  OrderedResults(size_t count, const CompositionListener& listener) : slots_(count), listener_(listener) {}

  void put(size_t index, TheoremResult result) {
    std::lock_guard lock(mutex_);
    slots_[index] = std::move(result);
    while (next_ < slots_.size() && slots_[next_]) {
      if (listener_) listener_(next_, slots_.size(), *slots_[next_]);
      ++next_;
    }
  }

  std::vector<TheoremResult> take() {
    std::vector<TheoremResult> out;
    out.reserve(slots_.size());
    for (std::optional<TheoremResult>& r : slots_) out.push_back(std::move(*r));
    return out;
  }

 private:
  std::mutex mutex_;
  std::vector<std::optional<TheoremResult>> slots_;
  size_t next_ = 0;
  const CompositionListener& listener_;
};

}  // namespace

std::vector<TheoremResult> prove_compositions(const std::vector<PredicateTemplate>& templates,
                                                   Mutant mutant, const smt::SolverLimits& limits,
                                                   unsigned threads, const CompositionListener& listener) {
  OrderedResults results(templates.size(), listener);
  parallel::Workers<RuleProver> provers(
      static_cast<unsigned>(std::clamp<size_t>(threads, 1, std::max<size_t>(templates.size(), 1))),
      [&] { return std::make_unique<RuleProver>(limits); });
  provers.run(templates.size(), [&](size_t i, RuleProver& prover) {
    results.put(i, prover.prove_sound(templates[i], mutant));
  });
  return results.take();
}

}  // namespace skipsound
