// The mutant catalogue (model/mutants/mutant.h) says which code paths each mutant changes; these
// tests hold it to the source: every switch on a mutant lives in a path the catalogue names for
// it, and every path it names does switch on it.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "model/mutants/mutant.h"

namespace skipsound {
namespace {

const std::filesystem::path kSource = SKIPSOUND_SOURCE_DIR;

// "le-as-lt" -> "Mutant::LeAsLt", "case2-base-is-dv_win" -> "Mutant::Case2BaseIsDvWin": the
// enumerator spelled as the code spells it.
std::string enumerator(const std::string& name) {
  std::string out = "Mutant::";
  bool upper = true;
  for (const char c : name) {
    if (c == '-' || c == '_') {
      upper = true;
      continue;
    }
    out += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
    upper = false;
  }
  return out;
}

bool mentions(const std::filesystem::path& file, const std::string& text) {
  std::ifstream in(file);
  std::ostringstream content;
  content << in.rdbuf();
  return content.str().find(text) != std::string::npos;
}

// The production and symbolic sources that switch on `mutant`, from the source root.
std::set<std::string> sources_switching_on(const std::string& mutant) {
  std::set<std::string> found;
  for (const char* folder : {"model", "checker", "smt"})
    for (const auto& entry : std::filesystem::recursive_directory_iterator(kSource / folder))
      if (entry.path().extension() == ".cpp" && mentions(entry.path(), mutant))
        found.insert(std::filesystem::relative(entry.path(), kSource).generic_string());
  found.erase("model/mutants/mutant.cpp");  // the catalogue itself
  return found;
}

TEST(MutantCatalogue, EachMutantSwitchesExactlyTheCodePathsItNames) {
  for (const MutantInfo& info : mutant_catalogue()) {
    SCOPED_TRACE(info.name);
    std::set<std::string> named;
    for (const CodePath p : info.paths) named.insert(code_path_info(p).source);
    EXPECT_EQ(sources_switching_on(enumerator(info.name)), named);
  }
}

TEST(MutantCatalogue, TheSpellingRuleFindsTheEnumerators) {
  EXPECT_EQ(enumerator(mutant_name(Mutant::LeAsLt)), "Mutant::LeAsLt");
  EXPECT_EQ(enumerator(mutant_name(Mutant::IeeeNanOrder)), "Mutant::IeeeNanOrder");
  EXPECT_EQ(sources_switching_on("Mutant::LeAsLt"), std::set<std::string>{"checker/skipping_builder.cpp"});
}

TEST(MutantCatalogue, PerFileMutantsChangeTheSymbolicMirrorOrWhatItEncodes) {
  // The rule theorems catch a per-file mutant only if their encoding changes with it: through the
  // symbolic mirror, or through the builder whose output they encode.
  for (const MutantInfo& info : mutant_catalogue()) {
    if (info.scope != MutantScope::PerFile) continue;
    SCOPED_TRACE(info.name);
    const auto has = [&](CodePath p) { return std::ranges::find(info.paths, p) != info.paths.end(); };
    EXPECT_TRUE(has(CodePath::SymbolicDecision) || has(CodePath::SymbolicWriter) || has(CodePath::SkippingBuilder));
  }
}

TEST(MutantCatalogue, NamesRoundTripAndEveryEntrySaysWhatItStandsFor) {
  std::set<std::string> names;
  for (const MutantInfo& info : mutant_catalogue()) {
    SCOPED_TRACE(info.name);
    EXPECT_TRUE(names.insert(info.name).second) << "duplicate name";
    EXPECT_EQ(mutant_from_name(info.name), info.mutant);
    EXPECT_EQ(mutant_name(info.mutant), std::string(info.name));
    EXPECT_NE(std::string(info.bug_class), "");
    EXPECT_NE(std::string(info.deviation), "");
    EXPECT_FALSE(info.paths.empty());
  }
  EXPECT_EQ(mutant_from_name("none"), Mutant::None);
  EXPECT_EQ(mutant_from_name("no-such-mutant"), std::nullopt);
  EXPECT_EQ(mutant_names(MutantScope::ConflictTime),
            "append-suppression, and-across-reads, skip-whole-table-read, empty-reads-skip-all, "
            "snapshot-ignores-datachange, unknown-blind-as-blind, delete-read-compares-dv");
  EXPECT_EQ(mutant_names(MutantScope::InputPath),
            "decimal-stats-unscaled, decimal-stats-as-double, timestamp-offset-as-utc, stats-by-logical-name, "
            "partition-null-as-empty, remove-by-path-only, remove-ignores-dv, absent-leaf-nullcount-zero, "
            "widening-counts-new-dv");
}

}  // namespace
}  // namespace skipsound
