// Dependencies point one way (docs/architecture.md): every source file belongs to one module of the
// table below, includes only its own module and the modules below it, and no chain of includes
// leads back to the file it starts from; only cli/ (and what drives it: tests, fuzzers) includes
// CLI11. The table is the CMake one (CMakeLists.txt's skipsound_module calls); a test holds the
// two to the same edges.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tests/include_walk.h"

namespace skipsound {
namespace {

using include_graph::joined_lines;
using include_graph::kSourceRoot;

// A module is a folder; `may_include` names the modules right below it (the rest follows
// transitively). kEverything: tests, benchmarks and fuzzers may include any module.
struct Module {
  std::string folder;
  std::vector<std::string> may_include;
};
const std::string kEverything = "*";

const std::vector<Module> kModules = {
    {"common", {}},  // shared with tools/: includes nothing of skipsound
    {"model/mutants", {}},
    {"model/coverage", {}},
    {"model/values", {}},
    {"model/sql", {"model/values"}},
    {"model/stats", {"model/sql", "model/mutants", "model/coverage"}},
    {"model/log", {"model/stats"}},
    {"model/table", {"model/log"}},
    {"checker", {"model/table"}},
    {"smt", {"model/table", "common"}},  // the oracle never sees the checker it judges
    {"smt/symbolic", {"smt", "checker"}},
    {"generators", {"model/table"}},
    {"proofs/common", {"checker", "generators"}},
    {"proofs/oracles", {"proofs/common", "smt"}},
    {"proofs/scenario", {"proofs/oracles"}},
    {"proofs/perfile", {"proofs/oracles"}},
    {"proofs/explorer", {"proofs/scenario"}},
    {"proofs/rules", {"proofs/common", "smt/symbolic"}},
    {"proofs/engines", {"proofs/explorer"}},  // engines/ drivers speak JSON lines: no include
    {"proofs/gate", {"proofs/perfile", "proofs/explorer", "proofs/rules", "proofs/engines"}},
    {"proofs/report", {"proofs/gate"}},
    {"cli", {"proofs/report"}},
    {"tools/mutate", {"common"}},  // links nothing of skipsound but common/
    {"tests", {kEverything}},
    {"bench", {kEverything}},
    {"fuzz", {kEverything}},
};

// Each file's project includes (those that name a file of the tree), as paths from the root.
using IncludeGraph = std::map<std::string, std::vector<std::string>>;

bool is_source(const std::filesystem::path& path) {
  const std::string ext = path.extension().string();
  return ext == ".h" || ext == ".hpp" || ext == ".cpp" || ext == ".cc";
}

// Every C++ file of the tree (outside build folders), relative to the root.
std::vector<std::string> source_files() {
  std::vector<std::string> files;
  for (const auto& top : std::filesystem::directory_iterator(kSourceRoot)) {
    const std::string name = top.path().filename().string();
    if (!top.is_directory() || name == "build" || name.starts_with(".")) continue;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(top.path()))
      if (entry.is_regular_file() && is_source(entry.path()))
        files.push_back(std::filesystem::relative(entry.path(), kSourceRoot).generic_string());
  }
  return files;
}

IncludeGraph source_tree_graph() {
  IncludeGraph graph;
  for (const std::string& file : source_files()) {
    std::vector<std::string>& project_includes = graph[file];
    for (const std::string& included : include_graph::includes_of(file))
      if (std::filesystem::is_regular_file(kSourceRoot / included)) project_includes.push_back(included);
  }
  return graph;
}

// The module a file belongs to: the longest folder of the table that holds it.
std::optional<std::string> module_of(const std::string& file) {
  std::optional<std::string> found;
  for (const Module& m : kModules)
    if (file.starts_with(m.folder + "/") && (!found || m.folder.size() > found->size())) found = m.folder;
  return found;
}

// Every module `folder` may include: itself and what its may_include reach, transitively.
std::set<std::string> reachable_modules(const std::string& folder) {
  std::set<std::string> reached{folder};
  std::vector<std::string> todo{folder};
  while (!todo.empty()) {
    const std::string current = todo.back();
    todo.pop_back();
    const auto module = std::ranges::find(kModules, current, &Module::folder);
    if (module == kModules.end()) continue;
    for (const std::string& below : module->may_include)
      if (reached.insert(below).second) todo.push_back(below);
  }
  return reached;
}

// "from -> to (module A may not include module B)" for every include against the table, and
// "file: in no module" for a file the table does not place.
std::vector<std::string> upward_includes(const IncludeGraph& graph) {
  std::vector<std::string> found;
  for (const auto& [file, includes] : graph) {
    const std::optional<std::string> from = module_of(file);
    if (!from) {
      found.push_back(file + ": in no module of the table");
      continue;
    }
    const std::set<std::string> allowed = reachable_modules(*from);
    if (allowed.contains(kEverything)) continue;
    for (const std::string& included : includes) {
      const std::optional<std::string> to = module_of(included);
      if (!to || !allowed.contains(*to))
        found.push_back(file + " -> " + included + " (" + *from + "/ may not include " + to.value_or("?") + "/)");
    }
  }
  return found;
}

// One include chain that returns to where it started, for each cycle a depth-first walk meets.
std::vector<std::string> include_cycles(const IncludeGraph& graph) {
  enum class Mark { OnPath, Done };
  std::map<std::string, Mark> marks;
  std::vector<std::string> path;
  std::vector<std::string> cycles;
  const std::function<void(const std::string&)> visit = [&](const std::string& file) {
    marks[file] = Mark::OnPath;
    path.push_back(file);
    const auto includes = graph.find(file);
    if (includes != graph.end()) {
      for (const std::string& included : includes->second) {
        const auto mark = marks.find(included);
        if (mark == marks.end()) {
          visit(included);
        } else if (mark->second == Mark::OnPath) {
          std::string chain;
          for (auto it = std::ranges::find(path, included); it != path.end(); ++it) chain += *it + " -> ";
          cycles.push_back(chain + included);
        }
      }
    }
    path.pop_back();
    marks[file] = Mark::Done;
  };
  for (const auto& [file, includes] : graph)
    if (!marks.contains(file)) visit(file);
  return cycles;
}

TEST(Layering, NoIncludePointsUpTheTable) {
  const IncludeGraph graph = source_tree_graph();
  ASSERT_GT(graph.size(), 200u) << "the walk did not find the source tree at " << kSourceRoot;
  const std::vector<std::string> found = upward_includes(graph);
  EXPECT_TRUE(found.empty()) << "includes against the layering:\n" << joined_lines(found);
}

TEST(Layering, NoIncludeChainReturnsToItsStart) {
  const std::vector<std::string> cycles = include_cycles(source_tree_graph());
  EXPECT_TRUE(cycles.empty()) << "include cycles:\n" << joined_lines(cycles);
}

TEST(Layering, OnlyTheCommandLineIncludesCli11) {
  std::vector<std::string> found;
  for (const std::string& file : source_files()) {
    const std::optional<std::string> module = module_of(file);
    if (module == "cli" || (module && reachable_modules(*module).contains(kEverything))) continue;
    for (const std::string& included : include_graph::includes_of(file))
      if (included.starts_with("CLI/")) found.push_back(file + " -> " + included);
  }
  EXPECT_TRUE(found.empty()) << "CLI11 outside cli/:\n" << joined_lines(found);
}

TEST(Layering, TheChecksFindWhatTheyLookFor) {
  const IncludeGraph upward{{"proofs/common/x.h", {"proofs/gate/gate.h"}},
                            {"proofs/gate/gate.h", {"proofs/common/x.h"}},
                            {"smt/y.cpp", {"checker/skipping_expr.h"}},
                            {"proofs/z.cpp", {}}};
  EXPECT_EQ(joined_lines(upward_includes(upward)),
            "proofs/common/x.h -> proofs/gate/gate.h (proofs/common/ may not include proofs/gate/)\n"
            "proofs/z.cpp: in no module of the table\n"
            "smt/y.cpp -> checker/skipping_expr.h (smt/ may not include checker/)\n");
  EXPECT_EQ(joined_lines(include_cycles(upward)), "proofs/common/x.h -> proofs/gate/gate.h -> proofs/common/x.h\n");
}

// skipsound_X_Y names the folder X/Y; skipsound_model is model/'s top concern.
std::string folder_of_library(std::string library) {
  library = library.substr(std::string("skipsound_").size());
  if (library == "model") return "model/table";
  std::ranges::replace(library, '_', '/');
  return library;
}

// Each skipsound_module(folder DEPS ...) call of CMakeLists.txt: folder -> the skipsound
// libraries among its dependencies, as folders.
std::map<std::string, std::set<std::string>> cmake_module_edges() {
  std::ifstream in(kSourceRoot / "CMakeLists.txt");
  std::ostringstream text;
  text << in.rdbuf();
  const std::string cmake = text.str();
  static const std::regex call(R"(\nskipsound_module\(([a-z/]+)([^)]*)\))");
  static const std::regex library(R"(skipsound_[a-z_]+)");
  std::map<std::string, std::set<std::string>> edges;
  for (auto it = std::sregex_iterator(cmake.begin(), cmake.end(), call); it != std::sregex_iterator(); ++it) {
    std::set<std::string>& deps = edges[(*it)[1].str()];
    const std::string arguments = (*it)[2].str();
    for (auto lib = std::sregex_iterator(arguments.begin(), arguments.end(), library); lib != std::sregex_iterator(); ++lib)
      deps.insert(folder_of_library(lib->str()));
  }
  return edges;
}

TEST(Layering, TheTableIsCMakes) {
  const std::map<std::string, std::set<std::string>> cmake = cmake_module_edges();
  ASSERT_GT(cmake.size(), 15u) << "the skipsound_module calls of CMakeLists.txt were not found";
  for (const auto& [folder, deps] : cmake) {
    SCOPED_TRACE(folder);
    const auto module = std::ranges::find(kModules, folder, &Module::folder);
    ASSERT_NE(module, kModules.end()) << "a CMake module the table lacks";
    EXPECT_EQ(std::set<std::string>(module->may_include.begin(), module->may_include.end()), deps);
  }
}

}  // namespace
}  // namespace skipsound
