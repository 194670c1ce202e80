// Literals that make skipping decisions close calls: a file's own stats bounds and row values,
// one step either side of them (±1, ±1 µs, ±1 ms, the next float), timestamps on the
// millisecond edge next to them, and prefixes / near-extensions of string bounds.
#pragma once
#include <vector>

#include <rapidcheck.h>

#include "generators/file_gen.h"
#include "model/sql/schema.h"

namespace skipsound::generators {

// Every value near `leaf`'s bounds in this file (deduplicated, all of the leaf's type).
std::vector<Value> boundary_literals(const Leaf& leaf, const GeneratedFile& file);

// Mostly a boundary literal, sometimes an edge value or any value of the type.
rc::Gen<Value> literal_for(const Leaf& leaf, const GeneratedFile& file);

}  // namespace skipsound::generators
