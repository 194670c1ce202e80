// The mutation tool's lexer: what it hands the mutator (code tokens with their spacing) and what
// it keeps away from it (comments, literals, preprocessor lines, opted-out lines).
#include <gtest/gtest.h>

#include "tools/mutate/source_tokens.h"

namespace skipsound::mutation {
namespace {

std::vector<std::string> texts(const LexedSource& lexed) {
  std::vector<std::string> out;
  for (const Token& t : lexed.tokens) out.emplace_back(t.text);
  return out;
}

TEST(SourceTokens, CommentsAndPreprocessorLinesAreNotTokens) {
  const LexedSource lexed = lex("#include <a.h>\n#define X(a) \\\n  (a < 1)\nint x; // y < 2\n/* z == 3 */ x++;\n");
  EXPECT_EQ(texts(lexed), (std::vector<std::string>{"int", "x", ";", "x", "++", ";"}));
}

TEST(SourceTokens, LiteralsAreOneTokenWhateverTheyHold) {
  const LexedSource lexed = lex(R"cpp(f("a < b", 'x', u8"c", R"d(e == ")f")d", 1'000);)cpp");
  ASSERT_EQ(lexed.tokens.size(), 13u);
  EXPECT_EQ(lexed.tokens[2].kind, TokenKind::Literal);
  EXPECT_EQ(lexed.tokens[2].text, "\"a < b\"");
  EXPECT_EQ(lexed.tokens[6].text, "u8\"c\"");
  EXPECT_EQ(lexed.tokens[8].text, R"cpp(R"d(e == ")f")d")cpp");
  EXPECT_EQ(lexed.tokens[10].kind, TokenKind::Number);
  EXPECT_EQ(lexed.tokens[10].text, "1'000");
}

TEST(SourceTokens, LongestPunctuatorAndSpacingAreRecorded) {
  const LexedSource lexed = lex("a <= b;\nstd::vector<int>&& v;\n");
  ASSERT_EQ(lexed.tokens.size(), 13u);
  const Token& le = lexed.tokens[1];
  EXPECT_EQ(le.text, "<=");
  EXPECT_TRUE(le.space_before && le.space_after);
  EXPECT_EQ(le.line, 1u);
  EXPECT_EQ(le.column, 3u);
  const Token& angle = lexed.tokens[7];
  EXPECT_EQ(angle.text, "<");
  EXPECT_FALSE(angle.space_before || angle.space_after);
  EXPECT_EQ(lexed.tokens[10].text, "&&");
  EXPECT_FALSE(lexed.tokens[10].space_before);
  EXPECT_TRUE(lexed.tokens[4].first_on_line);
  EXPECT_TRUE(lexed.tokens[3].last_on_line);
  EXPECT_EQ(lexed.tokens[4].line, 2u);
}

TEST(SourceTokens, OptOutCommentsMarkTheirLine) {
  const LexedSource lexed = lex("a;\nb;  // mutation: off (why)\n/* mutation: off */ c;\n");
  EXPECT_EQ(lexed.opted_out_lines, (std::set<size_t>{2, 3}));
}

TEST(SourceTokens, CoverageProbeLinesAreOptedOut) {
  const LexedSource lexed =
      lex("if (a > 1) coverage::hit(Probe::X);\nif (a > 1) return x;\nint coverage = hit;\nn = coverage::Probe::A + 1;\n");
  EXPECT_EQ(lexed.opted_out_lines, (std::set<size_t>{1, 4}));
}

TEST(SourceTokens, UnterminatedInputEndsWithoutOverrun) {
  EXPECT_EQ(lex("x /* never closed").tokens.size(), 1u);
  EXPECT_EQ(lex("f(\"open").tokens.size(), 3u);
  EXPECT_EQ(lex("R\"x(raw").tokens.size(), 1u);
}

}  // namespace
}  // namespace skipsound::mutation
