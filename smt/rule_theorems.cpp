#include "smt/rule_theorems.h"

#include <chrono>

#include <nlohmann/json.hpp>

#include "checker/file_decision.h"
#include "checker/skipping_builder.h"
#include "model/sql/evaluator.h"
#include "model/sql/printer.h"
#include "model/stats/stats_consistency.h"
#include "model/stats/string_truncation.h"
#include "smt/expr_encoding.h"
#include "smt/symbolic_file.h"
#include "smt/symbolic_skipping.h"
#include "model/values/utf8.h"

namespace skipsound::smt {


const char* theorem_verdict_name(TheoremVerdict v) {
  switch (v) {
    case TheoremVerdict::Proved: return "PROVED";
    case TheoremVerdict::Counterexample: return "COUNTEREXAMPLE";
    case TheoremVerdict::Unknown: return "UNKNOWN";
  }
  return "?";
}

namespace {

const std::vector<int> kBothColumns{0, 1};

// Characters whose order relative to the sentinels matters: LIKE's wildcards and escape (a LIKE
// prefix must avoid them), and Delta's string-max tie-breakers U+007F and U+10FFFF.
std::set<char32_t> alphabet_for(const PredicateTemplate& t) {
  std::set<char32_t> mentioned{U'%', U'_', U'\\', U'a', 0x7F, 0x10FFFF};
  collect_code_points(*t.predicate, mentioned);
  return mentioned;
}

std::shared_ptr<const Schema> literal_schema(const PredicateTemplate& t) {
  std::vector<StructField> fields;
  for (size_t i = 0; i < t.slots.size(); ++i)
    fields.push_back(StructField{"literal" + std::to_string(i), t.slots[i].sentinel.type, true, {}});
  return std::make_shared<const Schema>(std::move(fields));
}

SkipExprPtr substitute_literals(const SkipExprPtr& e, const PredicateTemplate& t,
                                const std::vector<Value>& values) {
  if (e->kind == SkipKind::Literal) {
    for (size_t i = 0; i < t.slots.size(); ++i)
      if (e->literal == t.slots[i].sentinel) return skip_literal(values.at(i));
    return e;
  }
  if (e->children.empty()) return e;
  auto copy = std::make_shared<SkipExpr>(*e);
  for (SkipExprPtr& child : copy->children) child = substitute_literals(child, t, values);
  return copy;
}

// One theorem's symbols: the row, the literals and the file. Each placeholder literal (a slot's
// sentinel) is bound to its symbolic literal while encoding, on both the predicate and the
// skipping side, so no constant is ever substituted after the fact.
struct Encoding {
  Encoding(z3::context& ctx, const PredicateTemplate& t, Mutant writer_mutant, int string_prefix_length)
      : ctx(ctx),
        t(t),
        alphabet(alphabet_for(t)),
        row(ctx, *t.schema, alphabet),
        literal_fields(literal_schema(t)),
        literals(ctx, *literal_fields, alphabet),
        file(ctx, *t.schema, kBothColumns, alphabet, writer_mutant, string_prefix_length) {
    row.use_sequences(string_leaves(*t.schema), symbolic_string_capacity(string_prefix_length));
    literals.use_sequences(string_leaves(*literal_fields), symbolic_string_capacity(string_prefix_length));
  }

  std::optional<SymValue> literal_for(const Value& v) {
    if (v.is_null()) return std::nullopt;
    for (size_t i = 0; i < t.slots.size(); ++i)
      if (v == t.slots[i].sentinel) return literals.column(static_cast<int>(i));
    return std::nullopt;
  }

  // LIKE 'sentinel%' becomes "starts with the symbolic prefix".
  std::optional<SymValue> like_for(const Expr& like, ExprEncoder& encoder) {
    const Expr& pattern = *like.children[1];
    if (pattern.kind != ExprKind::Literal || pattern.literal.is_null()) return std::nullopt;
    for (size_t i = 0; i < t.slots.size(); ++i) {
      if (t.slots[i].shape != SlotShape::LikePrefix ||
          pattern.literal != Value::string(t.slots[i].sentinel.as_string() + "%"))
        continue;
      const SymValue value = encoder.encode(*like.children[0]);
      const SymValue& prefix = literals.column(static_cast<int>(i));
      if (!value.sequence || !prefix.sequence) throw std::invalid_argument("LIKE on a column that is not a string");
      return SymValue{value.is_null, sequence_is_prefix(*prefix.sequence, *value.sequence), Domain::Bool};
    }
    return std::nullopt;
  }

  // "The predicate is TRUE on the row", with the literals symbolic.
  z3::expr matches(const Expr& predicate) {
    ExprEncoder encoder(ctx, row, alphabet);
    encoder.override_nodes([this, &encoder](const Expr& e) -> std::optional<SymValue> {
      if (e.kind == ExprKind::Literal) return literal_for(e.literal);
      if (e.kind == ExprKind::Like) return like_for(e, encoder);
      return std::nullopt;
    });
    return encoder.is_true(predicate);
  }

  z3::expr skips(const SkippingPredicate& p, Mutant mutant) {
    const SymbolicSkipping production(file, *t.schema, alphabet, mutant,
                                      [this](const Value& v) { return literal_for(v); });
    return production.skips(p);
  }

  // Literals are non-null, LIKE prefixes as long as their sentinel and wildcard-free, IN items
  // ordered as their sentinels.
  std::vector<z3::expr> slot_facts() {
    std::vector<z3::expr> facts;
    for (size_t i = 0; i < t.slots.size(); ++i) {
      const SymValue& v = literals.column(static_cast<int>(i));
      facts.push_back(!v.is_null);
      if (t.slots[i].shape == SlotShape::LikePrefix) {
        const auto length = code_point_count(t.slots[i].sentinel.as_string());
        facts.push_back(v.sequence->length == ctx.int_val(static_cast<unsigned>(length)));
        for (size_t k = 0; k < length; ++k)
          for (const char32_t special : {U'%', U'_', U'\\'})
            facts.push_back(v.sequence->codes[k] != ctx.int_val(alphabet.encode(special)));
      }
      if (t.slots[i].not_below) {
        const SymValue& low = literals.column(static_cast<int>(*t.slots[i].not_below));
        facts.push_back(!sym_less(v, low));
      }
    }
    for (const z3::expr& c : literals.type_constraints()) facts.push_back(c);
    return facts;
  }

  // Every string and binary symbol at most `max_length` long.
  std::vector<z3::expr> short_string_facts(int max_length) const {
    std::vector<z3::expr> facts = file.short_string_constraints(max_length);
    for (const z3::expr& c : row.short_string_constraints(max_length)) facts.push_back(c);
    for (const z3::expr& c : literals.short_string_constraints(max_length)) facts.push_back(c);
    return facts;
  }

  // Every string symbol within the decodable alphabet. Costly for the string solver, so asserted
  // only once a model used an undecodable code.
  std::vector<z3::expr> alphabet_facts() const {
    std::vector<z3::expr> facts = file.alphabet_constraints();
    for (const z3::expr& c : row.alphabet_constraints()) facts.push_back(c);
    for (const z3::expr& c : literals.alphabet_constraints()) facts.push_back(c);
    return facts;
  }

  z3::context& ctx;
  const PredicateTemplate& t;
  CodePointMap alphabet;
  RowSymbols row;
  std::shared_ptr<const Schema> literal_fields;
  RowSymbols literals;
  SymbolicFile file;
};

TheoremCounterexample counterexample(const SymbolicFile::Decoded& file, const std::vector<Value>& literals,
                                     const std::optional<Row>& row, const ExprPtr& predicate,
                                     const SkipExprPtr& skipping, const Schema& schema) {
  TheoremCounterexample cex;
  cex.stats = file.stats;
  cex.dv_cardinality = file.dv_cardinality;
  cex.literals = literals;
  cex.row = row;
  cex.predicate = to_sql(predicate);
  cex.skipping_expression = to_string(skipping, schema);
  cex.stats_text = stats_to_json(cex.stats, schema).dump();
  if (cex.dv_cardinality > 0) cex.stats_text += " dv=" + std::to_string(cex.dv_cardinality);
  if (cex.row) cex.row_text = row_to_json(*cex.row, schema).dump();
  for (const Value& v : cex.literals)
    cex.literals_text += (cex.literals_text.empty() ? "" : ", ") + to_sql_literal(v);
  return cex;
}

double millis_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

// Why the file holding this row could not have been written with these stats, or nullopt. The
// string-max-plain-prefix mutant is a writer: its stats are checked against the writer itself.
std::optional<std::string> inconsistency(const SymbolicFile::Decoded& d, const Row& row,
                                         const Schema& schema, Mutant mutant, int string_prefix_length) {
  if (mutant != Mutant::StringMaxPlainPrefix) {
    const FileEvidence evidence{&d.stats, d.dv_cardinality, {}, string_prefix_length};
    const ConsistencyVerdict v = check_row_consistency(row, row_allowance(evidence, schema));
    if (v.kind == Consistency::Consistent) return std::nullopt;
    return "the row is not consistent with the stats: " + v.reason;
  }
  for (const auto& [leaf, truth] : d.truth) {
    const Value& value = row.at(leaf);
    if (value.is_null()) continue;
    if (truth.min.is_null() || *spark_compare(value, truth.min) < 0 || *spark_compare(truth.max, value) < 0)
      return "the row lies outside its file's true range";
    const std::optional<Value>& stored = d.stats.column(leaf).max;
    if (stored && truth.max.type.kind == TypeKind::String && !d.stats.wide() && d.dv_cardinality == 0 &&
        truncate_string_max(truth.max.as_string(), string_prefix_length, mutant) != stored->as_string())
      return "the mutant writer would not store this string max";
  }
  return std::nullopt;
}

struct Witness {
  std::optional<Row> row;  // absent when the theorem has no row (exactness)
  std::vector<Value> literals;
  SymbolicFile::Decoded file;
};

std::optional<Witness> decode_witness(const Encoding& enc, const z3::model& model, bool with_row,
                                      std::string& problem) {
  Witness w;
  if (with_row) {
    w.row = enc.row.decode(model, problem);
    if (!w.row) return std::nullopt;
  }
  const std::optional<Row> literals = enc.literals.decode(model, problem);
  if (!literals) return std::nullopt;
  w.literals.assign(literals->begin(), literals->end());
  std::optional<SymbolicFile::Decoded> file = enc.file.decode(model, problem);
  if (!file) return std::nullopt;
  w.file = std::move(*file);
  return w;
}

// solver.check(); a model that does not decode to real values is retried once with every string
// restricted to the decodable alphabet. On sat, `witness` holds the decoded model or `problem`
// says why there is none.
z3::check_result solve(z3::solver& solver, const Encoding& enc, bool with_row, std::optional<Witness>& witness,
                       std::string& problem) {
  z3::check_result r = solver.check();
  if (r != z3::sat) return r;
  witness = decode_witness(enc, solver.get_model(), with_row, problem);
  if (witness) return r;
  for (const z3::expr& f : enc.alphabet_facts()) solver.add(f);
  r = solver.check();
  if (r == z3::sat) witness = decode_witness(enc, solver.get_model(), with_row, problem);
  return r;
}

// Z3 sometimes spends its whole budget on a theorem whose counterexample is trivial (a file
// without stats, a NULL row) because long strings give it room to wander. When it gives up, the
// search is repeated with every string and binary symbol short: a model found there is a real
// counterexample (and is replayed like any other); "none there" proves nothing, so the answer
// stays unknown.
inline constexpr int kShortStringLength = 2;

// A fresh context and solver per theorem: a solver reused across theorems carries their lemmas
// and term order into the next search, so a verdict would depend on which theorems ran before it
// (measured: one came back UNKNOWN at the resource limit after 340 others, COUNTEREXAMPLE in
// 0.2 s alone). The push selects Z3's incremental core over the tactic pipeline a fresh solver
// runs on its first check, which hits the resource limit on that same theorem.
struct TheoremSolver {
  explicit TheoremSolver(const SolverLimits& limits) {
    apply_limits(solver, limits);
    solver.push();
  }
  z3::context ctx;
  z3::solver solver{ctx};
};

// One theorem: `assert_formula(solver, encoding)` states it, unsat proves it, and
// `judge(witness, result)` replays a model concretely before it may count as a counterexample.
// An error in Z3 or in encoding leaves the verdict UNKNOWN with the reason.
template <typename Assert, typename Judge>
TheoremResult run_theorem(const PredicateTemplate& t, Mutant mutant, const SolverLimits& limits,
                          int string_prefix_length, bool with_row, const char* proved_note, Assert assert_formula,
                          Judge judge) {
  const auto start = std::chrono::steady_clock::now();
  TheoremResult result{t.rule, t.type, TheoremVerdict::Unknown, "", std::nullopt, 0};
  std::optional<Witness> witness;
  std::string problem;
  std::string unknown_why;
  // One search in a fresh solver, the second with every string short (unknown when the theorem
  // has no strings to shorten).
  auto search = [&](bool short_strings) {
    TheoremSolver z3(limits);
    Encoding enc(z3.ctx, t, mutant, string_prefix_length);
    assert_formula(z3.solver, enc);
    if (short_strings) {
      const std::vector<z3::expr> facts = enc.short_string_facts(kShortStringLength);
      if (facts.empty()) return z3::unknown;
      for (const z3::expr& f : facts) z3.solver.add(f);
    }
    const z3::check_result answer = solve(z3.solver, enc, with_row, witness, problem);
    if (answer == z3::unknown && !short_strings)
      unknown_why = "z3: " + unknown_reason(z3.solver, limits, millis_since(start));
    return answer;
  };
  try {
    z3::check_result answer = search(false);
    // Among short strings only a model counts: "none there" proves nothing.
    if (answer == z3::unknown && search(true) == z3::sat) {
      answer = z3::sat;
      result.note = "found on short strings; the full search: " + unknown_why;
    }
    switch (answer) {
      case z3::unsat:
        result.verdict = TheoremVerdict::Proved;
        result.note = proved_note;
        break;
      case z3::unknown: result.note = unknown_why; break;
      case z3::sat:
        if (witness) judge(*witness, result);
        else result.note = "cannot decode the model: " + problem;
        break;
    }
  } catch (const z3::exception& e) {
    result.note = std::string("z3 error: ") + e.msg();
  } catch (const std::exception& e) {
    result.note = std::string("unsupported: ") + e.what();
  }
  result.millis = millis_since(start);
  return result;
}

}  // namespace

RuleProver::RuleProver(SolverLimits limits, int string_prefix_length)
    : limits_(limits), string_prefix_length_(string_prefix_length) {}

TheoremResult RuleProver::prove_sound(const PredicateTemplate& t, Mutant mutant) {
  const StatsEligibility eligibility(*t.schema, StatsConfig{});
  const std::optional<SkippingPredicate> built = build_skipping_predicate(t.predicate, eligibility, mutant);
  if (!built) {
    return TheoremResult{t.rule, t.type, TheoremVerdict::Proved, "no skipping expression: every file is kept",
                         std::nullopt, 0};
  }
  return prove_claim_sound(t, *built, mutant);
}

namespace {

// Replays a soundness witness through the concrete code: COUNTEREXAMPLE only when the concrete
// logic skips, the model evaluator finds the predicate TRUE and the row fits the stats.
void judge_witness(const PredicateTemplate& t, const SkippingPredicate& claimed, Mutant mutant,
                   int string_prefix_length, const Witness& w, TheoremResult& result) {
  const ExprPtr instantiated = instantiate(t, w.literals);
  const SkippingPredicate concrete{substitute_literals(claimed.expr, t, w.literals), claimed.referenced};
  TheoremCounterexample cex = counterexample(w.file, w.literals, w.row, instantiated, concrete.expr, *t.schema);
  const FileView view{&w.file.stats, w.file.dv_cardinality};
  if (decide_verdict(concrete, view, *t.schema, mutant) != FileVerdict::Skip) {
    result.note = "witness not confirmed: the concrete logic keeps the file";
  } else if (evaluate(*instantiated, *w.row) != Truth::True) {
    result.note = "witness not confirmed: the model evaluator does not find the predicate TRUE";
  } else if (const auto why = inconsistency(w.file, *w.row, *t.schema, mutant, string_prefix_length)) {
    result.note = "witness not confirmed: " + *why;
  } else {
    result.verdict = TheoremVerdict::Counterexample;
  }
  result.counterexample = std::move(cex);
}

}  // namespace

TheoremResult RuleProver::prove_claim_sound(const PredicateTemplate& t, const SkippingPredicate& claimed,
                                            Mutant mutant) {
  return run_theorem(
      t, mutant, limits_, string_prefix_length_, true, "unsat",
      [&](z3::solver& solver, Encoding& enc) {
        solver.add(enc.file.holds_row(enc.row));
        solver.add(enc.matches(*t.predicate));
        solver.add(enc.skips(claimed, mutant));
        for (const z3::expr& f : enc.file.facts()) solver.add(f);
        for (const z3::expr& f : enc.row.type_constraints()) solver.add(f);
        for (const z3::expr& f : enc.slot_facts()) solver.add(f);
      },
      [&](const Witness& w, TheoremResult& result) {
        judge_witness(t, claimed, mutant, string_prefix_length_, w, result);
      });
}

namespace {

// Every uninterpreted constant under e (a row column's payload may be built from raw symbols).
void collect_constants(const z3::expr& e, z3::expr_vector& out) {
  if (e.is_const() && e.decl().decl_kind() == Z3_OP_UNINTERPRETED) {
    for (unsigned i = 0; i < out.size(); ++i)
      if (z3::eq(out[i], e)) return;
    out.push_back(e);
    return;
  }
  if (e.is_app())
    for (unsigned i = 0; i < e.num_args(); ++i) collect_constants(e.arg(i), out);
}

}  // namespace

TheoremResult RuleProver::prove_exact(const PredicateTemplate& t, ExactnessScope scope) {
  const StatsEligibility eligibility(*t.schema, StatsConfig{});
  const std::optional<SkippingPredicate> built = build_skipping_predicate(t.predicate, eligibility);
  if (!built) {
    return TheoremResult{t.rule, t.type, TheoremVerdict::Unknown, "no skipping expression: never skips",
                         std::nullopt, 0};
  }
  auto assert_formula = [&](z3::solver& solver, Encoding& enc) {
    z3::context& ctx = enc.ctx;
    // Build the row's symbols first, so the quantifier below binds every one of them.
    const z3::expr matches = enc.matches(*t.predicate);
    const z3::expr holds = enc.file.holds_row(enc.row);
    z3::expr_vector row_constants(ctx);
    for (const int leaf : kBothColumns) {
      const SymValue& v = enc.row.column(leaf);
      collect_constants(v.is_null, row_constants);
      collect_constants(v.payload, row_constants);
      if (v.sequence)
        for (const z3::expr& code : v.sequence->codes) collect_constants(code, row_constants);
    }
    z3::expr row_facts = ctx.bool_val(true);
    for (const z3::expr& f : enc.row.type_constraints()) row_facts = row_facts && f;
    for (const z3::expr& f : enc.row.alphabet_constraints()) row_facts = row_facts && f;
    solver.add(z3::forall(row_constants, z3::implies(row_facts && holds, !matches)));
    solver.add(!enc.skips(*built, Mutant::None));
    solver.add(enc.file.exact() && !enc.file.num_records_absent());
    const SymbolicColumn& c = enc.file.column(0);
    solver.add(!c.null_count.is_null);
    if (has_min_max(t.schema->leaves()[0].type.kind)) solver.add(!c.min.is_null && !c.max.is_null);
    if (scope == ExactnessScope::ManyRows) {
      const z3::expr live = enc.file.physical_rows() - enc.file.dv_cardinality();
      solver.add(live - c.live_nulls >= ctx.int_val(kExactnessNonNullRows));
    }
    for (const z3::expr& f : enc.file.facts()) solver.add(f);
    for (const z3::expr& f : enc.slot_facts()) solver.add(f);
  };
  auto judge = [&](const Witness& w, TheoremResult& result) {
    const ExprPtr instantiated = instantiate(t, w.literals);
    const auto concrete = build_skipping_predicate(instantiated, eligibility);
    const FileView view{&w.file.stats, w.file.dv_cardinality};
    result.counterexample = counterexample(w.file, w.literals, std::nullopt, instantiated,
                                           concrete ? concrete->expr : nullptr, *t.schema);
    if (concrete && decide_verdict(*concrete, view, *t.schema) == FileVerdict::Keep) {
      result.verdict = TheoremVerdict::Counterexample;
      result.note = "missed skip: kept, yet no row consistent with the stats matches";
    } else {
      result.note = "example not confirmed: the concrete logic skips the file";
    }
  };
  return run_theorem(t, Mutant::None, limits_, string_prefix_length_, false,
                     "exact: every kept file holds a matching row",
                     assert_formula, judge);
}

}  // namespace skipsound::smt
