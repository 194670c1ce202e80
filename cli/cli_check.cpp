// `skipsound check`: every file's KEEP/SKIP decision judged by the Z3 oracle (docs/semantics.md §6.1).
//
// skipsound's own decisions:
//   skipsound check PREDICATE (--schema S.json (--stats JSON | --rows F.jsonl) | --table DIR
//                   [--version N]) [--mutant NAME] [--json] [--rlimit N] [--timeout-ms MS] [--smt-dump DIR]
//                   [--cross-check cvc5|none]
// Another implementation's decisions:
//   skipsound check --decisions FILE.jsonl [--string-prefix-length N] [--json] [--rlimit N]
//                   [--timeout-ms MS] [--smt-dump DIR]
//
// Each file gets one line: `SKIP, proved (reason…)`, `KEEP (a row may match: {…})`,
// `KEEP, missed skip (no row can match: …)`, `UNSOUND SKIP (witness row {…})` followed by an
// Alive2-style report, `UNKNOWN (reason)` (never a licence to skip), or `IMPOSSIBLE STATS (…)`
// when no writer with the string prefix length N (default 32) stores the file's stats: no file
// holds them, so a skip is not unsound and a keep is no missed skip; the line names the stat; or
// `DECODE (…)` when the oracle's own reading of the stats text differs from the production
// reader's (docs/semantics.md §6.7): Z3 judges the oracle's reading, the line says both. A
// witness that depends on a non-deterministic call says what the call returned (`with rand() #1
// = 0.25`). A summary line ends the output. Exit status: 1 when any skip is unsound (or the
// oracle disagrees with itself, or a stat decodes differently), 2 on bad input, 3 on an internal
// error, else 0 — impossible stats included.
// A bad line of a decisions file is reported on stderr as "FILE:LINE: message" and not judged;
// the other lines are, and the run then exits 2 (their findings are in the report).
//
// Decisions file (--decisions): JSON Lines, one decision per line; blank lines are ignored.
//   "predicate"   string, required: the read predicate (Spark SQL).
//   "decision"    "kept" | "skipped", required: what the judged implementation did.
//   The file, in one of two forms:
//   - inline: "schema"  the table's Spark StructType JSON (object, or a string holding it);
//             "stats"   the file's Delta stats JSON (a string as in an add action, or an object);
//             "deletedRows"  optional: rows removed by the file's deletion vector (default 0).
//   - live file of a Delta table: "table"  the table directory (relative paths are resolved
//             against the decisions file's folder); "path"  the add action's path; "version"
//             optional (default: latest). Schema, partition values, deletion vector and stats come
//             from the table; an optional "stats" replaces the recorded stats.
//   "file"        optional: the name used in reports (default: the path, else "line N").
// Example:
//   {"predicate":"x > 30","schema":{"type":"struct","fields":[{"name":"x","type":"long",
//    "nullable":true,"metadata":{}}]},"stats":"{\"numRecords\":3,\"minValues\":{\"x\":1},
//    \"maxValues\":{\"x\":20},\"nullCount\":{\"x\":0}}","decision":"skipped"}
// Errors name the decisions file and line: "decisions.jsonl:3: missing \"decision\"". Numbers are
// read exactly as written (model/values/exact_json.h): a decimal stat keeps all its digits.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

#include "checker/scan_filter.h"
#include "model/mutants/fault_injection.h"
#include "model/sql/binder.h"
#include "model/values/input_error.h"
#include "cli/check_command.h"
#include "cli/cli.h"
#include "proofs/oracles/cross_check.h"
#include "cli/external_decisions.h"
#include "proofs/perfile/skip_judgement.h"
#include "smt/oracle.h"
#include "smt/oracle_stats_reader.h"
#include "model/values/exact_json.h"

namespace skipsound::cli {

namespace {

constexpr const char* kCheckHelp =
    "judge each file's KEEP/SKIP decision with the Z3 oracle: a skip is sound only when no row "
    "consistent with the file's stats can make the predicate TRUE. Judges skipsound's own "
    "decisions (same inputs as `skip`) or, with --decisions, another implementation's. Exits 1 "
    "on an unsound skip, 2 on bad input, 3 on an internal error.";

smt::OracleOptions with_smt2(smt::OracleOptions options, bool record) {
  options.record_smt2 = record;
  return options;
}

// The oracle, writing each query to the dump folder and re-asking it in the cross-check solver
// when asked.
class DumpingOracle {
 public:
  DumpingOracle(const CheckArguments& args)
      : oracle_(with_smt2(args.oracle, !args.smt_dump_dir.empty() || args.cross_check)), dump_dir_(args.smt_dump_dir) {
    if (!dump_dir_.empty()) std::filesystem::create_directories(dump_dir_);
    if (args.cross_check) cross_check_.emplace(*args.cross_check, args.smt_dump_dir);
  }

  smt::OracleResult check(const ExprPtr& predicate, const Schema& schema, const FileEvidence& file,
                          const std::string& name) {
    smt::OracleResult result = oracle_.check(predicate, schema, file);
    if (!dump_dir_.empty()) dump(name);
    if (cross_check_) cross_check_->check(oracle_.last_smt2(), smt::verdict_of(result), name);
    return result;
  }

  // Asks what is still queued in the second solver.
  std::optional<CrossCheckTally> finish_cross_check() {
    return cross_check_ ? std::optional(cross_check_->finish()) : std::nullopt;
  }

 private:
  void dump(const std::string& name) {
    std::string stem = std::to_string(++queries_) + "-" + name;
    for (char& c : stem)
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '.') c = '_';
    const std::filesystem::path path = std::filesystem::path(dump_dir_) / (stem.substr(0, 100) + ".smt2");
    std::ofstream out(path, std::ios::binary);
    out << oracle_.last_smt2();
    if (!out) throw InputError("cannot write " + path.string());
  }

  smt::Oracle oracle_;
  std::string dump_dir_;
  int queries_ = 0;
  std::optional<CrossChecker> cross_check_;
};

struct Report {
  std::ostream& out;
  bool json;
  JudgementTally tally;
  nlohmann::json files = nlohmann::json::array();
  nlohmann::json bad_lines = nlohmann::json::array();

  void add(const JudgedFile& file) {
    tally.add(file.judgement);
    if (json) files.push_back(judged_file_json(file));
    else print_judged_file(out, file);
  }

  void add_bad_line(const BadDecisionLine& bad) {
    bad_lines.push_back({{"line", bad.line}, {"error", bad.error.what()}});
  }

  int finish(DumpingOracle& oracle) {
    const std::optional<CrossCheckTally> cross_check = oracle.finish_cross_check();
    if (json) {
      nlohmann::json j{{"files", files}, {"summary", tally.json()}};
      if (!bad_lines.empty()) j["badLines"] = bad_lines;
      if (cross_check) j["crossCheck"] = cross_check->json();
      out << dump_json(j, 2) << "\n";
    } else {
      out << tally.summary_line();
      if (!bad_lines.empty())
        out << "; " << bad_lines.size() << (bad_lines.size() == 1 ? " bad line" : " bad lines") << " not judged";
      out << "\n";
      if (cross_check) cross_check->print(out);
    }
    // Lines left unjudged make the input bad, whatever the judged ones found (the report shows it).
    if (!bad_lines.empty()) return kExitUsage;
    const bool disagreed = cross_check && cross_check->disagreements > 0;
    return tally.has_finding() || disagreed ? kExitFinding : kExitOk;
  }
};

// skipsound's production decisions for every candidate of `files` (docs/semantics.md §5.6): partition filters
// decide only where files carry partition values; data skipping decides the rest.
ScanResult production_decisions(const ExprPtr& predicate, const LoadedFiles& files, Mutant mutant) {
  const StatsEligibility eligibility(files.schema, files.config);
  const FaultScope fault(mutant);
  ScanResult scan = filter_scan(predicate, files.candidates, eligibility);
  for (ScanFileOutcome& f : scan.files) {
    if (files.have_partition_values) f.data.reason = f.reason;
    else f.verdict = f.data.verdict;
  }
  return scan;
}

std::string decider_name(Mutant mutant) {
  return mutant == Mutant::None ? "skipsound" : std::string("skipsound (mutant ") + mutant_name(mutant) + ")";
}

// Judges candidate i of `files` on the stats as the oracle's own reader reads their text
// (docs/semantics.md §6.7); where the production reader read a stat differently, the file is a
// DECODE finding, whatever Z3 says.
void judge_candidate(JudgedFile& judged, DumpingOracle& oracle, const ExprPtr& predicate, const LoadedFiles& files,
                     size_t i) {
  const CandidateFile& candidate = files.candidates[i];
  FileEvidence evidence = evidence_of(candidate, files);
  std::optional<smt::OracleStatsRead> own;
  if (candidate.stats && files.stats_texts[i]) {
    own = smt::read_stats_for_oracle(files.stats_texts[i]->text, files.schema, files.stats_texts[i]->naming,
                                     *candidate.stats);
    evidence.stats = &own->stats;
    judged.decode = own->differences;
  }
  judged.oracle = oracle.check(predicate, files.schema, evidence, candidate.path);
  judged.judgement = judge(judged.decision, judged.oracle, judged.decode);
}

int check_own_decisions(const CheckArguments& args, Report& report, std::ostream& err) {
  if (args.predicate.empty()) throw InputError("a predicate is required unless --decisions is given");
  const Mutant mutant = mutant_from_option(args.mutant);
  std::vector<std::string> warnings;
  const LoadedFiles files = load_files(args.inputs, warnings, mutant);
  for (const std::string& w : warnings) err << "warning: " << w << "\n";
  const ExprPtr predicate = parse_and_bind(args.predicate, files.schema);
  const ScanResult scan = production_decisions(predicate, files, mutant);
  DumpingOracle oracle(args);
  for (size_t i = 0; i < files.candidates.size(); ++i) {
    const CandidateFile& candidate = files.candidates[i];
    JudgedFile judged{candidate.path, args.predicate, &files.schema, candidate.stats,
                      scan.files[i].verdict, decider_name(mutant), scan.files[i].data, {}, Judgement::Unknown, {}};
    judge_candidate(judged, oracle, predicate, files, i);
    report.add(judged);
  }
  return report.finish(oracle);
}

// Each bad line is reported where it is and left unjudged; the others are still judged.
int check_external_decisions(const CheckArguments& args, Report& report, std::ostream& err) {
  if (!args.predicate.empty()) throw InputError("--decisions carries its own predicates: give no predicate");
  ExternalDecisions read = read_external_decisions(args.decisions_file);
  for (const BadDecisionLine& bad : read.bad_lines) {
    err << bad.error.render() << "\n";
    report.add_bad_line(bad);
  }
  DumpingOracle oracle(args);
  for (ExternalDecision& d : read.decisions) {
    // The judged engine wrote the stats with the prefix length the command names (docs/semantics.md §4.4).
    if (args.inputs.string_prefix_length) d.file.config.string_prefix_length = *args.inputs.string_prefix_length;
    const CandidateFile& candidate = d.file.candidates.front();
    // skipsound's own decision on the same file, shown next to the judged one.
    const ScanResult own = production_decisions(d.bound, d.file, Mutant::None);
    JudgedFile judged{d.name, d.predicate, &d.file.schema, candidate.stats, d.decision,
                      "the judged engine (line " + std::to_string(d.line) + ")", own.files.front().data, {},
                      Judgement::Unknown, {}};
    judge_candidate(judged, oracle, d.bound, d.file, 0);
    report.add(judged);
  }
  return report.finish(oracle);
}

}  // namespace

int run_check(const CheckArguments& args, std::ostream& out, std::ostream& err) {
  Report report{out, args.json, {}};
  if (!args.decisions_file.empty()) return check_external_decisions(args, report, err);
  return check_own_decisions(args, report, err);
}

void add_check_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<CheckArguments>();
  auto* command = app.add_subcommand("check", kCheckHelp);
  command->add_option("predicate", args->predicate, "the read predicate (Spark SQL)");
  add_file_input_options(*command, args->inputs);
  command->add_option("--decisions", args->decisions_file,
                      "another implementation's decisions, JSON Lines (format: docs/cli.md, 'Decision files')");
  command->add_option("--mutant", args->mutant, "a mutant of skipsound's skipping logic (docs/semantics.md §8)");
  command->add_flag("--json", args->json, "print the judgements as JSON");
  command->add_option("--rlimit", args->oracle.limits.resource_limit,
                      "Z3 resource limit per query: a deterministic budget (default 2000000)");
  command->add_option("--timeout-ms", args->oracle.limits.timeout_ms, "wall-clock ceiling per query (default: none; the resource limit bounds a query)");
  command->add_option("--smt-dump", args->smt_dump_dir, "write each query to this folder as SMT-LIB 2");
  auto cross_check = std::make_shared<std::string>("none");
  command->add_option("--cross-check", *cross_check,
                      "re-ask every sat/unsat answer in a second solver: cvc5 or none (default); a "
                      "disagreement exits 1 with the query written to --smt-dump's folder or a temporary one");
  command->callback([args, cross_check, &exit_code] {
    args->cross_check = cross_check_solver(*cross_check);
    exit_code = run_check(*args, std::cout, std::cerr);
  });
}

}  // namespace skipsound::cli
