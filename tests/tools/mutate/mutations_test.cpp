// Each mutation operator on small snippets: what it mutates, into what, and the look-alikes it
// leaves alone (template brackets, references, declarations, init-statements).
#include <gtest/gtest.h>

#include <algorithm>

#include "tools/mutate/mutations.h"

namespace skipsound::mutation {
namespace {

// The mutated snippets of one operator, in source order.
std::vector<std::string> mutants(const std::string& source, Operator op) {
  std::vector<std::string> out;
  for (const Mutation& m : enumerate_mutations(source)) {
    if (m.op == op) out.push_back(apply_mutation(source, m));
  }
  return out;
}

TEST(Mutations, RelationalOperatorsSwapWithTheirNeighbour) {
  EXPECT_EQ(mutants("bool f() { return a < b && c >= d; }", Operator::Relational),
            (std::vector<std::string>{"bool f() { return a <= b && c >= d; }", "bool f() { return a < b && c > d; }"}));
  EXPECT_EQ(mutants("x = a == b;", Operator::Relational), (std::vector<std::string>{"x = a != b;"}));
  EXPECT_EQ(mutants("x = a != b;", Operator::Relational), (std::vector<std::string>{"x = a == b;"}));
  EXPECT_EQ(mutants("x = a > b;", Operator::Relational), (std::vector<std::string>{"x = a >= b;"}));
}

TEST(Mutations, TemplateBracketsReferencesAndOperatorNamesAreLeftAlone) {
  const std::string source =
      "std::vector<std::optional<int>> v;\nT&& x = f<3>(y);\nbool operator==(const A&) const = default;\n"
      "template <class T>\nauto g(T&& t) { return t->x; }\n";
  EXPECT_TRUE(mutants(source, Operator::Relational).empty());
  EXPECT_TRUE(mutants(source, Operator::Logical).empty());
}

TEST(Mutations, LogicalOperatorsSwap) {
  EXPECT_EQ(mutants("if (a && b || c) x();", Operator::Logical),
            (std::vector<std::string>{"if (a || b || c) x();", "if (a && b && c) x();"}));
}

TEST(Mutations, IntegerConstantsMoveByOneAndKeepTheirSpelling) {
  EXPECT_EQ(mutants("f(0, 32u, 0x1F, 1'000);", Operator::Constant),
            (std::vector<std::string>{"f(1, 32u, 0x1F, 1'000);", "f(0, 33u, 0x1F, 1'000);", "f(0, 31u, 0x1F, 1'000);",
                                      "f(0, 32u, 0x20, 1'000);", "f(0, 32u, 0x1e, 1'000);", "f(0, 32u, 0x1F, 1001);",
                                      "f(0, 32u, 0x1F, 999);"}));
  EXPECT_TRUE(mutants("double d = 1.5 + 2e3 + 0x1p3;", Operator::Constant).empty());
}

TEST(Mutations, ConditionsAreNegatedAndReplaced) {
  const std::string source = "void f() {\n  if (a < b) g();\n  while (more()) step();\n}\n";
  EXPECT_EQ(mutants(source, Operator::NegateCondition),
            (std::vector<std::string>{"void f() {\n  if (!(a < b)) g();\n  while (more()) step();\n}\n",
                                      "void f() {\n  if (a < b) g();\n  while (!(more())) step();\n}\n"}));
  EXPECT_EQ(mutants(source, Operator::ConditionTrue),
            (std::vector<std::string>{"void f() {\n  if (true) g();\n  while (more()) step();\n}\n"}));
  EXPECT_EQ(mutants(source, Operator::ConditionFalse).size(), 2u);  // while (true) would only hang
}

TEST(Mutations, ConditionsWithDeclarationsOrInitStatementsAndConstexprIfAreLeftAlone) {
  const std::string source = "if (auto p = f()) g();\nif (int i = 0; i < n) g();\nif constexpr (N > 1) g();\n";
  EXPECT_TRUE(mutants(source, Operator::NegateCondition).empty());
  EXPECT_TRUE(mutants(source, Operator::ConditionFalse).empty());
}

TEST(Mutations, ReturnsBecomeConstantsOfAPlainReturnType) {
  EXPECT_EQ(mutants("bool Foo::ok(int x) const {\n  return x > 0;\n}\n", Operator::ReturnConstant),
            (std::vector<std::string>{"bool Foo::ok(int x) const {\n  return true;\n}\n",
                                      "bool Foo::ok(int x) const {\n  return false;\n}\n"}));
  EXPECT_EQ(mutants("bool f() { return true; }", Operator::ReturnConstant),
            (std::vector<std::string>{"bool f() { return false; }"}));
  EXPECT_EQ(mutants("size_t count() { return n + 1; }", Operator::ReturnConstant),
            (std::vector<std::string>{"size_t count() { return 0; }"}));
  EXPECT_EQ(mutants("auto f = [](int x) -> int { return x * 2; };", Operator::ReturnConstant),
            (std::vector<std::string>{"auto f = [](int x) -> int { return 0; };"}));
}

TEST(Mutations, ADeducedReturnIsABoolOnlyWhenTheExpressionPlainlyIsOne) {
  EXPECT_EQ(mutants("auto p = [&](int x) { return x < y; };", Operator::ReturnConstant).size(), 2u);
  EXPECT_TRUE(mutants("auto p = [&](int x) { return x + y; };", Operator::ReturnConstant).empty());
  EXPECT_TRUE(mutants("auto p = [&] { return c ? a < b : d; };", Operator::ReturnConstant).empty());
}

TEST(Mutations, ReturnsOfOtherTypesAreLeftAlone) {
  EXPECT_TRUE(mutants("std::string f() { return g(); }\nExpr h() { return {a, b}; }\n", Operator::ReturnConstant).empty());
  // The body of an `if` inside a bool function is still that function's.
  EXPECT_EQ(mutants("bool f() {\n  if (x) {\n    return g();\n  }\n  return true;\n}\n", Operator::ReturnConstant).size(), 3u);
}

TEST(Mutations, ExpressionStatementsAloneOnTheirLineAreDeleted) {
  const std::string source =
      "void f() {\n  out.push_back(x);\n  count += 2;\n  std::sort(v.begin(), v.end());\n  if (a)\n    g(b);\n}\n";
  const auto deleted = mutants(source, Operator::DeleteStatement);
  ASSERT_EQ(deleted.size(), 4u);
  EXPECT_EQ(deleted[0], "void f() {\n  {}\n  count += 2;\n  std::sort(v.begin(), v.end());\n  if (a)\n    g(b);\n}\n");
  EXPECT_EQ(deleted[3], "void f() {\n  out.push_back(x);\n  count += 2;\n  std::sort(v.begin(), v.end());\n  if (a)\n    {}\n}\n");
}

TEST(Mutations, DeclarationsContinuationsAndClassMembersAreNotDeleted) {
  const std::string source =
      "struct S {\n  void m();\n  int x = 0;\n};\nvoid f() {\n  Foo foo(1);\n  std::vector<int> v = g();\n"
      "  const auto y = h(a,\n                   b);\n  return;\n  x = y; z = w;\n}\n";
  EXPECT_TRUE(mutants(source, Operator::DeleteStatement).empty());
}

TEST(Mutations, StringsCommentsAndOptedOutLinesAreNeverMutated) {
  const std::string source = "f(\"a < 1\"); // b < 2\nif (c == 3) g();  // mutation: off\n";
  EXPECT_TRUE(enumerate_mutations(source).empty());
}

TEST(Mutations, TheDescriptionShowsTheWholeLineBeforeAndAfter) {
  const std::string source = "int f() {\n  if (a   <  b) return 1;\n}\n";
  const auto all = enumerate_mutations(source);
  const auto relational = std::find_if(all.begin(), all.end(), [](const Mutation& m) { return m.op == Operator::Relational; });
  ASSERT_NE(relational, all.end());
  EXPECT_EQ(relational->line, 2u);
  EXPECT_EQ(relational->column, 11u);
  const MutationText text = describe_mutation(source, *relational);
  EXPECT_EQ(text.before, "if (a < b) return 1;");
  EXPECT_EQ(text.after, "if (a <= b) return 1;");
}

TEST(Mutations, OperatorNamesRoundTrip) {
  for (Operator op : all_operators()) EXPECT_EQ(operator_from_name(operator_name(op)), op);
  EXPECT_FALSE(operator_from_name("swap-everything"));
}

}  // namespace
}  // namespace skipsound::mutation
