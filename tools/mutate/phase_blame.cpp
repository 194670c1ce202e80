#include "tools/mutate/phase_blame.h"

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

namespace skipsound::mutation {

std::set<size_t> read_reached(const std::string& path) {
  std::set<size_t> ids;
  std::ifstream in(path);
  for (size_t id; in >> id;) ids.insert(id);
  return ids;
}

std::vector<std::string> PhaseBlame::phases_for(size_t id) const {
  std::vector<std::string> reaching;
  for (const std::string& phase : phases) {
    if (reached.at(phase).count(id)) reaching.push_back(phase);
  }
  if (reaching.size() == phases.size()) return {};
  return reaching;
}

std::vector<std::string> phases_run(const std::string& gate_json) {
  std::ifstream in(gate_json);
  const nlohmann::json report = nlohmann::json::parse(in, nullptr, false);
  std::vector<std::string> phases;
  if (!report.is_object() || !report.contains("phases") || !report["phases"].is_array()) return phases;
  for (const nlohmann::json& p : report["phases"]) {
    const std::string name = p.value("phase", "");
    if (name == "corpus") {
      // Its parts are blamed apart (proofs/gate/gate.h, kCorpusParts): the bad inputs start a
      // skipsound process each and reach far fewer sites than the scenarios.
      phases.insert(phases.end(), {"scenarios", "skip-suites", "bad-inputs"});
    } else if (!name.empty() && name != "proofs") {
      phases.push_back(name);
    }
  }
  return phases;
}

RunConfig with_phases(RunConfig config, const std::vector<std::string>& phases) {
  for (const std::string& phase : phases) config.gate_command.insert(config.gate_command.end(), {"--phase", phase});
  return config;
}

PhaseBlame blame_phases(const RunConfig& config, const std::string& work_dir) {
  PhaseBlame blame;
  const std::vector<std::string> phases = phases_run(config.gate_json);
  if (phases.size() < 2) return blame;
  for (const std::string& phase : phases) {
    const std::string reached_file = (std::filesystem::path(work_dir) / ("reached-in-" + phase + ".txt")).string();
    if (run_schema_mutant(with_phases(config, {phase}), -1, reached_file).status != Status::Survived) return {};
    blame.reached[phase] = read_reached(reached_file);
  }
  blame.phases = phases;
  return blame;
}

}  // namespace skipsound::mutation
