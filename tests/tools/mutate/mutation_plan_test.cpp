// Which mutants a run makes: shards partition the enumeration, the seed fixes the order, filters
// and the cap apply, and a pattern naming nothing is an error.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>

#include "model/values/scratch_directory.h"
#include "tools/mutate/mutation_plan.h"

namespace skipsound::mutation {
namespace {

class MutationPlan : public ::testing::Test {
 protected:
  void SetUp() override {
    std::filesystem::create_directories(root_ / "src");
    std::ofstream(root_ / "src" / "a.cpp") << "bool f(int x) {\n  if (x < 3) return true;\n  return x == 7;\n}\n";
    std::ofstream(root_ / "src" / "b.cpp") << "int g(int y) {\n  return y + 1;\n}\n";
    std::ofstream(root_ / "src" / "notes.txt") << "x < 1\n";
  }
  std::vector<Candidate> all() const {
    return enumerate_candidates(root_.string(), expand_patterns(root_.string(), {"src/*.cpp"}));
  }

  const ScratchDirectory scratch_{"test"};
  const std::filesystem::path root_ = scratch_.path();
};

std::vector<size_t> indexes(const std::vector<Candidate>& cs) {
  std::vector<size_t> out;
  for (const Candidate& c : cs) out.push_back(c.index);
  return out;
}

TEST_F(MutationPlan, PatternsExpandToSortedRelativeFiles) {
  EXPECT_EQ(expand_patterns(root_.string(), {"src/b.cpp", "src/*.cpp"}), (std::vector<std::string>{"src/a.cpp", "src/b.cpp"}));
  EXPECT_THROW(expand_patterns(root_.string(), {"src/*.h"}), std::invalid_argument);
}

TEST_F(MutationPlan, CandidatesAreNumberedInFileAndSourceOrder) {
  const auto candidates = all();
  ASSERT_GT(candidates.size(), 6u);
  EXPECT_EQ(candidates.front().file, "src/a.cpp");
  EXPECT_EQ(candidates.back().file, "src/b.cpp");
  for (size_t i = 0; i < candidates.size(); ++i) EXPECT_EQ(candidates[i].index, i);
  EXPECT_THROW(enumerate_candidates(root_.string(), {"src/missing.cpp"}), std::runtime_error);
}

TEST_F(MutationPlan, ShardsPartitionTheEnumerationWhateverTheSeed) {
  const auto candidates = all();
  std::multiset<size_t> seen;
  for (size_t shard = 0; shard < 3; ++shard) {
    PlanOptions o;
    o.shard_index = shard;
    o.shard_count = 3;
    o.seed = 100 + shard;
    for (size_t i : indexes(plan_run(candidates, o))) seen.insert(i);
  }
  EXPECT_EQ(seen.size(), candidates.size());
  EXPECT_EQ(std::set<size_t>(seen.begin(), seen.end()).size(), candidates.size());
}

TEST_F(MutationPlan, TheSeedFixesTheOrder) {
  const auto candidates = all();
  PlanOptions o;
  o.seed = 5;
  EXPECT_EQ(indexes(plan_run(candidates, o)), indexes(plan_run(candidates, o)));
  bool some_seed_reorders = false;
  for (uint64_t seed = 6; seed < 12; ++seed) {
    PlanOptions other = o;
    other.seed = seed;
    some_seed_reorders |= indexes(plan_run(candidates, other)) != indexes(plan_run(candidates, o));
  }
  EXPECT_TRUE(some_seed_reorders);
}

TEST_F(MutationPlan, FiltersAndTheCapApply) {
  const auto candidates = all();
  PlanOptions o;
  o.operators = {Operator::Relational};
  o.lines = std::pair<size_t, size_t>{2, 2};
  const auto chosen = plan_run(candidates, o);
  ASSERT_EQ(chosen.size(), 1u);
  EXPECT_EQ(chosen[0].text.after, "if (x <= 3) return true;");
  PlanOptions capped;
  capped.max_mutants = 2;
  EXPECT_EQ(plan_run(candidates, capped).size(), 2u);
}

}  // namespace
}  // namespace skipsound::mutation
