#include "proofs/gate/gate_report.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include "common/number_text.h"

namespace skipsound {

namespace {

// The theorems of a failing group that did not come out as expected.
std::string unexpected_theorems_text(const ProveSummary& s) {
  std::string text;
  for (const RuleProof& p : s.rules) {
    if (!p.as_expected()) text += theorem_line(p.result);
  }
  return text;
}

std::string pad(std::string s, size_t width) {
  if (s.size() < width) s.append(width - s.size(), ' ');
  return s;
}

// The phases in run order, each with the time to its first finding (docs/gate.md).
std::string phase_timing_text(const GateReport& r) {
  std::ostringstream out;
  out << "\n" << pad("phase", 14) << pad("started", 10) << pad("seconds", 10) << "first finding\n";
  for (const PhaseTiming& p : r.phases) {
    out << pad(p.phase, 14) << pad(fixed(p.started, 1), 10) << pad(fixed(p.seconds, 1), 10);
    if (p.first_finding) {
      out << "after " << fixed(*p.first_finding, 2) << " s (" << fixed(p.started + *p.first_finding, 2) << " s into the gate)";
    } else {
      out << "-";
    }
    out << "\n";
  }
  for (const std::string& skipped : r.skipped_phases) out << pad(skipped, 14) << "not run (--fail-fast gate or --phase)\n";
  return out.str();
}

// The tiers of docs/semantics.md §10.1–§10.4 exist to lower false conflicts: per category, the false
// conflicts per 100 commit attempts of the trials that ran with each tier off and on.
std::string tier_table_text(const std::vector<CategoryResult>& categories, size_t category_width) {
  constexpr size_t kColumn = 22;
  std::ostringstream out;
  out << "\nfalse conflicts per 100 commit attempts, each tier off -> on (docs/semantics.md §10.1–§10.4)\n"
      << pad("category", category_width);
  for (generators::Tier tier : generators::all_tiers()) out << pad(generators::tier_name(tier), kColumn);
  out << "\n";
  for (const CategoryResult& c : categories) {
    out << pad(world_category_name(c.category), category_width);
    for (generators::Tier tier : generators::all_tiers()) {
      const TierSplit& split = c.stats.tiers[static_cast<size_t>(tier)];
      const auto rate = [](const TierSplit::Side& side) {
        return side.trials == 0 ? std::string("-") : fixed(100 * side.false_conflicts_per_attempt(), 1);
      };
      out << pad(rate(split.side[0]) + " -> " + rate(split.side[1]), kColumn);
    }
    out << "\n";
  }
  return out.str();
}

nlohmann::json tier_json(const CategoryStats& s) {
  nlohmann::json j;
  for (generators::Tier tier : generators::all_tiers()) {
    const TierSplit& split = s.tiers[static_cast<size_t>(tier)];
    for (int on = 0; on < 2; ++on) {
      const TierSplit::Side& side = split.side[on];
      j[generators::tier_name(tier)][on ? "on" : "off"] = {{"trials", side.trials}, {"attempts", side.attempts},
                                                           {"falseConflicts", side.false_conflicts}};
    }
  }
  return j;
}

}  // namespace

std::string gate_summary_text(const GateReport& r) {
  std::ostringstream out;
  out << "skipsound gate — seed " << r.seed;
  if (r.shard.count > 1) out << ", shard " << r.shard.index << "/" << r.shard.count;
  out << ", " << fixed(r.seconds, 1) << " s\n\n";

  size_t corpus_failed = 0;
  for (const CorpusFileResult& c : r.corpus) corpus_failed += c.failed() ? 1 : 0;
  out << "corpus (scenarios, skip expectations, bad inputs): " << r.corpus.size() << " files, " << corpus_failed
      << " differing\n";
  out << "per-file properties: " << r.per_file.cases << " cases, " << r.per_file.decisions << " decisions, "
      << r.per_file.failing_cases << " failing, " << fixed(r.per_file.seconds, 1) << " s\n";
  out << "  outcomes:";
  for (const auto& [outcome, count] : r.per_file.outcomes) out << " " << outcome << " " << count << ",";
  out << "\n";
  const smt::OracleCounters& asked = r.per_file.oracle;
  out << "  oracle queries: " << asked.by_intervals << " by the interval procedure (" << asked.cross_checked
      << " of them re-asked of Z3), " << asked.by_z3 << " by Z3\n";
  if (r.exhaustive) out << exhaustive_summary_text(*r.exhaustive);
  out << "\n";

  // The category column fits the longest name, as the mutant column below does.
  size_t category_width = std::string("category").size() + 2;
  for (const CategoryResult& c : r.categories) {
    category_width = std::max(category_width, std::string(world_category_name(c.category)).size() + 2);
  }
  out << pad("category", category_width) << pad("trials", 8) << pad("commits", 9) << pad("aborts", 8) << pad("false-c%", 10)
      << pad("missed", 8) << pad("wrong", 7) << pad("int-err", 9) << pad("bad-skip", 10) << pad("skips-z3", 10) << pad("unknown", 9) << pad("discard", 9)
      << "trials/s\n";
  for (const CategoryResult& c : r.categories) {
    const CategoryStats& s = c.stats;
    out << pad(world_category_name(c.category), category_width) << pad(std::to_string(s.trials), 8)
        << pad(std::to_string(s.commits), 9) << pad(std::to_string(s.abort_count()), 8)
        << pad(fixed(100 * s.false_conflict_rate(), 1), 10) << pad(std::to_string(s.missed_conflicts), 8)
        << pad(std::to_string(s.wrong_results), 7) << pad(std::to_string(s.unexpected_errors), 9)
        << pad(std::to_string(s.unjustified_skips), 10) << pad(std::to_string(s.skip_checks), 10)
        << pad(std::to_string(s.unknown_count()), 9) << pad(std::to_string(s.discarded), 9)
        << fixed(s.trials_per_second(), 0) << "\n";
  }
  out << tier_table_text(r.categories, category_width);
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
    out << "\nproofs: " << p.group << ": " << (p.failed() ? "FAILED" : "as expected") << " (" << fixed(p.seconds, 1) << " s)\n";
    if (p.failed()) out << unexpected_theorems_text(p.summary);
  }
  if (!r.mutants.empty()) {
    size_t name_width = 0;
    for (const MutantResult& m : r.mutants) name_width = std::max(name_width, std::string(mutant_name(m.mutant)).size() + 2);
    out << "\n" << pad("mutant", name_width) << pad("verdict", 10) << pad("trials", 8) << pad("seconds", 9) << "killed by / counterexample\n";
    for (const MutantResult& m : r.mutants) {
      out << pad(mutant_name(m.mutant), name_width) << pad(m.killed() ? "killed" : "SURVIVED", 10) << pad(std::to_string(m.trials), 8)
          << pad(fixed(m.seconds, 2), 9) << (m.killed() ? killed_by_text(m) + ": " + m.headline : std::string("-")) << "\n";
    }
  }
  for (const CategoryResult& c : r.categories) {
    if (c.finding) out << "\n== explorer finding (" << world_category_name(c.category) << ") ==\n" << c.finding->report;
  }
  out << phase_timing_text(r);
  for (const CorpusFileResult& c : r.corpus) {
    if (c.failed()) out << "\n== corpus " << c.file << " ==\n" << c.report;
  }
  if (!r.per_file.first_failure.empty()) out << "\n== per-file finding ==\n" << r.per_file.first_failure;
  out << "\n" << coverage_table_text(r.coverage);
  const std::vector<std::string> failures = r.failures();
  out << "\n" << (failures.empty() ? "GATE PASSED" : "GATE FAILED") << "\n";
  for (const std::string& f : failures) out << "  " << f << "\n";
  return out.str();
}

nlohmann::json gate_report_json(const GateReport& r) {
  nlohmann::json j;
  j["seed"] = r.seed;
  if (!r.command.empty()) j["command"] = r.command;
  j["shard"] = {{"index", r.shard.index}, {"count", r.shard.count}};
  j["seconds"] = r.seconds;
  j["outcome"] = r.outcome() == GateOutcome::Pass ? "pass" : "fail";
  j["failures"] = r.failures();
  for (const CorpusFileResult& c : r.corpus) {
    nlohmann::json problems = nlohmann::json::array();
    for (const CorpusProblem& p : c.problems) problems.push_back(problem_text(p));
    j["corpus"].push_back({{"file", c.file}, {"problems", problems}});
  }
  j["perFile"] = {{"cases", r.per_file.cases}, {"decisions", r.per_file.decisions},
                  {"failingCases", r.per_file.failing_cases}, {"seconds", r.per_file.seconds},
                  {"oracle", {{"byIntervals", r.per_file.oracle.by_intervals},
                              {"crossChecked", r.per_file.oracle.cross_checked},
                              {"byZ3", r.per_file.oracle.by_z3}}},
                  {"outcomes", r.per_file.outcomes}};
  for (const CategoryResult& c : r.categories) {
    const CategoryStats& s = c.stats;
    nlohmann::json cj = {{"category", world_category_name(c.category)}, {"trials", s.trials}, {"commits", s.commits},
                         {"aborts", s.aborts}, {"falseConflicts", s.false_conflicts},
                         {"falseConflictRate", s.false_conflict_rate()}, {"missedConflicts", s.missed_conflicts},
                         {"wrongResults", s.wrong_results}, {"unexpectedErrors", s.unexpected_errors},
                         {"firstUnexpectedError", s.first_unexpected_error},
                         {"unjustifiedSkips", s.unjustified_skips}, {"skipChecks", s.skip_checks},
                         {"z3Unknowns", s.unknown_count()}, {"z3UnknownReasons", s.z3_unknowns}, {"discarded", s.discarded}, {"shapes", s.shapes},
                         {"trialsPerSecond", s.trials_per_second()}, {"tiers", tier_json(s)}};
    if (c.finding) cj["finding"] = {{"headline", c.finding->headline}, {"seed", c.finding->seed}, {"scenario", c.finding->scenario_text}};
    j["categories"].push_back(cj);
  }
  if (r.exhaustive) {
    j["exhaustive"] = {{"comparisons", r.exhaustive->comparisons()}, {"disagreements", r.exhaustive->disagreements()},
                       {"unknowns", r.exhaustive->unknowns()}, {"seconds", r.exhaustive->seconds}};
  }
  if (r.cross_check) j["crossCheck"] = r.cross_check->json();
  for (const ProofGroupResult& p : r.proofs) j["proofs"].push_back({{"group", p.group}, {"failed", p.failed()}, {"seconds", p.seconds}});
  for (const MutantResult& m : r.mutants) {
    j["mutants"].push_back({{"mutant", mutant_name(m.mutant)}, {"killed", m.killed()}, {"killedBy", killed_by_text(m)},
                            {"trials", m.trials}, {"seconds", m.seconds}, {"headline", m.headline}});
  }
  j["phases"] = nlohmann::json::array();
  for (const PhaseTiming& p : r.phases) {
    j["phases"].push_back({{"phase", p.phase}, {"started", p.started}, {"seconds", p.seconds},
                           {"firstFinding", p.first_finding ? nlohmann::json(*p.first_finding) : nlohmann::json()}});
  }
  j["skippedPhases"] = r.skipped_phases;
  j["coverage"] = coverage_json(r.coverage);
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
  if (!r.per_file.first_failure_case.empty()) write("per-file-finding.json", r.per_file.first_failure_case);
  for (const MutantResult& m : r.mutants) {
    if (m.killed() && !m.replay_file.empty()) write(m.replay_file, m.replay_content);
  }
  return written;
}

}  // namespace skipsound
