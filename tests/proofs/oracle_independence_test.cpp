// docs/semantics.md §6 "Independence": an oracle shares no code with the code under test (checker/). Every
// project file an oracle source includes — directly, through project headers, or through the
// implementation file beside each such header (the code it calls) — must be outside checker/.
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace skipsound {
namespace {

const std::filesystem::path kSource = SKIPSOUND_SOURCE_DIR;

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<std::string> project_includes(const std::string& file) {
  static const std::regex include_line(R"(#\s*include\s*"([^"]+)\")");
  const std::string text = read_text(kSource / file);
  std::vector<std::string> found;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), include_line); it != std::sregex_iterator(); ++it) {
    found.push_back((*it)[1].str());
  }
  return found;
}

// Each checker/ file reached from `root`, with the include chain that reaches it.
std::vector<std::string> checker_files_reached(const std::string& root) {
  std::vector<std::string> reached;
  std::set<std::string> seen;
  std::vector<std::pair<std::string, std::string>> stack{{root, root}};  // file, chain
  while (!stack.empty()) {
    const auto [file, chain] = stack.back();
    stack.pop_back();
    if (!seen.insert(file).second || !std::filesystem::exists(kSource / file)) continue;
    if (file.rfind("checker/", 0) == 0) {
      reached.push_back(chain);
      continue;
    }
    for (const std::string& included : project_includes(file)) {
      stack.push_back({included, chain + " -> " + included});
      if (included.size() > 2 && included.ends_with(".h")) {
        const std::string implementation = included.substr(0, included.size() - 2) + ".cpp";
        stack.push_back({implementation, chain + " -> " + implementation});
      }
    }
  }
  return reached;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& line : lines) text += line + "\n";
  return text;
}

TEST(OracleIndependence, NoOracleSourceReachesTheCheckerThroughItsIncludes) {
  for (const char* oracle : {"proofs/serial_oracle.h", "proofs/serial_oracle.cpp", "smt/oracle.h", "smt/oracle.cpp"}) {
    SCOPED_TRACE(oracle);
    ASSERT_TRUE(std::filesystem::exists(kSource / oracle));
    const std::vector<std::string> reached = checker_files_reached(oracle);
    EXPECT_TRUE(reached.empty()) << "an oracle source includes checker/ code:\n" << joined(reached);
  }
}

TEST(OracleIndependence, TheWalkFindsACheckerIncludeWhereThereIsOne) {
  // The adapter that pairs verdicts with the checker's exceptions does include the checker.
  const std::vector<std::string> reached = checker_files_reached("proofs/schedule_verdict.h");
  ASSERT_FALSE(reached.empty());
  EXPECT_NE(joined(reached).find(" -> checker/conflict_checker.h\n"), std::string::npos)
      << joined(reached);
}

}  // namespace
}  // namespace skipsound
