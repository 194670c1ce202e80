#include "tools/mutate/mutations.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <iterator>

#include "tools/mutate/source_tokens.h"

namespace skipsound::mutation {

namespace {


struct OperatorName {
  Operator op;
  const char* name;
};
constexpr OperatorName kOperatorNames[] = {
    {Operator::Relational, "relational"},           {Operator::Constant, "constant"},
    {Operator::NegateCondition, "negate-condition"}, {Operator::ConditionTrue, "condition-true"},
    {Operator::ConditionFalse, "condition-false"},   {Operator::Logical, "logical"},
    {Operator::ReturnConstant, "return-constant"},   {Operator::DeleteStatement, "delete-statement"},
};


template <size_t N>
bool one_of(std::string_view text, const std::string_view (&options)[N]) {
  return std::find(std::begin(options), std::end(options), text) != std::end(options);
}

constexpr std::string_view kRelational[] = {"<", "<=", ">", ">=", "==", "!="};
constexpr std::string_view kNumberTypes[] = {"int", "long", "short", "unsigned", "size_t", "ptrdiff_t", "int8_t",
                                             "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t",
                                             "uint64_t", "double", "float"};
constexpr std::string_view kControlKeywords[] = {"if", "while", "for", "switch", "catch"};
constexpr std::string_view kFunctionQualifiers[] = {"const", "noexcept", "override", "final", "mutable"};
// What may follow a (qualified) name for a line to be an expression statement: a call, member
// access, subscript, assignment, increment or stream insertion.
constexpr std::string_view kExpressionContinuations[] = {"(", ".", "->", "[", "=", "+=", "-=", "*=", "/=", "%=",
                                                         "&=", "|=", "^=", "<<=", ">>=", "++", "--", "<<"};

const char* relational_neighbour(std::string_view op) {
  if (op == "<") return "<=";
  if (op == "<=") return "<";
  if (op == ">") return ">=";
  if (op == ">=") return ">";
  if (op == "==") return "!=";
  return "==";
}


// The first token at bracket depth 0 from `from` that is `text`, before `end`; kNoToken if none.
size_t find_top_level(const Tokens& ts, size_t from, size_t end, std::string_view text) {
  size_t depth = 0;
  for (size_t i = from; i < end && i < ts.size(); ++i) {
    if (depth == 0 && is(ts[i], text)) return i;
    if (opens(ts[i])) ++depth;
    if (closes(ts[i])) {
      if (depth == 0) return kNoToken;
      --depth;
    }
  }
  return kNoToken;
}

// The integer value of a literal and how to spell another one like it; nullopt for floating point.
struct IntegerLiteral {
  uint64_t value = 0;
  bool hex = false;
  std::string suffix;

  std::string spell(uint64_t v) const {
    static const char* digits = "0123456789abcdef";
    std::string body;
    const uint64_t base = hex ? 16 : 10;
    do {
      body.insert(body.begin(), digits[v % base]);
      v /= base;
    } while (v);
    return (hex ? "0x" : "") + body + suffix;
  }
};

std::optional<IntegerLiteral> integer_literal(std::string_view text) {
  std::string digits;
  for (char c : text) {
    if (c != '\'') digits += c;
  }
  IntegerLiteral literal;
  while (!digits.empty() && std::string_view("uUlLzZ").find(digits.back()) != std::string_view::npos) {
    literal.suffix.insert(literal.suffix.begin(), digits.back());
    digits.pop_back();
  }
  uint64_t base = 10;
  size_t start = 0;
  if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) {
    base = 16, start = 2, literal.hex = true;
  } else if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'b' || digits[1] == 'B')) {
    base = 2, start = 2;
  } else if (digits.size() > 1 && digits[0] == '0') {
    base = 8, start = 1;
  }
  if (start == digits.size()) return std::nullopt;
  for (size_t i = start; i < digits.size(); ++i) {
    const char c = static_cast<char>(std::tolower(static_cast<unsigned char>(digits[i])));
    const uint64_t digit = std::isdigit(static_cast<unsigned char>(c)) ? uint64_t(c - '0')
                           : (c >= 'a' && c <= 'f')                   ? uint64_t(c - 'a' + 10)
                                                                      : 99;
    if (digit >= base || literal.value > (UINT64_MAX - digit) / base) return std::nullopt;
    literal.value = literal.value * base + digit;
  }
  return literal;
}

// What a `return e;` may be replaced by, from the enclosing function's declared return type.
enum class ReturnKind { Unknown, Bool, Number, Deduced };

ReturnKind return_kind_of_type(const Token& last_type_token) {
  if (is(last_type_token, "bool")) return ReturnKind::Bool;
  if (is(last_type_token, "auto")) return ReturnKind::Deduced;
  if (one_of(last_type_token.text, kNumberTypes)) return ReturnKind::Number;
  return ReturnKind::Unknown;
}

class MutationFinder {
 public:
  MutationFinder(std::string_view source, const LexedSource& lexed) : src_(source), lexed_(lexed), ts_(lexed.tokens) {}

  std::vector<Mutation> run() {
    for (size_t i = 0; i < ts_.size(); ++i) {
      visit(i);
      if (is(ts_[i], "{")) scopes_.push_back(classify_brace(i));
      if (is(ts_[i], "}") && !scopes_.empty()) scopes_.pop_back();
    }
    std::stable_sort(out_.begin(), out_.end(), [](const Mutation& a, const Mutation& b) { return a.offset < b.offset; });
    return std::move(out_);
  }

 private:
  enum class ScopeKind { Function, Block, Other };
  struct Scope {
    ScopeKind kind = ScopeKind::Other;
    ReturnKind returns = ReturnKind::Unknown;
  };

  void visit(size_t i) {
    const Token& t = ts_[i];
    const bool after_operator_keyword = i > 0 && is(ts_[i - 1], "operator");
    if (t.kind == TokenKind::Punctuator && spaced(t) && !after_operator_keyword) {
      if (one_of(t.text, kRelational)) add(Operator::Relational, i, i, relational_neighbour(t.text));
      if (is(t, "&&")) add(Operator::Logical, i, i, "||");
      if (is(t, "||")) add(Operator::Logical, i, i, "&&");
    }
    if (t.kind == TokenKind::Number) constants(i);
    if (is(t, "if") || is(t, "while")) condition(i);
    if (is(t, "return")) return_constant(i);
    if (t.first_on_line) delete_statement(i);
  }

  void add(Operator op, size_t first, size_t last, std::string replacement) {
    const Token& start = ts_[first];
    if (lexed_.opted_out_lines.count(start.line) || lexed_.opted_out_lines.count(ts_[last].line)) return;
    const size_t end = ts_[last].offset + ts_[last].text.size();
    out_.push_back(Mutation{op, start.offset, end - start.offset, std::move(replacement), start.line, start.column});
  }

  std::string text(size_t first, size_t last) const {
    return std::string(src_.substr(ts_[first].offset, ts_[last].offset + ts_[last].text.size() - ts_[first].offset));
  }

  void constants(size_t i) {
    const auto literal = integer_literal(ts_[i].text);
    if (!literal) return;
    if (literal->value < UINT64_MAX) add(Operator::Constant, i, i, literal->spell(literal->value + 1));
    if (literal->value > 0) add(Operator::Constant, i, i, literal->spell(literal->value - 1));
  }

  // if (c) and while (c), not if constexpr nor a condition with an init-statement or declaration.
  void condition(size_t i) {
    if (i + 1 >= ts_.size() || !is(ts_[i + 1], "(")) return;
    const size_t close = matching_close(ts_, i + 1);
    if (close == kNoToken || close <= i + 2) return;
    const size_t first = i + 2, last = close - 1;
    if (find_top_level(ts_, first, close, ";") != kNoToken || find_top_level(ts_, first, close, "=") != kNoToken) return;
    add(Operator::NegateCondition, first, last, "!(" + text(first, last) + ")");
    if (is(ts_[i], "if")) add(Operator::ConditionTrue, first, last, "true");
    add(Operator::ConditionFalse, first, last, "false");
  }

  ReturnKind enclosing_return_kind() const {
    for (auto s = scopes_.rbegin(); s != scopes_.rend(); ++s) {
      if (s->kind == ScopeKind::Function) return s->returns;
    }
    return ReturnKind::Unknown;
  }

  // A deduced return type is taken as bool only when the expression plainly is one.
  bool looks_boolean(size_t first, size_t end) const {
    if (is(ts_[first], "!") || (end == first + 1 && (is(ts_[first], "true") || is(ts_[first], "false")))) return true;
    if (find_top_level(ts_, first, end, "?") != kNoToken) return false;
    size_t depth = 0;
    for (size_t k = first; k < end; ++k) {
      if (opens(ts_[k])) ++depth;
      if (closes(ts_[k]) && depth) --depth;
      const bool binary = spaced(ts_[k]) && (one_of(ts_[k].text, kRelational) || is(ts_[k], "&&") || is(ts_[k], "||"));
      if (depth == 0 && binary) return true;
    }
    return false;
  }

  void return_constant(size_t i) {
    const size_t end = find_top_level(ts_, i + 1, ts_.size(), ";");
    if (end == kNoToken || end == i + 1 || find_top_level(ts_, i + 1, end, "{") != kNoToken) return;
    ReturnKind kind = enclosing_return_kind();
    if (kind == ReturnKind::Deduced) kind = looks_boolean(i + 1, end) ? ReturnKind::Bool : ReturnKind::Unknown;
    const std::string expression = text(i + 1, end - 1);
    const auto replace_unless_same = [&](const char* constant) {
      if (expression != constant) add(Operator::ReturnConstant, i + 1, end - 1, constant);
    };
    if (kind == ReturnKind::Bool) {
      replace_unless_same("true");
      replace_unless_same("false");
    }
    if (kind == ReturnKind::Number) replace_unless_same("0");
  }

  bool inside_function_body() const {
    return !scopes_.empty() && scopes_.back().kind != ScopeKind::Other &&
           std::any_of(scopes_.begin(), scopes_.end(), [](const Scope& s) { return s.kind == ScopeKind::Function; });
  }

  // After a (qualified, maybe templated) name starting at `i`: the index of the next token.
  size_t skip_name(size_t i) const {
    size_t k = i + 1;
    while (k + 1 < ts_.size() && is(ts_[k], "::") && ts_[k + 1].kind == TokenKind::Identifier) k += 2;
    if (k < ts_.size() && is(ts_[k], "<") && !ts_[k].space_before) {
      int depth = 0;
      for (; k < ts_.size() && !is(ts_[k], ";"); ++k) {
        if (is(ts_[k], "<")) ++depth;
        if (is(ts_[k], ">")) --depth;
        if (is(ts_[k], ">>")) depth -= 2;
        if (depth <= 0) return k + 1;
      }
      return kNoToken;
    }
    return k;
  }

  // A whole expression statement alone on its line: `f(x);`, `a.b = c;`, `out << x;`.
  void delete_statement(size_t i) {
    const Token& t = ts_[i];
    if (t.kind != TokenKind::Identifier || is_keyword(t.text) || i == 0 || !inside_function_body()) return;
    const std::string_view before = ts_[i - 1].text;
    if (before != ";" && before != "{" && before != "}" && before != ":" && before != ")" && before != "else") return;
    const size_t end = find_top_level(ts_, i, ts_.size(), ";");
    if (end == kNoToken || ts_[end].line != t.line || !ts_[end].last_on_line) return;
    const size_t next = skip_name(i);
    if (next == kNoToken || next >= end || !one_of(ts_[next].text, kExpressionContinuations)) return;
    add(Operator::DeleteStatement, i, end, "{}");
  }

  // What the `{` at `i` opens: a function body (with its return kind), a block in one, or other.
  Scope classify_brace(size_t i) const {
    if (i == 0) return {};
    const Token& before = ts_[i - 1];
    if (is(before, "else") || is(before, "do") || is(before, "try") || is(before, ":") || is(before, ";") ||
        is(before, "}")) {
      return {ScopeKind::Block};
    }
    if (is(before, "]")) return {ScopeKind::Function, ReturnKind::Deduced};  // [&] { ... }
    size_t k = i - 1;
    while (k > 0 && !is(ts_[k], ")") && !is(ts_[k], ";") && !is(ts_[k], "{") && !is(ts_[k], "}") &&
           !is(ts_[k], "=") && !is(ts_[k], "(")) {
      --k;
    }
    if (!is(ts_[k], ")")) return {};
    const bool qualifiers_only = std::all_of(ts_.begin() + static_cast<std::ptrdiff_t>(k) + 1,
                                             ts_.begin() + static_cast<std::ptrdiff_t>(i), [](const Token& q) {
                                               return q.kind == TokenKind::Identifier && one_of(q.text, kFunctionQualifiers);
                                             });
    if (find_top_level(ts_, k + 1, i, "->") != kNoToken) return {ScopeKind::Function, return_kind_of_type(before)};
    if (!qualifiers_only) return {};
    const size_t open = matching_open(ts_, k);
    if (open == kNoToken || open == 0) return {ScopeKind::Function};
    const Token& callee = ts_[open - 1];
    if (one_of(callee.text, kControlKeywords)) return {ScopeKind::Block};
    if (is(callee, "]")) return {ScopeKind::Function, ReturnKind::Deduced};
    return {ScopeKind::Function, declared_return_kind(open - 1)};
  }

  // From a function's name at `name` back over Class:: qualification (or `operator==`) to the type.
  ReturnKind declared_return_kind(size_t name) const {
    size_t k = name;
    if (k > 0 && is(ts_[k - 1], "operator")) --k;
    while (k >= 2 && is(ts_[k - 1], "::") && ts_[k - 2].kind == TokenKind::Identifier) k -= 2;
    return k == 0 ? ReturnKind::Unknown : return_kind_of_type(ts_[k - 1]);
  }

  std::string_view src_;
  const LexedSource& lexed_;
  const Tokens& ts_;
  std::vector<Scope> scopes_;
  std::vector<Mutation> out_;
};

std::string collapse_whitespace(std::string_view text) {
  std::string out;
  for (char c : text) {
    const bool space = std::isspace(static_cast<unsigned char>(c));
    if (space && (out.empty() || out.back() == ' ')) continue;
    out += space ? ' ' : c;
  }
  if (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

}  // namespace

const char* operator_name(Operator op) {
  for (const OperatorName& n : kOperatorNames) {
    if (n.op == op) return n.name;
  }
  return "?";
}

std::optional<Operator> operator_from_name(std::string_view name) {
  for (const OperatorName& n : kOperatorNames) {
    if (name == n.name) return n.op;
  }
  return std::nullopt;
}

const std::vector<Operator>& all_operators() {
  static const std::vector<Operator> operators = [] {
    std::vector<Operator> v;
    for (const OperatorName& n : kOperatorNames) v.push_back(n.op);
    return v;
  }();
  return operators;
}

std::vector<Mutation> enumerate_mutations(std::string_view source) {
  const LexedSource lexed = lex(source);
  return MutationFinder(source, lexed).run();
}

std::string apply_mutation(std::string_view source, const Mutation& m) {
  return std::string(source.substr(0, m.offset)) + m.replacement + std::string(source.substr(m.offset + m.length));
}

MutationText describe_mutation(std::string_view source, const Mutation& m) {
  const size_t newline = m.offset == 0 ? std::string_view::npos : source.rfind('\n', m.offset - 1);
  const size_t line_start = newline == std::string_view::npos ? 0 : newline + 1;
  const size_t line_end = std::min(source.find('\n', m.offset + m.length), source.size());
  const std::string_view before = source.substr(line_start, line_end - line_start);
  const std::string after = std::string(source.substr(line_start, m.offset - line_start)) + m.replacement +
                            std::string(source.substr(m.offset + m.length, line_end - m.offset - m.length));
  return {collapse_whitespace(before), collapse_whitespace(after)};
}

}  // namespace skipsound::mutation
