#include "proofs/engines/engine_gate_json.h"

namespace skipsound::engines {

namespace {

using nlohmann::json;

json side_json(const SideCounts& s) {
  return {{"attempts", s.attempts}, {"aborts", s.aborts}, {"false_conflicts", s.false_conflicts}};
}

json category_json(generators::WorldCategory category, const EngineCategoryStats& s) {
  json findings = json::object();
  for (const auto& [kind, n] : s.findings) findings[engine_finding_name(kind)] = n;
  return {{"category", generators::world_category_name(category)},
          {"trials", s.trials},
          {"judged", s.ran},
          {"unsupported", s.unsupported},
          {"adapted", s.adapted},
          {"engine", side_json(s.engine)},
          {"skipsound", side_json(s.skipsound)},
          {"compared", s.compared},
          {"agreed", s.agreed},
          {"findings", findings},
          {"stats_dialect", s.stats_dialect},
          {"scan", {{"file_decisions", s.scan_file_decisions}, {"queries", s.scan_queries},
                    {"unsupported", s.scan_unsupported}}},
          {"cross_writer", {{"worlds", s.cross_writer_worlds}, {"foreign_files", s.foreign_files}}},
          {"seconds", s.seconds}};
}

}  // namespace

json engine_gate_json(const EngineGateResult& r) {
  json categories = json::array();
  for (const auto& [category, stats] : r.categories) categories.push_back(category_json(category, stats));
  json findings = json::array();
  for (const EngineTrialFinding& f : r.findings) {
    json one = {{"kind", engine_finding_name(f.finding.kind)},
                {"category", generators::world_category_name(f.category)},
                {"trial", f.index},
                {"headline", f.finding.headline}};
    if (f.finding.transaction) one["transaction"] = *f.finding.transaction;
    if (!f.finding.scan.is_null()) one["scan"] = f.finding.scan;
    if (f.shrink_steps > 0) one["shrink_steps"] = f.shrink_steps;
    findings.push_back(std::move(one));
  }
  return {{"engine", r.engine}, {"seed", r.seed}, {"seconds", r.seconds}, {"driver_starts", r.driver_starts},
          {"categories", categories}, {"findings", findings}};
}

}  // namespace skipsound::engines
