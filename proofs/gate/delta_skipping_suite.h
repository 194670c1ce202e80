// Delta's own skipping suite (DataSkippingDeltaTests in delta-io/delta's Spark tests), ported as
// the corpus tests/corpus/delta-skipping/: one JSON file per Delta test case with its schema, its
// data files' rows, the table settings and, per predicate, what Delta did (docs/delta-conformance.md, "Delta's own
// skipping suite"). Each file's stats are written by the model's writer as Delta stats JSON text
// and read back by the production reader (docs/semantics.md §4.7), then the production scan decides
// (checker/scan_filter.h), and the model's evaluator reads every row:
//   - unsound: a file skipped although one of its rows makes the predicate TRUE, whatever Delta did;
//   - missed: a file Delta skips that the checker keeps (a lost skip: Delta fidelity, §5.3);
//   - extra: in a case marked "exact", a file Delta reads that the checker skips (a skip Delta's
//     rules do not make, sound or not: Delta fidelity the other way);
//   - error: a predicate that does not parse and is not marked "needs": "grammar", a marked one
//     that parses (the mark must go), or a case that does not load.
// The gate runs it with the scenario corpus: any of the three is a finding of that case's file.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "model/mutants/mutant.h"

namespace skipsound {

// One (predicate, file) decision that differs from what it should be.
struct SuiteDecision {
  std::string sql;
  size_t file = 0;           // among the case's data files, from 0
  size_t files = 1;          // how many the case has
  std::string reason;        // the checker's, when it keeps the file
  std::string expression;    // the checker's skipping expression
};

enum class SuiteErrorKind {
  DoesNotLoad,       // the case's file is not JSON, or not a case
  NotMarked,         // a predicate that does not parse and is not marked "needs": "grammar"
  MarkedButParses,   // a marked predicate that parses: the mark must go
};

struct SuiteError {
  SuiteErrorKind kind = SuiteErrorKind::DoesNotLoad;
  std::string sql;     // empty for DoesNotLoad
  std::string detail;  // the parser's or loader's message
};

struct DeltaSuiteCase {
  std::string name;  // the file's stem: "and-simple"
  int predicates = 0;
  int decisions = 0;              // (predicate, file) pairs judged
  int delta_skips = 0;            // files Delta skips, among the predicates that parse
  int skips_made = 0;             // ... that the checker skips too
  int needs_grammar = 0;          // marked predicates that do not parse yet
  std::vector<SuiteDecision> unsound;  // skipped although a row makes the predicate TRUE
  std::vector<SuiteDecision> missed;   // Delta skips, the checker keeps (with its reason)
  // Delta reads, the checker skips, no row matches: fine, unless the case says "exact": true (the
  // rule corpus, whose expectations are Delta's rules themselves): then it is in `extra` too.
  std::vector<SuiteDecision> beyond_delta;
  std::vector<SuiteDecision> extra;
  std::vector<std::string> grammar_pending;  // the marked predicates' SQL
  std::vector<SuiteError> errors;
  double seconds = 0;

  bool failed() const { return !unsound.empty() || !missed.empty() || !extra.empty() || !errors.empty(); }
};

// How the gate and the tests print them: "`a <= 1` [file 2]: skipped, although a row makes it TRUE".
std::string unsound_text(const SuiteDecision& d);
std::string missed_text(const SuiteDecision& d);
std::string beyond_delta_text(const SuiteDecision& d);
std::string extra_text(const SuiteDecision& d);
std::string error_text(const SuiteError& e);

// Every *.json case of `dir` in name order, judged under `mutant` (the checker's and the writer's).
std::vector<DeltaSuiteCase> run_delta_skipping_suite(const std::filesystem::path& dir, Mutant mutant = Mutant::None);

}  // namespace skipsound
