#include "proofs/gate.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <future>
#include <mutex>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "generators/file_case.h"
#include "model/values/input_error.h"
#include "proofs/corpus.h"
#include "proofs/interleaving_report.h"
#include "proofs/per_file_properties.h"
#include "proofs/prove_all.h"
#include "proofs/scenario.h"

namespace skipsound {

namespace {

using Clock = std::chrono::steady_clock;
using generators::WorldCategory;

constexpr int kFileCaseSize = 60;
constexpr size_t kShrinkLimit = 300;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

std::string fixed(double v, int digits) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", digits, v);
  return buffer;
}

// ---- the scenario corpus ----

std::vector<CorpusFileResult> run_corpus(const std::string& dir, const GateProgress& progress) {
  std::vector<CorpusFileResult> results;
  if (dir.empty()) return results;
  if (!std::filesystem::is_directory(dir)) throw InputError("corpus directory not found: " + dir);
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() == ".scn") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  for (const auto& path : files) {
    const Clock::time_point start = Clock::now();
    CorpusFileResult r;
    r.file = path.filename().string();
    try {
      const Scenario scenario = load_scenario(path.string());
      const ScenarioRun run = run_scenario(scenario);
      r.problems = run.mismatches;
      if (!r.problems.empty()) r.report = render_report(scenario, run);
    } catch (const InputError& e) {
      r.problems.push_back(e.render());
    }
    r.seconds = seconds_since(start);
    results.push_back(std::move(r));
    if (progress) progress("corpus", std::to_string(results.size()) + "/" + std::to_string(files.size()) + " files");
  }
  return results;
}

// ---- the per-file properties (generators' cases, checked against both oracles) ----

uint64_t case_seed(uint64_t master, Mutant mutant, size_t index) {
  return trial_seed(master ^ (0x5bd1e995ULL * (static_cast<uint64_t>(mutant) + 17)), WorldCategory::Mixed, index);
}

rc::Shrinkable<generators::FileCase> file_case_at(uint64_t seed, Mutant mutant) {
  return generators::file_case(mutant)(rc::Random(seed), kFileCaseSize);
}

PerFileOptions per_file_options(Mutant mutant) { return PerFileOptions{mutant, OracleUse::Sampled}; }

struct PerFileHunt {
  PerFileResult result;
  std::optional<size_t> first_failing;  // case index
};

// Cases [0, count) split over threads (index i on thread i mod threads); `stop` ends early once a
// failing case is known (the lowest failing index is still reported deterministically below it).
smt::OracleOptions recording_queries() {
  smt::OracleOptions options;
  options.record_smt2 = true;
  return options;
}

// Re-asks the Z3 answers of a case's decisions in the second solver.
void cross_check_case(const CaseCheck& check, size_t index, CrossChecker& checker) {
  for (size_t d = 0; d < check.decisions.size(); ++d) {
    const DecisionCheck& decision = check.decisions[d];
    if (!decision.oracle) continue;
    checker.check(decision.oracle_smt2, smt::verdict_of(*decision.oracle),
                  "per-file-case-" + std::to_string(index) + "-predicate-" + std::to_string(d));
  }
}

PerFileHunt hunt_per_file(uint64_t seed, Mutant mutant, size_t count, std::optional<double> seconds, unsigned threads,
                          bool stop_at_first, const GateProgress& progress, CrossChecker* cross_check = nullptr) {
  const Clock::time_point start = Clock::now();
  PerFileHunt hunt;
  std::mutex lock;
  std::atomic<bool> stop{false};
  std::atomic<size_t> done{0};
  const auto worker = [&](size_t first) {
    smt::Oracle oracle;
    std::optional<smt::Oracle> recording;  // for the cases cross-checked: only they pay for the text
    if (cross_check) recording.emplace(recording_queries());
    for (size_t i = first; i < count && !stop; i += threads) {
      if (seconds && seconds_since(start) > *seconds) break;
      const generators::FileCase c = [&] {
        // RapidCheck's generation context is process-wide: one generation at a time.
        std::lock_guard<std::mutex> guard(lock);
        return file_case_at(case_seed(seed, mutant, i), mutant).value();
      }();
      const bool cross_checked = cross_check && i % kCrossCheckCaseStride == 0;
      const CaseCheck check = check_case(c, cross_checked ? &*recording : &oracle, per_file_options(mutant));
      if (cross_checked) cross_check_case(check, i, *cross_check);
      std::lock_guard<std::mutex> guard(lock);
      ++hunt.result.cases;
      hunt.result.decisions += check.decisions.size();
      if (check.failed()) {
        ++hunt.result.failing_cases;
        if (!hunt.first_failing || i < *hunt.first_failing) hunt.first_failing = i;
        if (stop_at_first) stop = true;
      }
      if (progress && ++done % 50 == 0) progress("per-file", std::to_string(done) + " cases");
    }
  };
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back(worker, t);
  worker(0);
  for (std::thread& t : pool) t.join();
  hunt.result.seconds = seconds_since(start);
  return hunt;
}

bool case_fails(const generators::FileCase& c, Mutant mutant, smt::Oracle& oracle) {
  return check_case(c, &oracle, per_file_options(mutant)).failed();
}

// Shrinks the failing case and renders it (Alive2-style) with its replayable corpus file.
struct PerFileCounterexample {
  std::string headline;
  std::string report;
  std::string corpus_json;
};

PerFileCounterexample shrink_file_case(uint64_t seed, Mutant mutant) {
  smt::Oracle oracle;
  rc::Shrinkable<generators::FileCase> current = file_case_at(seed, mutant);
  size_t tried = 0;
  for (bool progressed = true; progressed && tried < kShrinkLimit;) {
    progressed = false;
    auto shrinks = current.shrinks();
    while (auto candidate = shrinks.next()) {
      if (++tried > kShrinkLimit) break;
      if (case_fails(candidate->value(), mutant, oracle)) {
        current = std::move(*candidate);
        progressed = true;
        break;
      }
    }
  }
  const generators::FileCase& c = current.value();
  const CaseCheck check = check_case(c, &oracle, per_file_options(mutant));
  PerFileCounterexample out;
  const FindingOrigin origin{seed, mutant, "skipsound replay FILE"};
  out.report = render_case_failure(c, check, origin);
  out.headline = out.report.substr(0, out.report.find('\n'));
  if (check.first_finding) {
    const DecisionCheck& d = check.decisions[*check.first_finding];
    const CorpusCase corpus{out.headline, c.table, c.file, c.predicates[*check.first_finding], mutant, seed, d.outcome};
    out.corpus_json = corpus_case_to_json(corpus).dump(2) + "\n";
  }
  return out;
}

// ---- the symbolic proofs (prover's library) ----

ProofGroupResult run_proofs(Mutant mutant) {
  const Clock::time_point start = Clock::now();
  ProofGroupResult r;
  r.group = mutant == Mutant::None ? "rule theorems" : std::string("rule theorems under ") + mutant_name(mutant);
  ProveOptions options;
  options.mutant = mutant;
  options.exactness = false;
  const ProveSummary summary = prove_all(options);
  r.failed = summary.outcome() != ProveOutcome::AsExpected;
  r.text = summary_to_text(summary);
  r.seconds = seconds_since(start);
  return r;
}

std::optional<std::string> proof_counterexample(const ProveSummary& s) {
  for (const RuleProof& p : s.rules) {
    if (p.result.verdict == TheoremVerdict::Counterexample) {
      return "rule " + p.result.rule + " (" + p.result.type + "): COUNTEREXAMPLE " +
             (p.result.counterexample ? p.result.counterexample->predicate : std::string());
    }
  }
  return std::nullopt;
}

// ---- the mutant matrix ----

struct Budget {
  size_t trials_per_category;
  std::optional<double> seconds_per_category;
  size_t file_cases;
  std::optional<double> file_seconds;
};

Budget budget_of(const GateOptions& o) {
  const size_t categories = o.categories.empty() ? generators::all_world_categories().size() : o.categories.size();
  if (!o.seconds) return Budget{o.trials_per_category, std::nullopt, o.trials_per_category * 2, std::nullopt};
  // A time budget: half to the explorer's categories, a tenth to the per-file properties; the
  // mutant matrix stops at each kill and gets what is left.
  const double total = *o.seconds;
  return Budget{SIZE_MAX, total * 0.5 / static_cast<double>(categories), SIZE_MAX, total * 0.1};
}

MutantResult hunt_with_explorer(Mutant mutant, const GateOptions& o, const Budget& b, const GateProgress& progress) {
  MutantResult r;
  r.mutant = mutant;
  const Clock::time_point start = Clock::now();
  ExploreOptions e;
  e.seed = o.seed;
  e.categories = o.categories;
  e.mutant = mutant;
  e.threads = o.threads;
  e.shard = o.shard;
  e.stop_at_first_finding = true;
  e.shrink_trial_limit = kShrinkLimit;
  e.trials_per_category = b.trials_per_category;
  if (b.seconds_per_category) e.seconds_per_category = *b.seconds_per_category / 2;
  // Value-moving and mixed worlds are where conflict mutants usually show: try them first.
  if (e.categories.empty()) {
    e.categories = generators::all_world_categories();
    std::stable_partition(e.categories.begin(), e.categories.end(), [](WorldCategory c) {
      return c == WorldCategory::ValueMoving || c == WorldCategory::Mixed;
    });
  }
  const auto results = explore(e, [&](WorldCategory c, size_t done, size_t) {
    if (progress) progress(std::string("mutant ") + mutant_name(mutant), std::string(world_category_name(c)) + " " + std::to_string(done));
  });
  for (const CategoryResult& c : results) {
    r.trials += c.stats.trials;
    if (c.finding) {
      r.killed = true;
      r.killed_by = std::string("explorer (") + world_category_name(c.category) + ")";
      r.trials -= c.stats.trials - c.finding->trials_to_find;
      r.headline = c.finding->headline;
      r.report = c.finding->report;
      r.replay_file = std::string("mutant-") + mutant_name(mutant) + ".scn";
      r.replay_content = c.finding->scenario_text;
    }
  }
  r.seconds = seconds_since(start);
  return r;
}

MutantResult hunt_mutant(Mutant mutant, const GateOptions& o, const Budget& b, const GateProgress& progress) {
  if (is_conflict_mutant(mutant)) return hunt_with_explorer(mutant, o, b, progress);
  const Clock::time_point start = Clock::now();
  MutantResult r;
  r.mutant = mutant;
  const PerFileHunt hunt = hunt_per_file(o.seed, mutant, std::max<size_t>(std::min(b.file_cases, SIZE_MAX / 2) * 2, 2000), b.file_seconds, o.threads, true, {});
  r.trials = hunt.result.cases;
  if (hunt.first_failing) {
    const PerFileCounterexample cx = shrink_file_case(case_seed(o.seed, mutant, *hunt.first_failing), mutant);
    r.killed = true;
    r.killed_by = "per-file properties";
    r.trials = *hunt.first_failing + 1;
    r.headline = cx.headline;
    r.report = cx.report;
    r.replay_file = std::string("mutant-") + mutant_name(mutant) + ".json";
    r.replay_content = cx.corpus_json;
  } else if (o.proofs) {
    ProveOptions options;
    options.mutant = mutant;
    options.exactness = false;
    const ProveSummary summary = prove_all(options);
    if (auto cx = proof_counterexample(summary)) {
      r.killed = true;
      r.killed_by = "symbolic proofs";
      r.headline = *cx;
      r.report = summary_to_text(summary);
    }
  }
  if (!r.killed) {
    MutantResult by_explorer = hunt_with_explorer(mutant, o, b, progress);
    by_explorer.trials += r.trials;
    r = std::move(by_explorer);
  }
  r.seconds = seconds_since(start);
  return r;
}

// The prover lists every theorem; a failing gate shows only the ones that did not come out PROVED.
std::string without_proved_lines(const std::string& text) {
  std::istringstream in(text);
  std::string kept;
  for (std::string line; std::getline(in, line);) {
    if (line.find("PROVED") == std::string::npos) kept += line + "\n";
  }
  return kept;
}

std::string pad(std::string s, size_t width) {
  if (s.size() < width) s.append(width - s.size(), ' ');
  return s;
}

}  // namespace

GateOutcome GateReport::outcome() const { return failures().empty() ? GateOutcome::Pass : GateOutcome::Fail; }

std::vector<std::string> GateReport::failures() const {
  std::vector<std::string> out;
  for (const CorpusFileResult& c : corpus) {
    for (const std::string& p : c.problems) out.push_back("corpus " + c.file + ": " + p);
  }
  if (per_file.failing_cases) out.push_back("per-file properties: " + std::to_string(per_file.failing_cases) + " failing cases");
  if (exhaustive && exhaustive->disagreements()) {
    out.push_back("bounded exhaustive cross-check: " + std::to_string(exhaustive->disagreements()) + " disagreements with the oracle");
  }
  for (const CategoryResult& c : categories) {
    if (c.finding) out.push_back(std::string("explorer ") + world_category_name(c.category) + ": " + c.finding->headline);
    if (c.stats.unexpected_errors) {
      out.push_back(std::string("explorer ") + world_category_name(c.category) + ": " +
                    std::to_string(c.stats.unexpected_errors) +
                    " conflict checks kept every file after an unexpected exception, first: " +
                    c.stats.first_unexpected_error);
    }
  }
  for (const ProofGroupResult& p : proofs) {
    if (p.failed) out.push_back("proofs: " + p.group + " failed");
  }
  for (const MutantResult& m : mutants) {
    if (!m.killed) out.push_back(std::string("mutant ") + mutant_name(m.mutant) + " survived");
  }
  if (cross_check) {
    for (const std::string& f : cross_check->findings) out.push_back("cross-check: " + f);
  }
  return out;
}

GateReport run_gate(const GateOptions& o, const GateProgress& progress) {
  const Clock::time_point start = Clock::now();
  const Budget budget = budget_of(o);
  GateReport report;
  report.seed = o.seed;
  report.shard = o.shard;
  // The symbolic proofs are the slowest part and need no other: they run beside everything else.
  std::future<ProofGroupResult> proofs;
  if (o.proofs) proofs = std::async(std::launch::async, run_proofs, Mutant::None);
  report.corpus = run_corpus(o.corpus_dir, progress);

  std::optional<CrossChecker> cross_check;
  if (o.cross_check) cross_check.emplace(*o.cross_check, o.cross_check_dir);
  CrossChecker* checker = cross_check ? &*cross_check : nullptr;
  PerFileHunt per_file = hunt_per_file(o.seed, Mutant::None, budget.file_cases, budget.file_seconds, o.threads, false,
                                       progress, checker);
  if (per_file.first_failing) {
    per_file.result.first_failure = shrink_file_case(case_seed(o.seed, Mutant::None, *per_file.first_failing), Mutant::None).report;
  }
  report.per_file = per_file.result;

  if (o.exhaustive_comparisons) {
    if (progress) progress("exhaustive", std::to_string(o.exhaustive_comparisons) + " comparisons");
    ExhaustiveOptions exhaustive;
    exhaustive.seed = o.seed;
    exhaustive.comparisons = o.exhaustive_comparisons;
    exhaustive.threads = o.threads;
    report.exhaustive = run_exhaustive_cross_check(exhaustive);
  }

  ExploreOptions e;
  e.seed = o.seed;
  e.categories = o.categories;
  e.threads = o.threads;
  e.shard = o.shard;
  e.trials_per_category = budget.trials_per_category;
  e.seconds_per_category = budget.seconds_per_category;
  e.cross_check = checker;
  report.categories = explore(e, [&](WorldCategory c, size_t done, size_t planned) {
    if (progress) {
      progress(std::string("explore ") + world_category_name(c),
               std::to_string(done) + (planned ? "/" + std::to_string(planned) : std::string()) + " trials");
    }
  });

  if (cross_check) {
    if (progress) progress("cross-check", "asking the second solver");
    report.cross_check = cross_check->finish(o.threads);
  }

  if (!o.skip_mutants) {
    const std::vector<Mutant>& mutants = o.mutants.empty() ? all_mutants() : o.mutants;
    for (Mutant m : mutants) {
      if (progress) progress(std::string("mutant ") + mutant_name(m), "hunting");
      report.mutants.push_back(hunt_mutant(m, o, budget, progress));
    }
  }
  if (proofs.valid()) {
    if (progress) progress("proofs", "waiting for the rule theorems");
    report.proofs.push_back(proofs.get());
  }
  report.seconds = seconds_since(start);
  return report;
}

std::string gate_summary_text(const GateReport& r) {
  std::ostringstream out;
  out << "skipsound gate — seed " << r.seed;
  if (r.shard.count > 1) out << ", shard " << r.shard.index << "/" << r.shard.count;
  out << ", " << fixed(r.seconds, 1) << " s\n\n";

  size_t corpus_failed = 0;
  for (const CorpusFileResult& c : r.corpus) corpus_failed += c.problems.empty() ? 0 : 1;
  out << "scenario corpus: " << r.corpus.size() << " files, " << corpus_failed << " differing\n";
  out << "per-file properties: " << r.per_file.cases << " cases, " << r.per_file.decisions << " decisions, "
      << r.per_file.failing_cases << " failing, " << fixed(r.per_file.seconds, 1) << " s\n";
  if (r.exhaustive) out << exhaustive_summary_text(*r.exhaustive);
  out << "\n";

  out << pad("category", 14) << pad("trials", 8) << pad("commits", 9) << pad("aborts", 8) << pad("false-c%", 10)
      << pad("missed", 8) << pad("wrong", 7) << pad("int-err", 9) << pad("bad-skip", 10) << pad("skips-z3", 10) << pad("unknown", 9) << pad("discard", 9)
      << "trials/s\n";
  for (const CategoryResult& c : r.categories) {
    const CategoryStats& s = c.stats;
    out << pad(world_category_name(c.category), 14) << pad(std::to_string(s.trials), 8)
        << pad(std::to_string(s.commits), 9) << pad(std::to_string(s.abort_count()), 8)
        << pad(fixed(100 * s.false_conflict_rate(), 1), 10) << pad(std::to_string(s.missed_conflicts), 8)
        << pad(std::to_string(s.wrong_results), 7) << pad(std::to_string(s.unexpected_errors), 9)
        << pad(std::to_string(s.unjustified_skips), 10) << pad(std::to_string(s.skip_checks), 10)
        << pad(std::to_string(s.unknown_count()), 9) << pad(std::to_string(s.discarded), 9)
        << fixed(s.trials_per_second(), 0) << "\n";
  }
  std::map<std::string, size_t> aborts;
  for (const CategoryResult& c : r.categories) {
    for (const auto& [name, n] : c.stats.aborts) aborts[name] += n;
  }
  if (!aborts.empty()) {
    out << "aborts by exception:";
    for (const auto& [name, n] : aborts) out << " " << name << "=" << n;
    out << "\n";
  }
  std::map<std::string, size_t> unknowns;
  for (const CategoryResult& c : r.categories) {
    for (const auto& [reason, n] : c.stats.z3_unknowns) unknowns[reason] += n;
  }
  for (const auto& [reason, n] : unknowns) out << "Z3 unknown (never a proof: the skip is reported, not trusted) x" << n << ": " << reason << "\n";
  if (r.cross_check) {
    out << "\n";
    r.cross_check->print(out);
  }
  for (const ProofGroupResult& p : r.proofs) {
    out << "\nproofs: " << p.group << ": " << (p.failed ? "FAILED" : "as expected") << " (" << fixed(p.seconds, 1) << " s)\n";
    if (p.failed) out << without_proved_lines(p.text);
  }
  if (!r.mutants.empty()) {
    out << "\n" << pad("mutant", 24) << pad("verdict", 10) << pad("trials", 8) << pad("seconds", 9) << "killed by / counterexample\n";
    for (const MutantResult& m : r.mutants) {
      out << pad(mutant_name(m.mutant), 24) << pad(m.killed ? "killed" : "SURVIVED", 10) << pad(std::to_string(m.trials), 8)
          << pad(fixed(m.seconds, 2), 9) << (m.killed ? m.killed_by + ": " + m.headline : std::string("-")) << "\n";
    }
  }
  for (const CategoryResult& c : r.categories) {
    if (c.finding) out << "\n== explorer finding (" << world_category_name(c.category) << ") ==\n" << c.finding->report;
  }
  for (const CorpusFileResult& c : r.corpus) {
    if (!c.problems.empty()) out << "\n== corpus " << c.file << " ==\n" << c.report;
  }
  if (!r.per_file.first_failure.empty()) out << "\n== per-file finding ==\n" << r.per_file.first_failure;
  const std::vector<std::string> failures = r.failures();
  out << "\n" << (failures.empty() ? "GATE PASSED" : "GATE FAILED") << "\n";
  for (const std::string& f : failures) out << "  " << f << "\n";
  return out.str();
}

nlohmann::json gate_report_json(const GateReport& r) {
  nlohmann::json j;
  j["seed"] = r.seed;
  j["shard"] = {{"index", r.shard.index}, {"count", r.shard.count}};
  j["seconds"] = r.seconds;
  j["outcome"] = r.outcome() == GateOutcome::Pass ? "pass" : "fail";
  j["failures"] = r.failures();
  for (const CorpusFileResult& c : r.corpus) j["corpus"].push_back({{"file", c.file}, {"problems", c.problems}});
  j["perFile"] = {{"cases", r.per_file.cases}, {"decisions", r.per_file.decisions},
                  {"failingCases", r.per_file.failing_cases}, {"seconds", r.per_file.seconds}};
  for (const CategoryResult& c : r.categories) {
    const CategoryStats& s = c.stats;
    nlohmann::json cj = {{"category", world_category_name(c.category)}, {"trials", s.trials}, {"commits", s.commits},
                         {"aborts", s.aborts}, {"falseConflicts", s.false_conflicts},
                         {"falseConflictRate", s.false_conflict_rate()}, {"missedConflicts", s.missed_conflicts},
                         {"wrongResults", s.wrong_results}, {"unexpectedErrors", s.unexpected_errors},
                         {"firstUnexpectedError", s.first_unexpected_error},
                         {"unjustifiedSkips", s.unjustified_skips}, {"skipChecks", s.skip_checks},
                         {"z3Unknowns", s.unknown_count()}, {"z3UnknownReasons", s.z3_unknowns}, {"discarded", s.discarded}, {"shapes", s.shapes},
                         {"trialsPerSecond", s.trials_per_second()}};
    if (c.finding) cj["finding"] = {{"headline", c.finding->headline}, {"seed", c.finding->seed}, {"scenario", c.finding->scenario_text}};
    j["categories"].push_back(cj);
  }
  if (r.exhaustive) {
    j["exhaustive"] = {{"comparisons", r.exhaustive->comparisons()}, {"disagreements", r.exhaustive->disagreements()},
                       {"unknowns", r.exhaustive->unknowns()}, {"seconds", r.exhaustive->seconds}};
  }
  if (r.cross_check) j["crossCheck"] = r.cross_check->json();
  for (const ProofGroupResult& p : r.proofs) j["proofs"].push_back({{"group", p.group}, {"failed", p.failed}, {"seconds", p.seconds}});
  for (const MutantResult& m : r.mutants) {
    j["mutants"].push_back({{"mutant", mutant_name(m.mutant)}, {"killed", m.killed}, {"killedBy", m.killed_by},
                            {"trials", m.trials}, {"seconds", m.seconds}, {"headline", m.headline}});
  }
  return j;
}

std::vector<std::string> write_gate_findings(const GateReport& r, const std::string& dir) {
  std::filesystem::create_directories(dir);
  std::vector<std::string> written;
  const auto write = [&](const std::string& name, const std::string& content) {
    const std::string path = (std::filesystem::path(dir) / name).string();
    std::ofstream(path) << content;
    written.push_back(path);
  };
  for (const CategoryResult& c : r.categories) {
    if (c.finding) write(std::string("explorer-") + world_category_name(c.category) + ".scn", c.finding->scenario_text);
  }
  for (const MutantResult& m : r.mutants) {
    if (m.killed && !m.replay_file.empty()) write(m.replay_file, m.replay_content);
  }
  return written;
}

}  // namespace skipsound
