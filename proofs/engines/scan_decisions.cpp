#include "proofs/engines/scan_decisions.h"

#include <set>

#include <rapidcheck.h>

#include "checker/candidate_file.h"
#include "checker/scan_filter.h"
#include "checker/stats_eligibility.h"
#include "generators/combinators.h"
#include "generators/predicate_gen.h"
#include "model/sql/evaluator.h"
#include "model/sql/printer.h"
#include "model/stats/stats_collection.h"
#include "smt/oracle.h"

namespace skipsound::engines {

namespace {

using nlohmann::json;

constexpr int kPredicateSize = 60;  // depth up to 2 (generators/predicate_gen.h)

FileEvidence evidence_of(const LiveFile& f, const Schema& schema, const StatsConfig& config) {
  FileEvidence e;
  e.stats = f.stats ? &*f.stats : nullptr;
  e.dv_cardinality = f.dv_cardinality();
  e.string_prefix_length = config.string_prefix_length;
  for (const Leaf& leaf : schema.leaves()) {
    const auto it = f.partition_values.find(leaf.path.back());
    if (leaf.path.size() == 1 && it != f.partition_values.end()) e.partition_values[leaf.ordinal] = it->second;
  }
  return e;
}

// Whether a row of the file makes the predicate TRUE; a predicate the evaluator cannot decide on
// rows (rand(), ...) decides nothing here, and the oracle alone judges the skip.
bool any_row_matches(const Expr& predicate, const std::vector<Row>& rows) {
  try {
    for (const Row& r : rows) {
      if (evaluate(predicate, r) == Truth::True) return true;
    }
  } catch (const NotEvaluable&) {
  }
  return false;
}

class TableJudge {
 public:
  TableJudge(const DeltaTable& log, const std::map<std::string, std::vector<Row>>& rows, const std::string& table,
             ScanDecisions& out)
      : log_(log), rows_(rows), table_(table), out_(out), eligibility_(log.metadata.schema, log.stats_config) {
    for (const LiveFile& f : log.files) {
      candidates_.push_back({f.add.path, f.stats ? &*f.stats : nullptr,
                             partition_row(f.partition_values, log.metadata.schema), f.dv_cardinality()});
    }
  }

  void judge(const SparkScanPredicate& p, const json& answer) {
    ScanFormTally& tally = out_.forms[p.form];
    if (!answer.is_object() || !answer.contains("kept")) {
      ++tally.refused;
      return;
    }
    std::set<std::string> kept;
    for (const json& path : answer["kept"]) kept.insert(path.get<std::string>());
    const ScanResult mine = filter_scan(p.predicate, candidates_, eligibility_);
    for (size_t i = 0; i < log_.files.size(); ++i) {
      const LiveFile& f = log_.files[i];
      const bool engine_keeps = kept.count(f.add.path) > 0;
      const bool skipsound_keeps = mine.files[i].verdict == FileVerdict::Keep;
      ++tally.pairs;
      if (engine_keeps == skipsound_keeps) ++tally.agree;
      if (!engine_keeps) judge_engine_skip(p, f, skipsound_keeps, tally);
      if (!skipsound_keeps && engine_keeps) judge_own_skip(p, f, tally);
    }
  }

 private:
  std::string where(const SparkScanPredicate& p, const LiveFile& f) const {
    return table_ + " " + f.add.path + " [" + p.form + "] WHERE " + p.sql + " (stats " + f.add.stats.value_or("none") +
           ")";
  }

  bool proved(const SparkScanPredicate& p, const LiveFile& f) {
    const FileEvidence e = evidence_of(f, log_.metadata.schema, log_.stats_config);
    return smt::verdict_of(oracle_.check(p.predicate, log_.metadata.schema, e)) == smt::OracleVerdict::Unsat;
  }

  void judge_engine_skip(const SparkScanPredicate& p, const LiveFile& f, bool skipsound_keeps, ScanFormTally& tally) {
    ++tally.engine_skips;
    const auto rows = rows_.find(f.add.path);
    if (rows != rows_.end() && any_row_matches(*p.predicate, rows->second)) {
      ++tally.engine_unsound;
      out_.findings.push_back("ENGINE UNSOUND SKIP " + where(p, f));
    }
    if (!proved(p, f)) ++tally.engine_unproved;
    if (skipsound_keeps) {
      ++tally.lost_skips;
      out_.lost_skips.push_back("LOST SKIP " + where(p, f));
    }
  }

  void judge_own_skip(const SparkScanPredicate& p, const LiveFile& f, ScanFormTally& tally) {
    if (proved(p, f)) {
      ++tally.beyond_proved;
    } else {
      ++tally.beyond_unproved;
      out_.findings.push_back("SKIPSOUND SKIP NOT PROVED " + where(p, f));
    }
  }

  const DeltaTable& log_;
  const std::map<std::string, std::vector<Row>>& rows_;
  const std::string& table_;
  ScanDecisions& out_;
  StatsEligibility eligibility_;
  std::vector<CandidateFile> candidates_;
  smt::Oracle oracle_;
};

}  // namespace

std::vector<SparkScanPredicate> spark_scan_predicates(const Schema& schema, const StatsConfig& config,
                                           const std::vector<std::vector<Row>>& files, uint64_t seed, size_t count) {
  const generators::TableShape shape{schema, config};
  std::vector<generators::GeneratedFile> generated;
  for (const std::vector<Row>& rows : files) {
    generators::GeneratedFile g;
    g.rows = rows;
    g.deleted.assign(rows.size(), false);
    g.stats = collect_stats(rows, schema, config);
    generated.push_back(std::move(g));
  }
  const rc::Gen<std::vector<ExprPtr>> gen = rc::gen::exec([&] {
    std::vector<ExprPtr> out;
    for (size_t i = 0; i < count; ++i) {
      const size_t file = *generators::uniform_in<size_t>(0, generated.size());
      out.push_back(*generators::predicate_for(shape, generated[file]));
    }
    return out;
  });
  std::vector<SparkScanPredicate> out;
  for (ExprPtr& e : gen(rc::Random(seed), kPredicateSize).value()) {
    const std::string form = generators::predicate_form(*e);
    const std::string sql = to_sql(e, SqlDialect::Spark);
    out.push_back({std::move(e), sql, form});
  }
  return out;
}

void judge_scan_decisions(const DeltaTable& log, const std::map<std::string, std::vector<Row>>& rows,
                          const std::vector<SparkScanPredicate>& predicates, const json& scans, const std::string& table,
                          ScanDecisions& out) {
  TableJudge judge(log, rows, table, out);
  for (size_t i = 0; i < predicates.size(); ++i) {
    judge.judge(predicates[i], scans.is_array() && i < scans.size() ? scans[i] : json());
  }
}

}  // namespace skipsound::engines
