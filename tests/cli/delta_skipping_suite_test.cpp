// Delta's own skipping suite (DataSkippingDeltaTests in delta-io/delta's Spark tests), ported as
// the corpus tests/corpus/delta-skipping/ and run through `skipsound skip`'s own path
// (load_files, then skip_decisions) file by file. Every file whose rows make the predicate TRUE
// must be kept, whatever Delta does: a skip there is unsound and fails the test. Of the files
// Delta skips, skipsound must skip at least 98 %; every difference is printed (README "Delta's
// own skipping suite" lists them with the reason). Predicates written in grammar skipsound does
// not parse yet carry "needs": "grammar" and are counted apart; a marked predicate that parses
// fails the test, so a mark goes as soon as the grammar arrives.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "model/sql/binder.h"
#include "model/sql/evaluator.h"
#include "model/sql/row.h"
#include "model/stats/stats.h"
#include "model/stats/stats_collection.h"
#include "model/values/input_error.h"
#include "proofs/cli/file_inputs.h"
#include "proofs/cli/skip_command.h"

namespace skipsound::cli {
namespace {
namespace fs = std::filesystem;
using nlohmann::json;

constexpr double kRequiredSkipRate = 0.98;

const fs::path kCorpus = fs::path(SKIPSOUND_SOURCE_DIR) / "tests/corpus/delta-skipping";

json read_json(const fs::path& path) {
  std::ifstream in(path);
  return json::parse(in);
}

std::vector<fs::path> corpus_cases() {
  std::vector<fs::path> paths;
  for (const auto& entry : fs::directory_iterator(kCorpus)) {
    if (entry.path().extension() == ".json") paths.push_back(entry.path());
  }
  std::sort(paths.begin(), paths.end());
  return paths;
}

// A case's data files: "rows" is one file, "files" several (each with "rows", and
// "written_with" when its stats were written under other settings than the table's now).
std::vector<json> data_files(const json& c) {
  if (c.contains("files")) return c["files"].get<std::vector<json>>();
  return {json{{"rows", c["rows"]}}};
}

// What Delta did with file `index` of `count` under one predicate: "hit" reads some file (each
// one, when the table has one file), "miss" skips every file, a list names each file's fate.
enum class DeltaFate { Read, Skipped, SomeFileRead };

DeltaFate delta_fate(const json& expected, size_t index, size_t count) {
  if (expected.is_array()) return expected.at(index) == "skip" ? DeltaFate::Skipped : DeltaFate::Read;
  if (expected == "miss") return DeltaFate::Skipped;
  return count == 1 ? DeltaFate::Read : DeltaFate::SomeFileRead;
}

struct SuiteTally {
  int cases = 0;
  int predicates = 0;
  int decisions = 0;
  int delta_skips = 0;           // files Delta skips, among predicates skipsound parses
  int skips_made = 0;            // ... that skipsound skips too
  int delta_reads_skipped = 0;   // files Delta reads (no row matches) that skipsound skips
  int needs_grammar = 0;         // predicates marked "needs": "grammar" that do not parse
  int needs_grammar_skips = 0;   // files Delta skips under those
  std::vector<std::string> grammar_pending;  // their text
  std::vector<std::string> parses_now;       // marked, yet they parse: the mark can go
  std::vector<std::string> unsound;          // skipped although a row matches
  std::vector<std::string> errors;           // unmarked predicates that fail, bad cases
  std::vector<std::string> missed;           // Delta skips, skipsound keeps (with its expression)
  std::vector<std::string> beyond_delta;     // Delta reads, skipsound skips (no row matches)
};

class CaseFiles {
 public:
  explicit CaseFiles(const std::string& name)
      : dir_(fs::path(testing::TempDir()) / ("skipsound_delta_suite_" + std::to_string(::getpid()) + "_" + name)) {
    fs::create_directories(dir_);
  }
  ~CaseFiles() { fs::remove_all(dir_); }
  CaseFiles(const CaseFiles&) = delete;
  CaseFiles& operator=(const CaseFiles&) = delete;

  std::string write(const std::string& name, const std::string& text) const {
    const fs::path path = dir_ / name;
    std::ofstream(path) << text;
    return path.string();
  }

 private:
  fs::path dir_;
};

std::string jsonl(const json& rows) {
  std::ostringstream out;
  for (const json& row : rows) out << row.dump() << "\n";
  return out.str();
}

// The table's settings as `skip` takes them: --num-indexed-cols, --stats-columns, --partition-columns.
FileInputOptions table_options(const json& settings, const std::string& schema_file) {
  FileInputOptions options;
  options.schema_file = schema_file;
  if (settings.contains("numIndexedCols")) options.num_indexed_cols = settings["numIndexedCols"].get<std::string>();
  if (settings.contains("statsColumns")) options.stats_columns = settings["statsColumns"].get<std::string>();
  if (settings.contains("partitionColumns")) {
    options.partition_columns = settings["partitionColumns"].get<std::vector<std::string>>();
  }
  return options;
}

// The stats a writer recorded under the file's own settings (an older schema or numIndexedCols),
// as the add action carries them; `skip --rows --stats` then reads them under the table's.
std::string stats_written_with(const json& written_with, const json& table_schema, const json& rows,
                               const std::vector<std::string>& partition_columns) {
  const Schema schema = Schema::from_json(written_with.value("schema", table_schema));
  StatsConfig config;
  config.partition_columns = partition_columns;
  if (written_with.contains("numIndexedCols")) {
    config.num_indexed_cols = parse_num_indexed_cols(written_with["numIndexedCols"].get<std::string>());
  }
  std::vector<Row> typed;
  for (const json& row : rows) typed.push_back(row_from_json(row, schema));
  return stats_to_json(collect_stats(typed, schema, config), schema).dump();
}

// Whether some row can make the predicate TRUE: the model's evaluator decides; a predicate it
// cannot evaluate (rand()) may match.
bool some_row_may_match(const ExprPtr& predicate, const std::vector<Row>& rows) {
  return std::any_of(rows.begin(), rows.end(), [&](const Row& row) {
    try {
      return evaluate(*predicate, row) == Truth::True;
    } catch (const NotEvaluable&) {
      return true;
    }
  });
}

std::string file_label(const std::string& case_name, const std::string& sql, size_t file, size_t count) {
  std::string label = case_name + ": " + (sql.size() > 80 ? sql.substr(0, 77) + "..." : sql);
  if (count > 1) label += "  [file " + std::to_string(file + 1) + "]";
  return label;
}

class SuiteRun {
 public:
  explicit SuiteRun(Mutant mutant) : mutant_(mutant) {}

  SuiteTally run() {
    for (const fs::path& path : corpus_cases()) run_case(path.stem().string(), read_json(path));
    return std::move(tally_);
  }

 private:
  struct LoadedFile {
    LoadedFiles files;
    std::vector<Row> rows;
  };

  void run_case(const std::string& name, const json& c) {
    ++tally_.cases;
    const CaseFiles scratch(name);
    const json settings = c.value("settings", json::object());
    const FileInputOptions table = table_options(settings, scratch.write("schema.json", c["schema"].dump()));
    std::vector<LoadedFile> loaded;
    const std::vector<json> files = data_files(c);
    for (size_t i = 0; i < files.size(); ++i) {
      FileInputOptions options = table;
      options.rows_file = scratch.write("file" + std::to_string(i + 1) + ".jsonl", jsonl(files[i]["rows"]));
      if (files[i].contains("written_with")) {
        options.stats_json = stats_written_with(files[i]["written_with"], c["schema"], files[i]["rows"],
                                                table.partition_columns);
      }
      std::vector<std::string> warnings;
      LoadedFile file{load_files(options, warnings), {}};
      for (const json& row : files[i]["rows"]) file.rows.push_back(row_from_json(row, file.files.schema));
      loaded.push_back(std::move(file));
    }
    for (const json& predicate : c["predicates"]) run_predicate(name, predicate, loaded);
  }

  void run_predicate(const std::string& name, const json& predicate, const std::vector<LoadedFile>& files) {
    ++tally_.predicates;
    const std::string sql = predicate["sql"].get<std::string>();
    const bool marked = predicate.contains("needs");
    std::vector<ScanFileOutcome> outcomes;
    try {
      for (const LoadedFile& f : files) outcomes.push_back(skip_decisions(sql, f.files, mutant_).files.at(0));
    } catch (const InputError& e) {
      if (!marked) {
        tally_.errors.push_back(name + ": `" + sql + "` fails and is not marked \"needs\": " + e.what());
        return;
      }
      ++tally_.needs_grammar;
      tally_.grammar_pending.push_back(name + ": " + sql);
      for (size_t i = 0; i < files.size(); ++i) {
        if (delta_fate(predicate["delta"], i, files.size()) == DeltaFate::Skipped) ++tally_.needs_grammar_skips;
      }
      return;
    }
    if (marked) tally_.parses_now.push_back(name + ": " + sql);
    for (size_t i = 0; i < files.size(); ++i) {
      judge_file(name, sql, predicate["delta"], i, files, outcomes[i]);
    }
  }

  void judge_file(const std::string& name, const std::string& sql, const json& expected, size_t i,
                  const std::vector<LoadedFile>& files, const ScanFileOutcome& outcome) {
    ++tally_.decisions;
    const std::string label = file_label(name, sql, i, files.size());
    const bool skipped = outcome.verdict == FileVerdict::Skip;
    const bool may_match = some_row_may_match(parse_and_bind(sql, files[i].files.schema), files[i].rows);
    if (skipped && may_match) tally_.unsound.push_back(label);
    switch (delta_fate(expected, i, files.size())) {
      case DeltaFate::Skipped:
        ++tally_.delta_skips;
        if (skipped) ++tally_.skips_made;
        else tally_.missed.push_back(label + "  -- " + outcome.reason + "; expression: " + outcome.data.expression);
        break;
      case DeltaFate::Read:
        if (skipped && !may_match) {
          ++tally_.delta_reads_skipped;
          tally_.beyond_delta.push_back(label);
        }
        break;
      case DeltaFate::SomeFileRead: break;
    }
  }

  Mutant mutant_;
  SuiteTally tally_;
};

void print_list(const char* title, const std::vector<std::string>& items) {
  std::cout << title << " (" << items.size() << "):\n";
  for (const std::string& item : items) std::cout << "  " << item << "\n";
}

double skip_rate(const SuiteTally& t) { return t.delta_skips == 0 ? 1.0 : double(t.skips_made) / t.delta_skips; }

TEST(DeltaSkippingSuite, KeepsEveryMatchingFileAndMakesDeltasSkips) {
  const SuiteTally t = SuiteRun(Mutant::None).run();
  std::cout << "Delta skipping suite: " << t.cases << " cases, " << t.predicates << " predicates, "
            << t.decisions << " file decisions\n"
            << "files Delta skips: " << t.delta_skips << ", skipped by skipsound too: " << t.skips_made << " ("
            << 100.0 * skip_rate(t) << " %)\n"
            << "files Delta reads that skipsound skips (no row matches): " << t.delta_reads_skipped << "\n"
            << "predicates waiting for grammar: " << t.needs_grammar << " (files Delta skips under them: "
            << t.needs_grammar_skips << ")\n";
  print_list("Delta skips, skipsound keeps", t.missed);
  print_list("Delta reads, skipsound skips (no row matches)", t.beyond_delta);
  print_list("marked \"needs\": \"grammar\", not parsed yet", t.grammar_pending);
  print_list("marked \"needs\", but they parse now (drop the mark)", t.parses_now);
  EXPECT_TRUE(t.errors.empty()) << t.errors.size() << " bad corpus entries, first: " << t.errors.front();
  EXPECT_TRUE(t.parses_now.empty()) << t.parses_now.size() << " marked \"needs\" but parse, first: "
                                    << t.parses_now.front();
  EXPECT_TRUE(t.unsound.empty()) << t.unsound.size() << " files skipped although a row matches, first: "
                                 << t.unsound.front();
  EXPECT_GT(t.delta_skips, 0);
  EXPECT_GE(skip_rate(t), kRequiredSkipRate);
}

// The soundness check has teeth: under le-as-lt (c <= v read as min < v) the suite's own hits
// with a matching row are skipped, and the run reports them.
TEST(DeltaSkippingSuite, ReportsTheUnsoundSkipsOfAMutant) {
  const SuiteTally t = SuiteRun(Mutant::LeAsLt).run();
  EXPECT_FALSE(t.unsound.empty());
  const bool finds_a_le = std::any_of(t.unsound.begin(), t.unsound.end(), [](const std::string& s) {
    return s == "top-level-single-1: a <= 1";
  });
  EXPECT_TRUE(finds_a_le) << "first unsound skip found: " << (t.unsound.empty() ? "none" : t.unsound.front());
}

// Every case names the Delta test it comes from and says what Delta did with each predicate.
TEST(DeltaSkippingSuite, EveryCaseCarriesItsProvenanceAndExpectations) {
  const std::vector<fs::path> cases = corpus_cases();
  ASSERT_GE(cases.size(), 40u);
  for (const fs::path& path : cases) {
    const json c = read_json(path);
    SCOPED_TRACE(path.filename().string());
    EXPECT_FALSE(c.value("delta_test", std::string()).empty());
    ASSERT_TRUE(c.contains("predicates") && !c["predicates"].empty());
    const size_t count = data_files(c).size();
    for (const json& p : c["predicates"]) {
      const json& delta = p.at("delta");
      EXPECT_TRUE(delta == "hit" || delta == "miss" || (delta.is_array() && delta.size() == count)) << p.dump();
      EXPECT_EQ(p.value("needs", std::string("grammar")), "grammar") << p.dump();
    }
  }
}

}  // namespace
}  // namespace skipsound::cli
