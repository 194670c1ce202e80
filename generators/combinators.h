// Small RapidCheck combinators the generators share; built from rc::gen so shrinking still works.
#pragma once
#include <cstddef>
#include <vector>

#include <rapidcheck.h>

namespace skipsound::generators {

// A whole number in [min, max), uniform at every generation size: rc::gen::inRange narrows its
// range at small sizes, and the gate generates at small sizes, so a chooser built on it never
// reaches its last options. Shrinks towards min, so list the simplest option first.
template <typename T>
rc::Gen<T> uniform_in(T min, T max) {
  return rc::gen::resize(rc::kNominalSize, rc::gen::inRange<T>(min, max));
}

// A vector whose length is drawn from [min_length, max_length].
template <typename T>
rc::Gen<std::vector<T>> vector_of(std::size_t min_length, std::size_t max_length, rc::Gen<T> element) {
  return rc::gen::mapcat(uniform_in(min_length, max_length + 1), [element](std::size_t n) {
    return rc::gen::container<std::vector<T>>(n, element);
  });
}

// One of the generators, chosen uniformly (rc::gen::oneOf for a list only known at run time).
template <typename T>
rc::Gen<T> one_of(std::vector<rc::Gen<T>> gens) {
  return rc::gen::join(rc::gen::elementOf(std::move(gens)));
}

// One of the generators, chosen by weight; a zero weight disables an entry. Shrinks towards the
// first entry, so list the simplest first.
template <typename T>
rc::Gen<T> weighted_one_of(std::vector<std::pair<std::size_t, rc::Gen<T>>> weighted) {
  std::size_t total = 0;
  for (const auto& entry : weighted) total += entry.first;
  return rc::gen::mapcat(uniform_in<std::size_t>(0, total), [weighted](std::size_t ticket) {
    for (const auto& [weight, gen] : weighted) {
      if (ticket < weight) return gen;
      ticket -= weight;
    }
    return weighted.back().second;
  });
}

}  // namespace skipsound::generators
