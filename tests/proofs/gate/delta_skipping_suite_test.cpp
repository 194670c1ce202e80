// Delta's own skipping suite (proofs/gate/delta_skipping_suite.h) over tests/corpus/delta-skipping/:
// every file whose rows make the predicate TRUE is kept, every skip Delta makes is made, every
// difference is printed (docs/delta-conformance.md, "Delta's own skipping suite" lists the rest with the reason).
// The gate judges the same cases with its corpus; these tests pin what the suite reports.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>

#include <nlohmann/json.hpp>

#include "model/values/scratch_directory.h"
#include "proofs/gate/delta_skipping_suite.h"

namespace skipsound {
namespace {
namespace fs = std::filesystem;
using nlohmann::json;

const fs::path kCorpus = fs::path(SKIPSOUND_SOURCE_DIR) / "tests/corpus/delta-skipping";

// A decision or error with the case it belongs to.
template <typename T>
struct InCase {
  std::string name;
  T item;
};

struct Totals {
  int cases = 0, predicates = 0, decisions = 0, delta_skips = 0, skips_made = 0, needs_grammar = 0;
  std::vector<InCase<SuiteDecision>> unsound, missed, beyond_delta;
  std::vector<InCase<std::string>> grammar_pending;
  std::vector<InCase<SuiteError>> errors;
};

Totals run(Mutant mutant) {
  Totals t;
  for (const DeltaSuiteCase& c : run_delta_skipping_suite(kCorpus, mutant)) {
    ++t.cases;
    t.predicates += c.predicates;
    t.decisions += c.decisions;
    t.delta_skips += c.delta_skips;
    t.skips_made += c.skips_made;
    t.needs_grammar += c.needs_grammar;
    const auto add = [&](auto& to, const auto& from) {
      for (const auto& item : from) to.push_back({c.name, item});
    };
    add(t.unsound, c.unsound);
    add(t.missed, c.missed);
    add(t.beyond_delta, c.beyond_delta);
    add(t.grammar_pending, c.grammar_pending);
    add(t.errors, c.errors);
  }
  return t;
}

template <typename T, typename Render>
void print_list(const char* title, const std::vector<InCase<T>>& items, Render render) {
  std::cout << title << " (" << items.size() << "):\n";
  for (const InCase<T>& item : items) std::cout << "  " << item.name << ": " << render(item.item) << "\n";
}

template <typename T, typename Render>
std::string first(const std::vector<InCase<T>>& items, Render render) {
  return items.empty() ? "none" : items.front().name + ": " + render(items.front().item);
}

std::string as_is(const std::string& s) { return s; }

TEST(DeltaSkippingSuite, KeepsEveryMatchingFileAndMakesDeltasSkips) {
  const Totals t = run(Mutant::None);
  std::cout << "Delta skipping suite: " << t.cases << " cases, " << t.predicates << " predicates, " << t.decisions
            << " file decisions\nfiles Delta skips: " << t.delta_skips << ", skipped by skipsound too: " << t.skips_made
            << "\nfiles Delta reads that skipsound skips (no row matches): " << t.beyond_delta.size()
            << "\npredicates waiting for grammar: " << t.needs_grammar << "\n";
  print_list("Delta skips, skipsound keeps", t.missed, missed_text);
  print_list("Delta reads, skipsound skips (no row matches)", t.beyond_delta, beyond_delta_text);
  print_list("marked \"needs\": \"grammar\", not parsed yet", t.grammar_pending, as_is);
  EXPECT_GE(t.cases, 40);
  EXPECT_GT(t.delta_skips, 200);
  EXPECT_TRUE(t.errors.empty()) << t.errors.size() << " bad entries, first: " << first(t.errors, error_text);
  EXPECT_TRUE(t.unsound.empty()) << t.unsound.size() << " files skipped although a row matches, first: "
                                 << first(t.unsound, unsound_text);
  EXPECT_TRUE(t.missed.empty()) << t.missed.size() << " Delta skips not made, first: " << first(t.missed, missed_text);
  EXPECT_EQ(t.needs_grammar, 2);
}

// The soundness check has teeth: under le-as-lt (c <= v read as min < v) the suite's own hits
// with a matching row are skipped, and the run reports them.
TEST(DeltaSkippingSuite, ReportsTheUnsoundSkipsOfAMutant) {
  const Totals t = run(Mutant::LeAsLt);
  const bool finds_a_le = std::any_of(t.unsound.begin(), t.unsound.end(), [](const InCase<SuiteDecision>& u) {
    return u.name == "top-level-single-1" && u.item.sql == "a <= 1";
  });
  EXPECT_TRUE(finds_a_le) << "first unsound skip found: " << first(t.unsound, unsound_text);
}

// The stats go through their text: a reader that ignores the decimal scale (decimal-stats-unscaled)
// changes what is skipped, while one that reads by logical names (stats-by-logical-name) changes
// nothing here, since no case maps columns.
TEST(DeltaSkippingSuite, ReportsTheLostSkipsOfAWeakerReader) {
  const Totals sound = run(Mutant::None);
  const Totals unscaled = run(Mutant::DecimalStatsUnscaled);
  EXPECT_FALSE(unscaled.unsound.empty() && unscaled.missed.empty())
      << "a reader that ignores the decimal scale changed nothing in " << unscaled.decisions << " decisions";
  const Totals logical = run(Mutant::StatsByLogicalName);
  EXPECT_EQ(logical.missed.size(), sound.missed.size());
  EXPECT_EQ(logical.unsound.size(), sound.unsound.size());
}

// Every case names the Delta test it comes from and says what Delta did with each predicate.
TEST(DeltaSkippingSuite, EveryCaseCarriesItsProvenanceAndExpectations) {
  size_t cases = 0;
  for (const auto& entry : fs::directory_iterator(kCorpus)) {
    if (entry.path().extension() != ".json") continue;
    ++cases;
    std::ifstream in(entry.path());
    const json c = json::parse(in);
    SCOPED_TRACE(entry.path().filename().string());
    EXPECT_FALSE(c.value("delta_test", std::string()).empty());
    ASSERT_TRUE(c.contains("predicates") && !c["predicates"].empty());
    const size_t count = c.contains("files") ? c["files"].size() : 1;
    for (const json& p : c["predicates"]) {
      const json& delta = p.at("delta");
      EXPECT_TRUE(delta == "hit" || delta == "miss" || (delta.is_array() && delta.size() == count)) << p.dump();
      EXPECT_EQ(p.value("needs", std::string("grammar")), "grammar") << p.dump();
    }
  }
  EXPECT_GE(cases, 40u);
}

// A case that does not load, and a predicate marked "needs" that parses, are errors of its file.
TEST(DeltaSkippingSuite, BadEntriesAreErrorsOfTheirCase) {
  const ScratchDirectory scratch("test");
  const fs::path& dir = scratch.path();
  std::ofstream(dir / "broken.json") << "{ not json";
  std::ofstream(dir / "marked.json") << R"({"delta_test": "t", "schema": {"type": "struct", "fields": [{"name": "a", "type": "long", "nullable": true, "metadata": {}}]},
    "rows": [{"a": 1}], "predicates": [{"sql": "a > 5", "delta": "miss", "needs": "grammar"}]})";
  const std::vector<DeltaSuiteCase> cases = run_delta_skipping_suite(dir);
  ASSERT_EQ(cases.size(), 2u);
  EXPECT_EQ(cases[0].name, "broken");
  EXPECT_TRUE(cases[0].failed());
  ASSERT_EQ(cases[0].errors.size(), 1u);
  EXPECT_EQ(cases[0].errors.front().kind, SuiteErrorKind::DoesNotLoad);
  EXPECT_EQ(cases[1].name, "marked");
  ASSERT_EQ(cases[1].errors.size(), 1u);
  EXPECT_EQ(cases[1].errors.front().kind, SuiteErrorKind::MarkedButParses);
  EXPECT_EQ(cases[1].errors.front().sql, "a > 5");
  EXPECT_EQ(cases[1].skips_made, 1);  // it is still judged
}

// "exact": true (the rule corpus) makes a skip Delta does not make a finding, sound or not; without
// it the same skip is only counted beyond Delta.
TEST(DeltaSkippingSuite, AnExactCaseFailsOnASkipBeyondDelta) {
  const ScratchDirectory scratch("test");
  const fs::path& dir = scratch.path();
  const std::string body = R"("schema": {"type": "struct", "fields": [{"name": "a", "type": "long", "nullable": true, "metadata": {}}]},
    "rows": [{"a": 1}], "predicates": [{"sql": "a > 5", "delta": "hit"}]})";
  std::ofstream(dir / "exact.json") << R"({"delta_test": "t", "exact": true, )" << body;
  std::ofstream(dir / "loose.json") << R"({"delta_test": "t", )" << body;
  std::ofstream(dir / "not-a-flag.json") << R"({"delta_test": "t", "exact": "yes", )" << body;
  const std::vector<DeltaSuiteCase> cases = run_delta_skipping_suite(dir);
  ASSERT_EQ(cases.size(), 3u);
  EXPECT_EQ(cases[0].name, "exact");
  ASSERT_EQ(cases[0].extra.size(), 1u);
  EXPECT_EQ(cases[0].extra.front().sql, "a > 5");
  EXPECT_EQ(cases[0].extra.front().expression, "max(a) > 5L");
  EXPECT_TRUE(cases[0].failed());
  EXPECT_EQ(cases[1].name, "loose");
  EXPECT_TRUE(cases[1].extra.empty());
  EXPECT_EQ(cases[1].beyond_delta.size(), 1u);
  EXPECT_FALSE(cases[1].failed());
  EXPECT_EQ(cases[2].name, "not-a-flag");
  EXPECT_TRUE(cases[2].failed());
}

}  // namespace
}  // namespace skipsound
