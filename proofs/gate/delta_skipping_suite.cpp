#include "proofs/gate/delta_skipping_suite.h"

#include <algorithm>
#include <optional>

#include <nlohmann/json.hpp>

#include "checker/scan_filter.h"
#include "checker/stats_eligibility.h"
#include "model/mutants/fault_injection.h"
#include "model/sql/binder.h"
#include "model/sql/evaluator.h"
#include "model/sql/row.h"
#include "model/stats/stats.h"
#include "model/stats/stats_collection.h"
#include "model/values/input_error.h"
#include "proofs/common/parallel_trials.h"
#include "model/values/exact_json.h"
#include "model/values/input_limits.h"

namespace skipsound {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// What Delta did with file `index` of `count` under one predicate: "hit" reads some file (each
// one, when the table has one file), "miss" skips every file, a list names each file's fate.
enum class DeltaFate { Read, Skipped, SomeFileRead };

DeltaFate delta_fate(const json& expected, size_t index, size_t count) {
  if (expected.is_array()) return expected.at(index) == "skip" ? DeltaFate::Skipped : DeltaFate::Read;
  if (expected == "miss") return DeltaFate::Skipped;
  return count == 1 ? DeltaFate::Read : DeltaFate::SomeFileRead;
}

// A case's data files: "rows" is one file, "files" several (each with "rows", and "written_with"
// when its stats were written under other settings than the table's now).
std::vector<json> data_files(const json& c) {
  if (c.contains("files")) return c["files"].get<std::vector<json>>();
  return {json{{"rows", c["rows"]}}};
}

// The table's settings in Delta's syntax: numIndexedCols, statsColumns, partitionColumns.
StatsConfig config_of(const json& settings, const Schema& schema) {
  StatsConfig config;
  if (settings.contains("partitionColumns")) {
    config.partition_columns = settings["partitionColumns"].get<std::vector<std::string>>();
  }
  if (settings.contains("numIndexedCols")) {
    config.num_indexed_cols = parse_num_indexed_cols(settings["numIndexedCols"].get<std::string>());
  }
  if (settings.contains("statsColumns")) {
    config.stats_columns = parse_stats_columns(settings["statsColumns"].get<std::string>());
    check_stats_columns(schema, config);
  }
  return config;
}

std::vector<Row> typed_rows(const json& rows, const Schema& schema) {
  std::vector<Row> typed;
  for (const json& row : rows) typed.push_back(row_from_json(row, schema));
  return typed;
}

// The add action's stats as text, written under the settings the file was written with (an older
// schema or numIndexedCols), read back under the table's: the path a real log takes.
FileStats stats_through_text(const json& file, const json& table_schema, const StatsConfig& table_config,
                             const Schema& schema) {
  const json written_with = file.value("written_with", json::object());
  const Schema writer_schema = Schema::from_json(written_with.value("schema", table_schema));
  StatsConfig writer_config = table_config;
  if (written_with.contains("numIndexedCols")) {
    writer_config.num_indexed_cols = parse_num_indexed_cols(written_with["numIndexedCols"].get<std::string>());
  }
  const FileStats written = collect_stats(typed_rows(file["rows"], writer_schema), writer_schema, writer_config);
  return stats_from_json_text(dump_json(stats_to_json(written, writer_schema)), schema, StatsNaming::Logical);
}

// Whether some row makes the predicate TRUE: the model's evaluator decides; a predicate it cannot
// evaluate (rand()) may match.
bool some_row_may_match(const Expr& predicate, const std::vector<Row>& rows) {
  return std::any_of(rows.begin(), rows.end(), [&](const Row& row) {
    try {
      return evaluate(predicate, row) == Truth::True;
    } catch (const NotEvaluable&) {
      return true;
    }
  });
}

class CaseRun {
 public:
  CaseRun(std::string name, const json& c, Mutant mutant) : c_(c), mutant_(mutant) { result_.name = std::move(name); }

  // The case's writer, reader and filter all run under the suite's mutant.
  DeltaSuiteCase run() {
    const FaultScope fault(mutant_);
    const parallel::Stopwatch clock;
    try {
      load();
      for (const json& predicate : c_.at("predicates")) judge_predicate(predicate);
    } catch (const std::exception& e) {
      result_.errors.push_back({SuiteErrorKind::DoesNotLoad, "", e.what()});
    }
    result_.seconds = clock.seconds();
    return std::move(result_);
  }

 private:
  void load() {
    schema_ = Schema::from_json(c_.at("schema"));
    config_ = config_of(c_.value("settings", json::object()), schema_);
    exact_ = c_.value("exact", false);
    eligibility_.emplace(schema_, config_);
    const std::vector<json> files = data_files(c_);
    stats_.reserve(files.size());
    for (size_t i = 0; i < files.size(); ++i) {
      rows_.push_back(typed_rows(files[i].at("rows"), schema_));
      stats_.push_back(stats_through_text(files[i], c_.at("schema"), config_, schema_));
    }
    for (size_t i = 0; i < files.size(); ++i) {
      // A partitioned table's file holds one value of each partition column: its first row's.
      Row partition = config_.partition_columns.empty() || rows_[i].empty() ? Row{} : rows_[i].front();
      candidates_.push_back(CandidateFile{"file" + std::to_string(i + 1), &stats_[i], std::move(partition), 0});
    }
  }

  void judge_predicate(const json& predicate) {
    ++result_.predicates;
    const std::string sql = predicate.at("sql").get<std::string>();
    const bool marked = predicate.contains("needs");
    ExprPtr bound;
    try {
      bound = parse_and_bind(sql, schema_);
    } catch (const InputError& e) {
      if (!marked) {
        result_.errors.push_back({SuiteErrorKind::NotMarked, sql, e.what()});
        return;
      }
      ++result_.needs_grammar;
      result_.grammar_pending.push_back(sql);
      return;
    }
    if (marked) result_.errors.push_back({SuiteErrorKind::MarkedButParses, sql, ""});
    const ScanResult scan = filter_scan(bound, candidates_, *eligibility_);
    for (size_t i = 0; i < candidates_.size(); ++i) judge_file(sql, *bound, predicate.at("delta"), i, scan.files.at(i));
  }

  void judge_file(const std::string& sql, const Expr& bound, const json& expected, size_t i,
                  const ScanFileOutcome& outcome) {
    ++result_.decisions;
    const SuiteDecision what{sql, i, candidates_.size(), outcome.reason, outcome.data.expression};
    const bool skipped = outcome.verdict == FileVerdict::Skip;
    const bool may_match = some_row_may_match(bound, rows_[i]);
    if (skipped && may_match) result_.unsound.push_back(what);
    switch (delta_fate(expected, i, candidates_.size())) {
      case DeltaFate::Skipped:
        ++result_.delta_skips;
        if (skipped) ++result_.skips_made;
        else result_.missed.push_back(what);
        break;
      case DeltaFate::Read:
        if (skipped && !may_match) result_.beyond_delta.push_back(what);
        if (skipped && exact_) result_.extra.push_back(what);
        break;
      case DeltaFate::SomeFileRead: break;
    }
  }

  const json& c_;
  Mutant mutant_;
  bool exact_ = false;  // "exact": true
  DeltaSuiteCase result_;
  Schema schema_;
  StatsConfig config_;
  std::optional<StatsEligibility> eligibility_;  // refers to schema_: built once both are set
  std::vector<std::vector<Row>> rows_;
  std::vector<FileStats> stats_;  // reserved up front: candidates point into it
  std::vector<CandidateFile> candidates_;
};

// "`sql`", cut to 80 characters, with the file's number when the case has several.
std::string label(const SuiteDecision& d) {
  std::string text = "`" + (d.sql.size() > 80 ? d.sql.substr(0, 77) + "..." : d.sql) + "`";
  if (d.files > 1) text += " [file " + std::to_string(d.file + 1) + "]";
  return text;
}

}  // namespace

std::string unsound_text(const SuiteDecision& d) { return label(d) + ": skipped, although a row makes it TRUE"; }

std::string missed_text(const SuiteDecision& d) {
  return label(d) + ": Delta skips the file, the checker keeps it (" + d.reason + "; skipping expression: " +
         d.expression + ")";
}

std::string beyond_delta_text(const SuiteDecision& d) { return label(d); }

std::string extra_text(const SuiteDecision& d) {
  return label(d) + ": Delta reads the file, the checker skips it (skipping expression: " + d.expression + ")";
}

std::string error_text(const SuiteError& e) {
  switch (e.kind) {
    case SuiteErrorKind::DoesNotLoad: return "the case does not load: " + e.detail;
    case SuiteErrorKind::NotMarked: return "`" + e.sql + "` fails and is not marked \"needs\": " + e.detail;
    case SuiteErrorKind::MarkedButParses: return "`" + e.sql + "` is marked \"needs\" but parses: drop the mark";
  }
  return e.detail;
}

std::vector<DeltaSuiteCase> run_delta_skipping_suite(const fs::path& dir, Mutant mutant) {
  if (!fs::is_directory(dir)) throw InputError("Delta skipping suite directory not found: " + dir.string());
  std::vector<fs::path> paths;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() == ".json") paths.push_back(entry.path());
  }
  std::sort(paths.begin(), paths.end());
  std::vector<DeltaSuiteCase> cases;
  for (const fs::path& path : paths) {
    json c;
    try {
      c = parse_json_exact(read_bounded_file(path));  // rows keep every digit, as every reader's do
    } catch (const json::exception& e) {
      DeltaSuiteCase bad;
      bad.name = path.stem().string();
      bad.errors.push_back({SuiteErrorKind::DoesNotLoad, "", std::string("bad JSON: ") + e.what()});
      cases.push_back(std::move(bad));
      continue;
    }
    cases.push_back(CaseRun(path.stem().string(), c, mutant).run());
  }
  return cases;
}

}  // namespace skipsound
