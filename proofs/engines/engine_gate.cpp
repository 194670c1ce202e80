#include "proofs/engines/engine_gate.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <sstream>

#include "model/values/input_error.h"
#include "model/values/scratch_directory.h"
#include "proofs/explorer/explorer.h"

namespace skipsound::engines {

namespace {

using nlohmann::json;
using generators::WorldCategory;

bool committed(VerdictKind k) { return k != VerdictKind::Abort && k != VerdictKind::FalseConflict; }

// The engine's decisions beside skipsound's checker's on the model's run of the same world.
void count_sides(const EngineJudgement& engine, const Scenario& scenario, const ScenarioRun& own,
                 EngineCategoryStats& stats) {
  for (const JudgedAttempt& a : engine.attempts) {
    if (scenario.transactions[a.transaction].history_step || a.outcome == EngineOutcome::Failed) continue;
    ++stats.engine.attempts;
    if (a.outcome == EngineOutcome::Aborted) {
      ++stats.engine.aborts;
      if (a.verdict == VerdictKind::FalseConflict) ++stats.engine.false_conflicts;
    }
    const TransactionVerdict* mine = own.verdict_of(a.transaction);
    if (!mine) continue;
    ++stats.compared;
    if (committed(mine->kind) == (a.outcome == EngineOutcome::Committed)) ++stats.agreed;
  }
  for (const TransactionVerdict& v : own.verdicts) {
    if (scenario.transactions[v.transaction].history_step) continue;
    ++stats.skipsound.attempts;
    if (!committed(v.kind)) ++stats.skipsound.aborts;
    if (v.kind == VerdictKind::FalseConflict) ++stats.skipsound.false_conflicts;
  }
}

class Trials {
 public:
  Trials(const EngineGateOptions& options, EngineGateResult& result)
      : options_(options), result_(result), driver_(options.driver) {
    if (options.keep_tables) {
      std::filesystem::create_directories(*options.keep_tables);
      root_ = *options.keep_tables;
    } else {
      scratch_.emplace("engine-tables");
      root_ = scratch_->path();
    }
  }
  ~Trials() { result_.driver_starts = driver_.starts(); }

  void run(WorldCategory category, size_t index, EngineCategoryStats& stats) {
    ++stats.trials;
    generators::World world = trial_world(options_.seed, category, index);
    // delta-rs writes no deletion vectors: a world whose files carry none yet runs copy-on-write,
    // for skipsound's checker too, and is counted as adapted.
    const bool no_deleted_rows = std::all_of(world.files.begin(), world.files.end(),
                                             [](const generators::WorldFile& f) { return f.deleted.empty(); });
    if (world.deletion_vectors && no_deleted_rows) {
      world.deletion_vectors = false;
      ++stats.adapted["deletion vectors off (delta-rs writes none)"];
    }
    const std::string text = world_scenario_text(world, Mutant::None);
    Scenario scenario;
    ScenarioRun own;
    try {
      scenario = parse_scenario(text, "engine");
      own = run_scenario(scenario);
    } catch (const InputError& e) {
      ++stats.unsupported[std::string("the model refuses the world")];
      return;
    }
    const Translation translation = translate_world(scenario, options_.dialect);
    if (!translation.world) {
      ++stats.unsupported[translation.unsupported];
      return;
    }
    const std::string name = std::string(generators::world_category_name(category)) + "-" + std::to_string(index);
    const std::filesystem::path dir = root_ / name;
    std::filesystem::remove_all(dir);
    json request = translation.world->request;
    request["trial"] = name;
    request["dir"] = dir.string();
    const DriverReply reply = driver_.exchange(request.dump());
    EngineJudgement judged;
    if (reply.failure != ExchangeFailure::None) {
      judged.findings.push_back(engine_finding(EngineFindingKind::EngineError,
                                 std::string("the driver ") + exchange_failure_name(reply.failure) + ": " + reply.detail));
    } else {
      if (reply.response.contains("engine")) result_.engine = reply.response["engine"].get<std::string>();
      judged = judge_engine_run(scenario, *translation.world, reply.response, dir.string());
    }
    for (const auto& [rule, n] : judged.stats_dialect) stats.stats_dialect[rule] += n;
    if (!judged.unsupported.empty()) {
      ++stats.unsupported[judged.unsupported];
    } else {
      ++stats.ran;
      count_sides(judged, scenario, own, stats);
    }
    for (EngineFinding& f : judged.findings) {
      ++stats.findings[f.kind];
      result_.findings.push_back({category, index, std::move(f), text, request});
    }
    if (!options_.keep_tables) std::filesystem::remove_all(dir);
  }

 private:
  const EngineGateOptions& options_;
  EngineGateResult& result_;
  DriverProcess driver_;
  std::optional<ScratchDirectory> scratch_;
  std::filesystem::path root_;
};

std::string fixed(double v, int digits) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

}  // namespace

EngineGateResult run_engine_gate(const EngineGateOptions& options, const EngineProgress& progress) {
  using Clock = std::chrono::steady_clock;
  EngineGateResult result;
  result.seed = options.seed;
  const auto started = Clock::now();
  {
    Trials trials(options, result);
    const std::vector<WorldCategory>& categories =
        options.categories.empty() ? generators::all_world_categories() : options.categories;
    for (WorldCategory category : categories) {
      EngineCategoryStats stats;
      const auto category_started = Clock::now();
      for (size_t i = 0; i < options.trials_per_category; ++i) {
        trials.run(category, i, stats);
        if (progress) progress(category, i + 1, options.trials_per_category);
      }
      stats.seconds = std::chrono::duration<double>(Clock::now() - category_started).count();
      result.categories.emplace_back(category, std::move(stats));
    }
  }
  result.seconds = std::chrono::duration<double>(Clock::now() - started).count();
  return result;
}

std::string render_engine_gate(const EngineGateResult& r) {
  std::ostringstream out;
  out << "engine gate: " << (r.engine.empty() ? "engine version unknown" : r.engine) << ", seed " << r.seed << "\n";
  out << "category            trials  ran  engine aborts (false)  skipsound aborts (false)  agree  findings  judged/s\n";
  size_t trials = 0, judged = 0;
  std::map<std::string, size_t> unsupported, dialect;
  for (const auto& [category, s] : r.categories) {
    size_t findings = 0;
    for (const auto& [kind, n] : s.findings) findings += n;
    char line[256];
    std::snprintf(line, sizeof line, "%-18s %7zu %4zu  %6zu (%zu, %s)  %12zu (%zu, %s)  %5s  %8zu  %8s\n",
                  generators::world_category_name(category), s.trials, s.ran, s.engine.aborts, s.engine.false_conflicts,
                  fixed(s.engine.false_conflict_rate(), 2).c_str(), s.skipsound.aborts, s.skipsound.false_conflicts,
                  fixed(s.skipsound.false_conflict_rate(), 2).c_str(),
                  s.compared ? (std::to_string(s.agreed * 100 / s.compared) + "%").c_str() : "-", findings,
                  fixed(s.judged_per_second(), 2).c_str());
    out << line;
    trials += s.trials;
    judged += s.ran;
    for (const auto& [reason, n] : s.unsupported) unsupported[reason] += n;
    for (const auto& [rule, n] : s.stats_dialect) dialect[rule] += n;
  }
  std::map<std::string, size_t> adapted;
  for (const auto& [category, s] : r.categories) {
    for (const auto& [how, n] : s.adapted) adapted[how] += n;
  }
  for (const auto& [how, n] : adapted) out << "adapted: " << n << " worlds with " << how << "\n";
  if (!dialect.empty()) {
    out << "stats dialect (sound stats no Delta Spark writer gives, files):\n";
    for (const auto& [rule, n] : dialect) out << "  " << n << "  " << rule << "\n";
  }
  if (!unsupported.empty()) {
    out << "unsupported (not run):\n";
    for (const auto& [reason, n] : unsupported) out << "  " << n << "  " << reason << "\n";
  }
  for (const EngineTrialFinding& f : r.findings) {
    out << engine_finding_name(f.finding.kind) << " [" << generators::world_category_name(f.category) << " trial "
        << f.index << "]: " << f.finding.headline << "\n";
  }
  out << trials << " trials, " << judged << " judged, in " << fixed(r.seconds, 1) << " s ("
      << fixed(r.seconds > 0 ? judged / r.seconds : 0, 2) << " judged trials/s), " << r.findings.size()
      << " findings, driver started " << r.driver_starts << " time(s)\n";
  return out.str();
}

std::string python_reproduction(const EngineTrialFinding& f, const std::string& driver_source,
                                const std::string& engine) {
  // The driver's execution code without its command-line entry point.
  const std::string code = driver_source.substr(0, driver_source.find("\ndef main():"));
  json request = f.request;
  request["dir"] = "skipsound-repro-table";
  std::ostringstream out;
  out << "# skipsound engine finding, reproduced with deltalake and pyarrow alone (" << engine << ").\n"
      << "# " << engine_finding_name(f.finding.kind) << ": " << f.finding.headline.substr(0, f.finding.headline.find('\n'))
      << "\n# World: category " << generators::world_category_name(f.category) << ", trial " << f.index
      << ". Run: python3 THIS_FILE (it writes ./skipsound-repro-table).\n"
      << code << "\n\nimport shutil\n"
      << "REQUEST = json.loads(" << json(request.dump()).dump() << ")\n"
      << "ALLOWED = json.loads(" << json(f.finding.allowed_tables.dump()).dump() << ")\n"
      << "TRANSACTION = " << (f.finding.transaction ? std::to_string(*f.finding.transaction) : "None") << "\n\n"
      << "def canonical(rows):\n"
      << "    return sorted(json.dumps(r, sort_keys=True) for r in rows)\n\n"
      << "shutil.rmtree(REQUEST['dir'], ignore_errors=True)\n"
      << "result = execute(REQUEST)\n"
      << "for a in result['attempts']:\n"
      << "    assert a['outcome'] != 'error', 'delta-rs failed: ' + a['message']\n";
  switch (f.finding.kind) {
    case EngineFindingKind::MissedConflict:
    case EngineFindingKind::WrongResult:
      out << "attempt = next(a for a in result['attempts'] if a['transaction'] == TRANSACTION)\n"
          << "if attempt['outcome'] == 'committed' and attempt['version'] is not None:\n"
          << "    table = DeltaTable(REQUEST['dir'], version=attempt['version']).to_pyarrow_table().to_pylist()\n"
          << "    rows = canonical([{k: value_out(v) for k, v in r.items() if v is not None} for r in table])\n"
          << "    allowed = [canonical([{k: v for k, v in r.items() if v is not None} for r in t]) for t in ALLOWED]\n"
          << "    assert rows in allowed, 'the table after the commit is no serial order\\'s: ' + json.dumps(rows)\n";
      break;
    case EngineFindingKind::UnsoundStats:
      out << "for v in result['versions']:\n"
          << "    for path in v['files']:\n"
          << "        pass  # the stats of each add: see the finding's headline; they exclude a row of the file\n"
          << "raise AssertionError(" << json(f.finding.headline).dump() << ")\n";
      break;
    default: out << "print(json.dumps(result)[:2000])\n";
  }
  out << "print('no finding: delta-rs behaves as skipsound expects')\n";
  return out.str();
}

}  // namespace skipsound::engines
