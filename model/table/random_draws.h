// rand() in a condition a transaction evaluates row by row (docs/semantics.md §7.3 "rand()").
// Spark draws rand(seed) from one generator per partition, advanced once per row it evaluates;
// the model takes a file for a partition, so the value on the k-th live row of a file is a
// function of the seed, the file's path and k alone. A winner that deletes an earlier row of the
// file shifts k, and the same condition then picks other rows: such a condition is not row-local
// (§10.2 (c)). The seed is the transaction's (WriterSettings::random_seed) unless the call names
// its own (`rand(7)`), so the serial oracle's re-run draws what the transaction would draw.
#pragma once
#include <cstdint>
#include <string>

#include "model/sql/evaluator.h"
#include "model/sql/expr.h"

namespace skipsound {

// Whether `condition` calls rand() or random(): the calls random_draws gives values to.
bool draws_random(const ExprPtr& condition);

// The value of each rand()/random() call of `condition` on the `live_ordinal`-th live row of the
// file at `path`, in [0, 1).
CallValues random_draws(const ExprPtr& condition, uint64_t seed, const std::string& path, uint32_t live_ordinal);

}  // namespace skipsound
