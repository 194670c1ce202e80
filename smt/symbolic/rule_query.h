// One rule theorem's solver session (docs/semantics.md §6.6): symbols for a row, for a predicate
// template's literal slots and for a file with symbolic stats, in a fresh Z3 context. smt/ only
// encodes, checks and decodes here; which theorem to state, when to retry and how a model is
// judged is proof logic (proofs/rules/rule_theorems.h).
#pragma once
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "checker/skipping_expr.h"
#include "model/mutants/mutant.h"
#include "model/sql/expr.h"
#include "model/sql/row.h"
#include "model/sql/schema.h"
#include "smt/decoded_file.h"
#include "smt/solver_limits.h"

namespace skipsound::smt {

enum class SlotShape {
  Free,        // any non-null value of the slot's type
  LikePrefix,  // a LIKE 's%' prefix: as long as the sentinel, no wildcard or escape character
};

// A placeholder literal ("sentinel") of a predicate template, bound to one symbolic literal.
struct LiteralSlot {
  Value sentinel;
  SlotShape shape = SlotShape::Free;
  // IN lists: this slot is >= that earlier slot in Spark order. IN is symmetric in its items, so
  // ordering them loses no generality, and the builder's choice of the list's min and max (made
  // on the sentinels, which grow with the slot index) stays right for every symbolic value.
  std::optional<size_t> not_below;
};

// A predicate over columns c0 and c1 whose literals are the slots' sentinels.
struct SymbolicPredicate {
  std::shared_ptr<const Schema> schema;
  ExprPtr predicate;  // bound against schema
  std::vector<LiteralSlot> slots;
};

enum class SolverAnswer { Sat, Unsat, Unknown };

// Z3 reported an error; the message is Z3's.
struct SolverError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// What a model assigns: the row (when the theorem has one), the literals by slot, the file.
struct TheoremWitness {
  std::optional<Row> row;
  std::vector<Value> literals;
  DecodedFile file;
};

// Every member may throw SolverError, or std::invalid_argument on a predicate the encoding does
// not support.
class RuleQuery {
 public:
  // `mutant` changes the symbolic writer and the symbolic production logic alike;
  // `string_prefix_length` is the writer's N (docs/semantics.md §4.4).
  RuleQuery(const SymbolicPredicate& p, Mutant mutant, int string_prefix_length, const SolverLimits& limits);
  ~RuleQuery();
  RuleQuery(const RuleQuery&) = delete;
  RuleQuery& operator=(const RuleQuery&) = delete;

  // "A row consistent with the file's stats makes the predicate TRUE and `claimed` skips the file."
  void assert_matching_row_skipped(const SkippingPredicate& claimed);
  // "`built` keeps the file, its stats are tight and complete, and no row consistent with them
  // makes the predicate TRUE"; with `min_non_null_rows`, the file holds at least that many
  // non-null values of c0.
  void assert_kept_without_match(const SkippingPredicate& built, std::optional<int> min_non_null_rows);
  // Every string and binary symbol at most `max_length` long; false (nothing asserted) when the
  // theorem has no such symbol.
  bool restrict_to_short_strings(int max_length);
  // Every string symbol within the decodable alphabet.
  void restrict_to_alphabet();

  SolverAnswer check();
  // The last check's model (it must have been Sat) as values, or nullopt with `problem` saying why
  // it does not decode.
  std::optional<TheoremWitness> witness(bool with_row, std::string& problem) const;
  // Why the last check came back unknown, `elapsed_ms` after the theorem started.
  std::string unknown_reason(double elapsed_ms) const;

 private:
  struct Session;
  std::unique_ptr<Session> session_;
};

}  // namespace skipsound::smt
