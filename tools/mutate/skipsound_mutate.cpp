// skipsound-mutate: mutation testing of the code under test (docs/mutation.md). Every mutation of
// the files (tools/mutate/mutations.h) is compiled once, as a run-time choice in a scratch copy
// (tools/mutate/schema_build.h); a time-boxed gate judges each mutant in its own process. A
// mutation a schema cannot express is written into the source tree and skipsound rebuilt
// incrementally in a separate build folder. The report (tools/mutate/mutation_report.h) is
// rewritten every few seconds and at the end; the journal keeps every mutant as it is judged. Exit 0 when every survivor is triaged equivalent, 1 when one is not, 2 on bad usage,
// 3 when the unmutated code does not build or does not pass the gate.
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <thread>

#include <nlohmann/json.hpp>

#include "tools/mutate/baseline_record.h"
#include "tools/mutate/campaign_journal.h"
#include "tools/mutate/mutant_run.h"
#include "tools/mutate/mutation_plan.h"
#include "tools/mutate/mutation_report.h"
#include "tools/mutate/phase_blame.h"
#include "tools/mutate/schema_build.h"

namespace skipsound::mutation {

namespace {

// Seconds between two renderings of the report while mutants run (a whole scope's takes a while).
constexpr double kReportInterval = 5;

constexpr int kExitOk = 0, kExitSurvivor = 1, kExitUsage = 2, kExitInternal = 3;

// A mutant costs about a minute on two loaded cores with these: 120 per-file cases and 60 trials
// per explorer category, the corpus, each phase stopping at its first finding and the gate at the
// first phase with one. Left out: the rule proofs, the bounded exhaustive cross-check and the
// second solver, which judge the oracles rather than the code under test (docs/mutation.md).
constexpr const char* kDefaultGateArguments =
    "gate --fail-fast=gate --budget 60 --mutant none --cross-check none --skip-proofs --exhaustive 0";

constexpr const char* kUsage = R"(usage: skipsound-mutate [options] FILE-OR-GLOB...

Compiles every mutation of the named sources (globs relative to --source-root, e.g.
'checker/*.cpp') once as mutant schemata in a scratch copy, then runs skipsound's gate once per
mutant; a mutation a schema cannot express is rebuilt on its own in --build-dir.

  --source-root DIR    the repository (default: .)
  --build-dir DIR      a configured build folder used only for mutation runs (default: build/mutation)
  --schema-dir DIR     the schema build's scratch copy (default: BUILD-DIR/mutation-schema)
  --target NAME        the target to rebuild (default: skipsound)
  --gate-args 'ARGS'   the gate's arguments (default: ')" "%GATE%" R"(')
  --timeout S          seconds a mutant's gate may take (default: 3 x the unmutated gate + 30)
  --build-timeout S    seconds a rebuild may take (default: 900)
  --operators A,B      only these operators: relational, constant, negate-condition, condition-true,
                       condition-false, logical, return-constant, delete-statement (default: all)
  --line-range A-B     only mutations on lines A..B of the files
  --shard I/N          only mutation i of the enumeration with i mod N == I
  --seed N             the order mutants run in, and the sample --sample draws (default: 1)
  --max-mutants N      run at most N
  --sample N           a uniform sample of N mutants; the report gives the score's 95 % interval
  --changed-since REF  only mutations on lines that differ from git revision REF
  --time-limit S       start no mutant after S seconds; the report is rendered as usual
  --jobs N             judge N mutants at once, each gate in its own process (default: 1)
  --whole-gates        run every mutant through the whole gate, not only the phases that reach it
  --resume             continue the run whose journal is in the report folder: its mutants are
                       done, the rest of the plan runs (same files and options)
  --report-dir DIR     where mutation-report.md and .json go (default: BUILD-DIR/reports)
  --triage FILE        survivors' triage (default: tools/mutate/triage.json when present)
  --list               print the planned mutants and stop
  --report-from FILE   render a run's mutation-report.json again (with the current triage) and stop;
                       repeated, merge the runs (shards, slices) into one report
  --survivors-of FILE  only the mutants that survived the run of this mutation-report.json (to
                       judge them again with a larger gate budget)
  --not-run-in FILE    leave out the mutants this mutation-report.json ran (repeatable: a later run
                       covers the rest of the files; merge the reports with --report-from)
)";

struct Arguments {
  std::string source_root = ".";
  std::string build_dir = "build/mutation";
  std::string schema_dir;  // empty: <build_dir>/mutation-schema
  std::string target = "skipsound";
  std::string gate_arguments = kDefaultGateArguments;
  std::optional<double> timeout;
  double build_timeout = 900;
  PlanOptions plan;
  std::optional<double> time_limit;
  std::string report_dir;  // empty: <build_dir>/reports, out of the source tree
  std::string triage;
  std::vector<std::string> report_from;
  std::string changed_since;
  bool resume = false;
  std::string survivors_of;
  std::vector<std::string> not_run_in;
  bool list = false;
  bool sampled = false;
  size_t jobs = 1;
  bool phase_blame = true;  // off: --whole-gates
  std::vector<std::string> patterns;
  std::string command;  // as typed, for the report
};

struct UsageError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

double parse_number(const std::string& option, const std::string& text) {
  try {
    size_t used = 0;
    const double value = std::stod(text, &used);
    if (used == text.size() && value >= 0) return value;
  } catch (const std::logic_error&) {
  }
  throw UsageError(option + " takes a non-negative number, got '" + text + "'");
}

size_t parse_count(const std::string& option, const std::string& text) {
  const double value = parse_number(option, text);
  if (value != static_cast<double>(static_cast<size_t>(value))) throw UsageError(option + " takes a whole number, got '" + text + "'");
  return static_cast<size_t>(value);
}

std::pair<size_t, size_t> parse_pair(const std::string& option, const std::string& text, char separator) {
  const size_t at = text.find(separator);
  if (at == std::string::npos) throw UsageError(option + " takes A" + separator + "B, got '" + text + "'");
  return {parse_count(option, text.substr(0, at)), parse_count(option, text.substr(at + 1))};
}

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(text);
  while (std::getline(in, part, separator)) {
    if (!part.empty()) parts.push_back(part);
  }
  return parts;
}

std::vector<std::string> split_words(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> words;
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

Arguments parse_arguments(int argc, char** argv) {
  Arguments a;
  a.command = "skipsound-mutate";
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    a.command += " " + (arg.find(' ') == std::string::npos ? arg : "'" + arg + "'");
    if (arg == "--help" || arg == "-h") throw UsageError("");
    if (arg == "--list" || arg == "--resume") {
      (arg == "--list" ? a.list : a.resume) = true;
      continue;
    }
    if (arg == "--whole-gates") {
      a.phase_blame = false;
      continue;
    }
    if (arg.rfind("--", 0) != 0) {
      a.patterns.push_back(arg);
      continue;
    }
    if (i + 1 >= argc) throw UsageError(arg + " needs a value");
    const std::string value = argv[++i];
    a.command += " " + (value.find(' ') == std::string::npos ? value : "'" + value + "'");
    if (arg == "--source-root") a.source_root = value;
    else if (arg == "--build-dir") a.build_dir = value;
    else if (arg == "--schema-dir") a.schema_dir = value;
    else if (arg == "--target") a.target = value;
    else if (arg == "--gate-args") a.gate_arguments = value;
    else if (arg == "--timeout") a.timeout = parse_number(arg, value);
    else if (arg == "--build-timeout") a.build_timeout = parse_number(arg, value);
    else if (arg == "--seed") a.plan.seed = parse_count(arg, value);
    else if (arg == "--max-mutants") a.plan.max_mutants = parse_count(arg, value);
    else if (arg == "--time-limit") a.time_limit = parse_number(arg, value);
    else if (arg == "--jobs") {
      a.jobs = parse_count(arg, value);
      if (a.jobs == 0) throw UsageError("--jobs takes at least 1, got '" + value + "'");
    }
    else if (arg == "--report-dir") a.report_dir = value;
    else if (arg == "--triage") a.triage = value;
    else if (arg == "--report-from") a.report_from.push_back(value);
    else if (arg == "--changed-since") a.changed_since = value;
    else if (arg == "--sample") {
      a.plan.max_mutants = parse_count(arg, value);
      a.sampled = true;
    }
    else if (arg == "--survivors-of") a.survivors_of = value;
    else if (arg == "--not-run-in") a.not_run_in.push_back(value);
    else if (arg == "--line-range") {
      a.plan.lines = parse_pair(arg, value, '-');
      if (a.plan.lines->first > a.plan.lines->second) throw UsageError("--line-range A-B needs A <= B, got '" + value + "'");
    } else if (arg == "--shard") {
      const auto [index, count] = parse_pair(arg, value, '/');
      if (count == 0 || index >= count) throw UsageError("--shard takes I/N with 0 <= I < N, got '" + value + "'");
      a.plan.shard_index = index;
      a.plan.shard_count = count;
    } else if (arg == "--operators") {
      for (const std::string& name : split(value, ',')) {
        const auto op = operator_from_name(name);
        if (!op) throw UsageError("unknown operator '" + name + "' in --operators");
        a.plan.operators.push_back(*op);
      }
    } else {
      throw UsageError("unknown option " + arg);
    }
  }
  if (a.patterns.empty() && a.report_from.empty()) throw UsageError("name the files to mutate, e.g. 'checker/*.cpp'");
  if (a.report_dir.empty()) a.report_dir = (std::filesystem::path(a.build_dir) / "reports").string();
  if (a.schema_dir.empty()) a.schema_dir = (std::filesystem::path(a.build_dir) / "mutation-schema").string();
  return a;
}

// The CPU time (user + system) of the processes this one started and waited for, theirs included.
double children_cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_CHILDREN, &usage);
  const auto seconds = [](const timeval& t) { return static_cast<double>(t.tv_sec) + t.tv_usec / 1e6; };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

std::string describe(const Candidate& c) {
  return c.file + ":" + std::to_string(c.mutation.line) + " " + operator_name(c.mutation.op) + ": " + c.text.before +
         "  ->  " + c.text.after;
}

void write_reports(const Arguments& a, const RunSummary& run, const std::vector<MutantRecord>& records,
                   const std::vector<TriageEntry>& triage) {
  std::filesystem::create_directories(a.report_dir);
  const std::filesystem::path dir(a.report_dir);
  std::ofstream(dir / "mutation-report.md") << report_markdown(run, records, triage);
  std::ofstream(dir / "mutation-report.json") << report_json(run, records, triage).dump(2) << "\n";
}

void use_binary(RunConfig& config, const Arguments& a, const std::string& binary, const std::string& json_name);

RunConfig run_config(const Arguments& a) {
  const std::filesystem::path build(a.build_dir);
  if (!std::filesystem::exists(build / "CMakeCache.txt")) {
    throw UsageError(a.build_dir + " is not a configured build folder; configure one for mutation runs first:\n"
                     "  cmake --preset default -B " + a.build_dir + " -DSKIPSOUND_TESTS=OFF -DSKIPSOUND_BENCH=OFF");
  }
  RunConfig config;
  config.source_root = a.source_root;
  config.work_dir = (build / "mutation-work").string();
  config.build_command = {"cmake", "--build", a.build_dir, "--target", a.target};
  config.build_timeout = a.build_timeout;
  use_binary(config, a, (build / a.target).string(), "gate.json");
  return config;
}

// The gate command of `binary`, writing its JSON report to `json_name` in the work folder.
void use_binary(RunConfig& config, const Arguments& a, const std::string& binary, const std::string& json_name) {
  config.gate_json = (std::filesystem::path(config.work_dir) / json_name).string();
  config.gate_command = {binary};
  for (const std::string& w : split_words(a.gate_arguments)) config.gate_command.push_back(w);
  config.gate_command.insert(config.gate_command.end(), {"--json", config.gate_json});
}

// A gate report without its timings: what must not change between two builds of one program.
nlohmann::json verdicts_of(nlohmann::json report) {
  if (report.is_object()) {
    for (auto it = report.begin(); it != report.end();) {
      const std::string& key = it.key();
      const bool timing = key == "seconds" || key == "started" || key == "firstFinding" || key == "trialsPerSecond" ||
                          key.find("Seconds") != std::string::npos || key.find("illis") != std::string::npos;
      if (timing) {
        it = report.erase(it);
      } else {
        *it = verdicts_of(std::move(*it));
        ++it;
      }
    }
  } else if (report.is_array()) {
    for (nlohmann::json& item : report) item = verdicts_of(std::move(item));
  }
  return report;
}

// Where the schema build's gate, no mutant active, reports otherwise than the normal build's.
std::optional<std::string> verdict_difference(const std::string& normal_json, const std::string& schema_json) {
  const nlohmann::json normal = verdicts_of(nlohmann::json::parse(read_text_file(normal_json)));
  const nlohmann::json schema = verdicts_of(nlohmann::json::parse(read_text_file(schema_json)));
  const nlohmann::json patch = nlohmann::json::diff(normal, schema);
  if (patch.empty()) return std::nullopt;
  const std::string path = patch.front().value("path", "");
  const nlohmann::json::json_pointer at(path);
  return path + ": " + (normal.contains(at) ? normal[at].dump() : "absent") + " in the normal build, " +
         (schema.contains(at) ? schema[at].dump() : "absent") + " in the schema build";
}

std::vector<TriageEntry> triage_for(const Arguments& a) {
  const std::string default_triage = (std::filesystem::path(a.source_root) / "tools/mutate/triage.json").string();
  const std::string file = !a.triage.empty() ? a.triage : std::filesystem::exists(default_triage) ? default_triage : "";
  return file.empty() ? std::vector<TriageEntry>{} : load_triage(file);
}

int exit_status(const Score& score) {
  return score.survived + score.not_covered > score.equivalent ? kExitSurvivor : kExitOk;
}

RecordedRun read_recorded_run(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw UsageError("cannot read " + path);
  try {
    return read_report_json(nlohmann::json::parse(in));
  } catch (const nlohmann::json::parse_error& e) {
    throw UsageError(path + ": " + e.what());
  }
}

// The candidates none of the reports ran (--not-run-in, repeatable).
std::vector<Candidate> not_run_in(std::vector<Candidate> candidates, const std::vector<std::string>& reports) {
  for (const std::string& report : reports) candidates = not_run_in(std::move(candidates), read_recorded_run(report));
  return candidates;
}

int render_again(const Arguments& a) {
  std::vector<RecordedRun> runs;
  for (const std::string& report : a.report_from) runs.push_back(read_recorded_run(report));
  const RecordedRun recorded = merge_runs(runs);
  const std::vector<TriageEntry> triage = triage_for(a);
  write_reports(a, recorded.summary, recorded.records, triage);
  return exit_status(score_of(recorded.records, triage));
}

// The gate on the normal build and on the schema build with no mutant active, which must pass and
// report the same verdicts; the schema's run records the sites it reaches, and each phase alone
// the sites it reaches (phase blame, unless `blame_phases_too` is false). nullopt, said why on
// stderr, when they do not build, fail or differ.
std::optional<BaselineRecord> run_baselines(RunConfig config, RunConfig schema_config, bool blame_phases_too) {
  config.gate_timeout = schema_config.gate_timeout = 24 * 3600;
  const MutantOutcome baseline = run_unmutated(config);
  const std::string reached_file = (std::filesystem::path(config.work_dir) / "reached-sites.txt").string();
  const MutantOutcome schema_baseline =
      baseline.status == Status::Survived ? run_schema_mutant(schema_config, -1, reached_file) : baseline;
  for (const MutantOutcome* b : {&baseline, &schema_baseline}) {
    if (b->status == Status::Survived) continue;
    std::cerr << "the unmutated source " << (b->status == Status::BuildFailure ? "does not build" : "fails the gate")
              << (b == &schema_baseline ? " in the schema build" : "") << "; nothing to measure. Last lines:\n"
              << b->output_tail;
    return std::nullopt;
  }
  if (const auto difference = verdict_difference(config.gate_json, schema_config.gate_json)) {
    std::cerr << "the schema build with no mutant active does not report what the normal build reports: "
              << *difference << "\n";
    return std::nullopt;
  }
  BaselineRecord record;
  record.reached = read_reached(reached_file);
  if (blame_phases_too) record.blame = blame_phases(schema_config, config.work_dir);
  record.build_seconds = baseline.build_seconds;
  record.gate_seconds = schema_baseline.gate_seconds;
  return record;
}

int run(const Arguments& a) {
  if (!a.report_from.empty()) return render_again(a);
  const auto start = std::chrono::steady_clock::now();
  const auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  RunSummary summary;
  summary.command = a.command;
  summary.seed = a.plan.seed;
  summary.sampled = a.sampled;
  summary.changed_since = a.changed_since;
  summary.files = expand_patterns(a.source_root, a.patterns);
  const std::vector<Candidate> all = enumerate_candidates(a.source_root, summary.files);
  PlanOptions plan = a.plan;
  if (!a.changed_since.empty()) {
    plan.changed = changed_lines_since(a.source_root, a.changed_since, summary.files,
                                       (std::filesystem::path(a.build_dir) / "mutation-work").string());
  }
  // The whole plan, then what an earlier session of the campaign (--resume) has done left out.
  const std::vector<Candidate> whole_plan =
      plan_run(not_run_in(a.survivors_of.empty() ? all : survivors_among(all, read_recorded_run(a.survivors_of)),
                          a.not_run_in),
               plan);
  CampaignJournal journal((std::filesystem::path(a.report_dir) / "mutation-journal.jsonl").string(), a.resume);
  const std::vector<Candidate> planned = not_run_in(whole_plan, RecordedRun{{}, journal.earlier()});
  PlanOptions changed_only;
  changed_only.changed = plan.changed;
  summary.enumerated = plan_run(all, changed_only).size();  // the scope: all, or what changed
  summary.planned = whole_plan.size();
  summary.gate_command = "skipsound " + a.gate_arguments;
  std::cout << "skipsound-mutate: seed " << a.plan.seed << ", " << all.size() << " mutations of " << summary.files.size()
            << " files, " << whole_plan.size() << " planned";
  if (a.resume) std::cout << ", " << journal.earlier().size() << " of them done by earlier sessions";
  std::cout << std::endl;
  if (a.list) {
    for (const Candidate& c : planned) std::cout << describe(c) << "\n";
    return kExitOk;
  }
  const std::vector<TriageEntry> triage = triage_for(a);
  std::filesystem::create_directories(a.report_dir);  // a --resume may find none yet
  if (!a.resume) journal.start_afresh();
  RunConfig config = run_config(a);
  install_restoring_signal_handlers();
  if (const auto restored = restore_interrupted(journal_path(config))) {
    std::cout << "restored " << *restored << ", left mutated by an interrupted run" << std::endl;
  }
  // Every mutation of the files goes into the schema, whatever this run plans: slices, shards and
  // samples of one scope share one copy and rebuild nothing. A diff-mode run compiles only its own.
  const std::vector<Candidate>& in_schema = plan.changed ? whole_plan : all;
  std::cout << "building the schemata of " << in_schema.size() << " mutations in " << a.schema_dir << std::endl;
  const SchemaBuild schema =
      build_schema({a.source_root, a.build_dir, a.schema_dir, a.target, a.build_timeout}, in_schema);
  if (!schema.failure.empty()) {
    std::cerr << schema.failure;
    return kExitInternal;
  }
  summary.schema_build_seconds = schema.seconds;
  summary.schema_left_out = schema.left_out.size();
  std::cout << "schema build: " << schema.chosen.size() << " mutants chosen at run time, " << schema.left_out.size()
            << " left to their own builds, " << schema.rounds << " build round(s), " << schema.seconds << " s" << std::endl;
  RunConfig schema_config = config;
  use_binary(schema_config, a, schema.binary, "schema-gate.json");

  // A resumed session of the same binaries takes the baselines an earlier one recorded.
  const std::string baseline_file = (std::filesystem::path(a.report_dir) / "mutation-baselines.json").string();
  const auto key = [&] { return baseline_key(config.gate_command.front(), schema.binary, a.gate_arguments); };
  std::optional<BaselineRecord> baselines;
  if (a.resume && rebuild(config).status != Status::BuildFailure) baselines = read_baseline_record(baseline_file, key());
  if (baselines) {
    std::cout << "baselines: those of the same binaries, recorded by an earlier session (" << baseline_file << ")"
              << std::endl;
  } else {
    // With nothing to run (the equivalence check of a test, --max-mutants 0) no phase is blamed,
    // and nothing is recorded for a later session.
    baselines = run_baselines(config, schema_config, a.phase_blame && !planned.empty());
    if (!baselines) return kExitInternal;
    baselines->key = key();
    if (!planned.empty()) write_baseline_record(baseline_file, *baselines);
  }
  const std::set<size_t>& reached = baselines->reached;
  const PhaseBlame& blame = baselines->blame;
  std::cout << "phase blame:";
  for (const std::string& phase : blame.phases) std::cout << " " << phase << " reaches " << blame.reached.at(phase).size();
  std::cout << (blame.phases.empty() ? " none, every mutant runs the whole gate" : " of the sites") << " ("
            << reached.size() << " reached in all)" << std::endl;
  summary.baseline_build_seconds = baselines->build_seconds;
  summary.baseline_gate_seconds = baselines->gate_seconds;
  config.gate_timeout = schema_config.gate_timeout = a.timeout.value_or(3 * baselines->gate_seconds + 30);
  std::cout << "baseline: rebuild " << baselines->build_seconds << " s, gate " << baselines->gate_seconds
            << " s (the same verdicts in both builds); a mutant's gate times out after " << config.gate_timeout << " s"
            << std::endl;

  std::vector<MutantRecord> records = journal.earlier();
  const auto wall = [&] { return journal.earlier_wall_seconds() + elapsed(); };
  const auto cpu = [&] { return journal.earlier_cpu_seconds() + children_cpu_seconds(); };
  summary.jobs = a.jobs;
  // Each worker judges the next planned mutant; its record is journaled and the report rewritten
  // as it finishes. Per-mutant builds patch the source tree, so they take turns.
  std::mutex plan_lock, own_build_lock;
  size_t next = 0;
  std::map<std::string, std::string> originals;
  double last_report = -kReportInterval;
  const auto take = [&]() -> const Candidate* {
    const std::lock_guard<std::mutex> hold(plan_lock);
    if (next == planned.size()) return nullptr;
    if (a.time_limit && elapsed() >= *a.time_limit) {
      summary.stopped_by_time_limit = true;
      return nullptr;
    }
    const Candidate& c = planned[next++];
    if (!schema.chosen.count(c.index) && !originals.count(c.file)) {
      originals[c.file] = read_text_file((std::filesystem::path(a.source_root) / c.file).string());
    }
    return &c;
  };
  const auto judge = [&](const Candidate& c, const RunConfig& schema_worker) {
    if (!schema.chosen.count(c.index)) {
      const std::lock_guard<std::mutex> one_at_a_time(own_build_lock);
      return run_mutant(config, c, originals.at(c.file));
    }
    if (reached.count(c.index)) {
      const std::vector<std::string> phases = blame.phases_for(c.index);
      MutantOutcome outcome = run_schema_mutant(with_phases(schema_worker, phases), static_cast<long>(c.index));
      outcome.gate_phases = phases;
      return outcome;
    }
    MutantOutcome not_covered;
    not_covered.status = Status::NotCovered;
    return not_covered;
  };
  const auto record = [&](const Candidate& c, MutantOutcome outcome) {
    const std::lock_guard<std::mutex> hold(plan_lock);
    records.push_back({c, std::move(outcome)});
    const MutantOutcome& o = records.back().outcome;
    journal.append(records.back(), elapsed(), children_cpu_seconds());
    std::cout << "[" << records.size() << "/" << whole_plan.size() << "] " << describe(c) << ": " << status_name(o.status)
              << (o.own_build ? " (own build " + std::to_string(static_cast<int>(o.build_seconds)) + " s" : " (schema")
              << ", gate " << static_cast<int>(o.gate_seconds) << " s)" << std::endl;
    // The journal holds every record; the report, rendered whole, is rewritten every few seconds.
    if (elapsed() < last_report + kReportInterval) return;
    summary.wall_seconds = wall();
    summary.cpu_seconds = cpu();
    write_reports(a, summary, records, triage);
    last_report = elapsed();
  };
  std::exception_ptr failure;  // the first worker's error ends the run once the others finish
  std::vector<std::thread> workers;
  for (size_t job = 0; job < a.jobs; ++job) {
    RunConfig schema_worker = schema_config;
    schema_worker.work_dir = (std::filesystem::path(config.work_dir) / ("job-" + std::to_string(job))).string();
    use_binary(schema_worker, a, schema.binary, "schema-gate.json");
    workers.emplace_back([&, schema_worker] {
      try {
        while (const Candidate* c = take()) record(*c, judge(*c, schema_worker));
      } catch (...) {
        const std::lock_guard<std::mutex> hold(plan_lock);
        if (!failure) failure = std::current_exception();
        next = planned.size();
      }
    });
  }
  for (std::thread& worker : workers) worker.join();
  if (failure) std::rethrow_exception(failure);
  summary.wall_seconds = wall();
  summary.cpu_seconds = cpu();
  write_reports(a, summary, records, triage);
  const Score score = score_of(records, triage);
  std::cout << "mutation score " << score.percent() << " %: " << score.detected << " detected, " << score.survived
            << " survived, " << score.not_covered << " not covered (" << score.equivalent << " triaged equivalent), "
            << score.build_failures << " build failures; " << static_cast<int>(summary.wall_seconds) << " s wall, "
            << static_cast<int>(summary.cpu_seconds) << " s CPU of builds and gates; report in " << a.report_dir
            << std::endl;
  return exit_status(score);
}

}  // namespace

}  // namespace skipsound::mutation

int main(int argc, char** argv) {
  using namespace skipsound::mutation;
  try {
    return run(parse_arguments(argc, argv));
  } catch (const UsageError& e) {
    std::string usage = kUsage;
    usage.replace(usage.find("%GATE%"), 6, kDefaultGateArguments);
    if (!*e.what()) {
      std::cout << usage;
      return kExitOk;
    }
    std::cerr << "skipsound-mutate: " << e.what() << "\n\n" << usage;
    return kExitUsage;
  } catch (const std::invalid_argument& e) {
    std::cerr << "skipsound-mutate: " << e.what() << "\n";
    return kExitUsage;
  } catch (const std::exception& e) {
    std::cerr << "skipsound-mutate: internal error: " << e.what() << "\n";
    return kExitInternal;
  }
}
