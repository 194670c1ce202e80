// Mutant schemata (docs/mutation.md, "Mutant schemata"): every mutation of a source rewritten as
// a run-time choice, so one build holds all of them and the environment picks one per process.
// An expression becomes `(skipsound_mutant_is(12) ? a <= b : a < b)` over the operator's
// operands, a condition `(… ? !(c) : … ? true : static_cast<bool>(c))`, a deleted statement
// `{ if (!skipsound_mutant_is(12)) { f(x); } }`. The original text stays where it was, so line
// numbers do not move; a mutation inside another one's span is nested in its original branch.
// Operands are found on tokens by precedence, relying on the project's clang-format layout as the
// mutations themselves do (tools/mutate/mutations.h); a mutation whose site cannot be found, or
// that crosses another's, is left out and built on its own.
#pragma once
#include <cstddef>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "tools/mutate/mutations.h"

namespace skipsound::mutation {

// The environment variable the schema build reads (tools/mutate/mutant_schema_runtime.h).
inline constexpr const char* kMutantIdVariable = "SKIPSOUND_MUTANT_ID";
// The file a schema build's process appends the ids of the sites it reached to.
inline constexpr const char* kReachedVariable = "SKIPSOUND_MUTANT_REACHED";

struct NumberedMutation {
  size_t id = 0;  // the run's candidate index: unique over the run's files
  Mutation mutation;
};

struct SchemaSource {
  std::string text;             // the source with its schemata, `include_line` first
  std::vector<size_t> chosen;   // ids the text can choose at run time
  std::vector<size_t> left_out; // ids it cannot express (to be built one by one)
};

// Rewrites `source` with every mutation not in `excluded` as a run-time choice. `include_line`
// (the #include of the runtime header) goes first, followed by `#line 1`, so the compiler's line
// numbers are the original's.
SchemaSource render_schemata(std::string_view source, const std::vector<NumberedMutation>& mutations,
                             const std::set<size_t>& excluded, const std::string& include_line);

// The first and last source line a mutation's schema site covers (for blaming compile errors).
struct LineSpan {
  size_t first = 0;
  size_t last = 0;
};
std::vector<std::pair<size_t, LineSpan>> schema_site_lines(std::string_view source,
                                                           const std::vector<NumberedMutation>& mutations);

}  // namespace skipsound::mutation
