// The mutations skipsound-mutate makes: each one replaces one span of a C++ source with other
// text. Found on tokens (tools/mutate/source_tokens.h), relying on the project's clang-format
// layout to tell operators from template brackets and references: a binary operator has
// whitespace on both sides, `vector<int>` and `T&& x` do not. A mutation that does not compile is
// counted as a build failure, never as a kill, so a wrong guess costs time, not truth.
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace skipsound::mutation {

enum class Operator {
  Relational,       // <  <=  >  >=  ==  != : each to its neighbour (< to <=, == to !=, ...)
  Constant,         // an integer literal, plus and minus one
  NegateCondition,  // if (c) / while (c) -> if (!(c))
  ConditionTrue,    // if (c) -> if (true)
  ConditionFalse,   // if (c) / while (c) -> if (false)
  Logical,          // && <-> ||
  ReturnConstant,   // return e; -> return true; / return false; / return 0; when the type is plain
  DeleteStatement,  // an expression statement alone on its line -> {}
};

// "relational", "constant", "negate-condition", ...; operator_from_name is its inverse.
const char* operator_name(Operator op);
std::optional<Operator> operator_from_name(std::string_view name);
const std::vector<Operator>& all_operators();

struct Mutation {
  Operator op = Operator::Relational;
  size_t offset = 0;  // of the replaced span in the source
  size_t length = 0;
  std::string replacement;
  size_t line = 1;    // of the span's start, 1-based
  size_t column = 1;
};

// Every mutation of the source, in source order (then by operator), none on an opted-out line.
std::vector<Mutation> enumerate_mutations(std::string_view source);

std::string apply_mutation(std::string_view source, const Mutation& mutation);

// The mutated line(s) as they read before and after, whitespace runs collapsed: what a report
// shows as "before -> after".
struct MutationText {
  std::string before;
  std::string after;
};
MutationText describe_mutation(std::string_view source, const Mutation& mutation);

}  // namespace skipsound::mutation
