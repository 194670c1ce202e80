// Z3 stays inside smt/: no file outside it (model, checker, generators, proofs and the command
// line, tests, benchmarks, fuzzers) reaches <z3++.h> or <z3.h> through its includes, so smt/'s
// public headers are Z3-free and only smt/'s own sources compile Z3.
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tests/include_walk.h"

namespace skipsound {
namespace {

using include_graph::joined_lines;

bool is_z3_header(const std::string& file) { return file == "z3++.h" || file == "z3.h"; }

std::vector<std::string> z3_reached_from(const std::string& file) {
  return include_graph::chains_reaching(file, is_z3_header, include_graph::FollowImplementations::No);
}

bool is_source(const std::filesystem::path& path) {
  const std::string ext = path.extension().string();
  return ext == ".h" || ext == ".hpp" || ext == ".cpp" || ext == ".cc";
}

// Every C++ file of the project outside smt/ (and outside build trees), relative to the root.
std::vector<std::string> sources_outside_smt() {
  std::vector<std::string> found;
  for (const auto& top : std::filesystem::directory_iterator(include_graph::kSourceRoot)) {
    const std::string name = top.path().filename().string();
    if (!top.is_directory() || name == "smt" || name == "build" || name.starts_with(".")) continue;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(top.path()))
      if (entry.is_regular_file() && is_source(entry.path()))
        found.push_back(std::filesystem::relative(entry.path(), include_graph::kSourceRoot).generic_string());
  }
  return found;
}

TEST(Z3Containment, NoFileOutsideSmtReachesZ3ThroughItsIncludes) {
  const std::vector<std::string> sources = sources_outside_smt();
  ASSERT_GT(sources.size(), 100u) << "the walk did not find the source tree at " << include_graph::kSourceRoot;
  std::vector<std::string> leaks;
  for (const std::string& file : sources)
    for (const std::string& chain : z3_reached_from(file)) leaks.push_back(chain);
  EXPECT_TRUE(leaks.empty()) << "Z3 reached outside smt/:\n" << joined_lines(leaks);
}

TEST(Z3Containment, TheWalkFindsZ3WhereItIsIncluded) {
  // smt/'s own sources do include Z3, directly or through smt/'s private encoding headers.
  EXPECT_EQ(joined_lines(z3_reached_from("smt/solver_limits.cpp")), "smt/solver_limits.cpp -> z3++.h\n");
  const std::string through_headers = joined_lines(z3_reached_from("smt/oracle.cpp"));
  EXPECT_TRUE(through_headers.starts_with("smt/oracle.cpp -> smt/")) << through_headers;
  EXPECT_TRUE(through_headers.ends_with(" -> z3++.h\n")) << through_headers;
}

}  // namespace
}  // namespace skipsound
