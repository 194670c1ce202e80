#include "tools/mutate/source_tokens.h"

#include <algorithm>
#include <iterator>
#include <cctype>

namespace skipsound::mutation {

namespace {

// Longest first: the lexer takes the first that matches.
constexpr std::string_view kPunctuators[] = {
    "<=>", ">>=", "<<=", "...", "->*", "::", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=",
    "&&", "||", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", ".*", "##", "<:", ":>", "%:"};

constexpr std::string_view kLiteralPrefixes[] = {"R", "u8R", "uR", "UR", "LR", "u8", "u", "U", "L"};

bool identifier_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'; }

class Lexer {
 public:
  explicit Lexer(std::string_view source) : s_(source) {}

  LexedSource run() {
    while (at_ < s_.size()) step();
    mark_line_ends();
    return std::move(out_);
  }

 private:
  void step() {
    const char c = s_[at_];
    if (c == '\n') {
      advance(1);
      line_start_ = true;
    } else if (blank(c)) {
      advance(1);
    } else if (starts("//")) {
      line_comment();
    } else if (starts("/*")) {
      block_comment();
    } else if (c == '#' && line_start_) {
      preprocessor_line();
    } else if (identifier_start(c)) {
      identifier_or_prefixed_literal();
    } else if (std::isdigit(static_cast<unsigned char>(c)) ||
               (c == '.' && at_ + 1 < s_.size() && std::isdigit(static_cast<unsigned char>(s_[at_ + 1])))) {
      number();
    } else if (c == '"' || c == '\'') {
      const size_t start = at_;
      quoted(c);
      emit(TokenKind::Literal, start);
    } else {
      punctuator();
    }
  }

  bool starts(std::string_view text) const { return s_.substr(at_, text.size()) == text; }

  // Moves on n bytes, counting lines.
  void advance(size_t n) {
    for (size_t k = 0; k < n && at_ < s_.size(); ++k) {
      if (s_[at_] == '\n') {
        ++line_;
        line_offset_ = at_ + 1;
      }
      ++at_;
    }
  }

  void line_comment() {
    const size_t start = at_;
    while (at_ < s_.size() && s_[at_] != '\n') advance(1);
    opt_out_if_marked(s_.substr(start, at_ - start), line_);
  }

  void block_comment() {
    const size_t start = at_;
    const size_t first_line = line_;
    const size_t end = s_.find("*/", at_ + 2);
    advance(end == std::string_view::npos ? s_.size() - at_ : end + 2 - at_);
    opt_out_if_marked(s_.substr(start, at_ - start), first_line);
  }

  void opt_out_if_marked(std::string_view comment, size_t line) {
    if (comment.find(kMutationOptOut) != std::string_view::npos) out_.opted_out_lines.insert(line);
  }

  // To the end of the line, through backslash continuations; comments inside end it like code.
  void preprocessor_line() {
    while (at_ < s_.size() && s_[at_] != '\n') {
      if (s_[at_] == '\\' && at_ + 1 < s_.size() && s_[at_ + 1] == '\n') {
        advance(2);
      } else if (starts("/*")) {
        block_comment();
      } else if (starts("//")) {
        line_comment();
      } else if (s_[at_] == '"' || s_[at_] == '\'') {
        quoted(s_[at_]);
      } else {
        advance(1);
      }
    }
  }

  void identifier_or_prefixed_literal() {
    const size_t start = at_;
    size_t end = at_;
    while (end < s_.size() && identifier_char(s_[end])) ++end;
    const std::string_view word = s_.substr(start, end - start);
    const bool prefix = std::find(std::begin(kLiteralPrefixes), std::end(kLiteralPrefixes), word) != std::end(kLiteralPrefixes);
    if (prefix && end < s_.size() && (s_[end] == '"' || s_[end] == '\'')) {
      advance(end - at_);
      if (word.back() == 'R' && s_[at_] == '"') {
        raw_string();
      } else {
        quoted(s_[at_]);
      }
      emit(TokenKind::Literal, start);
      return;
    }
    advance(end - at_);
    emit(TokenKind::Identifier, start);
  }

  // A pp-number: digits, letters, digit separators, dots, and signs after an exponent letter.
  void number() {
    const size_t start = at_;
    advance(1);
    while (at_ < s_.size()) {
      const char c = s_[at_];
      const char previous = s_[at_ - 1];
      const bool exponent_sign = (c == '+' || c == '-') && (previous == 'e' || previous == 'E' || previous == 'p' ||
                                                            previous == 'P') && !hex_without_p(start);
      if (identifier_char(c) || c == '.' || exponent_sign ||
          (c == '\'' && at_ + 1 < s_.size() && std::isalnum(static_cast<unsigned char>(s_[at_ + 1])))) {
        advance(1);
      } else {
        break;
      }
    }
    emit(TokenKind::Number, start);
  }

  // 0x1e+2 is 0x1e plus 2: in a hex literal only p takes a sign.
  bool hex_without_p(size_t start) const {
    const std::string_view so_far = s_.substr(start, at_ - start);
    const bool hex = so_far.size() > 1 && so_far[0] == '0' && (so_far[1] == 'x' || so_far[1] == 'X');
    return hex && (so_far.back() == 'e' || so_far.back() == 'E');
  }

  void quoted(char quote) {
    advance(1);
    while (at_ < s_.size() && s_[at_] != quote && s_[at_] != '\n') advance(s_[at_] == '\\' ? 2 : 1);
    advance(1);
  }

  // R"delim( ... )delim"
  void raw_string() {
    const size_t open = s_.find('(', at_);
    if (open == std::string_view::npos) {
      advance(s_.size() - at_);
      return;
    }
    std::string closing(1, ')');
    closing.append(s_.substr(at_ + 1, open - at_ - 1)).push_back('"');
    const size_t end = s_.find(closing, open);
    advance(end == std::string_view::npos ? s_.size() - at_ : end + closing.size() - at_);
  }

  void punctuator() {
    const size_t start = at_;
    size_t length = 1;
    for (std::string_view p : kPunctuators) {
      if (starts(p)) {
        length = p.size();
        break;
      }
    }
    advance(length);
    emit(TokenKind::Punctuator, start);
  }

  void emit(TokenKind kind, size_t start) {
    Token t;
    t.kind = kind;
    t.text = s_.substr(start, at_ - start);
    t.offset = start;
    t.line = line_of(start);
    t.column = start - line_offset_of(start) + 1;
    t.space_before = start == 0 || blank(s_[start - 1]);
    t.space_after = at_ >= s_.size() || blank(s_[at_]);
    t.first_on_line = out_.tokens.empty() || out_.tokens.back().line != t.line;
    out_.tokens.push_back(t);
    line_start_ = false;
  }

  // A token never spans lines except a raw string or a continued literal: its first line counts.
  size_t line_of(size_t offset) const {
    size_t line = line_;
    for (size_t k = at_; k > offset; --k) {
      if (s_[k - 1] == '\n') --line;
    }
    return line;
  }
  size_t line_offset_of(size_t offset) const {
    const size_t newline = offset == 0 ? std::string_view::npos : s_.rfind('\n', offset - 1);
    return newline == std::string_view::npos ? 0 : newline + 1;
  }

  void mark_line_ends() {
    for (size_t i = 0; i < out_.tokens.size(); ++i) {
      out_.tokens[i].last_on_line = i + 1 == out_.tokens.size() || out_.tokens[i + 1].line != out_.tokens[i].line;
    }
  }

  std::string_view s_;
  size_t at_ = 0;
  size_t line_ = 1;
  size_t line_offset_ = 0;
  bool line_start_ = true;
  LexedSource out_;
};

constexpr std::string_view kKeywords[] = {
    "alignas", "alignof", "asm", "auto", "bool", "break", "case", "catch", "char", "char8_t", "char16_t",
    "char32_t", "class", "co_await", "co_return", "co_yield", "concept", "const", "consteval", "constexpr",
    "constinit", "const_cast", "continue", "decltype", "default", "delete", "do", "double", "dynamic_cast",
    "else", "enum", "explicit", "export", "extern", "false", "float", "for", "friend", "goto", "if", "inline",
    "int", "long", "mutable", "namespace", "new", "noexcept", "nullptr", "operator", "private", "protected",
    "public", "register", "reinterpret_cast", "requires", "return", "short", "signed", "sizeof", "static",
    "static_assert", "static_cast", "struct", "switch", "template", "this", "thread_local", "throw", "true",
    "try", "typedef", "typeid", "typename", "union", "unsigned", "using", "virtual", "void", "volatile",
    "wchar_t", "while", "and", "or", "not"};

}  // namespace

namespace {

// A line that names the coverage namespace (coverage::hit, coverage::decided_skip, a probe's
// number) only feeds the gate's coverage table (model/coverage): a mutant of it changes what the
// table counts, never a verdict, so it is not mutated. Such a line must hold nothing else: code
// under test keeps its logic on lines of its own.
void opt_out_coverage_probes(LexedSource& lexed) {
  const std::vector<Token>& ts = lexed.tokens;
  for (size_t i = 0; i + 1 < ts.size(); ++i) {
    if (ts[i].text == "coverage" && ts[i + 1].text == "::") lexed.opted_out_lines.insert(ts[i].line);
  }
}

}  // namespace

LexedSource lex(std::string_view source) {
  LexedSource lexed = Lexer(source).run();
  opt_out_coverage_probes(lexed);
  return lexed;
}

bool is_keyword(std::string_view word) {
  return std::find(std::begin(kKeywords), std::end(kKeywords), word) != std::end(kKeywords);
}

size_t matching_close(const Tokens& ts, size_t open) {
  size_t depth = 0;
  for (size_t i = open; i < ts.size(); ++i) {
    if (opens(ts[i])) ++depth;
    if (closes(ts[i]) && --depth == 0) return i;
  }
  return kNoToken;
}

size_t matching_open(const Tokens& ts, size_t close) {
  size_t depth = 0;
  for (size_t i = close + 1; i-- > 0;) {
    if (closes(ts[i])) ++depth;
    if (opens(ts[i]) && --depth == 0) return i;
  }
  return kNoToken;
}

}  // namespace skipsound::mutation
