// RapidCheck generators for typed values, biased towards the edges where skipping goes wrong
// (docs/semantics.md §2, §4): NaN and signed zeros, integer extremes, timestamps on and just off millisecond
// boundaries, dates around the epoch, strings around the 32-code-point stats prefix.
#pragma once
#include <string>
#include <vector>

#include <rapidcheck.h>

#include "model/values/value.h"

namespace skipsound::generators {

// Code points the string generator draws from: ASCII letters (so strings share prefixes),
// U+007F and U+10FFFF (the truncation markers), 2-, 3- and 4-byte characters, U+FFFF.
const std::vector<char32_t>& string_alphabet();

// Strings of 0..70 code points, favouring exactly 0, 31, 32, 33, 64 and 65.
rc::Gen<std::string> utf8_string();

// Primitive column types the generators use (every type with a literal form except decimal
// precision above 18, which the generators do not need to reach the rules).
rc::Gen<DataType> primitive_type();

// A non-null value of `type` (primitive), half the time one of the type's edge values.
rc::Gen<Value> value_of(const DataType& type);
// The type's edge values (NaN, extremes, epoch, ...), used by value_of and by literal biasing.
std::vector<Value> edge_values(const DataType& type);

}  // namespace skipsound::generators
