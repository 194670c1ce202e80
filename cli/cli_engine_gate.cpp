// `skipsound engine-gate`: the explorer's worlds run through a real engine's driver and judged with
// skipsound's instruments (proofs/engines/engine_gate.h, docs/engines.md). Exit 0 when nothing is
// found, 1 with findings (each written with --out as a world and a Python reproduction), 2 on bad
// usage, 3 on an internal error of skipsound.
#include <filesystem>
#include <fstream>
#include <iostream>

#include "cli/cli.h"
#include "proofs/engines/engine_gate.h"
#include "proofs/engines/engine_gate_json.h"
#include "proofs/engines/engine_scan.h"
#include "proofs/engines/writer_conformance.h"

#ifndef SKIPSOUND_ENGINES_DIR
#define SKIPSOUND_ENGINES_DIR "engines"
#endif
#ifndef SKIPSOUND_ENGINE_VENV
#define SKIPSOUND_ENGINE_VENV "venv"
#endif

namespace skipsound::cli {

namespace {

struct EngineGateArguments {
  std::string engine = "delta-rs";
  uint64_t seed = 1;
  size_t trials = 50;
  size_t first_trial = 0;
  std::vector<std::string> categories;
  std::vector<std::string> driver;
  double timeout = 60;
  std::string keep_tables;
  std::string out;
  size_t shrink_trials = 200;
  size_t scan_predicates = 4;
  double cross_writer = 0;
  bool json = false;
  bool conformance = false;
  size_t files = 500;
  size_t scans = 0;
};

const std::filesystem::path kDeltaRsDriver = std::filesystem::path(SKIPSOUND_ENGINES_DIR) / "delta_rs" / "driver.py";
const std::filesystem::path kDeltaSparkDriver =
    std::filesystem::path(SKIPSOUND_ENGINES_DIR) / "delta_spark" / "driver.py";

const std::filesystem::path& driver_of(const std::string& engine) {
  if (engine == "delta-rs") return kDeltaRsDriver;
  if (engine == "delta-spark") return kDeltaSparkDriver;
  throw InputError("--engine: no driver for '" + engine + "' (delta-rs, delta-spark)");
}

engines::DriverCommand driver_command(const EngineGateArguments& a) {
  engines::DriverCommand driver;
  driver.argv = a.driver;
  if (driver.argv.empty()) {
    driver.argv = {(std::filesystem::path(SKIPSOUND_ENGINE_VENV) / "bin" / "python").string(), "-B",
                   driver_of(a.engine).string()};
  }
  driver.deadline_ms = static_cast<int>(a.timeout * 1000);
  return driver;
}

// Tables the engine writes from generated rows, their stats against skipsound's model writer's
// (proofs/engines/writer_conformance.h). Exit 1 on any difference, unsound stat or error.
int run_conformance(const EngineGateArguments& a) {
  engines::ConformanceOptions options;
  options.seed = a.seed;
  options.min_files = a.files;
  options.predicates_per_table = a.scans;
  options.driver = driver_command(a);
  if (!a.keep_tables.empty()) options.keep_tables = a.keep_tables;
  std::cout << "skipsound engine-gate --conformance: " << a.engine << ", seed " << a.seed << " (replay with --seed "
            << a.seed << "), at least " << a.files << " files" << std::endl;
  const engines::ConformanceResult result = engines::run_writer_conformance(options, [](size_t done, size_t wanted) {
    std::cerr << "\r" << done << " / " << wanted << " files" << std::flush;
  });
  std::cerr << "\n";
  std::cout << engines::render_writer_conformance(result);
  return result.clean() ? kExitOk : kExitFinding;
}

void write_text(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path);
  out << text;
  if (!out) throw InputError("cannot write " + path.string());
}

// Each finding as the world (a scenario file), the driver's request and a standalone reproduction.
void write_findings(const engines::EngineGateResult& result, const std::filesystem::path& dir) {
  std::filesystem::create_directories(dir);
  const std::string driver_source = engines::delta_rs_driver_source(SKIPSOUND_ENGINES_DIR);
  for (const engines::EngineTrialFinding& f : result.findings) {
    std::string stem = std::string(engines::engine_finding_name(f.finding.kind)) + "-" +
                       generators::world_category_name(f.category) + "-" + std::to_string(f.index);
    for (char& c : stem) c = c == ' ' ? '-' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const std::string shrunk = f.shrink_steps == 0 ? "as found" : "shrunk through the engine in " + std::to_string(f.shrink_steps) + " steps";
    write_text(dir / (stem + ".scn"), "# " + f.finding.headline.substr(0, f.finding.headline.find('\n')) + "\n# " +
                                          result.engine + ", " + shrunk + "; replay: skipsound scenario FILE\n" +
                                          f.scenario_text);
    write_text(dir / (stem + ".json"), f.request.dump(1) + "\n");
    write_text(dir / (stem + ".py"), engines::python_reproduction(f, driver_source, result.engine));
  }
}

int run(const EngineGateArguments& a) {
  driver_of(a.engine);
  if (a.conformance) return run_conformance(a);
  engines::EngineGateOptions options;
  options.seed = a.seed;
  options.trials_per_category = a.trials;
  options.first_trial = a.first_trial;
  for (const std::string& name : a.categories) {
    const auto category = generators::world_category_from_name(name);
    if (!category) throw InputError("--category: no category '" + name + "'");
    options.categories.push_back(*category);
  }
  options.driver = driver_command(a);
  if (a.engine == "delta-spark") options.dialect = SqlDialect::Spark;
  if (!a.keep_tables.empty()) options.keep_tables = a.keep_tables;
  if (!a.out.empty()) options.shrink_trial_limit = a.shrink_trials;  // the findings written are shrunk
  // Scan-time judging and foreign files speak the delta-rs driver's protocol; Delta Spark's scans
  // are judged by --conformance --scans.
  if (a.engine != "delta-rs" && a.cross_writer > 0) throw InputError("--cross-writer: delta-rs only");
  options.scan_predicates = a.engine == "delta-rs" ? a.scan_predicates : 0;
  options.cross_writer_share = a.cross_writer;
  (a.json ? std::cerr : std::cout) << "skipsound engine-gate: " << a.engine << ", seed " << a.seed << " (replay with --seed " << a.seed
            << "), " << a.trials << " trials per category" << std::endl;
  const engines::EngineGateResult result = engines::run_engine_gate(options);
  std::cout << (a.json ? engines::engine_gate_json(result).dump(1) + "\n" : engines::render_engine_gate(result));
  if (!a.out.empty() && !result.findings.empty() && a.engine == "delta-rs") write_findings(result, a.out);
  return result.findings.empty() ? kExitOk : kExitFinding;
}

}  // namespace

void add_engine_gate_command(CLI::App& app, int& exit_code) {
  auto arguments = std::make_shared<EngineGateArguments>();
  CLI::App* command = app.add_subcommand(
      "engine-gate", "run the explorer's worlds through a real engine (delta-rs) and judge its commits, log and "
                     "stats with skipsound's oracles");
  command->add_option("--engine", arguments->engine,
                      "the engine: delta-rs (the deltalake package) or delta-spark (pyspark with delta-spark)");
  command->add_flag("--conformance", arguments->conformance,
                    "writer conformance instead of worlds: tables the engine writes from generated rows, each add's "
                    "stats against skipsound's model writer's and audited against the rows");
  command->add_option("--files", arguments->files, "with --conformance: files to measure at least (default 500)")
      ->check(CLI::Range(1, 1'000'000));
  command->add_option("--scans", arguments->scans,
                      "with --conformance: generated predicates per table whose files the engine's data skipping "
                      "keeps, against skipsound's scan filter (default 0)")
      ->check(CLI::Range(0, 10'000));
  command->add_option("--seed", arguments->seed, "master seed (default 1; printed at start)");
  command->add_option("--trials", arguments->trials, "trials per category (default 50)")->check(CLI::Range(1, 1'000'000));
  command->add_option("--first-trial", arguments->first_trial,
                      "the first trial index of each category (default 0): slices of one run, or one trial again");
  command->add_option("--category", arguments->categories, "explorer categories to run (default all)");
  command->add_option("--driver", arguments->driver,
                      "the driver command and its arguments (default: the build folder's venv python with "
                      "engines/delta_rs/driver.py)");
  command->add_option("--timeout", arguments->timeout, "seconds a trial may take before the driver is killed (default 60)")
      ->check(CLI::Range(0.1, 3600.0));
  command->add_option("--scan-predicates", arguments->scan_predicates,
                      "delta-rs: read predicates judged at scan time on each world's final table (default 4; 0: no scans)")
      ->check(CLI::Range(0, 1000));
  command->add_option("--cross-writer", arguments->cross_writer,
                      "delta-rs: share of trials whose first file and appends a foreign writer writes with Delta "
                      "Spark's stats (0 to 1, default 0)")
      ->check(CLI::Range(0.0, 1.0));
  command->add_flag("--json", arguments->json, "print the report as JSON (per category and finding kind) instead of text");
  command->add_option("--keep-tables", arguments->keep_tables, "write the tables into this folder and keep them");
  command->add_option("--out", arguments->out,
                      "write each finding here: the world (.scn), the driver's request (.json) and a Python "
                      "reproduction using deltalake and pyarrow alone (.py)");
  command->add_option("--shrink-trials", arguments->shrink_trials,
                      "with --out: candidate worlds each shrinking stage runs through the engine per finding "
                      "(default 200; 0: write the findings unshrunk)");
  command->callback([arguments, &exit_code] { exit_code = run(*arguments); });
}

}  // namespace skipsound::cli
