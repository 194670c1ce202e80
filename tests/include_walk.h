// Walks the project's #include graph from the source tree, for tests that hold the layering to
// account (docs/semantics.md §6.5; Z3 stays inside smt/).
#pragma once
#include <filesystem>
#include <fstream>
#include <functional>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace skipsound::include_graph {

inline const std::filesystem::path kSourceRoot = SKIPSOUND_SOURCE_DIR;

// Every #include of `file` (relative to the source root), quoted or angled, as written.
inline std::vector<std::string> includes_of(const std::string& file) {
  static const std::regex include_line(R"(#\s*include\s*["<]([^">]+)[">])");
  std::ifstream in(kSourceRoot / file);
  std::ostringstream text;
  text << in.rdbuf();
  const std::string source = text.str();
  std::vector<std::string> found;
  for (auto it = std::sregex_iterator(source.begin(), source.end(), include_line); it != std::sregex_iterator(); ++it)
    found.push_back((*it)[1].str());
  return found;
}

enum class FollowImplementations { No, Yes };

// The include chain ("a -> b -> c") to each file `is_target` accepts, walking from `root` through
// project files. With FollowImplementations::Yes a header also leads to the .cpp beside it (the
// code a caller of the header runs).
inline std::vector<std::string> chains_reaching(const std::string& root,
                                                const std::function<bool(const std::string&)>& is_target,
                                                FollowImplementations follow) {
  std::vector<std::string> reached;
  std::set<std::string> seen;
  std::vector<std::pair<std::string, std::string>> stack{{root, root}};  // file, chain
  while (!stack.empty()) {
    const auto [file, chain] = stack.back();
    stack.pop_back();
    if (!seen.insert(file).second) continue;
    if (is_target(file)) {
      reached.push_back(chain);
      continue;
    }
    if (!std::filesystem::exists(kSourceRoot / file)) continue;
    for (const std::string& included : includes_of(file)) {
      stack.push_back({included, chain + " -> " + included});
      if (follow == FollowImplementations::Yes && included.size() > 2 && included.ends_with(".h")) {
        const std::string implementation = included.substr(0, included.size() - 2) + ".cpp";
        stack.push_back({implementation, chain + " -> " + implementation});
      }
    }
  }
  return reached;
}

inline std::string joined_lines(const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& line : lines) text += line + "\n";
  return text;
}

}  // namespace skipsound::include_graph
