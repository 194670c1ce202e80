// The C++ tokens the mutation tool (skipsound-mutate) may touch. Comments, string and character
// literals and preprocessor lines are lexed only to be left alone; a line whose comment holds
// kMutationOptOut, or that names the coverage namespace (instrumentation for the gate's coverage
// table), is never mutated.
#pragma once
#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace skipsound::mutation {

inline constexpr std::string_view kMutationOptOut = "mutation: off";

enum class TokenKind { Identifier, Number, Literal, Punctuator };

struct Token {
  TokenKind kind = TokenKind::Punctuator;
  std::string_view text;  // a view into the lexed source
  size_t offset = 0;
  size_t line = 1;        // 1-based
  size_t column = 1;      // 1-based, in bytes
  bool space_before = false;  // whitespace (or the start of the line) right before it
  bool space_after = false;   // whitespace (or the end of the line) right after it
  bool first_on_line = false;
  bool last_on_line = false;
};

struct LexedSource {
  std::vector<Token> tokens;  // code only: no comments, no preprocessor lines
  std::set<size_t> opted_out_lines;
};

// Never fails: an unterminated comment or literal runs to the end of the source.
LexedSource lex(std::string_view source);

bool is_keyword(std::string_view word);

// Token-level helpers the mutation operators and the schema writer share.
using Tokens = std::vector<Token>;
inline constexpr size_t kNoToken = SIZE_MAX;
inline bool is(const Token& t, std::string_view text) { return t.text == text; }
inline bool spaced(const Token& t) { return t.space_before && t.space_after; }
inline bool opens(const Token& t) { return is(t, "(") || is(t, "[") || is(t, "{"); }
inline bool closes(const Token& t) { return is(t, ")") || is(t, "]") || is(t, "}"); }
// The index of the bracket closing the one at `open` (opening the one at `close`), or kNoToken.
size_t matching_close(const Tokens& ts, size_t open);
size_t matching_open(const Tokens& ts, size_t close);

}  // namespace skipsound::mutation
