// The per-file corpus: every saved case under tests/corpus/files/ replays to its expected
// outcome, the corpus covers a sound skip, a sound keep and one counterexample per per-file and
// input-path mutant, and any generated case survives the save/load round trip exactly.
#include <algorithm>
#include <filesystem>
#include <set>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <rapidcheck/gtest.h>

#include "generators/file_case.h"
#include "model/stats/stats.h"
#include "proofs/perfile/corpus.h"
#include "model/values/exact_json.h"

namespace skipsound {
namespace {

std::vector<std::string> corpus_files() {
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(SKIPSOUND_SOURCE_DIR "/tests/corpus/files")) {
    if (entry.path().extension() == ".json") files.push_back(entry.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

TEST(PerFileCorpus, EveryCaseReplaysToItsExpectedOutcome) {
  smt::Oracle oracle;
  const auto files = corpus_files();
  ASSERT_FALSE(files.empty());
  for (const std::string& file : files) {
    const CorpusCase c = load_corpus_case(file);
    const ReplayResult result = replay_corpus_case(c, oracle, "skipsound replay " + file);
    EXPECT_EQ(result.match, ReplayMatch::AsExpected) << result.report;
  }
}

TEST(PerFileCorpus, CoversSoundVerdictsAndEveryPerFileMutant) {
  std::set<DecisionOutcome> sound_outcomes;
  std::set<Mutant> killed;
  for (const std::string& file : corpus_files()) {
    const CorpusCase c = load_corpus_case(file);
    ASSERT_TRUE(c.expected.has_value()) << file << ": the corpus pins exact outcomes";
    if (c.mutant == Mutant::None) sound_outcomes.insert(*c.expected);
    const bool fails = is_finding(*c.expected) || c.expected_stats_inconsistent || c.expected_log_differs;
    if (c.mutant != Mutant::None && fails) killed.insert(c.mutant);
  }
  EXPECT_TRUE(sound_outcomes.count(DecisionOutcome::SoundSkip));
  EXPECT_TRUE(sound_outcomes.count(DecisionOutcome::Kept));
  for (Mutant m : all_mutants()) {
    // The table's DV widening runs in worlds only (per-file cases widen their stats without it):
    // tests/corpus/scenarios/mutant_widening_counts_new_dv.scn pins that kill.
    const std::vector<CodePath>& paths = mutant_info(m).paths;
    const bool worlds_only = std::all_of(paths.begin(), paths.end(), [](CodePath p) { return p == CodePath::DvWidening; });
    if ((is_per_file_mutant(m) || is_input_path_mutant(m)) && !worlds_only) {
      EXPECT_TRUE(killed.count(m)) << "no corpus counterexample for " << mutant_name(m);
    }
  }
}

TEST(PerFileCorpus, ABadCaseIsAnInputError) {
  EXPECT_THROW(corpus_case_from_json(nlohmann::json::object()), InputError);
  EXPECT_THROW(corpus_case_from_json(nlohmann::json::parse(R"({"schema": 3})")), InputError);
}

RC_GTEST_PROP(PerFileCorpus, SavedCasesLoadBackExactly, (const generators::FileCase& c)) {
  CorpusCase saved{"", c.table, c.file, c.predicates.front(), Mutant::None, 7, DecisionOutcome::Kept};
  // What `gate --out` saves: no finding expected, the stats collected again when the rows give them.
  if (*rc::gen::elementOf(std::vector<bool>{false, true})) {
    saved.expected.reset();
    saved.observed = "UNSOUND SKIP";
    saved.stats_recipe = recipe_of(c.table, c.file, Mutant::None);
  }
  RC_TAG(generators::stats_history_name(c.file.history));
  RC_CLASSIFY(!saved.expected, "expects sound");
  RC_CLASSIFY(saved.stats_recipe.has_value(), "stats collected at replay");
  RC_CLASSIFY(std::find(c.file.deleted.begin(), c.file.deleted.end(), true) != c.file.deleted.end(), "deleted rows");
  RC_CLASSIFY(!c.file.dropped.empty(), "stats fields missing");
  RC_CLASSIFY(!c.table.stats_config.partition_columns.empty(), "partitioned");
  RC_CLASSIFY(c.file.absent_leaves > 0, "leaves absent from the data");
  RC_CLASSIFY(c.file.log != generators::LogShape{}, "logged with a zone offset, add first, a dropped column or decimal strings");
  const CorpusCase loaded = corpus_case_from_json(parse_json_exact(dump_json(corpus_case_to_json(saved))));
  RC_ASSERT(loaded.table.schema == saved.table.schema);
  RC_ASSERT(loaded.table.stats_config == saved.table.stats_config);
  RC_ASSERT(loaded.file.rows == saved.file.rows);
  RC_ASSERT(loaded.file.deleted == saved.file.deleted);
  RC_ASSERT(loaded.file.absent_leaves == saved.file.absent_leaves);
  RC_ASSERT(loaded.file.log == saved.file.log);
  // Compared as JSON: an emptied ColumnStats and an absent one are the same stats. Stats saved as
  // a recipe come back as the writer collects them, which must be the stats the case had.
  const FileStats stats = loaded.stats_recipe ? stats_by_recipe(loaded.table, loaded.file, *loaded.stats_recipe, loaded.mutant)
                                              : loaded.file.stats;
  RC_ASSERT(stats_to_json(stats, loaded.table.schema) == stats_to_json(saved.file.stats, saved.table.schema));
  RC_ASSERT(same_expr(loaded.predicate, saved.predicate));
  RC_ASSERT(loaded.seed == saved.seed);
  RC_ASSERT(loaded.expected == saved.expected);
  RC_ASSERT(loaded.observed == saved.observed);
}

}  // namespace
}  // namespace skipsound
