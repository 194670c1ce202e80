#include "smt/oracle.h"

#include <algorithm>
#include <chrono>
#include <map>

#include "model/sql/evaluator.h"
#include "model/sql/printer.h"
#include "smt/allowance_slice.h"
#include "smt/crash_containment.h"
#include "smt/expr_encoding.h"
#include "smt/interval_decider.h"
#include "smt/stats_encoding.h"

namespace skipsound::smt {

struct Oracle::State {
  z3::context ctx;
  z3::solver solver{ctx};
  bool abandoned_a_check = false;  // Z3 stopped a check without an answer: renew before the next one
  std::optional<SolverLimits> limits;  // as last set on the solver

  // Setting parameters costs the solver some of what it kept between checks: only on a change.
  void use_limits(const SolverLimits& wanted) {
    if (limits && limits->resource_limit == wanted.resource_limit && limits->timeout_ms == wanted.timeout_ms) return;
    apply_limits(solver, wanted);
    limits = wanted;
  }
};

namespace {

// Labels the predicate's top-level conjuncts one by one, so a core names the one that matters.
void split_conjuncts(const ExprPtr& e, std::vector<ExprPtr>& out) {
  if (e->kind == ExprKind::And) {
    split_conjuncts(e->children[0], out);
    split_conjuncts(e->children[1], out);
  } else {
    out.push_back(e);
  }
}

// Pops on every exit path, exceptions included.
class ScopedPush {
 public:
  explicit ScopedPush(z3::solver& solver) : solver_(solver) { solver_.push(); }
  ~ScopedPush() { solver_.pop(); }
  ScopedPush(const ScopedPush&) = delete;
  ScopedPush& operator=(const ScopedPush&) = delete;

 private:
  z3::solver& solver_;
};

// String columns compared with constants only: those the predicate uses so, and those only the
// stats constrain (bounds and prefixes are constants too).
std::set<int> sequence_encoded_leaves(const Expr& predicate, const Schema& schema, const std::set<int>& referenced,
                                      const RowAllowance& query) {
  std::set<int> leaves = sequence_leaves(predicate, schema);
  for (const ColumnAllowance& a : query.columns)
    if (!referenced.count(a.leaf) && schema.leaves().at(a.leaf).type.kind == TypeKind::String) leaves.insert(a.leaf);
  return leaves;
}

std::string tracker_name(const z3::expr& tracker) { return tracker.decl().name().str(); }

std::string plain_smt2(z3::context& ctx, const std::vector<z3::expr>& assertions) {
  z3::solver plain(ctx);
  for (const z3::expr& a : assertions) plain.add(a);
  return plain.to_smt2() ;
}

// Re-checks a witness outside Z3: the model evaluator, replaying the calls' values, must find the
// predicate TRUE and the Z3-free consistency check must accept the row.
std::optional<std::string> recheck(const Expr& predicate, const Sat& sat, const RowAllowance& allowance) {
  const ConsistencyVerdict consistent = check_row_consistency(sat.witness, allowance);
  if (consistent.kind != Consistency::Consistent)
    return "witness violates " + consistent.reason;
  try {
    const Truth t = evaluate(predicate, sat.witness, replayed_calls(sat));
    if (t != Truth::True) return std::string("the model evaluates the predicate to ") + truth_name(t);
  } catch (const std::exception& e) {
    return std::string("the model cannot evaluate the predicate: ") + e.what();
  }
  return std::nullopt;
}

// The question in Z3 (`allowance` is possible).
OracleResult ask_z3(z3::context& ctx, z3::solver& solver, bool& abandoned, const OracleOptions& options,
                    const SolverLimits& limits, std::string& last_smt2,
                    const ExprPtr& predicate, const Schema& schema, const RowAllowance& allowance) {
  const std::set<int> referenced = referenced_leaves(*predicate);
  const AllowanceSlice slice = slice_allowance(allowance, referenced, schema.leaves().size());
  std::set<char32_t> mentioned;
  collect_code_points(*predicate, mentioned);
  collect_code_points(slice.query, mentioned);
  const CodePointMap alphabet(mentioned);
  RowSymbols row(ctx, schema, alphabet);
  row.use_sequences(sequence_encoded_leaves(*predicate, schema, referenced, slice.query),
                    sequence_capacity(*predicate, slice.query));
  ExprEncoder encoder(ctx, row, alphabet);

  try {
    std::vector<LabelledAssertion> labelled = encode_allowance(slice.query, row, alphabet);
    std::vector<ExprPtr> conjuncts;
    split_conjuncts(predicate, conjuncts);
    for (const ExprPtr& c : conjuncts) labelled.push_back({encoder.is_true(*c), "pred: " + to_sql(c)});

    const ScopedPush scope(solver);
    std::vector<z3::expr> plain = row.type_constraints();
    for (const z3::expr& t : row.type_constraints()) solver.add(t);
    std::map<std::string, int> label_uses;  // Z3 refuses a tracker name twice (e.g. a repeated conjunct)
    for (const LabelledAssertion& a : labelled) {
      const int use = ++label_uses[a.label];
      const std::string label = use == 1 ? a.label : a.label + " (" + std::to_string(use) + ")";
      solver.add(a.assertion, label.c_str());
      plain.push_back(a.assertion);
    }
    if (options.record_smt2) last_smt2 = plain_smt2(ctx, plain);
    const auto started = std::chrono::steady_clock::now();
    z3::check_result outcome = solver.check();
    std::string problem;
    std::optional<Sat> witness;
    const auto decode = [&] {
      const z3::model model = solver.get_model();
      witness.reset();
      std::optional<Row> values = row.decode(model, problem);
      if (!values) return;
      Sat sat{complete_witness(*values, slice), {}};
      for (const ExprEncoder::CallOccurrence& c : encoder.calls()) {
        const std::string name = c.call->function + "() #" + std::to_string(sat.calls.size() + 1);
        std::optional<Value> value = row.decode_value(model, c.value, c.call->type, name, problem);
        if (!value) return;
        sat.calls.push_back({c.call, name, std::move(*value)});
      }
      witness = std::move(sat);
    };
    if (outcome == z3::sat) decode();
    if (outcome == z3::sat && !witness && !row.alphabet_constraints().empty()) {
      // A string used a code past U+10FFFF's image: retry with the alphabet asserted.
      for (const z3::expr& a : row.alphabet_constraints()) solver.add(a);
      outcome = solver.check();
      if (outcome == z3::sat) decode();
    }
    if (outcome == z3::unknown) {
      const double elapsed_ms =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
      abandoned = true;
      return Unknown{"z3: " + unknown_reason(solver, limits, elapsed_ms)};
    }
    OracleResult result = Unknown{problem};
    if (outcome == z3::unsat) {
      Unsat unsat;
      for (const z3::expr& tracker : solver.unsat_core()) unsat.reason.push_back(tracker_name(tracker));
      result = std::move(unsat);
    } else if (witness) {
      const std::optional<std::string> rejected = recheck(*predicate, *witness, allowance);
      if (!rejected) result = std::move(*witness);
      else if (encoder.over_approximated())
        result = Unknown{"over-approximated (" + *encoder.approximations().begin() +
                         "): the witness was not confirmed: " + *rejected};
      else result = InternalError{"Z3 witness rejected outside Z3: " + *rejected, std::move(witness->witness)};
    }
    return result;
  } catch (const z3::exception& e) {
    abandoned = true;
    return Unknown{std::string("z3 error: ") + e.msg()};
  } catch (const std::invalid_argument& e) {
    return Unknown{std::string("unsupported: ") + e.what()};
  }
}

// The interval procedure's witness passes the same re-check as Z3's.
OracleResult confirmed(OracleResult decided, const Expr& predicate, const RowAllowance& allowance) {
  const auto* sat = std::get_if<Sat>(&decided);
  if (!sat) return decided;
  const std::optional<std::string> rejected = recheck(predicate, *sat, allowance);
  if (!rejected) return decided;
  return InternalError{"interval procedure's witness rejected by the model: " + *rejected, sat->witness};
}

// Z3 decides the same question; a definite answer that differs is a bug in one of the two.
OracleResult compared_with_z3(OracleResult by_intervals, OracleResult by_z3, const Schema& schema) {
  const OracleVerdict z3_verdict = verdict_of(by_z3);
  if (z3_verdict == OracleVerdict::InternalError) return by_z3;
  if (z3_verdict != OracleVerdict::Sat && z3_verdict != OracleVerdict::Unsat) return by_intervals;
  if (verdict_of(by_intervals) == z3_verdict) return by_intervals;
  const auto* sat = std::get_if<Sat>(&by_intervals);
  if (!sat) sat = std::get_if<Sat>(&by_z3);
  return InternalError{"the interval procedure answers " + describe(by_intervals, schema) + ", Z3 answers " +
                           describe(by_z3, schema),
                       sat ? sat->witness : Row{}};
}

}  // namespace

OracleCounters& OracleCounters::operator+=(const OracleCounters& o) {
  by_intervals += o.by_intervals;
  by_z3 += o.by_z3;
  cross_checked += o.cross_checked;
  crashes += o.crashes;
  renewals += o.renewals;
  return *this;
}

Oracle::Oracle(OracleOptions options) : state_(std::make_unique<State>()), options_(options) {}

Oracle::~Oracle() = default;

// Z3 4.8 can leave a context that abandoned a check (resource limit, error) in a state on which a
// later check crashes (smt/crash_containment.h): the next query gets a fresh context and solver.
void Oracle::renew_solver() {
  state_ = std::make_unique<State>();
  ++counters_.renewals;
}

// A classification never gets more than a proof would.
SolverLimits Oracle::limits_for(Effort effort) const {
  if (effort == Effort::Proof) return options_.limits;
  SolverLimits limits = options_.classify_limits;
  limits.resource_limit = std::min(limits.resource_limit, options_.limits.resource_limit);
  if (options_.limits.timeout_ms > 0)
    limits.timeout_ms = limits.timeout_ms > 0 ? std::min(limits.timeout_ms, options_.limits.timeout_ms)
                                              : options_.limits.timeout_ms;
  return limits;
}

OracleResult Oracle::check(const ExprPtr& predicate, const Schema& schema, const FileEvidence& file, Effort effort) {
  const RowAllowance allowance = row_allowance(file, schema);
  if (allowance.impossible) {
    // No query: Z3 is not asked about stats no file carries.
    if (options_.record_smt2) last_smt2_ = "; impossible stats: " + *allowance.impossible + "\n";
    return ImpossibleStats{*allowance.impossible};
  }
  const auto z3_answer = [&]() -> OracleResult {
    const auto ask = [&] {
      const SolverLimits limits = limits_for(effort);
      state_->use_limits(limits);
      return ask_z3(state_->ctx, state_->solver, state_->abandoned_a_check, options_, limits, last_smt2_, predicate,
                    schema, allowance);
    };
    if (options_.contain_crashes) {
      if (const std::optional<std::string> crash = crash_in_copy([&] { ask(); })) {
        ++counters_.crashes;
        return Unknown{"Z3 crashed on this query (" + *crash + " in a forked copy); the run goes on"};
      }
    }
    OracleResult answer = ask();
    if (state_->abandoned_a_check) renew_solver();
    return answer;
  };
  if (options_.intervals_first) {
    if (std::optional<OracleResult> decided = decide_by_intervals(predicate, schema, allowance)) {
      // Only Z3's queries are recorded: the text goes to other solvers to re-check Z3.
      last_smt2_.clear();
      OracleResult result = confirmed(std::move(*decided), *predicate, allowance);
      ++counters_.by_intervals;
      const size_t stride = options_.interval_cross_check_stride;
      if (stride == 0 || counters_.by_intervals % stride != 0) return result;
      ++counters_.cross_checked;
      return compared_with_z3(std::move(result), z3_answer(), schema);
    }
  }
  ++counters_.by_z3;
  return z3_answer();
}

}  // namespace skipsound::smt
