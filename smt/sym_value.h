// Symbolic values with Spark's semantics (docs/semantics.md §2.2): every value is (is_null, payload), the payload
// sort chosen by type. Integers, dates and timestamps are Int; decimals Real; float and double
// IEEE binary64 (a float column is a binary32 widened exactly), compared in Spark's total order
// (NaN greatest and equal to itself, -0.0 = 0.0), never with IEEE's; strings and binary are Z3
// strings over the renumbered alphabet of smt/code_points.h, whose str.< is code-point order.
#pragma once
#include <optional>
#include <vector>

#include <z3++.h>

#include "model/values/value.h"
#include "smt/code_points.h"
#include "smt/string_sequence.h"

namespace skipsound::smt {

enum class Domain { Bool, Int, Real, Float, String, Opaque };
Domain domain_of(const DataType& t);

struct SymValue {
  z3::expr is_null;
  z3::expr payload;
  Domain domain = Domain::Opaque;
  // String constants: their codes, which let comparisons avoid str.< (Z3 4.8.12's sequence
  // solver needs seconds for str.< against 30-character constants).
  std::optional<std::vector<unsigned>> constant_codes = std::nullopt;
  // A string column encoded as a code sequence (smt/string_sequence.h); `payload` is then its
  // length and is compared with nothing.
  std::optional<CodeSequence> sequence = std::nullopt;
};

// Spark-order comparisons of two non-null payloads (callers add the NULL handling). Throws
// std::invalid_argument for domains that cannot be ordered against each other.
z3::expr sym_equal(const SymValue& a, const SymValue& b);
z3::expr sym_less(const SymValue& a, const SymValue& b);

// The value starts with the constant whose codes are `prefix` (strings only).
z3::expr sym_has_prefix(const SymValue& v, const std::vector<unsigned>& prefix);

// Constants. Strings and binary use `alphabet`, which must mention every code point of `v`.
SymValue encode_literal(z3::context& ctx, const Value& v, const CodePointMap& alphabet);
z3::expr encode_string(z3::context& ctx, const std::string& utf8, const CodePointMap& alphabet);
z3::expr encode_code(z3::context& ctx, unsigned code);  // a one-character string

// The payload sort of a domain (Opaque: Int, never compared).
z3::sort payload_sort(z3::context& ctx, Domain d);

// Z3 predicates used by several encoders.
z3::expr str_less(const z3::expr& a, const z3::expr& b);
z3::expr fp_is_nan(const z3::expr& f);

}  // namespace skipsound::smt
