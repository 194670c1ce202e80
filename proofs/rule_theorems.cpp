#include "proofs/rule_theorems.h"

#include <chrono>

#include <nlohmann/json.hpp>

#include "checker/file_decision.h"
#include "checker/skipping_builder.h"
#include "model/evaluator.h"
#include "model/printer.h"
#include "model/stats_consistency.h"
#include "model/string_truncation.h"
#include "smt/expr_encoding.h"
#include "smt/symbolic_file.h"
#include "smt/symbolic_skipping.h"

namespace skipsound {

using namespace smt;

const char* theorem_verdict_name(TheoremVerdict v) {
  switch (v) {
    case TheoremVerdict::Proved: return "PROVED";
    case TheoremVerdict::Counterexample: return "COUNTEREXAMPLE";
    case TheoremVerdict::Unknown: return "UNKNOWN";
  }
  return "?";
}

struct RuleProver::Context {
  z3::context ctx;
  z3::solver solver{ctx};
};

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

// One theorem's symbols: the row, the literals and the file, plus the sentinel substitution.
struct Encoding {
  Encoding(z3::context& ctx, const PredicateTemplate& t, Mutant writer_mutant)
      : alphabet(alphabet_for(t)),
        row(ctx, *t.schema, alphabet),
        literal_fields(literal_schema(t)),
        literals(ctx, *literal_fields, alphabet),
        file(ctx, *t.schema, kBothColumns, alphabet, writer_mutant),
        from(ctx),
        to(ctx) {
    for (size_t i = 0; i < t.slots.size(); ++i) {
      from.push_back(encode_literal(ctx, t.slots[i].sentinel, alphabet).payload);
      to.push_back(literals.column(static_cast<int>(i)).payload);
    }
  }

  z3::expr symbolic(const z3::expr& with_sentinels) {
    return from.empty() ? with_sentinels : z3::expr(with_sentinels).substitute(from, to);
  }

  // Literals are non-null, LIKE prefixes as long as their sentinel and wildcard-free, IN items
  // ordered as their sentinels.
  std::vector<z3::expr> slot_facts(z3::context& ctx, const PredicateTemplate& t) {
    std::vector<z3::expr> facts;
    for (size_t i = 0; i < t.slots.size(); ++i) {
      const SymValue& v = literals.column(static_cast<int>(i));
      facts.push_back(!v.is_null);
      if (t.slots[i].shape == SlotShape::LikePrefix) {
        const auto length = utf8_code_points(t.slots[i].sentinel.as_string()).size();
        facts.push_back(v.payload.length() == ctx.int_val(static_cast<unsigned>(length)));
        for (const char* special : {"%", "_", "\\"})
          facts.push_back(!v.payload.contains(encode_string(ctx, special, alphabet)));
      }
      if (t.slots[i].not_below) {
        const SymValue& low = literals.column(static_cast<int>(*t.slots[i].not_below));
        facts.push_back(!sym_less(v, low));
      }
    }
    for (const z3::expr& c : literals.type_constraints()) facts.push_back(c);
    return facts;
  }

  CodePointMap alphabet;
  RowSymbols row;
  std::shared_ptr<const Schema> literal_fields;
  RowSymbols literals;
  SymbolicFile file;
  z3::expr_vector from, to;
};

void render(TheoremCounterexample& cex, const Schema& schema) {
  cex.stats_text = stats_to_json(cex.stats, schema).dump();
  if (cex.dv_cardinality > 0) cex.stats_text += " dv=" + std::to_string(cex.dv_cardinality);
  if (cex.row) cex.row_text = row_to_json(*cex.row, schema).dump();
  for (const Value& v : cex.literals)
    cex.literals_text += (cex.literals_text.empty() ? "" : ", ") + to_sql_literal(v);
}

double millis_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

std::optional<std::vector<Value>> decode_literals(const Encoding& enc, const z3::model& model,
                                                  std::string& problem) {
  const std::optional<Row> values = enc.literals.decode(model, problem);
  if (!values) return std::nullopt;
  return std::vector<Value>(values->begin(), values->end());
}

// Why the file holding this row could not have been written with these stats, or nullopt. The
// string-max-plain-prefix mutant is a writer: its stats are checked against the writer itself.
std::optional<std::string> inconsistency(const SymbolicFile::Decoded& d, const Row& row,
                                         const Schema& schema, Mutant mutant) {
  if (mutant != Mutant::StringMaxPlainPrefix) {
    const FileEvidence evidence{&d.stats, d.dv_cardinality, {}};
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
        truncate_string_max(truth.max.as_string(), kDefaultStringPrefixLength, mutant) != stored->as_string())
      return "the mutant writer would not store this string max";
  }
  return std::nullopt;
}

}  // namespace

RuleProver::RuleProver(unsigned timeout_ms) : z3_(std::make_unique<Context>()) {
  z3::params params(z3_->ctx);
  params.set("timeout", timeout_ms);
  z3_->solver.set(params);
}

RuleProver::~RuleProver() = default;

TheoremResult RuleProver::prove_sound(const PredicateTemplate& t, Mutant mutant) {
  const StatsEligibility eligibility(*t.schema, StatsConfig{});
  const std::optional<SkippingPredicate> built = build_skipping_predicate(t.predicate, eligibility, mutant);
  if (!built) {
    return TheoremResult{t.rule, t.type, TheoremVerdict::Proved, "no skipping expression: every file is kept",
                         std::nullopt, 0};
  }
  return prove_claim_sound(t, *built, mutant);
}

TheoremResult RuleProver::prove_claim_sound(const PredicateTemplate& t, const SkippingPredicate& claimed,
                                            Mutant mutant) {
  const auto start = std::chrono::steady_clock::now();
  TheoremResult result{t.rule, t.type, TheoremVerdict::Unknown, "", std::nullopt, 0};
  z3::context& ctx = z3_->ctx;
  z3::solver& solver = z3_->solver;
  solver.push();
  try {
    Encoding enc(ctx, t, mutant);
    ExprEncoder predicate(ctx, enc.row, enc.alphabet);
    const SymbolicSkipping production(enc.file, *t.schema, enc.alphabet, mutant);
    const z3::expr matches = enc.symbolic(predicate.is_true(*t.predicate));
    const z3::expr skipped = enc.symbolic(production.skips(claimed));
    solver.add(enc.file.holds_row(enc.row));
    solver.add(matches);
    solver.add(skipped);
    for (const z3::expr& f : enc.file.facts()) solver.add(f);
    for (const z3::expr& f : enc.row.type_constraints()) solver.add(f);
    for (const z3::expr& f : enc.slot_facts(ctx, t)) solver.add(f);
    switch (solver.check()) {
      case z3::unsat:
        result.verdict = TheoremVerdict::Proved;
        result.note = "unsat";
        break;
      case z3::unknown: result.note = "z3: " + solver.reason_unknown(); break;
      case z3::sat: {
        const z3::model model = solver.get_model();
        std::string problem;
        const auto row = enc.row.decode(model, problem);
        const auto literals = row ? decode_literals(enc, model, problem) : std::nullopt;
        const auto file = literals ? enc.file.decode(model, problem) : std::nullopt;
        if (!file) {
          result.note = "cannot decode the witness: " + problem;
          break;
        }
        const ExprPtr instantiated = instantiate(t, *literals);
        const SkippingPredicate concrete{substitute_literals(claimed.expr, t, *literals), claimed.referenced};
        TheoremCounterexample cex{file->stats, file->dv_cardinality, *literals, *row, to_sql(instantiated),
                                  to_string(concrete.expr, *t.schema)};
        render(cex, *t.schema);
        const FileView view{&file->stats, file->dv_cardinality};
        if (decide_verdict(concrete, view, *t.schema, mutant) != FileVerdict::Skip) {
          result.note = "witness not confirmed: the concrete logic keeps the file";
        } else if (evaluate(*instantiated, *row) != Truth::True) {
          result.note = "witness not confirmed: the model evaluator does not find the predicate TRUE";
        } else if (const auto why = inconsistency(*file, *row, *t.schema, mutant)) {
          result.note = "witness not confirmed: " + *why;
        } else {
          result.verdict = TheoremVerdict::Counterexample;
          result.counterexample = std::move(cex);
        }
        if (result.verdict == TheoremVerdict::Unknown) result.counterexample = std::move(cex);
        break;
      }
    }
  } catch (const z3::exception& e) {
    result.note = std::string("z3 error: ") + e.msg();
  } catch (const std::exception& e) {
    result.note = std::string("unsupported: ") + e.what();
  }
  solver.pop();
  result.millis = millis_since(start);
  return result;
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

TheoremResult RuleProver::prove_exact(const PredicateTemplate& t) {
  const auto start = std::chrono::steady_clock::now();
  TheoremResult result{t.rule, t.type, TheoremVerdict::Unknown, "", std::nullopt, 0};
  const StatsEligibility eligibility(*t.schema, StatsConfig{});
  const std::optional<SkippingPredicate> built = build_skipping_predicate(t.predicate, eligibility);
  if (!built) {
    result.note = "no skipping expression: never skips";
    return result;
  }
  z3::context& ctx = z3_->ctx;
  z3::solver& solver = z3_->solver;
  solver.push();
  try {
    Encoding enc(ctx, t, Mutant::None);
    ExprEncoder predicate(ctx, enc.row, enc.alphabet);
    const SymbolicSkipping production(enc.file, *t.schema, enc.alphabet, Mutant::None);
    const z3::expr matches = enc.symbolic(predicate.is_true(*t.predicate));
    const z3::expr holds = enc.file.holds_row(enc.row);
    z3::expr_vector row_constants(ctx);
    for (const int leaf : kBothColumns) {
      collect_constants(enc.row.column(leaf).is_null, row_constants);
      collect_constants(enc.row.column(leaf).payload, row_constants);
    }
    z3::expr row_facts = ctx.bool_val(true);
    for (const z3::expr& f : enc.row.type_constraints()) row_facts = row_facts && f;
    solver.add(z3::forall(row_constants, z3::implies(row_facts && holds, !matches)));
    solver.add(!enc.symbolic(production.skips(*built)));
    solver.add(enc.file.exact() && !enc.file.num_records_absent());
    const SymbolicColumn& c = enc.file.column(0);
    solver.add(!c.null_count.is_null);
    if (has_min_max(t.schema->leaves()[0].type.kind)) solver.add(!c.min.is_null && !c.max.is_null);
    for (const z3::expr& f : enc.file.facts()) solver.add(f);
    for (const z3::expr& f : enc.slot_facts(ctx, t)) solver.add(f);
    switch (solver.check()) {
      case z3::unsat:
        result.verdict = TheoremVerdict::Proved;
        result.note = "exact: every kept file holds a matching row";
        break;
      case z3::unknown: result.note = "z3: " + solver.reason_unknown(); break;
      case z3::sat: {
        const z3::model model = solver.get_model();
        std::string problem;
        const auto literals = decode_literals(enc, model, problem);
        const auto file = literals ? enc.file.decode(model, problem) : std::nullopt;
        if (!file) {
          result.note = "cannot decode the example: " + problem;
          break;
        }
        const ExprPtr instantiated = instantiate(t, *literals);
        const auto concrete = build_skipping_predicate(instantiated, eligibility);
        const FileView view{&file->stats, file->dv_cardinality};
        result.counterexample = TheoremCounterexample{file->stats, file->dv_cardinality, *literals,
                                                      std::nullopt, to_sql(instantiated),
                                                      to_string(concrete ? concrete->expr : nullptr, *t.schema)};
        render(*result.counterexample, *t.schema);
        if (concrete && decide_verdict(*concrete, view, *t.schema) == FileVerdict::Keep) {
          result.verdict = TheoremVerdict::Counterexample;
          result.note = "missed skip: kept, yet no row consistent with the stats matches";
        } else {
          result.note = "example not confirmed: the concrete logic skips the file";
        }
        break;
      }
    }
  } catch (const z3::exception& e) {
    result.note = std::string("z3 error: ") + e.msg();
  } catch (const std::exception& e) {
    result.note = std::string("unsupported: ") + e.what();
  }
  solver.pop();
  result.millis = millis_since(start);
  return result;
}

}  // namespace skipsound
