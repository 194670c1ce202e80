#include "tools/mutate/mutation_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "common/number_text.h"

namespace skipsound::mutation {

namespace {

std::string required_string(const nlohmann::json& entry, const char* key, const std::string& where) {
  if (!entry.contains(key) || !entry[key].is_string()) throw std::runtime_error(where + "." + key + ": a string is required");
  return entry[key].get<std::string>();
}

// Markdown inline code that survives backticks inside.
std::string code(const std::string& text) {
  const std::string fence = text.find('`') == std::string::npos ? "`" : "`` ";
  const std::string close = fence == "`" ? "`" : " ``";
  return fence + text + close;
}

struct Tally {
  size_t noticed = 0, survived = 0, not_covered = 0, build_failures = 0, total = 0;
  void add(Status s) {
    ++total;
    if (detected(s)) ++noticed;
    if (s == Status::Survived) ++survived;
    if (s == Status::NotCovered) ++not_covered;
    if (s == Status::BuildFailure) ++build_failures;
  }
};

double mean(double sum, size_t n) { return n ? sum / static_cast<double>(n) : 0.0; }

// "whole": every mutation of the files was planned; "sample": --sample drew them; "selection":
// filters, a shard or --max-mutants chose them.
const char* scope_name(const RunSummary& run) {
  return run.sampled ? "sample" : run.planned >= run.enumerated ? "whole" : "selection";
}

std::string scope_text(const RunSummary& run, const Score& score) {
  if (run.sampled) {
    const auto [low, high] = score.interval95();
    return "a uniform sample of " + std::to_string(run.planned) + " of the " + std::to_string(run.enumerated) +
           " mutations (seed " + std::to_string(run.seed) + "): the whole scope's score lies in " + fixed(low, 1) +
           "–" + fixed(high, 1) + " % with 95 % confidence";
  }
  if (run.planned >= run.enumerated) {
    return run.changed_since.empty() ? "the whole scope: every mutation of the files"
                                     : "every mutation on the lines changed since " + code(run.changed_since);
  }
  return "a selection (filters, a shard or --max-mutants): " + std::to_string(run.planned) + " of the " +
         std::to_string(run.enumerated) + " mutations";
}

}  // namespace

std::vector<TriageEntry> load_triage(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(in);
  } catch (const nlohmann::json::parse_error& e) {
    throw std::runtime_error(path + ": " + e.what());
  }
  if (!j.is_array()) throw std::runtime_error(path + ": $ must be an array of survivors");
  std::vector<TriageEntry> entries;
  for (size_t i = 0; i < j.size(); ++i) {
    const std::string where = path + ": $[" + std::to_string(i) + "]";
    TriageEntry e{required_string(j[i], "file", where),    required_string(j[i], "operator", where),
                  required_string(j[i], "before", where),  required_string(j[i], "after", where),
                  required_string(j[i], "verdict", where), required_string(j[i], "reason", where)};
    if (e.verdict != "equivalent" && e.verdict != "gap") {
      throw std::runtime_error(where + ".verdict: 'equivalent' or 'gap', got '" + e.verdict + "'");
    }
    entries.push_back(std::move(e));
  }
  return entries;
}

const TriageEntry* triage_of(const MutantRecord& r, const std::vector<TriageEntry>& triage) {
  for (const TriageEntry& e : triage) {
    if (e.file == r.candidate.file && e.op == operator_name(r.candidate.mutation.op) &&
        e.before == r.candidate.text.before && e.after == r.candidate.text.after) {
      return &e;
    }
  }
  return nullptr;
}

std::pair<double, double> Score::interval95() const {
  const double n = static_cast<double>(detected + survived + not_covered - equivalent);
  if (n == 0) return {0, 100};
  // Wilson's score interval: unlike p ± 1.96·sqrt(p(1-p)/n) it stays within [0, 1] and is not
  // empty at a score of 100 %.
  const double z = 1.959964, p = static_cast<double>(detected) / n;
  const double centre = (p + z * z / (2 * n)) / (1 + z * z / n);
  const double half = z / (1 + z * z / n) * std::sqrt(p * (1 - p) / n + z * z / (4 * n * n));
  return {100 * std::max(0.0, centre - half), 100 * std::min(1.0, centre + half)};
}

double Score::percent() const {
  const size_t counted = detected + survived + not_covered - equivalent;
  return counted == 0 ? 100.0 : 100.0 * static_cast<double>(detected) / static_cast<double>(counted);
}

Score score_of(const std::vector<MutantRecord>& records, const std::vector<TriageEntry>& triage) {
  Score s;
  for (const MutantRecord& r : records) {
    if (detected(r.outcome.status)) ++s.detected;
    if (r.outcome.status == Status::BuildFailure) ++s.build_failures;
    if (r.outcome.status != Status::Survived && r.outcome.status != Status::NotCovered) continue;
    ++(r.outcome.status == Status::Survived ? s.survived : s.not_covered);
    const TriageEntry* t = triage_of(r, triage);
    if (t && t->verdict == "equivalent") ++s.equivalent;
  }
  return s;
}

std::string report_markdown(const RunSummary& run, const std::vector<MutantRecord>& records,
                            const std::vector<TriageEntry>& triage) {
  const Score score = score_of(records, triage);
  std::ostringstream out;
  out << "# Mutation report\n\n"
      << "Made by `" << run.command << "` (seed " << run.seed << "); each mutant ran `" << run.gate_command
      << "` on the schema build, or on a build of its own where no schema expresses it.\n\n"
      << "Files: ";
  for (size_t i = 0; i < run.files.size(); ++i) out << (i ? ", " : "") << code(run.files[i]);
  out << ".\n\n"
      << "| | |\n|---|---|\n"
      << "| scope | " << scope_text(run, score) << " |\n"
      << "| mutations of the files | " << run.enumerated << " |\n"
      << "| planned (filters, shard, --max-mutants) | " << run.planned << " |\n"
      << "| run | " << records.size() << (run.stopped_by_time_limit ? " (stopped by --time-limit)" : "") << " |\n"
      << "| detected (killed, timeout, crashed) | " << score.detected << " |\n"
      << "| survived (the gate ran over the mutated code) | " << score.survived << " |\n"
      << "| not covered (no unmutated gate run reaches the site; not run) | " << score.not_covered << " |\n"
      << "| of these, triaged equivalent | " << score.equivalent << " |\n"
      << "| build failures (not counted) | " << score.build_failures << " |\n"
      << "| **mutation score** (detected / non-equivalent) | **" << fixed(score.percent(), 1) << " %** |\n";
  double build = 0, gate = 0;
  size_t built = 0, own_builds = 0;
  for (const MutantRecord& r : records) {
    build += r.outcome.build_seconds;
    own_builds += r.outcome.own_build;
    if (r.outcome.status == Status::BuildFailure) continue;
    gate += r.outcome.gate_seconds;
    ++built;
  }
  out << "| mutants of the schema build / with a build of their own | " << records.size() - own_builds << " / "
      << own_builds << " (" << run.schema_left_out << " of the files' mutations have no schema) |\n"
      << "| schema build (once) | " << fixed(run.schema_build_seconds, 1) << " s |\n"
      << "| time per mutant: own rebuild / gate (mean) | " << fixed(mean(build, own_builds), 1) << " s / "
      << fixed(mean(gate, built), 1) << " s |\n"
      << "| unmutated baseline: rebuild / gate | " << fixed(run.baseline_build_seconds, 1) << " s / "
      << fixed(run.baseline_gate_seconds, 1) << " s |\n"
      << "| wall time / CPU time of its builds and gates | " << fixed(run.wall_seconds / 60, 1) << " min / "
      << fixed(run.cpu_seconds / 60, 1) << " min (" << run.jobs << (run.jobs == 1 ? " mutant" : " mutants")
      << " at a time) |\n\n";

  std::map<std::string, Tally> by_operator, by_file;
  for (const MutantRecord& r : records) {
    by_operator[operator_name(r.candidate.mutation.op)].add(r.outcome.status);
    by_file[r.candidate.file].add(r.outcome.status);
  }
  for (const auto& [title, tallies] : {std::pair{"operator", &by_operator}, std::pair{"file", &by_file}}) {
    out << "| " << title << " | run | detected | survived | not covered | build failures |\n|---|---|---|---|---|---|\n";
    for (const auto& [name, t] : *tallies) {
      out << "| " << name << " | " << t.total << " | " << t.noticed << " | " << t.survived << " | " << t.not_covered << " | "
          << t.build_failures << " |\n";
    }
    out << "\n";
  }

  out << "## Survivors\n\n";
  if (score.survived == 0) out << "None.\n";
  for (const MutantRecord& r : records) {
    if (r.outcome.status != Status::Survived) continue;
    const Candidate& c = r.candidate;
    out << "### " << c.file << ":" << c.mutation.line << " — " << operator_name(c.mutation.op) << "\n\n"
        << "- before: " << code(c.text.before) << "\n- after:  " << code(c.text.after) << "\n";
    if (const TriageEntry* t = triage_of(r, triage)) {
      out << "- triage: **" << t->verdict << "** — " << t->reason << "\n";
    } else {
      out << "- triage: **not triaged**\n";
    }
    out << "\n<details><summary>gate output (last lines)</summary>\n\n```\n" << r.outcome.output_tail << "```\n</details>\n\n";
  }
  out << "## Not covered\n\nNo unmutated gate run reached these sites, so no gate run could tell them from the "
         "original.\n\n| where | operator | before | after | triage |\n|---|---|---|---|---|\n";
  for (const MutantRecord& r : records) {
    if (r.outcome.status != Status::NotCovered) continue;
    const Candidate& c = r.candidate;
    const TriageEntry* t = triage_of(r, triage);
    out << "| " << c.file << ":" << c.mutation.line << " | " << operator_name(c.mutation.op) << " | " << code(c.text.before)
        << " | " << code(c.text.after) << " | " << (t ? t->verdict + " — " + t->reason : "not triaged") << " |\n";
  }
  out << "\n## Detected\n\n| where | operator | after | how |\n|---|---|---|---|\n";
  for (const MutantRecord& r : records) {
    if (!detected(r.outcome.status)) continue;
    const Candidate& c = r.candidate;
    const std::string how = r.outcome.status == Status::Killed ? r.outcome.killed_by : status_name(r.outcome.status);
    out << "| " << c.file << ":" << c.mutation.line << " | " << operator_name(c.mutation.op) << " | "
        << code(c.text.after) << " | " << how << " |\n";
  }
  return out.str();
}

nlohmann::json mutant_json(const MutantRecord& r, const std::vector<TriageEntry>& triage) {
  const Candidate& c = r.candidate;
  nlohmann::json m = {{"file", c.file},
                      {"line", c.mutation.line},
                      {"column", c.mutation.column},
                      {"operator", operator_name(c.mutation.op)},
                      {"before", c.text.before},
                      {"after", c.text.after},
                      {"status", status_name(r.outcome.status)},
                      {"buildSeconds", r.outcome.build_seconds},
                      {"gateSeconds", r.outcome.gate_seconds}};
  if (r.outcome.exit_code) m["exitCode"] = *r.outcome.exit_code;
  if (r.outcome.own_build) m["ownBuild"] = true;
  if (!r.outcome.gate_phases.empty()) m["gatePhases"] = r.outcome.gate_phases;
  if (!r.outcome.killed_by.empty()) m["killedBy"] = r.outcome.killed_by;
  if (r.outcome.status == Status::NotCovered) {
    if (const TriageEntry* t = triage_of(r, triage)) m["triage"] = {{"verdict", t->verdict}, {"reason", t->reason}};
  }
  if (r.outcome.status == Status::Survived) {
    m["outputTail"] = r.outcome.output_tail;
    if (const TriageEntry* t = triage_of(r, triage)) m["triage"] = {{"verdict", t->verdict}, {"reason", t->reason}};
  }
  return m;
}

MutantRecord mutant_from_json(const nlohmann::json& m, bool own_build_by_default) {
  MutantRecord r;
  try {
    r.candidate.file = m.at("file").get<std::string>();
    r.candidate.mutation.line = m.at("line").get<size_t>();
    r.candidate.mutation.column = m.at("column").get<size_t>();
    const auto op = operator_from_name(m.at("operator").get<std::string>());
    const auto status = status_from_name(m.at("status").get<std::string>());
    if (!op || !status) throw std::runtime_error("unknown operator or status in " + m.dump());
    r.candidate.mutation.op = *op;
    r.candidate.text = {m.at("before").get<std::string>(), m.at("after").get<std::string>()};
    r.outcome.status = *status;
    r.outcome.build_seconds = m.at("buildSeconds").get<double>();
    r.outcome.gate_seconds = m.at("gateSeconds").get<double>();
    if (m.contains("exitCode")) r.outcome.exit_code = m["exitCode"].get<int>();
    r.outcome.own_build = m.value("ownBuild", own_build_by_default);
    r.outcome.gate_phases = m.value("gatePhases", std::vector<std::string>{});
    r.outcome.killed_by = m.value("killedBy", "");
    r.outcome.output_tail = m.value("outputTail", "");
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(std::string("not a skipsound-mutate mutant record: ") + e.what());
  }
  return r;
}

nlohmann::json report_json(const RunSummary& run, const std::vector<MutantRecord>& records,
                           const std::vector<TriageEntry>& triage) {
  const Score score = score_of(records, triage);
  nlohmann::json j = {{"command", run.command},
                      {"seed", run.seed},
                      {"files", run.files},
                      {"gateCommand", run.gate_command},
                      {"enumerated", run.enumerated},
                      {"planned", run.planned},
                      {"run", records.size()},
                      {"stoppedByTimeLimit", run.stopped_by_time_limit},
                      {"detected", score.detected},
                      {"survived", score.survived},
                      {"notCovered", score.not_covered},
                      {"equivalent", score.equivalent},
                      {"buildFailures", score.build_failures},
                      {"score", score.percent()},
                      {"scope", scope_name(run)},
                      {"mergedRuns", run.merged_runs},
                      {"changedSince", run.changed_since},
                      {"schemaBuildSeconds", run.schema_build_seconds},
                      {"schemaLeftOut", run.schema_left_out},
                      {"baseline", {{"buildSeconds", run.baseline_build_seconds}, {"gateSeconds", run.baseline_gate_seconds}}},
                      {"wallSeconds", run.wall_seconds},
                      {"cpuSeconds", run.cpu_seconds},
                      {"jobs", run.jobs}};
  if (run.sampled) {
    const auto [low, high] = score.interval95();
    j["scoreInterval95"] = {low, high};
  }
  j["mutants"] = nlohmann::json::array();
  for (const MutantRecord& r : records) j["mutants"].push_back(mutant_json(r, triage));
  return j;
}

bool same_mutation(const Candidate& a, const Candidate& b) {
  return a.file == b.file && a.mutation.op == b.mutation.op && a.text.before == b.text.before &&
         a.text.after == b.text.after;
}

RecordedRun read_report_json(const nlohmann::json& j) {
  RecordedRun run;
  try {
    RunSummary& s = run.summary;
    s.command = j.at("command").get<std::string>();
    s.seed = j.at("seed").get<uint64_t>();
    s.files = j.at("files").get<std::vector<std::string>>();
    s.gate_command = j.at("gateCommand").get<std::string>();
    s.enumerated = j.at("enumerated").get<size_t>();
    s.planned = j.at("planned").get<size_t>();
    s.stopped_by_time_limit = j.at("stoppedByTimeLimit").get<bool>();
    s.baseline_build_seconds = j.at("baseline").at("buildSeconds").get<double>();
    s.baseline_gate_seconds = j.at("baseline").at("gateSeconds").get<double>();
    s.wall_seconds = j.at("wallSeconds").get<double>();
    s.cpu_seconds = j.value("cpuSeconds", 0.0);
    s.jobs = j.value("jobs", size_t{1});
    s.schema_build_seconds = j.value("schemaBuildSeconds", 0.0);
    s.schema_left_out = j.value("schemaLeftOut", size_t{0});
    s.sampled = j.value("scope", "") == "sample";
    s.merged_runs = j.value("mergedRuns", size_t{1});
    s.changed_since = j.value("changedSince", "");
    const bool schema_run = j.contains("schemaBuildSeconds");  // earlier runs built every mutant
    for (const nlohmann::json& m : j.at("mutants")) {
      run.records.push_back(mutant_from_json(m, !schema_run));
    }
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(std::string("not a skipsound-mutate report: ") + e.what());
  }
  return run;
}

RecordedRun merge_runs(const std::vector<RecordedRun>& runs) {
  if (runs.empty()) throw std::invalid_argument("no runs to merge");
  RecordedRun merged = runs.front();
  for (size_t i = 1; i < runs.size(); ++i) {
    const RunSummary& s = runs[i].summary;
    RunSummary& m = merged.summary;
    for (const std::string& f : s.files) {
      if (std::find(m.files.begin(), m.files.end(), f) == m.files.end()) m.files.push_back(f);
    }
    m.enumerated = std::max(m.enumerated, s.enumerated);  // shards and slices of one scope
    m.planned += s.planned;
    m.wall_seconds += s.wall_seconds;
    m.cpu_seconds += s.cpu_seconds;
    m.jobs = std::max(m.jobs, s.jobs);
    m.schema_build_seconds += s.schema_build_seconds;
    m.schema_left_out = std::max(m.schema_left_out, s.schema_left_out);
    m.stopped_by_time_limit = m.stopped_by_time_limit || s.stopped_by_time_limit;
    m.sampled = m.sampled || s.sampled;
    m.merged_runs += s.merged_runs;
    // A mutant in two runs (a re-judging) keeps its later record.
    for (const MutantRecord& r : runs[i].records) {
      std::erase_if(merged.records, [&](const MutantRecord& old) { return same_mutation(old.candidate, r.candidate); });
      merged.records.push_back(r);
    }
  }
  std::sort(merged.summary.files.begin(), merged.summary.files.end());
  return merged;
}

namespace {

bool recorded_with(const RecordedRun& recorded, const Candidate& c, bool survivors_only) {
  return std::any_of(recorded.records.begin(), recorded.records.end(), [&](const MutantRecord& r) {
    return (!survivors_only || r.outcome.status == Status::Survived) && same_mutation(r.candidate, c);
  });
}

}  // namespace

std::vector<Candidate> survivors_among(const std::vector<Candidate>& candidates, const RecordedRun& recorded) {
  std::vector<Candidate> out;
  for (const Candidate& c : candidates) {
    if (recorded_with(recorded, c, true)) out.push_back(c);
  }
  return out;
}

std::vector<Candidate> not_run_in(std::vector<Candidate> candidates, const RecordedRun& recorded) {
  std::erase_if(candidates, [&](const Candidate& c) { return recorded_with(recorded, c, false); });
  return candidates;
}

}  // namespace skipsound::mutation
