#include "tools/mutate/baseline_record.h"

#include <cstdint>
#include <fstream>
#include <vector>

#include <nlohmann/json.hpp>

namespace skipsound::mutation {

namespace {

// Its size and a hash of its bytes: a per-mutant build relinks the binary from the restored source,
// which gives the same bytes under a new time.
std::string file_identity(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return path + " (absent)";
  uint64_t hash = 14695981039346656037ull, size = 0;  // FNV-1a
  std::vector<char> buffer(1 << 20);
  while (in.read(buffer.data(), static_cast<std::streamsize>(buffer.size())) || in.gcount() > 0) {
    for (std::streamsize i = 0; i < in.gcount(); ++i) hash = (hash ^ static_cast<unsigned char>(buffer[i])) * 1099511628211ull;
    size += static_cast<uint64_t>(in.gcount());
  }
  return path + " " + std::to_string(size) + " " + std::to_string(hash);
}

}  // namespace

std::string baseline_key(const std::string& normal_binary, const std::string& schema_binary,
                         const std::string& gate_arguments) {
  return file_identity(normal_binary) + "\n" + file_identity(schema_binary) + "\n" + gate_arguments;
}

void write_baseline_record(const std::string& path, const BaselineRecord& record) {
  nlohmann::json phases = nlohmann::json::object();
  for (const auto& [phase, ids] : record.blame.reached) phases[phase] = ids;
  const nlohmann::json j = {{"key", record.key},           {"reached", record.reached},
                            {"phases", record.blame.phases}, {"reachedByPhase", phases},
                            {"buildSeconds", record.build_seconds}, {"gateSeconds", record.gate_seconds}};
  std::ofstream(path, std::ios::trunc) << j.dump() << "\n";
}

std::optional<BaselineRecord> read_baseline_record(const std::string& path, const std::string& key) {
  std::ifstream in(path);
  const nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
  if (!j.is_object() || j.value("key", "") != key) return std::nullopt;
  try {
    BaselineRecord r;
    r.key = key;
    r.reached = j.at("reached").get<std::set<size_t>>();
    r.blame.phases = j.at("phases").get<std::vector<std::string>>();
    for (const std::string& phase : r.blame.phases) r.blame.reached[phase] = j.at("reachedByPhase").at(phase).get<std::set<size_t>>();
    r.build_seconds = j.at("buildSeconds").get<double>();
    r.gate_seconds = j.at("gateSeconds").get<double>();
    return r;
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;
  }
}

}  // namespace skipsound::mutation
