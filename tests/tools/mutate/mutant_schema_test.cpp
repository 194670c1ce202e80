// Mutant schemata: a small program compiled once with every mutation as a run-time choice must
// print, for each mutant id, what that mutant compiled on its own prints, and with no mutant
// active what the original prints; a run records the sites it reached; lines keep their numbers; what a choice cannot express (a
// template argument, a constexpr table) is left out for the per-mutant build.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "model/values/scratch_directory.h"
#include "tools/mutate/mutant_run.h"
#include "tools/mutate/mutant_schema.h"

namespace skipsound::mutation {
namespace {

namespace fs = std::filesystem;

// Operators of every precedence around the mutated ones, a condition with a pointer, a deleted
// statement holding a mutant, a ternary, a lambda, a loop and a short-circuit the schema must keep.
constexpr const char* kProgram = R"(#include <cstdio>
#include <array>

constexpr int kTable[] = {3, 4};

int clamp_add(int a, int b) {
  int sum = a + b * 2;
  if (sum > 10 && a != b)
    sum = 10;
  return sum;
}

bool in_range(int x, int lo, int hi) { return lo <= x && x < hi || x == -1; }

int count_below(const int* values, int n, int limit) {
  int count = 0;
  for (int i = 0; i < n; ++i) {
    if (values[i] + 1 <= limit)
      count += 1;
  }
  return count;
}

int main() {
  std::array<int, 3> xs = {1, 5, 9};
  const int* nothing = nullptr;
  int total = 0;
  for (int x : xs) {
    total += clamp_add(x, kTable[0]);
    total = total * 3 + (in_range(x, 2, 8) ? 1 : 0);
    if (nothing && *nothing > 0)
      total = -1;
    auto bigger = [&](int y) { return y >= x; };
    total += bigger(total % 7) ? 100 : 0;
  }
  total += count_below(xs.data(), 3, 5);
  std::printf("%d\n", total);
  return 0;
}

int never_called(int a) { return a > 4 ? 1 : 0; }
)";

class MutantSchema : public ::testing::Test {
 protected:
  // Compiles `source` (with the runtime header's folder on the include path) and returns the
  // executable, or an empty path when it does not compile.
  fs::path compile(const std::string& source, const std::string& name) const {
    const fs::path file = root_ / (name + ".cpp"), binary = root_ / name;
    std::ofstream(file) << source;
    const ProcessResult built = run_process({"c++", "-std=c++20", "-O0", "-I", SKIPSOUND_SOURCE_DIR, "-o",
                                             binary.string(), file.string()},
                                            120, (root_ / (name + ".log")).string());
    return built.exit_code == 0 ? binary : fs::path();
  }

  // What the program prints, with SKIPSOUND_MUTANT_ID set to `id`.
  std::string output(const fs::path& binary, long id) const {
    const std::string log = (root_ / "run.log").string();
    const ProcessResult run = run_process({"env", std::string(kMutantIdVariable) + "=" + std::to_string(id), binary.string()}, 30, log);
    return run.exit_code == 0 ? read_text_file(log) : "exit " + (run.exit_code ? std::to_string(*run.exit_code) : "signal");
  }

  static std::vector<NumberedMutation> numbered(const std::string& source) {
    std::vector<NumberedMutation> out;
    for (const Mutation& m : enumerate_mutations(source)) out.push_back({100 + out.size(), m});
    return out;
  }

  static constexpr const char* kInclude = "#include \"tools/mutate/mutant_schema_runtime.h\"";
  const ScratchDirectory scratch_{"schema"};
  const fs::path root_ = scratch_.path();
};

TEST_F(MutantSchema, EachIdChoosesWhatItsOwnBuildDoes) {
  const std::vector<NumberedMutation> mutations = numbered(kProgram);
  const SchemaSource schema = render_schemata(kProgram, mutations, {}, kInclude);
  ASSERT_GT(schema.chosen.size(), 20u);
  const fs::path schema_binary = compile(schema.text, "schema");
  ASSERT_FALSE(schema_binary.empty()) << read_text_file((root_ / "schema.log").string()) << schema.text;
  const fs::path original = compile(kProgram, "original");
  ASSERT_FALSE(original.empty());
  EXPECT_EQ(output(schema_binary, -1), output(original, -1));
  // Each id is checked against the schema; against a build of its own, the first three of each
  // operator (a compile each: the whole set would take a minute on a loaded machine).
  size_t differing = 0;
  std::map<Operator, size_t> built;
  for (const NumberedMutation& n : mutations) {
    if (!std::binary_search(schema.chosen.begin(), schema.chosen.end(), n.id) || built[n.mutation.op]++ >= 3) continue;
    const fs::path own = compile(apply_mutation(kProgram, n.mutation), "own");
    if (own.empty()) continue;  // a mutant that does not compile on its own is a build failure
    const std::string expected = output(own, -1);
    differing += expected != output(original, -1);
    EXPECT_EQ(output(schema_binary, static_cast<long>(n.id)), expected)
        << "mutant " << n.id << " at line " << n.mutation.line << ": " << describe_mutation(kProgram, n.mutation).after;
  }
  EXPECT_EQ(built.size(), all_operators().size()) << "the program has mutants of every operator";
  EXPECT_GT(differing, 10u) << "the program must tell most mutants from the original";
}

TEST_F(MutantSchema, ARunRecordsTheSitesItReached) {
  const std::vector<NumberedMutation> mutations = numbered(kProgram);
  const SchemaSource schema = render_schemata(kProgram, mutations, {}, kInclude);
  const fs::path binary = compile(schema.text, "schema");
  ASSERT_FALSE(binary.empty()) << read_text_file((root_ / "schema.log").string());
  const fs::path reached = root_ / "reached.txt";
  for (int run = 0; run < 2; ++run) {  // two processes append to one file
    ASSERT_EQ(run_process({"env", std::string(kReachedVariable) + "=" + reached.string(), binary.string()}, 30,
                          (root_ / "run.log").string())
                  .exit_code,
              0);
  }
  std::multiset<size_t> ids;
  std::ifstream in(reached);
  for (size_t id; in >> id;) ids.insert(id);
  size_t last_line = 0, reached_sites = 0;
  for (const NumberedMutation& n : mutations) last_line = std::max(last_line, n.mutation.line);
  const std::string original = output(binary, -1);
  for (const NumberedMutation& n : mutations) {
    if (!std::binary_search(schema.chosen.begin(), schema.chosen.end(), n.id)) continue;
    const size_t count = ids.count(n.id);
    EXPECT_TRUE(count == 0 || count == 2) << "each process once, line " << n.mutation.line;
    if (n.mutation.line == last_line || n.mutation.line == 32) {
      EXPECT_EQ(count, 0u) << "never_called(), total = -1";
    }
    if (count == 0) {  // what no run reaches cannot change what the run does
      EXPECT_EQ(output(binary, static_cast<long>(n.id)), original) << "line " << n.mutation.line;
    }
    reached_sites += count != 0;
  }
  EXPECT_GT(reached_sites, schema.chosen.size() * 3 / 4);
}

TEST_F(MutantSchema, LinesKeepTheirNumbers) {
  const SchemaSource schema = render_schemata(kProgram, numbered(kProgram), {}, kInclude);
  const std::string text = schema.text;
  const auto lines = [](const std::string& s) { return std::count(s.begin(), s.end(), '\n'); };
  EXPECT_EQ(lines(text), lines(kProgram) + 2) << "the include and `#line 1` only";
  EXPECT_EQ(text.substr(0, text.find('\n')), kInclude);
  EXPECT_NE(text.find("\n#line 1\n#include <cstdio>\n"), std::string::npos);
}

TEST_F(MutantSchema, ConstantExpressionsAndExcludedMutantsAreLeftOut) {
  const std::string source = kProgram;
  const std::vector<NumberedMutation> mutations = numbered(source);
  const auto id_on_line = [&](size_t line, Operator op) {
    for (const NumberedMutation& n : mutations) {
      if (n.mutation.line == line && n.mutation.op == op) return n.id;
    }
    ADD_FAILURE() << "no mutation on line " << line;
    return size_t{0};
  };
  const size_t table = id_on_line(4, Operator::Constant), array_size = id_on_line(25, Operator::Constant);
  const size_t excluded = id_on_line(7, Operator::Constant);
  const SchemaSource schema = render_schemata(source, mutations, {excluded}, kInclude);
  for (size_t id : {table, array_size, excluded}) {
    EXPECT_TRUE(std::binary_search(schema.left_out.begin(), schema.left_out.end(), id)) << id;
    EXPECT_FALSE(std::binary_search(schema.chosen.begin(), schema.chosen.end(), id)) << id;
  }
  EXPECT_EQ(schema.chosen.size() + schema.left_out.size(), mutations.size());
}

TEST_F(MutantSchema, ASchemaSiteCoversTheOperatorsOperands) {
  const std::string source = "bool f(int a, int b) { return a + 1 < b * 2 && b != 3; }\n";
  const std::vector<NumberedMutation> mutations = numbered(source);
  const auto lines = schema_site_lines(source, mutations);
  ASSERT_EQ(lines.size(), mutations.size());
  const SchemaSource schema = render_schemata(source, mutations, {}, "");
  EXPECT_TRUE(schema.left_out.empty());
  for (const NumberedMutation& n : mutations) {
    if (n.mutation.op != Operator::Relational || n.mutation.line != 1 || source.substr(n.mutation.offset, 1) != "<") continue;
    EXPECT_NE(schema.text.find("skipsound_mutant_is(" + std::to_string(n.id) + ") ? a + 1 <= b * 2 : "),
              std::string::npos)
        << schema.text;
  }
}

}  // namespace
}  // namespace skipsound::mutation
