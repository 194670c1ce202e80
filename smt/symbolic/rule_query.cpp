#include "smt/symbolic/rule_query.h"

#include <z3++.h>

#include "model/values/utf8.h"
#include "smt/expr_encoding.h"
#include "smt/symbolic_file.h"
#include "smt/symbolic/symbolic_skipping.h"

namespace skipsound::smt {

namespace {

const std::vector<int> kBothColumns{0, 1};

// Characters whose order relative to the sentinels matters: LIKE's wildcards and escape (a LIKE
// prefix must avoid them), and Delta's string-max tie-breakers U+007F and U+10FFFF.
std::set<char32_t> alphabet_for(const SymbolicPredicate& p) {
  std::set<char32_t> mentioned{U'%', U'_', U'\\', U'a', 0x7F, 0x10FFFF};
  collect_code_points(*p.predicate, mentioned);
  return mentioned;
}

std::shared_ptr<const Schema> literal_schema(const SymbolicPredicate& p) {
  std::vector<StructField> fields;
  for (size_t i = 0; i < p.slots.size(); ++i)
    fields.push_back(StructField{"literal" + std::to_string(i), p.slots[i].sentinel.type, true, {}});
  return std::make_shared<const Schema>(std::move(fields));
}

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

// Runs `body`, reporting a Z3 error as SolverError so callers need no Z3 types.
template <typename Body>
auto translating_z3_errors(Body body) {
  try {
    return body();
  } catch (const z3::exception& e) {
    throw SolverError(e.msg());
  }
}

}  // namespace

// One theorem's symbols: the row, the literals and the file. Each placeholder literal (a slot's
// sentinel) is bound to its symbolic literal while encoding, on both the predicate and the
// skipping side, so no constant is ever substituted after the fact.
//
// A fresh context and solver per theorem: a solver reused across theorems carries their lemmas
// and term order into the next search, so a verdict would depend on which theorems ran before it
// (measured: one came back UNKNOWN at the resource limit after 340 others, COUNTEREXAMPLE in
// 0.2 s alone). The push selects Z3's incremental core over the tactic pipeline a fresh solver
// runs on its first check, which hits the resource limit on that same theorem.
struct RuleQuery::Session {
  Session(const SymbolicPredicate& p, Mutant mutant, int string_prefix_length, const SolverLimits& limits)
      : limits(limits),
        p(p),
        mutant(mutant),
        pushed(push_limited(solver, limits)),
        alphabet(alphabet_for(p)),
        row(ctx, *p.schema, alphabet),
        literal_fields(literal_schema(p)),
        literals(ctx, *literal_fields, alphabet),
        file(ctx, *p.schema, kBothColumns, alphabet, mutant, string_prefix_length) {
    row.use_sequences(string_leaves(*p.schema), symbolic_string_capacity(string_prefix_length));
    literals.use_sequences(string_leaves(*literal_fields), symbolic_string_capacity(string_prefix_length));
  }

  static bool push_limited(z3::solver& solver, const SolverLimits& limits) {
    apply_limits(solver, limits);
    solver.push();
    return true;
  }

  std::optional<SymValue> literal_for(const Value& v) {
    if (v.is_null()) return std::nullopt;
    for (size_t i = 0; i < p.slots.size(); ++i)
      if (v == p.slots[i].sentinel) return literals.column(static_cast<int>(i));
    return std::nullopt;
  }

  // LIKE 'sentinel%' becomes "starts with the symbolic prefix".
  std::optional<SymValue> like_for(const Expr& like, ExprEncoder& encoder) {
    const Expr& pattern = *like.children[1];
    if (pattern.kind != ExprKind::Literal || pattern.literal.is_null()) return std::nullopt;
    for (size_t i = 0; i < p.slots.size(); ++i) {
      if (p.slots[i].shape != SlotShape::LikePrefix ||
          pattern.literal != Value::string(p.slots[i].sentinel.as_string() + "%"))
        continue;
      const SymValue value = encoder.encode(*like.children[0]);
      const SymValue& prefix = literals.column(static_cast<int>(i));
      if (!value.sequence || !prefix.sequence) throw std::invalid_argument("LIKE on a column that is not a string");
      return SymValue{value.is_null, sequence_is_prefix(*prefix.sequence, *value.sequence), Domain::Bool};
    }
    return std::nullopt;
  }

  // "The predicate is TRUE on the row", with the literals symbolic.
  z3::expr matches() {
    ExprEncoder encoder(ctx, row, alphabet);
    encoder.override_nodes([this, &encoder](const Expr& e) -> std::optional<SymValue> {
      if (e.kind == ExprKind::Literal) return literal_for(e.literal);
      if (e.kind == ExprKind::Like) return like_for(e, encoder);
      return std::nullopt;
    });
    return encoder.is_true(*p.predicate);
  }

  z3::expr skips(const SkippingPredicate& skipping) {
    const SymbolicSkipping production(file, *p.schema, alphabet, mutant,
                                      [this](const Value& v) { return literal_for(v); });
    return production.skips(skipping);
  }

  // Literals are non-null, LIKE prefixes as long as their sentinel and wildcard-free, IN items
  // ordered as their sentinels.
  std::vector<z3::expr> slot_facts() {
    std::vector<z3::expr> facts;
    for (size_t i = 0; i < p.slots.size(); ++i) {
      const SymValue& v = literals.column(static_cast<int>(i));
      facts.push_back(!v.is_null);
      if (p.slots[i].shape == SlotShape::LikePrefix) {
        const auto length = code_point_count(p.slots[i].sentinel.as_string());
        facts.push_back(v.sequence->length == ctx.int_val(static_cast<unsigned>(length)));
        for (size_t k = 0; k < length; ++k)
          for (const char32_t special : {U'%', U'_', U'\\'})
            facts.push_back(v.sequence->codes[k] != ctx.int_val(alphabet.encode(special)));
      }
      if (p.slots[i].not_below) {
        const SymValue& low = literals.column(static_cast<int>(*p.slots[i].not_below));
        facts.push_back(!sym_less(v, low));
      }
    }
    for (const z3::expr& c : literals.type_constraints()) facts.push_back(c);
    return facts;
  }

  void add(const std::vector<z3::expr>& facts) {
    for (const z3::expr& f : facts) solver.add(f);
  }

  // The row's symbols, for the quantifier of the exactness theorem.
  z3::expr_vector row_constants() {
    z3::expr_vector constants(ctx);
    for (const int leaf : kBothColumns) {
      const SymValue& v = row.column(leaf);
      collect_constants(v.is_null, constants);
      collect_constants(v.payload, constants);
      if (v.sequence)
        for (const z3::expr& code : v.sequence->codes) collect_constants(code, constants);
    }
    return constants;
  }

  SolverLimits limits;
  SymbolicPredicate p;
  Mutant mutant;
  z3::context ctx;
  z3::solver solver{ctx};
  bool pushed;
  CodePointMap alphabet;
  RowSymbols row;
  std::shared_ptr<const Schema> literal_fields;
  RowSymbols literals;
  SymbolicFile file;
};

RuleQuery::RuleQuery(const SymbolicPredicate& p, Mutant mutant, int string_prefix_length, const SolverLimits& limits)
    : session_(translating_z3_errors(
          [&] { return std::make_unique<Session>(p, mutant, string_prefix_length, limits); })) {}

RuleQuery::~RuleQuery() = default;

void RuleQuery::assert_matching_row_skipped(const SkippingPredicate& claimed) {
  translating_z3_errors([&] {
    Session& s = *session_;
    s.solver.add(s.file.holds_row(s.row));
    s.solver.add(s.matches());
    s.solver.add(s.skips(claimed));
    s.add(s.file.facts());
    s.add(s.row.type_constraints());
    s.add(s.slot_facts());
  });
}

void RuleQuery::assert_kept_without_match(const SkippingPredicate& built, std::optional<int> min_non_null_rows) {
  translating_z3_errors([&] {
    Session& s = *session_;
    z3::context& ctx = s.ctx;
    // Build the row's symbols first, so the quantifier below binds every one of them.
    const z3::expr matches = s.matches();
    const z3::expr holds = s.file.holds_row(s.row);
    const z3::expr_vector row_constants = s.row_constants();
    z3::expr row_facts = ctx.bool_val(true);
    for (const z3::expr& f : s.row.type_constraints()) row_facts = row_facts && f;
    for (const z3::expr& f : s.row.alphabet_constraints()) row_facts = row_facts && f;
    s.solver.add(z3::forall(row_constants, z3::implies(row_facts && holds, !matches)));
    s.solver.add(!s.skips(built));
    s.solver.add(s.file.exact() && !s.file.num_records_absent());
    const SymbolicColumn& c = s.file.column(0);
    s.solver.add(!c.null_count.is_null);
    if (has_min_max(s.p.schema->leaves()[0].type.kind)) s.solver.add(!c.min.is_null && !c.max.is_null);
    if (min_non_null_rows) {
      const z3::expr live = s.file.physical_rows() - s.file.dv_cardinality();
      s.solver.add(live - c.live_nulls >= ctx.int_val(*min_non_null_rows));
    }
    s.add(s.file.facts());
    s.add(s.slot_facts());
  });
}

bool RuleQuery::restrict_to_short_strings(int max_length) {
  return translating_z3_errors([&] {
    Session& s = *session_;
    std::vector<z3::expr> facts = s.file.short_string_constraints(max_length);
    for (const z3::expr& c : s.row.short_string_constraints(max_length)) facts.push_back(c);
    for (const z3::expr& c : s.literals.short_string_constraints(max_length)) facts.push_back(c);
    s.add(facts);
    return !facts.empty();
  });
}

void RuleQuery::restrict_to_alphabet() {
  translating_z3_errors([&] {
    Session& s = *session_;
    s.add(s.file.alphabet_constraints());
    s.add(s.row.alphabet_constraints());
    s.add(s.literals.alphabet_constraints());
  });
}

SolverAnswer RuleQuery::check() {
  return translating_z3_errors([&] {
    switch (session_->solver.check()) {
      case z3::sat: return SolverAnswer::Sat;
      case z3::unsat: return SolverAnswer::Unsat;
      case z3::unknown: break;
    }
    return SolverAnswer::Unknown;
  });
}

std::optional<TheoremWitness> RuleQuery::witness(bool with_row, std::string& problem) const {
  return translating_z3_errors([&]() -> std::optional<TheoremWitness> {
    const Session& s = *session_;
    const z3::model model = s.solver.get_model();
    TheoremWitness w;
    if (with_row) {
      w.row = s.row.decode(model, problem);
      if (!w.row) return std::nullopt;
    }
    const std::optional<Row> literals = s.literals.decode(model, problem);
    if (!literals) return std::nullopt;
    w.literals.assign(literals->begin(), literals->end());
    std::optional<DecodedFile> file = s.file.decode(model, problem);
    if (!file) return std::nullopt;
    w.file = std::move(*file);
    return w;
  });
}

std::string RuleQuery::unknown_reason(double elapsed_ms) const {
  return translating_z3_errors([&] { return smt::unknown_reason(session_->solver, session_->limits, elapsed_ms); });
}

}  // namespace skipsound::smt
