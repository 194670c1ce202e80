#include "proofs/engines/engine_gate.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <set>
#include <sstream>

#include "model/values/input_error.h"
#include "model/values/scratch_directory.h"
#include "proofs/engines/engine_cross_writer.h"
#include "proofs/engines/engine_scan.h"
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

// delta-rs writes no deletion vectors: DML runs copy-on-write. A file's rows an earlier DV delete
// marked are left out of it, so the table's live rows are the world's. Whether any were.
bool leave_out_deleted_rows(generators::World& world) {
  bool deleted_rows = false;
  for (generators::WorldFile& f : world.files) {
    for (auto r = f.deleted.rbegin(); r != f.deleted.rend(); ++r) {
      f.rows.erase(f.rows.begin() + *r);
      deleted_rows = true;
    }
    f.deleted.clear();
  }
  std::erase_if(world.files, [](const generators::WorldFile& f) { return f.rows.empty(); });
  world.deletion_vectors = false;
  return deleted_rows;
}

// delta-rs's API records no read besides its operation's own predicate: a SELECT beside a write,
// or a whole-table read, is left out (the write and its own read stay). Whether any was.
bool leave_out_other_reads(generators::World& world) {
  bool left_out = false;
  for (generators::WorldTransaction& t : world.transactions) {
    const auto is_select = [](const std::string& op) { return op.starts_with("SELECT "); };
    const bool writes = !std::all_of(t.operations.begin(), t.operations.end(), is_select);
    const bool selects_left_out = writes && std::erase_if(t.operations, is_select) > 0;
    left_out = left_out || selects_left_out || t.whole_table_read;
    t.whole_table_read = false;
  }
  return left_out;
}

// delta-rs's optimize.compact compacts every file: an OPTIMIZE that clusters or names its files
// runs as that compaction (still a dataChange=false rewrite racing the others). Whether any did.
bool compact_every_file(generators::World& world) {
  bool changed = false;
  for (generators::WorldTransaction& t : world.transactions) {
    for (std::string& op : t.operations) {
      if (!op.starts_with("OPTIMIZE ")) continue;
      op = "OPTIMIZE";
      changed = true;
    }
  }
  return changed;
}

bool has_writes_without_stats(const generators::World& world) {
  return std::any_of(world.files.begin(), world.files.end(), [](const generators::WorldFile& f) { return !f.has_stats; }) ||
         std::any_of(world.transactions.begin(), world.transactions.end(),
                     [](const generators::WorldTransaction& t) { return t.no_stats; });
}

// What delta-rs cannot write or record, changed in the world for both sides (the engine and
// skipsound's checker) where the table's live rows and each transaction's write stay the same
// (docs/engines.md, "Adapted worlds"); each change named, as the report counts it.
std::vector<std::string> adapt_for_delta_rs(generators::World& world) {
  std::vector<std::string> adapted;
  if (world.deletion_vectors) {
    adapted.push_back(leave_out_deleted_rows(world)
                          ? "deletion vectors off, the initial files' deleted rows left out (delta-rs writes no DVs)"
                          : "deletion vectors off (delta-rs writes none)");
  }
  if (leave_out_other_reads(world)) {
    adapted.push_back("a SELECT or a whole-table read beside the write left out (delta-rs records no other read)");
  }
  if (compact_every_file(world)) adapted.push_back("an OPTIMIZE CLUSTER BY or FILES run as a compaction of every file");
  if (has_writes_without_stats(world)) {
    adapted.push_back("files without stats written with parquet statistics off (delta-rs records numRecords alone)");
  }
  return adapted;
}

// The per-file oracle for dropped files at scan time: intervals first, Z3 beyond them.
smt::OracleOptions scan_oracle_options() {
  smt::OracleOptions options;
  options.intervals_first = true;
  return options;
}

// One world through the engine and skipsound's judge.
struct EngineTrial {
  std::vector<std::string> adapted;
  std::string unsupported;  // why it did not run; empty when it was judged
  std::string scenario_text;
  json request;
  Scenario scenario;
  ScenarioRun own;  // skipsound's checker on the same world
  EngineJudgement judged;  // with the scan step's findings
  size_t foreign_files = 0;  // files a foreign writer wrote (engine_cross_writer.h); 0: not a cross-writer world
  ScanJudgement scanned;     // the scan step on the final table (engine_scan.h); its findings moved to `judged`
};

bool has_finding(const EngineTrial& trial, EngineFindingKind kind) {
  return std::any_of(trial.judged.findings.begin(), trial.judged.findings.end(),
                     [&](const EngineFinding& f) { return f.kind == kind; });
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
    const std::string name = std::string(generators::world_category_name(category)) + "-" + std::to_string(index);
    const uint64_t seed = trial_seed(options_.seed, category, index);
    EngineTrial trial = run_world(trial_world(options_.seed, category, index), name, seed);
    for (const std::string& how : trial.adapted) ++stats.adapted[how];
    for (const auto& [rule, n] : trial.judged.stats_dialect) stats.stats_dialect[rule] += n;
    if (!trial.unsupported.empty()) {
      ++stats.unsupported[trial.unsupported];
      return;
    }
    ++stats.ran;
    count_sides(trial.judged, trial.scenario, trial.own, stats);
    count_scan_and_cross_writer(trial, stats);
    std::set<EngineFindingKind> shrunk;
    for (EngineFinding& f : trial.judged.findings) {
      ++stats.findings[f.kind];
      EngineTrialFinding found{category, index, std::move(f), trial.scenario_text, trial.request, 0};
      if (options_.shrink_trial_limit > 0 && shrunk.insert(found.finding.kind).second) shrink(found, name);
      result_.findings.push_back(std::move(found));
    }
  }

 private:
  // `seed`: the trial's, which picks whether it is a cross-writer world and its scan predicates.
  EngineTrial run_world(generators::World world, const std::string& name, uint64_t seed) {
    EngineTrial trial;
    trial.adapted = adapt_for_delta_rs(world);
    trial.scenario_text = world_scenario_text(world, Mutant::None);
    try {
      trial.scenario = parse_scenario(trial.scenario_text, "engine");
      trial.own = run_scenario(trial.scenario);
    } catch (const InputError& e) {
      trial.unsupported = "the model refuses the world";
      return trial;
    }
    const Translation translation = translate_world(trial.scenario, options_.dialect);
    if (!translation.world) {
      trial.unsupported = translation.unsupported;
      return trial;
    }
    const std::filesystem::path dir = root_ / name;
    std::filesystem::remove_all(dir);
    trial.request = translation.world->request;
    trial.request["trial"] = name;
    trial.request["dir"] = dir.string();
    if (is_cross_writer_trial(seed, options_.cross_writer_share)) {
      trial.foreign_files = add_foreign_writer(trial.request, trial.scenario);
    }
    const DriverReply reply = driver_.exchange(trial.request.dump());
    if (reply.failure != ExchangeFailure::None) {
      trial.judged.findings.push_back(engine_finding(
          EngineFindingKind::EngineError, std::string("the driver ") + exchange_failure_name(reply.failure) + ": " + reply.detail));
    } else {
      if (reply.response.contains("engine")) result_.engine = reply.response["engine"].get<std::string>();
      trial.judged = judge_engine_run(trial.scenario, *translation.world, reply.response, dir.string());
    }
    trial.unsupported = trial.judged.unsupported;
    if (trial.unsupported.empty() && trial.judged.final_table && options_.scan_predicates > 0) {
      scan(trial, dir, seed);
    }
    if (!options_.keep_tables) std::filesystem::remove_all(dir);
    return trial;
  }

  // docs/engines.md, "Shrinking": every candidate world runs in the engine; it is kept when a
  // finding of the same kind comes back. The finding then stands for the smallest world kept.
  void shrink(EngineTrialFinding& found, const std::string& name) {
    const EngineFindingKind kind = found.finding.kind;
    std::optional<EngineTrial> smallest;
    size_t candidates = 0;
    const auto still_fails = [&](const generators::World& candidate) {
      EngineTrial trial = run_world(candidate, name + "-shrink-" + std::to_string(++candidates),
                                    trial_seed(options_.seed, found.category, found.index));
      if (!trial.unsupported.empty() || !has_finding(trial, kind)) return false;
      smallest = std::move(trial);
      return true;
    };
    shrink_trial_world(options_.seed, found.category, found.index, options_.shrink_trial_limit, still_fails,
                       found.shrink_steps);
    if (!smallest) return;
    for (EngineFinding& f : smallest->judged.findings) {
      if (f.kind != kind) continue;
      found.finding = std::move(f);
      break;
    }
    found.scenario_text = std::move(smallest->scenario_text);
    found.request = std::move(smallest->request);
  }

  // The scan step (engine_scan.h) on the world's final table; its findings join the trial's.
  void scan(EngineTrial& trial, const std::filesystem::path& dir, uint64_t seed) {
    const ScanSubject subject{*trial.judged.final_table, trial.judged.final_version, trial.judged.foreign_files, &oracle_};
    trial.scanned = scan_final_table(driver_, subject, dir.string(), seed, options_.scan_predicates);
    for (EngineFinding& f : trial.scanned.findings) trial.judged.findings.push_back(std::move(f));
    trial.scanned.findings.clear();
  }

  static void count_scan_and_cross_writer(const EngineTrial& trial, EngineCategoryStats& stats) {
    stats.scan_file_decisions += trial.scanned.file_decisions;
    stats.scan_queries += trial.scanned.queries;
    for (const auto& [reason, n] : trial.scanned.unsupported) stats.scan_unsupported[reason] += n;
    if (trial.foreign_files > 0) {
      ++stats.cross_writer_worlds;
      stats.foreign_files += trial.foreign_files;
    }
  }

  const EngineGateOptions& options_;
  EngineGateResult& result_;
  DriverProcess driver_;
  smt::Oracle oracle_{scan_oracle_options()};
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
        trials.run(category, options.first_trial + i, stats);
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
  std::map<std::string, size_t> adapted, scan_unsupported;
  size_t scan_decisions = 0, scan_queries = 0, cross_writer_worlds = 0, foreign_files = 0;
  for (const auto& [category, s] : r.categories) {
    for (const auto& [how, n] : s.adapted) adapted[how] += n;
    for (const auto& [reason, n] : s.scan_unsupported) scan_unsupported[reason] += n;
    scan_decisions += s.scan_file_decisions;
    scan_queries += s.scan_queries;
    cross_writer_worlds += s.cross_writer_worlds;
    foreign_files += s.foreign_files;
  }
  for (const auto& [category, s] : r.categories) {
    if (s.findings.empty()) continue;
    out << "findings in " << generators::world_category_name(category) << ":";
    for (const auto& [kind, n] : s.findings) out << " " << n << " " << engine_finding_name(kind) << ";";
    out << "\n";
  }
  out << "scan time: " << scan_decisions << " (file, predicate) decisions and " << scan_queries
      << " query results judged\n";
  for (const auto& [reason, n] : scan_unsupported) out << "  scan unsupported: " << n << "  " << reason << "\n";
  if (cross_writer_worlds > 0) {
    out << "cross-writer: " << cross_writer_worlds << " judged worlds with " << foreign_files
        << " files of a foreign writer (Delta Spark's stats)\n";
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

// The reproduction's audit of every add's stats against the rows of its file, in Python: numRecords
// and nullCount exact, every value within [min, max] in Spark's order (NaN above every double), a
// timestamp max allowed the 999 µs a millisecond cut drops (docs/semantics.md §4).
constexpr const char* kStatsCheck = R"(types = {c['name']: c['type'] for c in REQUEST['schema']}

def stat_value(v, type_name):
    if type_name == 'timestamp':
        t = datetime.datetime.fromisoformat(v.replace('Z', '+00:00'))
        return (t - EPOCH) // datetime.timedelta(microseconds=1)
    return v

def order_key(v, type_name):
    if type_name == 'double':
        v = float(v)
        return (1, 0.0) if math.isnan(v) else (0, v)
    if type_name.startswith('decimal('):
        return decimal.Decimal(str(v))
    return v

stats = {}
for name in sorted(os.listdir(os.path.join(REQUEST['dir'], '_delta_log'))):
    if name.endswith('.json'):
        for line in open(os.path.join(REQUEST['dir'], '_delta_log', name)):
            add = json.loads(line).get('add')
            if add and add.get('stats'):
                stats[add['path']] = json.loads(add['stats'])
problems = []
for path, s in stats.items():
    if path not in result['files']:
        continue
    rows = result['files'][path]['rows']
    if s.get('numRecords') is not None and s['numRecords'] != len(rows):
        problems.append('%s: numRecords %s, %d rows' % (path, s['numRecords'], len(rows)))
    for column, type_name in types.items():
        values = [r[column] for r in rows if column in r]
        if column in s.get('nullCount', {}) and s['nullCount'][column] != sum(v is None for v in values):
            problems.append('%s: nullCount.%s = %s' % (path, column, s['nullCount'][column]))
        for v in (v for v in values if v is not None):
            if column in s.get('minValues', {}):
                low = stat_value(s['minValues'][column], type_name)
                if order_key(v, type_name) < order_key(low, type_name):
                    problems.append('%s: %s = %s below minValues %s' % (path, column, v, low))
            if column in s.get('maxValues', {}):
                high = stat_value(s['maxValues'][column], type_name)
                if type_name == 'timestamp':
                    high += 999  # a max cut to the millisecond
                if order_key(v, type_name) > order_key(high, type_name):
                    problems.append('%s: %s = %s above maxValues %s' % (path, column, v, high))
assert not problems, 'stats that exclude a row of their file: ' + '; '.join(problems)
)";

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
    case EngineFindingKind::UnsoundStats: out << kStatsCheck; break;
    default:  // a scan finding (engine_scan.h) has its own assertions
      out << (f.finding.scan.is_null() ? std::string("print(json.dumps(result)[:2000])\n")
                                       : scan_reproduction_assertions(f.finding));
  }
  out << "print('no finding: delta-rs behaves as skipsound expects')\n";
  return out.str();
}

}  // namespace skipsound::engines
