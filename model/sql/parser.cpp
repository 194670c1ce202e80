// One file on purpose, over 600 lines: the X3 grammar lives in one .cpp (docs/architecture.md).
// The predicate grammar. Structure that keeps parsing linear on hostile input:
//  - every alternative starts with a distinct token, so no alternative re-parses a subexpression
//    another one already consumed; binary operators are loops (a >> *(op > b)), NOT and unary
//    minus are loops too, so only parentheses make the parser recurse;
//  - parenthesis depth is checked by a flat scan before X3 runs, so 1 MB of '(' never recurses;
//  - every node records its tree depth, and a tree deeper than kMaxExprDepth is rejected while
//    it is being built (long operator chains make deep trees without any parentheses).
#include "model/sql/parser.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <limits>

#include <boost/fusion/include/at_c.hpp>
#include <boost/optional.hpp>
#include <boost/spirit/home/x3.hpp>

#include "model/values/input_limits.h"
#include "model/values/temporal.h"
#include "model/values/utf8.h"
#include "model/values/ascii_text.h"

namespace skipsound {

namespace x3 = boost::spirit::x3;
using boost::fusion::at_c;

namespace {

// ---------------------------------------------------------------------------------------------
// Errors and positions

struct source_tag;  // x3::with<> data: the whole input, for columns and error carets

using Iterator = const char*;

[[noreturn]] void fail(std::string_view source, const std::string& message, Iterator at) {
  throw InputError(message, static_cast<int>(at - source.data()) + 1, std::string(source));
}

template <typename Context>
int column_of(const Context& ctx, Iterator at) {
  const std::string_view source = x3::get<source_tag>(ctx);
  return static_cast<int>(at - source.data()) + 1;
}

template <typename Context>
[[noreturn]] void fail_at(const Context& ctx, const std::string& message, Iterator at) {
  fail(x3::get<source_tag>(ctx), message, at);
}

template <typename Context>
[[noreturn]] void fail_at_column(const Context& ctx, const std::string& message, int column) {
  const std::string_view source = x3::get<source_tag>(ctx);
  fail(source, message, source.data() + column - 1);
}

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_ident_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool is_ident_char(char c) { return is_ident_start(c) || is_digit(c); }
char lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

std::string lowered(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), lower);
  return s;
}

// ---------------------------------------------------------------------------------------------
// Checks that run before the grammar

// Reports the first byte that breaks UTF-8 (overlong forms, surrogates and > U+10FFFF included).
void validate_utf8(std::string_view text) {
  const std::optional<size_t> bad = first_invalid_utf8_byte(text);
  if (!bad) return;
  char hex[8];
  std::snprintf(hex, sizeof hex, "0x%02X", static_cast<unsigned char>(text[*bad]));
  fail(text, std::string("invalid UTF-8 byte ") + hex, text.data() + *bad);
}

// Parentheses and CASE … END are the only constructs the grammar recurses on; count them flatly
// (skipping quoted text) so too deep an input fails before X3 descends into it.
void check_nesting(std::string_view text) {
  int depth = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (is_ident_start(c)) {
      size_t end = i;
      while (end < text.size() && is_ident_char(text[end])) ++end;
      const std::string word = lowered(std::string(text.substr(i, end - i)));
      if (word == "case" && ++depth > kMaxNestingDepth) {
        fail(text, "nesting deeper than " + std::to_string(kMaxNestingDepth) + " levels", text.data() + i);
      }
      if (word == "end") --depth;
      i = end - 1;
    } else if (c == '\'' || c == '"' || c == '`') {
      for (++i; i < text.size() && text[i] != c; ++i) {
        if (c != '`' && text[i] == '\\') ++i;
      }
      if (i >= text.size()) return;  // unterminated: the grammar reports it with its own message
    } else if (c == '(') {
      if (++depth > kMaxNestingDepth) {
        fail(text, "nesting deeper than " + std::to_string(kMaxNestingDepth) + " levels",
             text.data() + i);
      }
    } else if (c == ')') {
      --depth;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Semantic values

// A parsed subexpression and the depth of its tree.
struct Node {
  ExprPtr expr;
  int depth = 0;
  // A literal token written as is, not in parentheses: only those fold into CAST( ).
  bool bare_literal = false;
};

struct LiteralToken {
  Value value;
  int column = 0;
};
struct StringToken {
  std::string text;
  int column = 0;
};
struct IdentToken {
  std::string name;
  int column = 0;
  bool quoted = false;
};
template <typename Op>
struct OpToken {
  Op op{};
  int column = 0;
};

// Children come as a std::array or std::vector of Nodes; the node is allocated once, in place.
Node build(std::shared_ptr<Expr> e, int column, auto&& children, const auto& ctx) {
  int depth = 0;
  e->children.reserve(children.size());
  for (Node& child : children) {
    depth = std::max(depth, child.depth);
    e->children.push_back(std::move(child.expr));
  }
  e->position = column;
  if (++depth > kMaxExprDepth) {
    fail_at_column(ctx, "expression nested deeper than " + std::to_string(kMaxExprDepth) +
                            " levels", column);
  }
  return Node{std::move(e), depth, false};
}

std::shared_ptr<Expr> of_kind(ExprKind kind) {
  auto e = std::make_shared<Expr>();
  e->kind = kind;
  return e;
}

Node literal_node(LiteralToken token, const auto& ctx) {
  auto e = of_kind(ExprKind::Literal);
  e->literal = std::move(token.value);
  Node node = build(std::move(e), token.column, std::array<Node, 0>{}, ctx);
  node.bare_literal = true;
  return node;
}

// ---------------------------------------------------------------------------------------------
// Token parsers (hand-written X3 primitives: they skip leading space, report their column)

struct whitespace_parser : x3::parser<whitespace_parser> {
  using attribute_type = x3::unused_type;
  template <typename Context, typename RContext, typename Attribute>
  bool parse(Iterator& first, Iterator const& last, const Context&, RContext&, Attribute&) const {
    if (first == last || !is_space(*first)) return false;
    ++first;
    return true;
  }
};
whitespace_parser const whitespace{};

// A case-insensitive word that is not the prefix of a longer identifier. The positioned form
// yields its column.
template <bool Positioned>
struct keyword_parser : x3::parser<keyword_parser<Positioned>> {
  using attribute_type = std::conditional_t<Positioned, int, x3::unused_type>;
  static bool const has_attribute = Positioned;
  const char* word;  // lower case

  template <typename Context, typename RContext, typename Attribute>
  bool parse(Iterator& first, Iterator const& last, const Context& ctx, RContext&,
             Attribute& attr) const {
    x3::skip_over(first, last, ctx);
    Iterator it = first;
    for (const char* w = word; *w != '\0'; ++w, ++it) {
      if (it == last || lower(*it) != *w) return false;
    }
    if (it != last && is_ident_char(*it)) return false;
    if constexpr (Positioned) x3::traits::move_to(column_of(ctx, first), attr);
    first = it;
    return true;
  }
};
keyword_parser<false> kw(const char* word) { return {{}, word}; }
keyword_parser<true> kw_at(const char* word) { return {{}, word}; }

// Operators by longest match first.
template <typename Op>
struct operator_parser : x3::parser<operator_parser<Op>> {
  using attribute_type = OpToken<Op>;
  std::vector<std::pair<std::string_view, Op>> table;

  template <typename Context, typename RContext, typename Attribute>
  bool parse(Iterator& first, Iterator const& last, const Context& ctx, RContext&,
             Attribute& attr) const {
    x3::skip_over(first, last, ctx);
    const std::string_view rest(first, static_cast<size_t>(last - first));
    for (const auto& [text, op] : table) {
      if (rest.substr(0, text.size()) == text) {
        x3::traits::move_to(OpToken<Op>{op, column_of(ctx, first)}, attr);
        first += text.size();
        return true;
      }
    }
    return false;
  }
};

operator_parser<CompareOp> const compare_operator{{}, {
    {"<=>", CompareOp::NullSafeEq}, {"<=", CompareOp::Le}, {"<>", CompareOp::Ne},
    {"<", CompareOp::Lt}, {">=", CompareOp::Ge}, {">", CompareOp::Gt}, {"==", CompareOp::Eq},
    {"=", CompareOp::Eq}, {"!=", CompareOp::Ne}}};
operator_parser<ArithOp> const additive_operator{{}, {{"+", ArithOp::Add}, {"-", ArithOp::Sub}}};
operator_parser<ArithOp> const multiplicative_operator{
    {}, {{"*", ArithOp::Mul}, {"/", ArithOp::Div}, {"%", ArithOp::Mod}}};

// Skips spaces from `it`; true when a digit (or '.' then a digit) starts there.
bool number_starts_at(Iterator it, Iterator last) {
  while (it != last && is_space(*it)) ++it;
  if (it == last) return false;
  if (is_digit(*it)) return true;
  return *it == '.' && it + 1 != last && is_digit(it[1]);
}

// A one-character prefix operator with its column, unless what follows it makes it something
// else (`refused_before`).
struct prefix_operator_parser : x3::parser<prefix_operator_parser> {
  using attribute_type = int;
  char symbol;
  bool (*refused_before)(Iterator after, Iterator last);

  template <typename Context, typename RContext, typename Attribute>
  bool parse(Iterator& first, Iterator const& last, const Context& ctx, RContext&,
             Attribute& attr) const {
    x3::skip_over(first, last, ctx);
    if (first == last || *first != symbol || refused_before(first + 1, last)) return false;
    x3::traits::move_to(column_of(ctx, first), attr);
    ++first;
    return true;
  }
};
// A '-' that is unary negation of something other than a number literal (`-x`, `-(5)`, `- -5`).
prefix_operator_parser const negation{{}, '-', number_starts_at};
// '!' as NOT (Spark's BANG), never the start of '!='.
prefix_operator_parser const bang{{}, '!', [](Iterator after, Iterator last) { return after != last && *after == '='; }};

// Refuses a subquery where one could start: `(SELECT …` and `EXISTS (…`. The IR's one subquery
// is `IN (SELECT …)` (in_subquery_tail, tried first); consumes nothing otherwise.
struct subquery_guard_parser : x3::parser<subquery_guard_parser> {
  using attribute_type = x3::unused_type;
  bool after_parenthesis;  // true: `SELECT` right here is a subquery; false: `EXISTS (` is

  template <typename Context, typename RContext, typename Attribute>
  bool parse(Iterator& first, Iterator const& last, const Context& ctx, RContext&, Attribute&) const {
    Iterator it = first;
    x3::skip_over(it, last, ctx);
    const auto word_at = [&](Iterator at, std::string_view word) {
      for (const char c : word) {
        if (at == last || lower(*at) != c) return false;
        ++at;
      }
      return at == last || !is_ident_char(*at);
    };
    if (after_parenthesis && word_at(it, "select")) {
      fail_at(ctx, "subqueries are not supported here: the one subquery is IN (SELECT <column> FROM t [WHERE ...])", it);
    }
    if (!after_parenthesis && word_at(it, "exists")) {
      Iterator next = it + 6;
      while (next != last && is_space(*next)) ++next;
      if (next != last && *next == '(') {
        fail_at(ctx, "EXISTS subqueries are not supported: the one subquery is IN (SELECT <column> FROM t [WHERE ...])", it);
      }
    }
    return true;
  }
};
subquery_guard_parser const no_select{{}, true};
subquery_guard_parser const no_exists{{}, false};

// The word after IS [NOT]: NULL, TRUE, FALSE or UNKNOWN (DISTINCT FROM has its own tail).
enum class IsWord { Null, True, False, Unknown };
struct is_word_parser : x3::parser<is_word_parser> {
  using attribute_type = IsWord;
  template <typename Context, typename RContext, typename Attribute>
  bool parse(Iterator& first, Iterator const& last, const Context& ctx, RContext& rctx,
             Attribute& attr) const {
    constexpr std::pair<const char*, IsWord> kWords[] = {
        {"null", IsWord::Null}, {"true", IsWord::True}, {"false", IsWord::False}, {"unknown", IsWord::Unknown}};
    for (const auto& [word, value] : kWords) {
      if (keyword_parser<false>{{}, word}.parse(first, last, ctx, rctx, x3::unused)) {
        x3::traits::move_to(value, attr);
        return true;
      }
    }
    return false;
  }
};
is_word_parser const is_word{};

// Number literals as Spark reads them. The signed form takes a leading '-' into the literal, so
// that -2147483648 is an int and -5 prints and re-reads as one literal.
struct number_parser : x3::parser<number_parser> {
  using attribute_type = LiteralToken;
  bool is_signed = false;

  template <typename Context, typename RContext, typename Attribute>
  bool parse(Iterator& first, Iterator const& last, const Context& ctx, RContext&,
             Attribute& attr) const {
    x3::skip_over(first, last, ctx);
    Iterator it = first;
    std::string text;
    if (is_signed) {
      if (it == last || *it != '-') return false;
      text = "-";
      for (++it; it != last && is_space(*it);) ++it;
    }
    if (!number_starts_at(it, last) || is_space(*it)) return false;
    const Iterator digits_start = it;
    while (it != last && is_digit(*it)) ++it;
    bool fractional = false, exponent = false;
    if (it != last && *it == '.') {
      fractional = true;
      for (++it; it != last && is_digit(*it);) ++it;
    }
    if (it != last && lower(*it) == 'e') {
      Iterator e = it + 1;
      if (e != last && (*e == '+' || *e == '-')) ++e;
      if (e != last && is_digit(*e)) {
        exponent = true;
        for (it = e; it != last && is_digit(*it);) ++it;
      }
    }
    text.append(digits_start, it);
    const Iterator suffix_start = it;
    while (it != last && is_ident_char(*it)) ++it;
    const std::string shown = "`" + text + std::string(suffix_start, it) + "`";
    const std::string suffix = lowered(std::string(suffix_start, it));
    const int column = column_of(ctx, first);
    x3::traits::move_to(
        LiteralToken{number_value(text, suffix, shown, fractional || exponent, exponent, ctx, first),
                     column},
        attr);
    first = it;
    return true;
  }

 private:
  template <typename Context>
  static Value number_value(const std::string& text, const std::string& suffix,
                            const std::string& shown, bool has_point, bool has_exponent,
                            const Context& ctx, Iterator at) {
    if (suffix == "d" || (suffix.empty() && has_exponent)) return floating(text, TypeKind::Double, shown, ctx, at);
    if (suffix == "f") return floating(text, TypeKind::Float, shown, ctx, at);
    if (suffix == "bd" || (suffix.empty() && has_point)) return decimal(text, shown, ctx, at);
    if (has_point) fail_at(ctx, "malformed number " + shown, at);
    if (suffix == "y") return integral(text, TypeKind::Byte, shown, ctx, at);
    if (suffix == "s") return integral(text, TypeKind::Short, shown, ctx, at);
    if (suffix == "l") return integral(text, TypeKind::Long, shown, ctx, at);
    if (!suffix.empty()) fail_at(ctx, "malformed number " + shown, at);
    // Spark: an integer too big for int is a long, too big for long a decimal.
    int64_t v = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (error == std::errc() && end == text.data() + text.size()) {
      if (v >= integral_min(TypeKind::Int) && v <= integral_max(TypeKind::Int)) {
        return Value::integral(TypeKind::Int, v);
      }
      return Value::integral(TypeKind::Long, v);
    }
    return decimal(text, shown, ctx, at);
  }

  template <typename Context>
  static Value integral(const std::string& text, TypeKind kind, const std::string& shown,
                        const Context& ctx, Iterator at) {
    int64_t v = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (error != std::errc() || end != text.data() + text.size() || v < integral_min(kind) ||
        v > integral_max(kind)) {
      fail_at(ctx, "number " + shown + " is out of range for " + type_name(DataType::of(kind)), at);
    }
    return Value::integral(kind, v);
  }

  template <typename Context>
  static Value floating(const std::string& text, TypeKind kind, const std::string& shown,
                        const Context& ctx, Iterator at) {
    double v = 0;
    std::from_chars_result r{};
    if (kind == TypeKind::Float) {
      float f = 0;
      r = std::from_chars(text.data(), text.data() + text.size(), f);
      v = f;
    } else {
      r = std::from_chars(text.data(), text.data() + text.size(), v);
    }
    if (r.ec != std::errc() || r.ptr != text.data() + text.size()) {
      fail_at(ctx, "number " + shown + " is out of range for " + type_name(DataType::of(kind)), at);
    }
    return Value::floating(kind, v);
  }

  template <typename Context>
  static Value decimal(const std::string& text, const std::string& shown, const Context& ctx,
                       Iterator at) {
    try {
      const Decimal d = parse_decimal(text);
      if (d.scale >= 0 && d.scale <= kMaxDecimalPrecision && fits_precision(d, kMaxDecimalPrecision)) {
        return Value::decimal(d, std::max(decimal_digits(d), d.scale));
      }
    } catch (const std::exception&) {
    }
    fail_at(ctx, "number " + shown + " does not fit decimal(38)", at);
  }
};
number_parser const unsigned_number{{}, false};
number_parser const signed_number{{}, true};

// Reads 4 hex digits after "\u" at `it`; nullopt when they are not there.
std::optional<uint32_t> read_hex4(Iterator it, Iterator last) {
  if (last - it < 4) return std::nullopt;
  uint32_t v = 0;
  const auto [end, error] = std::from_chars(it, it + 4, v, 16);
  if (error != std::errc() || end != it + 4) return std::nullopt;
  return v;
}

// 'text' with '' for a quote and Spark's backslash escapes. "text" (with "" for a quote) is the
// same string: Spark reads a double-quoted token as a string literal unless
// spark.sql.ansi.doubleQuotedIdentifiers is set, which it is not by default (docs/semantics.md §3.1).
struct string_parser : x3::parser<string_parser> {
  using attribute_type = StringToken;

  template <typename Context, typename RContext, typename Attribute>
  bool parse(Iterator& first, Iterator const& last, const Context& ctx, RContext&,
             Attribute& attr) const {
    x3::skip_over(first, last, ctx);
    if (first == last || (*first != '\'' && *first != '"')) return false;
    const char quote = *first;
    std::string text;
    Iterator it = first + 1;
    for (;;) {
      if (it == last) fail_at(ctx, "unterminated string", first);
      const char c = *it++;
      if (c == quote) {
        if (it == last || *it != quote) break;
        text += quote;
        ++it;
      } else if (c == '\\') {
        if (it == last) fail_at(ctx, "unterminated string", first);
        it = read_escape(it, last, text, ctx);
      } else {
        text += c;
      }
    }
    x3::traits::move_to(StringToken{std::move(text), column_of(ctx, first)}, attr);
    first = it;
    return true;
  }

 private:
  // `it` is just after the backslash; returns the position after the escape.
  template <typename Context>
  static Iterator read_escape(Iterator it, Iterator last, std::string& text, const Context& ctx) {
    const char e = *it++;
    switch (e) {
      case 'n': text += '\n'; return it;
      case 't': text += '\t'; return it;
      case 'r': text += '\r'; return it;
      case 'b': text += '\b'; return it;
      case '0': text += '\0'; return it;
      case 'Z': text += '\x1A'; return it;
      case '%':
      case '_': text += '\\'; text += e; return it;  // kept for LIKE, as Spark does
      case 'u': break;
      default:
        // Any other escaped character stands for itself; copy its whole UTF-8 sequence.
        text += e;
        while (it != last && is_utf8_continuation(*it)) text += *it++;
        return it;
    }
    const Iterator escape_start = it - 2;
    std::optional<uint32_t> cp = read_hex4(it, last);
    if (!cp) fail_at(ctx, "\\u needs four hex digits", escape_start);
    it += 4;
    if (*cp >= 0xD800 && *cp <= 0xDBFF) {  // a high surrogate must pair with a low one
      std::optional<uint32_t> low;
      if (last - it >= 6 && it[0] == '\\' && it[1] == 'u') low = read_hex4(it + 2, last);
      if (!low || *low < 0xDC00 || *low > 0xDFFF) {
        fail_at(ctx, "unpaired UTF-16 surrogate in \\u escape", escape_start);
      }
      cp = 0x10000 + ((*cp - 0xD800) << 10) + (*low - 0xDC00);
      it += 6;
    } else if (*cp >= 0xDC00 && *cp <= 0xDFFF) {
      fail_at(ctx, "unpaired UTF-16 surrogate in \\u escape", escape_start);
    }
    append_utf8(text, *cp);
    return it;
  }
};
string_parser const string_token{};

// X'0AFF'
struct binary_parser : x3::parser<binary_parser> {
  using attribute_type = LiteralToken;

  template <typename Context, typename RContext, typename Attribute>
  bool parse(Iterator& first, Iterator const& last, const Context& ctx, RContext&,
             Attribute& attr) const {
    x3::skip_over(first, last, ctx);
    if (last - first < 2 || lower(first[0]) != 'x' || first[1] != '\'') return false;
    Iterator it = first + 2;
    std::string bytes;
    for (; it != last && *it != '\''; it += 2) {
      unsigned v = 0;
      const auto [end, error] = std::from_chars(it, std::min(it + 2, last), v, 16);
      if (error != std::errc() || end != it + 2) {
        fail_at(ctx, "binary literal needs pairs of hex digits", it);
      }
      bytes += static_cast<char>(v);
    }
    if (it == last) fail_at(ctx, "unterminated binary literal", first);
    x3::traits::move_to(LiteralToken{Value::binary(std::move(bytes)), column_of(ctx, first)},
                        attr);
    first = it + 1;
    return true;
  }
};
binary_parser const binary_literal{};

// CASE's words are reserved too: `CASE WHEN a THEN end END` could not tell a column `end` apart.
constexpr const char* kReservedWords[] = {"and",  "or",   "not",  "is",   "null", "in",   "like",
                                          "between", "true", "false", "case", "when", "then",
                                          "else", "end"};

// A plain identifier (not a reserved word) or a `backquoted` one with `` for a backquote.
struct identifier_parser : x3::parser<identifier_parser> {
  using attribute_type = IdentToken;

  template <typename Context, typename RContext, typename Attribute>
  bool parse(Iterator& first, Iterator const& last, const Context& ctx, RContext&,
             Attribute& attr) const {
    x3::skip_over(first, last, ctx);
    if (first == last) return false;
    Iterator it = first;
    std::string name;
    bool quoted = false;
    if (*it == '`') {
      quoted = true;
      for (++it;; ++it) {
        if (it == last) fail_at(ctx, "unterminated quoted identifier", first);
        if (*it == '`') {
          if (it + 1 == last || it[1] != '`') break;
          ++it;
        }
        name += *it;
      }
      ++it;
      if (name.empty()) fail_at(ctx, "empty quoted identifier", first);
    } else {
      if (!is_ident_start(*it)) return false;
      while (it != last && is_ident_char(*it)) name += *it++;
      if (is_reserved_word(lowered(name))) return false;
    }
    x3::traits::move_to(IdentToken{std::move(name), column_of(ctx, first), quoted}, attr);
    first = it;
    return true;
  }
};
identifier_parser const identifier{};

// A type name as written in CAST: int, bigint, decimal(10, 2), varchar(5).
struct type_parser : x3::parser<type_parser> {
  using attribute_type = OpToken<DataType>;

  template <typename Context, typename RContext, typename Attribute>
  bool parse(Iterator& first, Iterator const& last, const Context& ctx, RContext&,
             Attribute& attr) const {
    x3::skip_over(first, last, ctx);
    Iterator it = first;
    std::string name;
    while (it != last && is_ident_char(*it)) name += lower(*it++);
    if (name.empty()) return false;
    Iterator after_name = it;
    while (it != last && is_space(*it)) ++it;
    if (it != last && *it == '(') {
      name += '(';
      for (++it; it != last && *it != ')'; ++it) {
        if (!is_space(*it)) name += *it;
      }
      if (it == last) fail_at(ctx, "unterminated type parameters", after_name);
      name += ')';
      after_name = ++it;
    }
    try {
      x3::traits::move_to(OpToken<DataType>{parse_type_name(name), column_of(ctx, first)}, attr);
    } catch (const std::invalid_argument&) {
      fail_at(ctx, "unknown type `" + name + "`", first);
    }
    first = after_name;
    return true;
  }
};
type_parser const type_name_token{};

}  // namespace
}  // namespace skipsound

// Names shown in "expected …" messages.
namespace boost::spirit::x3 {
template <bool P>
struct get_info<skipsound::keyword_parser<P>> {
  using result_type = std::string;
  std::string operator()(const skipsound::keyword_parser<P>& p) const {
    return skipsound::ascii_upper(p.word);
  }
};
template <>
struct get_info<skipsound::is_word_parser> {
  using result_type = std::string;
  std::string operator()(const skipsound::is_word_parser&) const {
    return "NULL, TRUE, FALSE, UNKNOWN or DISTINCT FROM";
  }
};
template <>
struct get_info<skipsound::type_parser> {
  using result_type = std::string;
  std::string operator()(const skipsound::type_parser&) const { return "a type name"; }
};
}  // namespace boost::spirit::x3

namespace skipsound {
namespace {

// ---------------------------------------------------------------------------------------------
// Semantic actions

auto const assign = [](auto& ctx) { x3::_val(ctx) = x3::_attr(ctx); };

template <ExprKind Kind>
auto const fold_logical = [](auto& ctx) {
  const int column = at_c<0>(x3::_attr(ctx));
  Node lhs = std::move(x3::_val(ctx));
  x3::_val(ctx) = build(of_kind(Kind), column,
                        std::array{std::move(lhs), std::move(at_c<1>(x3::_attr(ctx)))}, ctx);
};

auto const fold_compare = [](auto& ctx) {
  auto& op = at_c<0>(x3::_attr(ctx));
  auto& rhs = at_c<1>(x3::_attr(ctx));
  Node lhs = std::move(x3::_val(ctx));
  auto e = of_kind(ExprKind::Compare);
  e->cmp_op = op.op;
  x3::_val(ctx) = build(std::move(e), op.column, std::array{std::move(lhs), std::move(rhs)}, ctx);
};

auto const fold_arith = [](auto& ctx) {
  auto& op = at_c<0>(x3::_attr(ctx));
  auto& rhs = at_c<1>(x3::_attr(ctx));
  Node lhs = std::move(x3::_val(ctx));
  auto e = of_kind(ExprKind::Arith);
  e->arith_op = op.op;
  x3::_val(ctx) = build(std::move(e), op.column, std::array{std::move(lhs), std::move(rhs)}, ctx);
};

// Applies prefix operators (NOT, unary minus) innermost first.
template <typename Wrap>
void fold_prefixes(auto& ctx, const std::vector<int>& columns, Node operand, Wrap wrap) {
  for (auto column = columns.rbegin(); column != columns.rend(); ++column) {
    operand = build(wrap(), *column, std::array{std::move(operand)}, ctx);
  }
  x3::_val(ctx) = std::move(operand);
}

auto const fold_nots = [](auto& ctx) {
  fold_prefixes(ctx, at_c<0>(x3::_attr(ctx)), std::move(at_c<1>(x3::_attr(ctx))),
                [] { return of_kind(ExprKind::Not); });
};

auto const fold_negations = [](auto& ctx) {
  fold_prefixes(ctx, at_c<0>(x3::_attr(ctx)), std::move(at_c<1>(x3::_attr(ctx))), [] {
    auto e = of_kind(ExprKind::Arith);
    e->arith_op = ArithOp::Neg;
    return e;
  });
};

auto const literal_action = [](auto& ctx) { x3::_val(ctx) = literal_node(x3::_attr(ctx), ctx); };

auto const string_literal_action = [](auto& ctx) {
  StringToken& s = x3::_attr(ctx);
  x3::_val(ctx) = literal_node({Value::string(std::move(s.text)), s.column}, ctx);
};

// NULL, TRUE, FALSE: the keyword's column and a fixed value.
auto constant(Value v) {
  return [v](auto& ctx) { x3::_val(ctx) = literal_node({v, x3::_attr(ctx)}, ctx); };
}

// DATE '…', TIMESTAMP '…', TIMESTAMP_NTZ '…'
template <TypeKind Kind>
auto const temporal_action = [](auto& ctx) {
  const int column = at_c<0>(x3::_attr(ctx));
  const StringToken& text = at_c<1>(x3::_attr(ctx));
  std::optional<int64_t> v;
  if constexpr (Kind == TypeKind::Date) v = parse_date(text.text);
  else if constexpr (Kind == TypeKind::Timestamp) v = parse_timestamp(text.text, ZonePolicy::ConvertToUtc);
  else v = parse_timestamp(text.text, ZonePolicy::Reject);
  if (!v) {
    fail_at_column(ctx, "cannot read '" + text.text + "' as a " + type_name(DataType::of(Kind)),
                   text.column);
  }
  x3::_val(ctx) = literal_node({Value::integral(Kind, *v), column}, ctx);
};

auto const cast_action = [](auto& ctx) {
  const int column = at_c<0>(x3::_attr(ctx));
  Node& operand = at_c<1>(x3::_attr(ctx));
  DataType& to = at_c<2>(x3::_attr(ctx)).op;
  if (operand.bare_literal) {
    // Only a literal written directly inside CAST( ) folds; `CAST((NULL) AS INT)` stays a cast.
    if (auto folded = folded_cast_literal(operand.expr->literal, to)) {
      x3::_val(ctx) = literal_node({std::move(*folded), column}, ctx);
      return;
    }
  }
  auto e = of_kind(ExprKind::Cast);
  e->cast_type = std::move(to);
  x3::_val(ctx) = build(std::move(e), column, std::array{std::move(operand)}, ctx);
};

auto const parenthesised_action = [](auto& ctx) {
  Node inner = std::move(x3::_attr(ctx));
  inner.bare_literal = false;
  x3::_val(ctx) = std::move(inner);
};

auto const push_node = [](auto& ctx) { x3::_val(ctx).push_back(std::move(x3::_attr(ctx))); };

auto const column_or_call_action = [](auto& ctx) {
  std::vector<IdentToken>& parts = at_c<0>(x3::_attr(ctx));
  auto& arguments = at_c<1>(x3::_attr(ctx));
  const int column = parts.front().column;
  if (!arguments) {
    auto e = of_kind(ExprKind::Column);
    e->path.reserve(parts.size());
    for (IdentToken& part : parts) e->path.push_back(std::move(part.name));
    x3::_val(ctx) = build(std::move(e), column, std::array<Node, 0>{}, ctx);
    return;
  }
  const std::string name = lowered(parts.front().name);
  const bool plain_name = parts.size() == 1 && !parts.front().quoted;
  if (plain_name && (name == "isnull" || name == "isnotnull")) {
    // Spark's IsNull / IsNotNull, the very nodes `e IS [NOT] NULL` builds, so one IR and one set
    // of skipping rules serve both spellings (docs/semantics.md §3.1).
    if (arguments->size() != 1) {
      fail_at_column(ctx, name + "() takes 1 argument(s), not " + std::to_string(arguments->size()), column);
    }
    x3::_val(ctx) = build(of_kind(name == "isnull" ? ExprKind::IsNull : ExprKind::IsNotNull), column,
                          std::move(*arguments), ctx);
    return;
  }
  if (!plain_name || !is_known_function(name)) {
    std::string shown;
    for (const IdentToken& part : parts) shown += (shown.empty() ? "" : ".") + part.name;
    fail_at_column(ctx, "unknown function `" + shown + "`", column);
  }
  auto e = of_kind(ExprKind::Call);
  e->function = name;
  e->deterministic = is_deterministic_function(name);
  x3::_val(ctx) = build(std::move(e), column, std::move(*arguments), ctx);
};

// `x NOT IN …`, `NOT LIKE`, `NOT BETWEEN`: the positive form wrapped in NOT at the keyword's column.
Node negated_if(const boost::optional<int>& not_column, Node node, const auto& ctx) {
  if (!not_column) return node;
  return build(of_kind(ExprKind::Not), *not_column, std::array{std::move(node)}, ctx);
}

auto const in_action = [](auto& ctx) {
  const boost::optional<int>& not_column = at_c<0>(x3::_attr(ctx));
  const int column = at_c<1>(x3::_attr(ctx));
  std::vector<Node>& items = at_c<2>(x3::_attr(ctx));
  items.insert(items.begin(), std::move(x3::_val(ctx)));
  Node in = build(of_kind(ExprKind::In), column, std::move(items), ctx);
  x3::_val(ctx) = negated_if(not_column, std::move(in), ctx);
};

// `value [NOT] IN (SELECT column FROM t [WHERE condition])`: a subquery over the table itself,
// the one table the model has (docs/semantics.md §3.1).
auto const in_subquery_action = [](auto& ctx) {
  auto& attr = x3::_attr(ctx);
  const IdentToken& table = at_c<3>(attr);
  if (lowered(table.name) != "t") {
    fail_at_column(ctx, "a subquery reads the table itself (FROM t), not '" + table.name + "'", table.column);
  }
  std::vector<Node> children{std::move(x3::_val(ctx)), std::move(at_c<2>(attr))};
  if (at_c<4>(attr)) children.push_back(std::move(*at_c<4>(attr)));
  Node in = build(of_kind(ExprKind::InSubquery), at_c<1>(attr), std::move(children), ctx);
  x3::_val(ctx) = negated_if(at_c<0>(attr), std::move(in), ctx);
};

// LIKE or ILIKE, with the keyword's column.
struct LikeWord {
  int column = 0;
  bool case_insensitive = false;
};

Node call_node(const char* function, Node argument, const auto& ctx) {
  auto e = of_kind(ExprKind::Call);
  e->function = function;
  const int column = argument.expr->position;
  return build(std::move(e), column, std::array{std::move(argument)}, ctx);
}

// Spark's ILike is Like(lower(value), lower(pattern)); the model keeps that form (docs/semantics.md §3.1).
Node like_node(const LikeWord& word, Node value, Node pattern, std::optional<Node> escape, const auto& ctx) {
  if (word.case_insensitive) {
    value = call_node("lower", std::move(value), ctx);
    pattern = call_node("lower", std::move(pattern), ctx);
  }
  if (!escape) return build(of_kind(ExprKind::Like), word.column, std::array{std::move(value), std::move(pattern)}, ctx);
  return build(of_kind(ExprKind::Like), word.column,
               std::array{std::move(value), std::move(pattern), std::move(*escape)}, ctx);
}

auto const like_word_action = [](bool case_insensitive) {
  return [case_insensitive](auto& ctx) { x3::_val(ctx) = LikeWord{x3::_attr(ctx), case_insensitive}; };
};

// ESCAPE 'c': one character; the default backslash is not recorded, so both spellings are one IR.
std::optional<Node> escape_node(const boost::optional<StringToken>& escape, const auto& ctx) {
  if (!escape) return std::nullopt;
  const std::vector<char32_t> cps = decode_utf8(escape->text);
  if (cps.size() != 1) fail_at_column(ctx, "the ESCAPE string must be exactly one character", escape->column);
  if (cps.front() == U'\\') return std::nullopt;
  return literal_node({Value::string(escape->text), escape->column}, ctx);
}

auto const like_action = [](auto& ctx) {
  const boost::optional<int>& not_column = at_c<0>(x3::_attr(ctx));
  const LikeWord& word = at_c<1>(x3::_attr(ctx));
  Node value = std::move(x3::_val(ctx));
  Node like = like_node(word, std::move(value), std::move(at_c<2>(x3::_attr(ctx))),
                        escape_node(at_c<3>(x3::_attr(ctx)), ctx), ctx);
  x3::_val(ctx) = negated_if(not_column, std::move(like), ctx);
};

enum class Quantifier { Any, All };

bool is_string_literal(const Node& n) {
  return n.expr->kind == ExprKind::Literal && n.expr->literal.type.kind == TypeKind::String;
}

// [NOT] LIKE ANY|SOME|ALL (p1, …). With string literals only Spark builds LikeAny / LikeAll, and
// NOT LIKE ANY (some pattern fails) is NOT (LIKE ALL), NOT LIKE ALL (none matches) NOT (LIKE ANY)
// in 3VL too. Any other pattern list is Spark's OR (ANY) or AND (ALL) of [NOT] LIKE.
auto const like_quantified_action = [](auto& ctx) {
  const boost::optional<int>& not_column = at_c<0>(x3::_attr(ctx));
  const LikeWord& word = at_c<1>(x3::_attr(ctx));
  const Quantifier quantifier = at_c<2>(x3::_attr(ctx));
  std::vector<Node>& patterns = at_c<3>(x3::_attr(ctx));
  Node value = std::move(x3::_val(ctx));
  const bool negated = not_column.has_value();
  if (!word.case_insensitive && std::all_of(patterns.begin(), patterns.end(), is_string_literal)) {
    const bool any = (quantifier == Quantifier::Any) != negated;
    patterns.insert(patterns.begin(), std::move(value));
    Node multi = build(of_kind(any ? ExprKind::LikeAny : ExprKind::LikeAll), word.column, std::move(patterns), ctx);
    x3::_val(ctx) = negated_if(not_column, std::move(multi), ctx);
    return;
  }
  std::optional<Node> combined;
  const ExprKind junction = quantifier == Quantifier::Any ? ExprKind::Or : ExprKind::And;
  for (Node& pattern : patterns) {
    Node like = negated_if(not_column, like_node(word, value, std::move(pattern), std::nullopt, ctx), ctx);
    combined = combined ? build(of_kind(junction), word.column, std::array{std::move(*combined), std::move(like)}, ctx)
                        : std::move(like);
  }
  x3::_val(ctx) = std::move(*combined);
};

auto const rlike_action = [](auto& ctx) {
  const boost::optional<int>& not_column = at_c<0>(x3::_attr(ctx));
  Node value = std::move(x3::_val(ctx));
  Node rlike = build(of_kind(ExprKind::RLike), at_c<1>(x3::_attr(ctx)),
                     std::array{std::move(value), std::move(at_c<2>(x3::_attr(ctx)))}, ctx);
  x3::_val(ctx) = negated_if(not_column, std::move(rlike), ctx);
};

auto const between_action = [](auto& ctx) {
  const boost::optional<int>& not_column = at_c<0>(x3::_attr(ctx));
  Node value = std::move(x3::_val(ctx));
  Node between = build(of_kind(ExprKind::Between), at_c<1>(x3::_attr(ctx)),
                       std::array{std::move(value), std::move(at_c<2>(x3::_attr(ctx))),
                                  std::move(at_c<3>(x3::_attr(ctx)))},
                       ctx);
  x3::_val(ctx) = negated_if(not_column, std::move(between), ctx);
};

Node null_safe_equal(Node lhs, Node rhs, int column, const auto& ctx) {
  auto e = of_kind(ExprKind::Compare);
  e->cmp_op = CompareOp::NullSafeEq;
  return build(std::move(e), column, std::array{std::move(lhs), std::move(rhs)}, ctx);
}

// As Spark's AstBuilder: IS [NOT] TRUE|FALSE is [NOT] (e <=> TRUE|FALSE), IS [NOT] UNKNOWN is
// IS [NOT] NULL on a boolean operand.
auto const is_action = [](auto& ctx) {
  const int column = at_c<0>(x3::_attr(ctx));
  const boost::optional<int>& not_column = at_c<1>(x3::_attr(ctx));
  const IsWord word = at_c<2>(x3::_attr(ctx));
  Node value = std::move(x3::_val(ctx));
  if (word == IsWord::True || word == IsWord::False) {
    Node constant = literal_node({Value::boolean(word == IsWord::True), column}, ctx);
    x3::_val(ctx) = negated_if(not_column, null_safe_equal(std::move(value), std::move(constant), column, ctx), ctx);
    return;
  }
  auto e = of_kind(not_column ? ExprKind::IsNotNull : ExprKind::IsNull);
  e->unknown_form = word == IsWord::Unknown;
  x3::_val(ctx) = build(std::move(e), column, std::array{std::move(value)}, ctx);
};

// IS DISTINCT FROM is NOT (a <=> b); IS NOT DISTINCT FROM is a <=> b.
auto const is_distinct_action = [](auto& ctx) {
  const int column = at_c<0>(x3::_attr(ctx));
  const bool not_distinct = at_c<1>(x3::_attr(ctx)).has_value();
  Node value = std::move(x3::_val(ctx));
  Node equal = null_safe_equal(std::move(value), std::move(at_c<2>(x3::_attr(ctx))), column, ctx);
  x3::_val(ctx) = not_distinct ? std::move(equal) : build(of_kind(ExprKind::Not), column, std::array{std::move(equal)}, ctx);
};

// CASE [operand] WHEN … THEN … [ELSE …] END; Spark's simple form is the searched one with
// `operand = value` conditions.
auto const case_action = [](auto& ctx) {
  const int column = at_c<0>(x3::_attr(ctx));
  boost::optional<Node>& operand = at_c<1>(x3::_attr(ctx));
  std::vector<Node>& clauses = at_c<2>(x3::_attr(ctx));
  boost::optional<Node>& otherwise = at_c<3>(x3::_attr(ctx));
  if (operand) {
    for (size_t i = 0; i < clauses.size(); i += 2) {
      auto e = of_kind(ExprKind::Compare);
      const int when_column = clauses[i].expr->position;
      clauses[i] = build(std::move(e), when_column, std::array{*operand, std::move(clauses[i])}, ctx);
    }
  }
  if (otherwise) clauses.push_back(std::move(*otherwise));
  x3::_val(ctx) = build(of_kind(ExprKind::Case), column, std::move(clauses), ctx);
};

// ---------------------------------------------------------------------------------------------
// The grammar, loosest binding first: OR < AND < NOT < IS/IN/LIKE/BETWEEN < comparison <
// + - < * / % < unary minus < primary.

x3::rule<class or_tag, Node> const or_expr = "an expression";
x3::rule<class and_tag, Node> const and_expr = "an expression";
x3::rule<class not_tag, Node> const not_expr = "an expression";
x3::rule<class predicate_tag, Node> const predicate = "an expression";
x3::rule<class comparison_tag, Node> const comparison = "an expression";
x3::rule<class additive_tag, Node> const additive = "an operand";
x3::rule<class multiplicative_tag, Node> const multiplicative = "an operand";
x3::rule<class unary_tag, Node> const unary = "an operand";
x3::rule<class negated_tag, Node> const negated = "an operand";
x3::rule<class primary_tag, Node> const primary = "an operand";
x3::rule<class arguments_tag, std::vector<Node>> const arguments = "arguments";
x3::rule<class items_tag, std::vector<Node>> const items = "a list of values";
x3::rule<class when_clauses_tag, std::vector<Node>> const when_clauses = "WHEN";
// Alternatives of one attribute type, as rules so that the attribute is that type, not a variant.
x3::rule<class not_word_tag, int> const not_word = "NOT";
x3::rule<class like_word_tag, LikeWord> const like_word = "LIKE";
x3::rule<class rlike_word_tag, int> const rlike_word = "RLIKE";
x3::rule<class quantifier_tag, Quantifier> const quantifier = "ANY, SOME or ALL";

auto const or_expr_def = and_expr[assign] >> *(kw_at("or") > and_expr)[fold_logical<ExprKind::Or>];
auto const and_expr_def =
    not_expr[assign] >> *(kw_at("and") > not_expr)[fold_logical<ExprKind::And>];
auto const not_expr_def = (*not_word > no_exists > predicate)[fold_nots];

auto const not_word_def = kw_at("not") | bang;
auto const like_word_def = kw_at("like")[like_word_action(false)] | kw_at("ilike")[like_word_action(true)];
auto const rlike_word_def = kw_at("rlike") | kw_at("regexp");
auto const quantifier_def = (kw("any") >> x3::attr(Quantifier::Any)) | (kw("some") >> x3::attr(Quantifier::Any)) |
                            (kw("all") >> x3::attr(Quantifier::All));

auto const between_tail = ((-kw_at("not") >> kw_at("between")) > additive > kw("and") > additive);
auto const in_subquery_tail = ((-kw_at("not") >> kw_at("in") >> x3::lit('(') >> kw("select")) > additive > kw("from") >
                              identifier > -(kw("where") > or_expr) > x3::lit(')'));
auto const in_tail = ((-kw_at("not") >> kw_at("in") >> x3::lit('(')) > no_select > items > x3::lit(')'));
auto const like_quantified_tail =
    ((-kw_at("not") >> like_word >> quantifier >> x3::lit('(')) > items > x3::lit(')'));
auto const like_tail = ((-kw_at("not") >> like_word) > additive > -(kw("escape") > string_token));
auto const rlike_tail = ((-kw_at("not") >> rlike_word) > additive);
auto const is_distinct_tail = ((kw_at("is") >> -kw_at("not") >> kw("distinct")) > kw("from") > additive);
auto const is_tail = (kw_at("is") > -kw_at("not") > is_word);
auto const predicate_def = comparison[assign] >>
                           -(between_tail[between_action] | in_subquery_tail[in_subquery_action] | in_tail[in_action] |
                             like_quantified_tail[like_quantified_action] | like_tail[like_action] |
                             rlike_tail[rlike_action] | is_distinct_tail[is_distinct_action] |
                             is_tail[is_action]);

auto const comparison_def = additive[assign] >> *(compare_operator > additive)[fold_compare];
auto const additive_def = multiplicative[assign] >> *(additive_operator > multiplicative)[fold_arith];
auto const multiplicative_def = unary[assign] >> *(multiplicative_operator > unary)[fold_arith];
auto const unary_def = (*negation >> negated)[fold_negations];
auto const negated_def = signed_number[literal_action] | primary[assign];

auto const items_def = or_expr[push_node] % ',';
auto const when_clauses_def = +(kw("when") > or_expr[push_node] > kw("then") > or_expr[push_node]);
auto const arguments_def = (x3::lit('(') >> -(!x3::lit(')') >> (or_expr[push_node] % ','))) > x3::lit(')');

auto const primary_def =
    (x3::lit('(') > no_select > or_expr > x3::lit(')'))[parenthesised_action] |
    (kw_at("case") > -(!kw("when") >> or_expr) > when_clauses > -(kw("else") > or_expr) > kw("end"))[case_action] |
    kw_at("null")[constant(Value::null())] |
    kw_at("true")[constant(Value::boolean(true))] |
    kw_at("false")[constant(Value::boolean(false))] |
    (kw_at("date") >> string_token)[temporal_action<TypeKind::Date>] |
    (kw_at("timestamp") >> string_token)[temporal_action<TypeKind::Timestamp>] |
    (kw_at("timestamp_ntz") >> string_token)[temporal_action<TypeKind::TimestampNtz>] |
    ((kw_at("cast") >> x3::lit('(')) > or_expr > kw("as") > type_name_token > x3::lit(')'))[cast_action] |
    unsigned_number[literal_action] |
    string_token[string_literal_action] |
    binary_literal[literal_action] |
    ((identifier % '.') >> -arguments)[column_or_call_action];

BOOST_SPIRIT_DEFINE(or_expr, and_expr, not_expr, predicate, comparison, additive, multiplicative,
                    unary, negated, primary, arguments, items, when_clauses, not_word, like_word,
                    rlike_word, quantifier)

// The text shown after "unexpected": a word, or one UTF-8 character.
std::string token_at(Iterator at, Iterator last) {
  Iterator end = at;
  if (is_ident_char(*end)) {
    while (end != last && is_ident_char(*end) && end - at < 32) ++end;
  } else {
    ++end;
    while (end != last && is_utf8_continuation(*end)) ++end;
  }
  return std::string(at, end);
}

}  // namespace

bool is_reserved_word(const std::string& word) {
  const std::string w = lowered(word);
  return std::any_of(std::begin(kReservedWords), std::end(kReservedWords),
                     [&](const char* r) { return w == r; });
}

std::optional<Value> folded_cast_literal(const Value& operand, const DataType& to) {
  const TypeKind k = operand.type.kind;
  if (k == TypeKind::Null) {
    return to.kind == TypeKind::Null ? std::nullopt : std::optional<Value>(Value::null(to));
  }
  if (k == TypeKind::String && is_floating(to.kind)) {
    const std::string& s = operand.as_string();
    const double inf = std::numeric_limits<double>::infinity();
    if (s == "NaN") return Value::floating(to.kind, std::numeric_limits<double>::quiet_NaN());
    if (s == "Infinity") return Value::floating(to.kind, inf);
    if (s == "-Infinity") return Value::floating(to.kind, -inf);
    return std::nullopt;
  }
  if (k == TypeKind::Decimal && to.kind == TypeKind::Decimal && operand.type.scale == to.scale &&
      to.precision >= operand.type.precision && to.precision <= kMaxDecimalPrecision) {
    return Value::decimal(operand.as_decimal(), to.precision);
  }
  return std::nullopt;
}

ExprPtr parse_predicate(std::string_view text) {
  if (text.size() > kMaxPredicateBytes) {
    throw InputError("predicate of " + std::to_string(text.size()) + " bytes, longer than the limit of " +
                     std::to_string(kMaxPredicateBytes) + " bytes");
  }
  validate_utf8(text);
  if (std::all_of(text.begin(), text.end(), is_space)) {
    throw InputError("empty predicate", 1, std::string(text));
  }
  check_nesting(text);
  Iterator first = text.data();
  const Iterator last = first + text.size();
  Node result;
  try {
    const bool ok =
        x3::phrase_parse(first, last, x3::with<source_tag>(text)[or_expr], whitespace, result);
    if (!ok) fail(text, "expected an expression", first);
  } catch (const x3::expectation_failure<Iterator>& e) {
    const std::string what = e.which();
    fail(text, "expected " + what, e.where() == last ? last : e.where());
  }
  if (first != last) fail(text, "unexpected `" + token_at(first, last) + "`", first);
  return result.expr;
}

}  // namespace skipsound
