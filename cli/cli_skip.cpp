// `skipsound skip`: the production skipping decision for each file, with its explanation — the
// skipping expression, what each part evaluated to, and stats verification (docs/semantics.md §5.4).
#include <iostream>
#include <memory>

#include <nlohmann/json.hpp>

#include "checker/scan_filter.h"
#include "model/mutants/fault_injection.h"
#include "model/sql/binder.h"
#include "model/sql/printer.h"
#include "cli/cli.h"
#include "proofs/common/decision_text.h"
#include "cli/file_inputs.h"
#include "cli/skip_command.h"
#include "model/values/exact_json.h"

namespace skipsound::cli {

namespace {

constexpr const char* kSkipHelp =
    "decide KEEP or SKIP for each file under a read predicate, and say why: the skipping "
    "expression, each part's value and stats verification. Files come from --stats (one file's "
    "Delta stats JSON), --rows (a JSONL file written as one file: stats collected as a writer "
    "would) or --table (every live file of a Delta table). Partition filters are applied only "
    "where files have partition values: with --table, and with --rows and --partition-columns.";

struct SkipArguments {
  std::string predicate;
  FileInputOptions inputs;
  std::string mutant = "none";
  bool json = false;
};

std::string skipping_text(const ScanResult& result, const Schema& schema) {
  return result.skipping ? to_string(result.skipping->expr, schema) : "none";
}

void print_text(std::ostream& out, const ScanResult& result, const LoadedFiles& files) {
  for (const ExprPtr& d : result.filters.dropped) out << "dropped filter: " << to_sql(d) << "\n";
  for (const ExprPtr& p : result.filters.read.partition_filters) {
    out << "partition filter: " << to_sql(p)
        << (files.have_partition_values ? "" : "  (not applied: no partition values)") << "\n";
  }
  out << "skipping expression: " << skipping_text(result, files.schema) << "\n";
  for (const ScanFileOutcome& f : result.files) {
    out << verdict_name(f.verdict) << "  " << f.path << "\n    " << f.reason << "\n";
    if (f.data.evaluation) print_skip_trace(out, *f.data.evaluation);
    out << "    verification: " << verification_text(f.data.verification, files.schema) << "\n";
  }
}

nlohmann::json result_json(const ScanResult& result, const LoadedFiles& files, const std::string& predicate) {
  nlohmann::json j{{"predicate", predicate},
                   {"expression", skipping_text(result, files.schema)},
                   {"files", nlohmann::json::array()}};
  for (const ScanFileOutcome& f : result.files) {
    nlohmann::json file{{"path", f.path},
                        {"verdict", verdict_name(f.verdict)},
                        {"reason", f.reason},
                        {"verification", verification_text(f.data.verification, files.schema)}};
    if (files.have_partition_values) {
      file["partition"] = f.partition == PartitionMatch::Match ? "match" : "no match";
    }
    if (f.data.evaluation) file["evaluation"] = skip_trace_json(*f.data.evaluation);
    j["files"].push_back(file);
  }
  return j;
}

}  // namespace

ScanResult skip_decisions(const std::string& predicate_sql, const LoadedFiles& files, Mutant mutant) {
  const ExprPtr predicate = parse_and_bind(predicate_sql, files.schema);
  const StatsEligibility eligibility(files.schema, files.config);
  const FaultScope fault(mutant);
  ScanResult result = filter_scan(predicate, files.candidates, eligibility);
  if (!files.have_partition_values) {
    for (ScanFileOutcome& f : result.files) {  // no partition values: data skipping decides
      f.verdict = f.data.verdict;
      f.reason = f.data.reason;
    }
  }
  return result;
}

namespace {

void run_skip(const SkipArguments& args) {
  const Mutant mutant = mutant_from_option(args.mutant);
  std::vector<std::string> warnings;
  LoadedFiles files = load_files(args.inputs, warnings);
  for (const std::string& w : warnings) std::cerr << "warning: " << w << "\n";
  const ScanResult result = skip_decisions(args.predicate, files, mutant);
  if (args.json) {
    std::cout << dump_json(result_json(result, files, args.predicate), 2) << "\n";
  } else {
    print_text(std::cout, result, files);
  }
}

}  // namespace

void add_skip_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<SkipArguments>();
  auto* command = app.add_subcommand("skip", kSkipHelp);
  command->add_option("predicate", args->predicate, "the read predicate (Spark SQL)")->required();
  add_file_input_options(*command, args->inputs);
  command->add_option("--mutant", args->mutant, "a mutant of the skipping logic (docs/semantics.md §8)");
  command->add_flag("--json", args->json, "print the decisions as JSON");
  command->callback([args, &exit_code] {
    run_skip(*args);
    exit_code = kExitOk;
  });
}

}  // namespace skipsound::cli
