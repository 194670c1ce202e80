// One per-file soundness case: a table, one of its files, and read predicates over it, each
// biased towards that file's bounds. Several predicates share a file so that a run checks many
// (predicate, file) decisions per generated file.
#pragma once
#include <iosfwd>
#include <vector>

#include <rapidcheck.h>

#include "generators/file_gen.h"
#include "generators/schema_gen.h"
#include "model/sql/expr.h"
#include "model/mutants/mutant.h"

namespace skipsound::generators {

struct FileCase {
  TableShape table;
  GeneratedFile file;
  std::vector<ExprPtr> predicates;  // bound
};

inline constexpr std::size_t kMaxPredicatesPerFile = 8;

// `writer_mutant` reaches the stats writer (see file_for).
rc::Gen<FileCase> file_case(Mutant writer_mutant = Mutant::None);

// Readable dump for RapidCheck counterexamples: schema, config, rows (deleted ones marked),
// stats JSON and the predicates as SQL.
void print_file_case(const FileCase& c, std::ostream& os);

}  // namespace skipsound::generators

namespace rc {
template <>
struct Arbitrary<skipsound::generators::FileCase> {
  static Gen<skipsound::generators::FileCase> arbitrary() { return skipsound::generators::file_case(); }
};
}  // namespace rc

namespace skipsound::generators {
// Found by RapidCheck's show() through argument-dependent lookup.
inline void showValue(const FileCase& c, std::ostream& os) { print_file_case(c, os); }
}  // namespace skipsound::generators
