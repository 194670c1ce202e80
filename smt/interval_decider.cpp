// One file on purpose, over 600 lines: the search and the candidate values it tries for each type
// are one procedure, whose exactness argument (interval_decider.h) needs both read together.
#include "smt/interval_decider.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>

#include "model/sql/evaluator.h"
#include "model/sql/like.h"
#include "model/sql/printer.h"
#include "model/values/utf8.h"
#include "smt/like_cells.h"

namespace skipsound::smt {
namespace {

// A set of truth values, one bit per Truth.
using TruthSet = uint8_t;
constexpr Truth kTruths[] = {Truth::False, Truth::True, Truth::Null};

TruthSet bit(Truth t) { return static_cast<TruthSet>(1u << static_cast<unsigned>(t)); }
bool has(TruthSet s, Truth t) { return (s & bit(t)) != 0; }

template <typename Combine>
TruthSet combine_sets(TruthSet a, TruthSet b, Combine combine) {
  TruthSet out = 0;
  for (const Truth x : kTruths)
    for (const Truth y : kTruths)
      if (has(a, x) && has(b, y)) out |= bit(combine(x, y));
  return out;
}

template <typename Map>
TruthSet map_set(TruthSet a, Map map) {
  TruthSet out = 0;
  for (const Truth x : kTruths)
    if (has(a, x)) out |= bit(map(x));
  return out;
}

Truth is_null_of(Truth t) { return truth_of(t == Truth::Null); }
Truth is_not_null_of(Truth t) { return truth_of(t != Truth::Null); }

// A search this large goes to Z3 instead (the gate's predicates need a few dozen nodes).
constexpr size_t kMaxSearchNodes = 20'000;
// Rows the model evaluates while completing candidate witnesses for opaque atoms (below): past
// this many, Z3 decides.
constexpr size_t kMaxWitnessEvaluations = 2'000;
constexpr TruthSet kAnyTruth = 0b111;

enum class Op { Atom, And, Or, Not, IsNull, IsNotNull };

struct Node {
  Op op = Op::Atom;
  int left = -1;
  int right = -1;
  int atom = -1;
};

// An opaque atom (outside the fragment) reads no column for the search: it may take any truth
// value, so a search that finds no row making the predicate TRUE proves Unsat whatever it is.
struct Atom {
  const Expr* expr = nullptr;
  int column = -1;                     // index into the columns; -1 for a constant or opaque atom
  std::vector<TruthSet> by_candidate;  // the atom's truth on each of its column's candidates
  TruthSet any = 0;                    // on some candidate
  bool opaque = false;
};

struct Column {
  int leaf = -1;
  DataType type;
  std::vector<Value> points;  // the atoms' literals and the allowance's bounds
  std::vector<LikePattern> patterns;  // LIKE patterns that are no single prefix (smt/like_cells.h)
  const ColumnAllowance* allowance = nullptr;
  std::vector<Value> candidates;
  std::vector<int> atoms;
};

bool supported(TypeKind k) {
  return k == TypeKind::Boolean || is_int64_backed(k) || is_floating(k) || k == TypeKind::Decimal ||
         k == TypeKind::String || k == TypeKind::Binary;
}

bool is_connective(const Expr& e) {
  switch (e.kind) {
    case ExprKind::And:
    case ExprKind::Or:
    case ExprKind::Not: return true;
    case ExprKind::IsNull:
    case ExprKind::IsNotNull: return e.children[0]->kind != ExprKind::Column;
    default: return false;
  }
}

bool is_literal(const Expr& e) { return e.kind == ExprKind::Literal; }
bool is_bound_column(const Expr& e) { return e.kind == ExprKind::Column && e.leaf >= 0; }

// The end points of "starts with prefix": the prefix and the least string above all it starts.
std::vector<Value> prefix_points(const std::string& prefix) {
  std::vector<Value> points{Value::string(prefix)};
  if (const auto end = prefix_successor(prefix)) points.push_back(Value::string(*end));
  return points;
}


std::pair<int64_t, int64_t> int64_domain(TypeKind k) {
  if (is_integral(k)) return {integral_min(k), integral_max(k)};
  if (k == TypeKind::Date) return {std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max()};
  return {std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()};
}

using Candidates = std::optional<std::vector<Value>>;

// For each end point p: p and the least value above it; and the least value of the domain. A
// point that is no value of the type leaves the fragment.
Candidates int64_candidates(const DataType& type, const std::vector<Value>& points) {
  const auto [low, high] = int64_domain(type.kind);
  std::vector<Value> out{Value::integral(type.kind, low)};
  for (const Value& p : points) {
    const int64_t v = p.as_int();
    if (v < low || v > high) return std::nullopt;
    out.push_back(p);
    if (v < high) out.push_back(Value::integral(type.kind, v + 1));
  }
  return out;
}

// Spark order: -inf < ... < -0.0 = 0.0 < ... < +inf < NaN. Both zeros are kept wherever one is.
Candidates floating_candidates(const DataType& type, const std::vector<Value>& points) {
  const bool narrow = type.kind == TypeKind::Float;
  const double infinity = std::numeric_limits<double>::infinity();
  std::vector<Value> out;
  const auto add = [&](double d) {
    out.push_back(Value::floating(type.kind, d));
    if (d == 0) out.push_back(Value::floating(type.kind, -d));
  };
  for (const double d : {-infinity, infinity, std::numeric_limits<double>::quiet_NaN()}) add(d);
  for (const Value& p : points) {
    const double d = p.as_double();
    if (narrow && !std::isnan(d) && static_cast<double>(static_cast<float>(d)) != d) return std::nullopt;
    add(d);
    if (std::isnan(d) || d == infinity) continue;  // +inf's successor, NaN, is already in
    add(narrow ? static_cast<double>(std::nextafter(static_cast<float>(d), std::numeric_limits<float>::infinity()))
               : std::nextafter(d, infinity));
  }
  return out;
}

__int128 power_of_ten(int n) {
  __int128 p = 1;
  for (int i = 0; i < n; ++i) p *= 10;
  return p;
}

// The greatest number of scale `scale` at or below d (exact comparisons may mix scales).
std::optional<__int128> floor_at_scale(const Decimal& d, int scale) {
  if (d.scale <= scale) {
    const std::optional<Decimal> exact = rescale_decimal(d, scale);
    if (!exact) return std::nullopt;
    return exact->unscaled;
  }
  const __int128 divisor = power_of_ten(d.scale - scale);
  __int128 quotient = d.unscaled / divisor;
  if (d.unscaled % divisor != 0 && d.unscaled < 0) quotient -= 1;
  return quotient;
}

// The column's values are the unscaled integers of at most `precision` digits: for each point,
// the value at or below it and the one above that (one of them is the point when it is a value).
Candidates decimal_candidates(const DataType& type, const std::vector<Value>& points) {
  const __int128 limit = power_of_ten(type.precision) - 1;
  const auto make = [&](__int128 unscaled) { return Value::decimal(Decimal{unscaled, type.scale}, type.precision); };
  std::vector<Value> out{make(-limit)};
  for (const Value& p : points) {
    const std::optional<__int128> floor = floor_at_scale(p.as_decimal(), type.scale);
    if (!floor) return std::nullopt;
    for (const __int128 u : {*floor, *floor + 1})
      if (-limit <= u && u <= limit) out.push_back(make(u));
  }
  return out;
}

// Code-point (byte) order: "" is least, and s followed by U+0000 (byte 0) is the least value
// above s. With patterns, each cell between end points also gets one string per set of patterns
// some string of the cell matches.
Candidates string_candidates(const DataType& type, const std::vector<Value>& points,
                             const std::vector<LikePattern>& patterns) {
  const bool binary = type.kind == TypeKind::Binary;
  const auto make = [&](std::string bytes) { return binary ? Value::binary(std::move(bytes)) : Value::string(std::move(bytes)); };
  std::vector<Value> out{make("")};
  std::vector<std::string> ends;
  for (const Value& p : points) {
    const std::string& s = p.as_string();
    if (!binary && !is_valid_utf8(s)) return std::nullopt;
    out.push_back(p);
    out.push_back(make(s + std::string(1, '\0')));
    ends.push_back(s);
  }
  if (patterns.empty()) return out;
  std::optional<std::vector<std::string>> cells = like_cell_witnesses(std::move(ends), patterns);
  if (!cells) return std::nullopt;
  for (std::string& s : *cells) out.push_back(make(std::move(s)));
  return out;
}

// Decimals compare exactly across precisions and scales; other kinds need the column's type.
bool same_domain(const DataType& literal, const DataType& column) {
  return literal == column || (literal.kind == TypeKind::Decimal && column.kind == TypeKind::Decimal);
}

// A literal an opaque atom compares with a column, as an end point of the column's own type
// (integral literals across integral widths): it only adds candidates for witnesses.
std::optional<Value> as_point_of(const Value& literal, const DataType& column) {
  if (literal.is_null()) return std::nullopt;
  if (same_domain(literal.type, column)) return literal;
  if (!is_integral(literal.type.kind) || !is_integral(column.kind)) return std::nullopt;
  const int64_t v = literal.as_int();
  if (v < integral_min(column.kind) || v > integral_max(column.kind)) return std::nullopt;
  return Value::integral(column.kind, v);
}

// The shortest string a LIKE pattern matches, with 'a' for each '_' (a guess for witnesses); a
// literal that is no pattern (it misuses the escape) is its own guess.
std::string shortest_like_match(const std::string& pattern) {
  const std::optional<LikePattern> tokens = like_tokens(pattern);
  if (!tokens) return pattern;
  std::vector<char32_t> out;
  for (const LikeToken& t : *tokens) {
    if (t.kind == LikeToken::Kind::Literal) out.push_back(t.literal);
    else if (t.kind == LikeToken::Kind::AnyOne) out.push_back(U'a');
  }
  return encode_utf8(out);
}

// The leaves and literals below an opaque atom.
void collect_reads(const Expr& e, std::set<int>& leaves, std::vector<Value>& literals) {
  if (is_bound_column(e)) leaves.insert(e.leaf);
  if (is_literal(e)) literals.push_back(e.literal);
  for (const ExprPtr& child : e.children) collect_reads(*child, leaves, literals);
}

// Values a witness tries for one non-deterministic call, each in the range Z3's encoding gives it
// (smt/expr_encoding: rand() and random() in [0, 1), other doubles finite, integers within their
// type): zero, the literals the predicate compares with and the values just above them; for
// rand() also the greatest double below 1. Calls of other types get none (no witness carries them).
std::vector<Value> call_candidates(const Expr& call, const std::vector<Value>& literals) {
  const TypeKind k = call.type.kind;
  if (k == TypeKind::Boolean) return {Value::boolean(false), Value::boolean(true)};
  std::vector<Value> points{Value::integral(is_int64_backed(k) ? k : TypeKind::Long, 0)};
  if (k == TypeKind::Double) points = {Value::floating(k, 0.0), Value::floating(k, 1.0), Value::floating(k, -1.0)};
  for (const Value& literal : literals)
    if (!literal.is_null() && literal.type.kind == k) points.push_back(literal);
  if (is_int64_backed(k)) return int64_candidates(call.type, points).value_or(std::vector<Value>{});
  if (k != TypeKind::Double) return {};
  const bool unit = call.function == "rand" || call.function == "random";
  if (unit) points.push_back(Value::floating(k, std::nextafter(1.0, 0.0)));
  std::vector<Value> out;
  for (Value& v : floating_candidates(call.type, points).value_or(std::vector<Value>{})) {
    const double d = v.as_double();
    const bool in_range = unit ? d >= 0 && d < 1 : std::isfinite(d);
    if (in_range && std::find(out.begin(), out.end(), v) == out.end()) out.push_back(std::move(v));
  }
  return out;
}

// The sums and differences of two numeric literals of a column's own type: where an opaque
// `c + 1.0D = 1.0D` or `c - 5 > 3` turns (0.0, 8), a witness the column's bounds would miss.
std::vector<Value> shifted_points(const DataType& type, const std::vector<Value>& literals) {
  constexpr size_t kMaxLiterals = 6;  // 30 points at most
  std::vector<Value> same;
  for (const Value& l : literals)
    if (!l.is_null() && l.type == type && same.size() < kMaxLiterals) same.push_back(l);
  std::vector<Value> out;
  for (size_t i = 0; i < same.size(); ++i) {
    for (size_t j = 0; j < same.size(); ++j) {
      if (i == j) continue;
      if (is_floating(type.kind)) {
        const double a = same[i].as_double(), b = same[j].as_double();
        for (const double d : {a - b, a + b})
          if (std::isfinite(d)) out.push_back(Value::floating(type.kind, type.kind == TypeKind::Float ? static_cast<double>(static_cast<float>(d)) : d));
      } else if (is_integral(type.kind)) {
        int64_t d = 0;
        const int64_t a = same[i].as_int(), b = same[j].as_int();
        if (!__builtin_sub_overflow(a, b, &d) && integral_min(type.kind) <= d && d <= integral_max(type.kind))
          out.push_back(Value::integral(type.kind, d));
        if (!__builtin_add_overflow(a, b, &d) && integral_min(type.kind) <= d && d <= integral_max(type.kind))
          out.push_back(Value::integral(type.kind, d));
      }
    }
  }
  return out;
}

// The one leaf an expression reads when the evaluator can decide it from that leaf's value alone:
// no unbound (metadata) column, no non-deterministic or query-time call.
std::optional<int> sole_leaf_read(const Expr& e) {
  std::optional<int> leaf;
  bool alone = true;
  const auto walk = [&](const auto& self, const Expr& x) -> void {
    if (x.kind == ExprKind::Column) {
      if (x.leaf < 0 || (leaf && *leaf != x.leaf)) alone = false;
      leaf = x.leaf;
    }
    if (x.kind == ExprKind::Call && (!x.deterministic || is_query_time_function(x.function))) alone = false;
    for (const ExprPtr& child : x.children) self(self, *child);
  };
  walk(walk, e);
  return alone ? leaf : std::nullopt;
}

Candidates non_null_candidates(const Column& c) {
  for (const Value& p : c.points)
    if (!same_domain(p.type, c.type)) return std::nullopt;
  const TypeKind k = c.type.kind;
  if (k == TypeKind::Boolean) return std::vector<Value>{Value::boolean(false), Value::boolean(true)};
  if (is_int64_backed(k)) return int64_candidates(c.type, c.points);
  if (is_floating(k)) return floating_candidates(c.type, c.points);
  if (k == TypeKind::Decimal) return decimal_candidates(c.type, c.points);
  return string_candidates(c.type, c.points, c.patterns);
}

void add_allowance_points(const ColumnAllowance& a, std::vector<Value>& points) {
  for (const std::optional<Value>& bound : {a.lower, a.upper})
    if (bound) points.push_back(*bound);
  for (const ValueRange& r : a.realise_one_of) {
    for (const std::optional<Value>& bound : {r.lower, r.upper})
      if (bound) points.push_back(*bound);
    if (!r.prefix) continue;
    points.push_back(Value::string(*r.prefix));
    if (const auto end = prefix_successor(*r.prefix)) points.push_back(Value::string(*end));
  }
}

std::vector<std::string> allowance_labels(const ColumnAllowance& a) {
  std::vector<std::string> labels;
  if (!a.null_allowed) labels.push_back(a.null_label);
  if (!a.value_allowed) labels.push_back(a.value_label);
  if (a.lower) labels.push_back(a.lower_label);
  if (a.upper) labels.push_back(a.upper_label);
  if (!a.realise_one_of.empty()) labels.push_back(a.realise_label);
  return labels;
}

class IntervalDecider {
 public:
  IntervalDecider(const Schema& schema, const RowAllowance& allowance)
      : schema_(schema), allowance_(allowance), leaf_count_(schema.leaves().size()) {}

  std::optional<OracleResult> decide(const ExprPtr& predicate) {
    if (allowance_.no_row) return Unsat{{*allowance_.no_row}};
    predicate_ = predicate.get();
    const std::optional<int> root = compile(*predicate);
    if (!root) return std::nullopt;
    root_ = *root;
    for (const ColumnAllowance& a : allowance_.columns) {
      Column& c = columns_[column_index(a.leaf)];
      c.allowance = &a;
      add_allowance_points(a, c.points);
    }
    add_opaque_reads();
    collect_calls(*predicate);
    for (Column& c : columns_)
      if (!choose_candidates(c) && !only_opaque_reads(c)) return std::nullopt;
    if (!evaluate_atoms()) return std::nullopt;
    enumerate_opaque_atoms();
    for (size_t c = 0; c < columns_.size(); ++c) {
      if (!columns_[c].atoms.empty()) searched_.push_back(c);
      else if (opaque_leaves_.count(columns_[c].leaf)) completed_.push_back(c);
    }
    choice_.assign(columns_.size(), 0);
    switch (search(0)) {
      case Found::Row: return Sat{witness(), chosen_calls()};
      case Found::None:
        if (unconfirmed_) return std::nullopt;  // a row may make it TRUE through an opaque atom
        return Unsat{unsat_reason(predicate)};
      case Found::TooLarge: return std::nullopt;
    }
    return std::nullopt;
  }

 private:
  enum class Found { Row, None, TooLarge };

  int column_index(int leaf) {
    const auto [it, added] = column_of_leaf_.emplace(leaf, static_cast<int>(columns_.size()));
    if (added) columns_.push_back(Column{leaf, schema_.leaves().at(leaf).type, {}, {}, nullptr, {}, {}});
    return it->second;
  }

  int add_node(Node n) {
    nodes_.push_back(n);
    return static_cast<int>(nodes_.size()) - 1;
  }

  std::optional<int> compile(const Expr& e) {
    if (!is_connective(e)) return compile_atom(e);
    const std::optional<int> left = compile(*e.children[0]);
    if (!left) return std::nullopt;
    if (e.kind == ExprKind::Not) return add_node({Op::Not, *left});
    if (e.kind == ExprKind::IsNull) return add_node({Op::IsNull, *left});
    if (e.kind == ExprKind::IsNotNull) return add_node({Op::IsNotNull, *left});
    const std::optional<int> right = compile(*e.children[1]);
    if (!right) return std::nullopt;
    return add_node({e.kind == ExprKind::And ? Op::And : Op::Or, *left, *right});
  }

  // The column an atom reads with the literals it compares it with, or nullopt outside the
  // fragment; a constant atom reads no column (leaf -1).
  struct AtomShape {
    int leaf = -1;
    std::vector<Value> points;
    std::vector<LikePattern> patterns;
  };

  std::optional<AtomShape> atom_shape(const Expr& e) const {
    const auto all_literals = [&](size_t from) {
      for (size_t i = from; i < e.children.size(); ++i)
        if (!is_literal(*e.children[i])) return false;
      return true;
    };
    switch (e.kind) {
      case ExprKind::Literal: return AtomShape{};
      case ExprKind::Column:
        if (!is_bound_column(e) || e.type.kind != TypeKind::Boolean) return std::nullopt;
        return AtomShape{e.leaf, {}, {}};
      case ExprKind::IsNull:
      case ExprKind::IsNotNull:
        if (!is_bound_column(*e.children[0])) return std::nullopt;
        return AtomShape{e.children[0]->leaf, {}, {}};
      case ExprKind::Compare: {
        if (all_literals(0)) return AtomShape{};
        // c op c: its truth depends only on whether c is NULL (Spark's NaN equals itself).
        if (is_bound_column(*e.children[0]) && is_bound_column(*e.children[1]) &&
            e.children[0]->leaf == e.children[1]->leaf)
          return AtomShape{e.children[0]->leaf, {}, {}};
        const bool column_first = is_bound_column(*e.children[0]);
        const Expr& column = *e.children[column_first ? 0 : 1];
        const Expr& other = *e.children[column_first ? 1 : 0];
        if (!is_bound_column(column) || !is_literal(other)) return std::nullopt;
        return with_literals(column, {&other});
      }
      case ExprKind::In:
      case ExprKind::Between: {
        if (!is_bound_column(*e.children[0]) || !all_literals(1)) return std::nullopt;
        std::vector<const Expr*> literals;
        for (size_t i = 1; i < e.children.size(); ++i) literals.push_back(e.children[i].get());
        return with_literals(*e.children[0], literals);
      }
      case ExprKind::Like:
      case ExprKind::LikeAny:
      case ExprKind::LikeAll: return like_shape(e);
      case ExprKind::RLike: return regex_shape(e);
      case ExprKind::Call: return string_function_shape(e);
      default: return std::nullopt;
    }
  }

  static std::optional<AtomShape> with_literals(const Expr& column, const std::vector<const Expr*>& literals) {
    AtomShape shape{column.leaf, {}, {}};
    for (const Expr* l : literals) {
      if (l->literal.is_null()) continue;
      if (!same_domain(l->literal.type, column.type)) return std::nullopt;  // a coercion: Z3's to decide
      shape.points.push_back(l->literal);
    }
    return shape;
  }

  // How a string column matches one pattern: a literal is one end point, a literal prefix two
  // (the prefix and the least string above all it starts), anything else a pattern for
  // smt/like_cells.h.
  static void add_pattern(LikePattern tokens, AtomShape& shape) {
    const auto is_literal_token = [](const LikeToken& t) { return t.kind == LikeToken::Kind::Literal; };
    const size_t literals = static_cast<size_t>(
        std::find_if_not(tokens.begin(), tokens.end(), is_literal_token) - tokens.begin());
    std::vector<char32_t> prefix;
    for (size_t i = 0; i < literals; ++i) prefix.push_back(tokens[i].literal);
    if (literals == tokens.size()) {
      shape.points.push_back(Value::string(encode_utf8(prefix)));
    } else if (literals + 1 == tokens.size() && tokens.back().kind == LikeToken::Kind::AnyRun) {
      for (Value& p : prefix_points(encode_utf8(prefix))) shape.points.push_back(std::move(p));
    } else {
      shape.patterns.push_back(std::move(tokens));
    }
  }

  // A string column matched against string literals (NULLs only make the atom NULL); `tokens_of`
  // reads one literal as a pattern, nullopt when it misuses its escape (the evaluator refuses it).
  template <typename TokensOf>
  static std::optional<AtomShape> pattern_shape(const Expr& e, size_t literals_end, TokensOf tokens_of) {
    const Expr& column = *e.children[0];
    if (!is_bound_column(column) || column.type.kind != TypeKind::String) return std::nullopt;
    AtomShape shape{column.leaf, {}, {}};
    for (size_t i = 1; i < literals_end; ++i) {
      const Expr& literal = *e.children[i];
      if (!is_literal(literal)) return std::nullopt;
      if (literal.literal.is_null()) continue;
      if (literal.literal.type.kind != TypeKind::String) return std::nullopt;
      std::optional<LikePattern> tokens = tokens_of(literal.literal.as_string());
      if (!tokens) return std::nullopt;
      add_pattern(std::move(*tokens), shape);
    }
    return shape;
  }

  // LIKE with its escape (an ESCAPE clause is the third child), LIKE ANY and LIKE ALL (their
  // patterns use the default escape).
  static std::optional<AtomShape> like_shape(const Expr& e) {
    const bool with_escape = e.kind == ExprKind::Like;
    if (with_escape && e.children.size() > 2 && !is_literal(*e.children[2])) return std::nullopt;
    const char32_t escape = with_escape ? like_escape(e) : U'\\';
    const size_t literals_end = with_escape ? 2 : e.children.size();
    return pattern_shape(e, literals_end, [&](const std::string& p) { return like_tokens(p, escape); });
  }

  // The strings that contain `text` literally, at the start and/or the end when anchored there.
  static LikePattern literal_pattern(const std::string& text, bool at_start, bool at_end) {
    LikePattern tokens;
    if (!at_start) tokens.push_back({LikeToken::Kind::AnyRun});
    for (const char32_t c : decode_utf8(text)) tokens.push_back({LikeToken::Kind::Literal, c});
    if (!at_end) tokens.push_back({LikeToken::Kind::AnyRun});
    return tokens;
  }

  // startswith(s, 'x'), endswith(s, 'x') and contains(s, 'x') are s LIKE 'x%', '%x' and '%x%'
  // with x taken literally.
  static std::optional<AtomShape> string_function_shape(const Expr& e) {
    const bool starts = e.function == "startswith";
    const bool ends = e.function == "endswith";
    if ((!starts && !ends && e.function != "contains") || !e.deterministic || e.children.size() != 2)
      return std::nullopt;
    return pattern_shape(e, 2, [&](const std::string& x) -> std::optional<LikePattern> {
      return literal_pattern(x, starts, ends);
    });
  }

  // RLIKE finds its regex anywhere (Java's Matcher.find): a regex of plain characters, perhaps
  // after '^', is contains(s, 'x') or startswith(s, 'x'). Other regexes are opaque.
  static std::optional<AtomShape> regex_shape(const Expr& e) {
    return pattern_shape(e, 2, [](const std::string& regex) -> std::optional<LikePattern> {
      const bool anchored = !regex.empty() && regex[0] == '^';
      const std::string text = regex.substr(anchored ? 1 : 0);
      if (text.find_first_of("\\^$.|?*+()[]{}") != std::string::npos) return std::nullopt;
      return literal_pattern(text, anchored, false);
    });
  }

  std::optional<int> compile_atom(const Expr& e) {
    std::optional<AtomShape> shape = atom_shape(e);
    if (!shape || (shape->leaf >= 0 && !supported(schema_.leaves().at(shape->leaf).type.kind))) return add_opaque(e);
    Atom atom{&e, -1, {}, 0};
    if (shape->leaf >= 0) {
      atom.column = column_index(shape->leaf);
      Column& c = columns_[atom.column];
      c.points.insert(c.points.end(), shape->points.begin(), shape->points.end());
      c.patterns.insert(c.patterns.end(), shape->patterns.begin(), shape->patterns.end());
      c.atoms.push_back(static_cast<int>(atoms_.size()));
    }
    atoms_.push_back(std::move(atom));
    return add_node({Op::Atom, -1, -1, static_cast<int>(atoms_.size()) - 1});
  }

  // Such a column without candidates (an array, say) still lets the search prove Unsat; it only
  // rules out witnesses.
  bool only_opaque_reads(Column& c) const {
    if (!c.atoms.empty() || !opaque_leaves_.count(c.leaf)) return false;
    c.candidates.clear();
    return true;
  }

  int add_opaque(const Expr& e) {
    has_opaque_ = true;
    collect_reads(e, opaque_leaves_, opaque_literals_);
    atoms_.push_back(Atom{&e, -1, {}, kAnyTruth, true});
    return add_node({Op::Atom, -1, -1, static_cast<int>(atoms_.size()) - 1});
  }

  // The columns opaque atoms read get candidates too (for witnesses), among them the literals
  // those atoms compare them with. Extra end points keep the search exact: cells only get finer.
  // A string column also tries a string literal read as a LIKE pattern's shortest match, alone
  // and after each of the column's bounds (a LIKE '%x' witness inside the stats' range).
  // Two columns an opaque atom compares (c1 = c2, c1 <= c2) meet where their allowances do, so
  // each also tries the other columns' bounds.
  void add_opaque_reads() {
    const std::vector<Value> bounds = opaque_read_bounds();
    for (const int leaf : opaque_leaves_) {
      Column& c = columns_[column_index(leaf)];
      for (const Value& literal : opaque_literals_) {
        std::optional<Value> point = as_point_of(literal, c.type);
        if (!point) continue;
        if (c.type.kind == TypeKind::String) add_pattern_matches(c, shortest_like_match(point->as_string()));
        c.points.push_back(std::move(*point));
      }
      for (const Value& bound : bounds)
        if (std::optional<Value> point = as_point_of(bound, c.type)) c.points.push_back(std::move(*point));
      for (Value& point : shifted_points(c.type, opaque_literals_)) c.points.push_back(std::move(point));
    }
  }

  // The predicate's non-deterministic calls, in the order the witness numbers them.
  void collect_calls(const Expr& e) {
    if (e.kind == ExprKind::Call && (!e.deterministic || !is_deterministic_function(e.function))) {
      const bool query_time = is_query_time_function(e.function);  // one value per query: Z3's to choose
      calls_.push_back({&e, query_time ? std::vector<Value>{} : call_candidates(e, opaque_literals_)});
    }
    for (const ExprPtr& child : e.children) collect_calls(*child);
  }

  std::vector<Value> opaque_read_bounds() {
    std::vector<Value> bounds;
    for (const int leaf : opaque_leaves_) {
      const Column& c = columns_[column_index(leaf)];
      if (!c.allowance) continue;
      for (const std::optional<Value>& bound : {c.allowance->lower, c.allowance->upper})
        if (bound) bounds.push_back(*bound);
    }
    return bounds;
  }

  static void add_pattern_matches(Column& c, const std::string& match) {
    c.points.push_back(Value::string(match));
    if (!c.allowance) return;
    for (const std::optional<Value>& bound : {c.allowance->lower, c.allowance->upper})
      if (bound) c.points.push_back(Value::string(bound->as_string() + match));
  }

  // NULL and the non-null candidates the column's own allowance accepts, without repeats.
  bool choose_candidates(Column& c) {
    if (!supported(c.type.kind)) return false;
    Candidates values = non_null_candidates(c);
    if (!values) return false;
    values->insert(values->begin(), Value::null());
    std::optional<RowAllowance> alone;
    if (c.allowance) alone = RowAllowance{std::nullopt, {*c.allowance}, std::nullopt};
    Row row(leaf_count_, Value::null());
    for (Value& v : *values) {
      if (std::find(c.candidates.begin(), c.candidates.end(), v) != c.candidates.end()) continue;
      row[c.leaf] = v;
      if (alone && check_row_consistency(row, *alone).kind != Consistency::Consistent) continue;
      c.candidates.push_back(std::move(v));
    }
    // The allowance is not impossible, so some value fits; none would mean a bug here.
    return !c.candidates.empty();
  }

  // The model's evaluator gives each atom's truth on each candidate of its column.
  bool evaluate_atoms() {
    Row row(leaf_count_, Value::null());
    try {
      for (Atom& atom : atoms_) {
        if (atom.opaque) continue;
        if (atom.column < 0) {
          atom.any = bit(evaluate(*atom.expr, row));
          continue;
        }
        const Column& c = columns_[atom.column];
        for (const Value& v : c.candidates) {
          row[c.leaf] = v;
          atom.by_candidate.push_back(bit(evaluate(*atom.expr, row)));
          atom.any |= atom.by_candidate.back();
        }
        row[c.leaf] = Value::null();
      }
    } catch (const std::exception&) {
      return false;
    }
    current_.clear();
    for (const Atom& atom : atoms_) current_.push_back(atom.any);
    return true;
  }

  // An opaque atom that reads one column whose candidates are every value the stats admit (a
  // partition value, an all-NULL column, a boolean) is exact there: the model's evaluator gives
  // its truth on each candidate, as for an atom of the fragment. `lower(p) LIKE 'a%'` on a
  // partition column cost Z3's string theory seconds per query before.
  void enumerate_opaque_atoms() {
    Row row(leaf_count_, Value::null());
    for (size_t a = 0; a < atoms_.size(); ++a) {
      Atom& atom = atoms_[a];
      const std::optional<int> leaf = atom.opaque ? sole_leaf_read(*atom.expr) : std::nullopt;
      if (!leaf) continue;
      const int column = column_index(*leaf);
      const Column& c = columns_[column];
      if (!enumerates_all(c)) continue;
      std::vector<TruthSet> by_candidate;
      TruthSet any = 0;
      try {
        for (const Value& v : c.candidates) {
          row[c.leaf] = v;
          by_candidate.push_back(bit(evaluate(*atom.expr, row)));
          any |= by_candidate.back();
        }
      } catch (const std::exception&) {
        row[c.leaf] = Value::null();
        continue;  // the evaluator gives up on some value: the atom stays opaque
      }
      row[c.leaf] = Value::null();
      atom = Atom{atom.expr, column, std::move(by_candidate), any, false};
      columns_[column].atoms.push_back(static_cast<int>(a));
      current_[a] = any;
    }
    has_opaque_ = false;
    opaque_leaves_.clear();
    std::vector<Value> unused_literals;
    for (const Atom& atom : atoms_) {
      if (!atom.opaque) continue;
      has_opaque_ = true;
      collect_reads(*atom.expr, opaque_leaves_, unused_literals);
    }
  }

  // Whether every value the column's allowance admits is a candidate: a boolean's, no non-null
  // value, or a single one (min = max, uncut; floating types excluded: -0.0 sorts with 0.0).
  static bool enumerates_all(const Column& c) {
    if (c.candidates.empty()) return false;
    if (c.type.kind == TypeKind::Boolean) return true;
    if (!c.allowance) return false;
    const ColumnAllowance& a = *c.allowance;
    if (!a.value_allowed) return true;
    return !is_floating(c.type.kind) && a.lower && a.upper && !a.upper_strict && *a.lower == *a.upper;
  }

  // Every truth value the predicate may take given the atoms' possible values. An over-
  // approximation (atoms on one column are treated as independent) that is exact once every
  // column is fixed, and a certain TRUE is TRUE on every completion.
  TruthSet possible(int node) const {
    const Node& n = nodes_[node];
    switch (n.op) {
      case Op::Atom: return current_[n.atom];
      case Op::And: return combine_sets(possible(n.left), possible(n.right), truth_and);
      case Op::Or: return combine_sets(possible(n.left), possible(n.right), truth_or);
      case Op::Not: return map_set(possible(n.left), truth_not);
      case Op::IsNull: return map_set(possible(n.left), is_null_of);
      case Op::IsNotNull: return map_set(possible(n.left), is_not_null_of);
    }
    return 0;
  }

  void fix(size_t column, int candidate) {
    choice_[column] = candidate;
    for (const int a : columns_[column].atoms) current_[a] = atoms_[a].by_candidate[candidate];
  }

  void release(size_t column) {
    for (const int a : columns_[column].atoms) current_[a] = atoms_[a].any;
  }

  // Fixes searched_[depth..] one column at a time; the columns no atom reads keep candidate 0.
  Found search(size_t depth) {
    if (++nodes_visited_ > kMaxSearchNodes) return Found::TooLarge;
    const TruthSet root = possible(root_);
    if (!has(root, Truth::True)) return Found::None;
    if (root == bit(Truth::True) || depth == searched_.size()) return completed();
    const size_t column = searched_[depth];
    for (size_t k = 0; k < columns_[column].candidates.size(); ++k) {
      fix(column, static_cast<int>(k));
      const Found found = search(depth + 1);
      if (found != Found::None) return found;  // the row keeps its choices
    }
    fix(column, 0);
    release(column);
    return Found::None;
  }

  // A row the three-valued search cannot rule out. Without opaque atoms it makes the predicate
  // TRUE. With them it is only a candidate: the columns only opaque atoms read try their
  // candidates, and the model's evaluator and the Z3-free consistency rules must confirm a row.
  // An unconfirmed candidate leaves the answer to Z3 (the search goes on for a confirmed one).
  Found completed() {
    if (!has_opaque_) return Found::Row;
    // One wheel per completed column, then one per call.
    std::vector<size_t> wheel_sizes;
    for (const size_t c : completed_) wheel_sizes.push_back(columns_[c].candidates.size());
    for (const CallChoice& call : calls_) wheel_sizes.push_back(call.candidates.size());
    if (std::find(wheel_sizes.begin(), wheel_sizes.end(), 0) != wheel_sizes.end()) {
      unconfirmed_ = true;
      return Found::None;
    }
    std::vector<size_t> odometer(wheel_sizes.size(), 0);
    const auto set_choices = [&] {
      for (size_t i = 0; i < completed_.size(); ++i) choice_[completed_[i]] = static_cast<int>(odometer[i]);
      for (size_t i = 0; i < calls_.size(); ++i) calls_[i].choice = odometer[completed_.size() + i];
    };
    while (true) {
      set_choices();
      if (++evaluations_ > kMaxWitnessEvaluations) return Found::TooLarge;
      if (confirmed(witness())) return Found::Row;
      size_t i = 0;
      while (i < odometer.size() && ++odometer[i] == wheel_sizes[i]) odometer[i++] = 0;
      if (i == odometer.size()) break;
    }
    set_choices();
    unconfirmed_ = true;
    return Found::None;
  }

  std::vector<CallValue> chosen_calls() const {
    std::vector<CallValue> out;
    for (const CallChoice& c : calls_)
      if (!c.candidates.empty())
        out.push_back({c.call, c.call->function + "() #" + std::to_string(out.size() + 1), c.candidates[c.choice]});
    return out;
  }

  bool confirmed(const Row& row) const {
    try {
      CallValues calls;
      for (const CallChoice& c : calls_) calls.emplace(c.call, c.candidates[c.choice]);
      if (evaluate(*predicate_, row, calls) != Truth::True) return false;
    } catch (const std::exception&) {
      return false;  // rand(), an overflow, ...: Z3 decides
    }
    return check_row_consistency(row, allowance_).kind == Consistency::Consistent;
  }

  Row witness() const {
    Row row(leaf_count_, Value::null());
    for (size_t c = 0; c < columns_.size(); ++c) row[columns_[c].leaf] = columns_[c].candidates[choice_[c]];
    return row;
  }

  // The stats facts of every column the predicate reads, and the predicate.
  std::vector<std::string> unsat_reason(const ExprPtr& predicate) const {
    std::vector<std::string> reason;
    for (const Column& c : columns_) {
      if (c.atoms.empty() || !c.allowance) continue;
      for (std::string& label : allowance_labels(*c.allowance)) reason.push_back(std::move(label));
    }
    reason.push_back("pred: " + to_sql(predicate));
    return reason;
  }

  const Schema& schema_;
  const RowAllowance& allowance_;
  size_t leaf_count_;
  std::vector<Node> nodes_;
  std::vector<Atom> atoms_;
  std::vector<Column> columns_;
  std::map<int, int> column_of_leaf_;
  int root_ = -1;
  std::vector<TruthSet> current_;  // by atom
  std::vector<size_t> searched_;   // the columns some atom reads
  std::vector<int> choice_;        // by column
  size_t nodes_visited_ = 0;
  const Expr* predicate_ = nullptr;
  bool has_opaque_ = false;
  std::set<int> opaque_leaves_;          // read by opaque atoms
  std::vector<Value> opaque_literals_;   // in opaque atoms
  std::vector<size_t> completed_;        // columns only opaque atoms read
  // A non-deterministic call: the values a witness tries for it (none: no witness carries it).
  struct CallChoice {
    const Expr* call = nullptr;
    std::vector<Value> candidates;
    size_t choice = 0;
  };
  std::vector<CallChoice> calls_;
  size_t evaluations_ = 0;
  bool unconfirmed_ = false;  // some row the search could not rule out was not confirmed
};

}  // namespace

std::optional<OracleResult> decide_by_intervals(const ExprPtr& predicate, const Schema& schema,
                                                const RowAllowance& allowance) {
  return IntervalDecider(schema, allowance).decide(predicate);
}

}  // namespace skipsound::smt
