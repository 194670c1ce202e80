// The symbolic rule theorems (docs/semantics.md §6.6): for a predicate template with symbolic literals and a
// file with symbolic stats, "a row consistent with the stats makes the predicate TRUE and the
// production logic skips the file" is unsatisfiable. The production side is the builder's own
// skipping predicate for the template, encoded with verification, the keep rule, the timestamp
// bump, string truncation and NaN order (smt/symbolic/symbolic_skipping.h), mutants included. A solver
// witness is replayed through the concrete code before it is called a counterexample. smt/ encodes,
// checks and decodes (smt/symbolic/rule_query.h); what each theorem states, when to search again and how a
// witness is judged is here.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "checker/skipping_expr.h"
#include "model/sql/row.h"
#include "model/stats/stats.h"
#include "model/stats/string_truncation.h"
#include "proofs/rules/predicate_template.h"
#include "smt/solver_limits.h"

namespace skipsound {

enum class TheoremVerdict { Proved, Counterexample, Unknown };
const char* theorem_verdict_name(TheoremVerdict v);  // "PROVED", "COUNTEREXAMPLE", "UNKNOWN"

// A file, literals and (for soundness) a row on which the theorem fails, re-checked concretely.
struct TheoremCounterexample {
  FileStats stats;
  int64_t dv_cardinality = 0;
  std::vector<Value> literals;  // by slot
  std::optional<Row> row;       // absent for exactness (no consistent row matches)
  std::string predicate;        // the template with these literals, as SQL
  std::string skipping_expression;
  // Rendered for reports: Delta stats JSON (+ "dv=N"), the row as JSON, the literals as SQL.
  std::string stats_text;
  std::string row_text;
  std::string literals_text;
};

struct TheoremResult {
  std::string rule;
  std::string type;
  TheoremVerdict verdict = TheoremVerdict::Unknown;
  std::string note;  // PROVED: how; UNKNOWN: why
  std::optional<TheoremCounterexample> counterexample;
  double millis = 0;
};

// Which files the exactness converse speaks about. The rules never count rows, so a file with
// fewer than three non-null values cannot hold a value strictly between its min and max; ManyRows
// assumes at least that many, AnyRowCount shows the missed skip it costs.
enum class ExactnessScope { ManyRows, AnyRowCount };
inline constexpr int kExactnessNonNullRows = 3;

// Measured: the default theorems (every type but float) need between 10M and 20M steps at most
// (one needs more than 10M), and each of the 11,142 composition templates fits within this limit.
inline constexpr smt::SolverLimits kProverLimits{50'000'000, 0};

class RuleProver {
 public:
  // `string_prefix_length`: the writer's N (docs/semantics.md §4.4), for the symbolic file and the replay.
  explicit RuleProver(smt::SolverLimits limits = kProverLimits, int string_prefix_length = kDefaultStringPrefixLength);

  // Soundness of the production rule under `mutant`.
  TheoremResult prove_sound(const PredicateTemplate& t, Mutant mutant = Mutant::None);
  // Soundness of a hand-made skipping predicate written over the template's sentinels (tests
  // inject wrong rules with it); `claimed` must reference only the template's literals.
  TheoremResult prove_claim_sound(const PredicateTemplate& t, const SkippingPredicate& claimed,
                                  Mutant mutant = Mutant::None);
  // The converse on tight stats with every stat present and no deletion vector: a kept file
  // holds a row consistent with the stats that makes the predicate TRUE. COUNTEREXAMPLE = a
  // missed skip (stats, literals; no row can match).
  TheoremResult prove_exact(const PredicateTemplate& t, ExactnessScope scope = ExactnessScope::ManyRows);

 private:
  smt::SolverLimits limits_;
  int string_prefix_length_;
};

}  // namespace skipsound
