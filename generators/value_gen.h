// RapidCheck generators for typed values, biased towards the edges where skipping goes wrong
// (docs/semantics.md §2.2, §4.5): NaN and signed zeros, integer extremes, timestamps on and just off millisecond
// boundaries, dates around the epoch, strings around the 32-code-point stats prefix.
#pragma once
#include <string>
#include <vector>

#include <rapidcheck.h>

#include "model/stats/string_truncation.h"
#include "model/values/value.h"

namespace skipsound::generators {

// The UTF-16 units where a surrogate pair makes a cut by code points and one by units differ, at
// the default prefix length N: N − 2 to N (docs/semantics.md §4.4). String values put a pair there.
inline constexpr int kUnitBoundaryFirst = kDefaultStringPrefixLength - 2;
inline constexpr int kUnitBoundaryLast = kDefaultStringPrefixLength;

// Code points the string generator draws from: ASCII letters (so strings share prefixes),
// U+007F and U+10FFFF (the truncation markers), 2-, 3- and 4-byte characters, U+FFFF.
const std::vector<char32_t>& string_alphabet();

// Strings of 0..70 code points, favouring exactly 0, 31, 32, 33, 64 and 65, and ASCII up to a
// surrogate pair at UTF-16 units N − 2 to N.
rc::Gen<std::string> utf8_string();

// Primitive column types the generators use (every type with a literal form; decimals up to
// precision 38, whose values no int64 or double holds).
rc::Gen<DataType> primitive_type();

// A non-null value of `type` (primitive), half the time one of the type's edge values.
rc::Gen<Value> value_of(const DataType& type);
// The type's edge values (NaN, extremes, epoch, ...), used by value_of and by literal biasing.
std::vector<Value> edge_values(const DataType& type);

}  // namespace skipsound::generators
