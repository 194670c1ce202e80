#include "tools/mutate/campaign_journal.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace skipsound::mutation {

CampaignJournal::CampaignJournal(std::string path, bool resume) : path_(std::move(path)) {
  if (!resume) return;
  std::ifstream in(path_);
  std::map<size_t, std::pair<double, double>> session_seconds;  // wall, CPU
  std::string line;
  for (size_t number = 1; std::getline(in, line); ++number) {
    if (line.empty()) continue;
    const nlohmann::json entry = nlohmann::json::parse(line, nullptr, false);
    if (entry.is_discarded()) {
      if (in.peek() == std::char_traits<char>::eof()) break;  // torn by a kill mid-write
      throw std::runtime_error(path_ + ":" + std::to_string(number) + ": not a JSON line");
    }
    try {
      const size_t session = entry.at("session").get<size_t>();
      auto& [wall, cpu] = session_seconds[session];
      wall = std::max(wall, entry.at("sessionSeconds").get<double>());
      cpu = std::max(cpu, entry.value("sessionCpuSeconds", 0.0));
      earlier_.push_back(mutant_from_json(entry.at("mutant"), false));
      session_ = std::max(session_, session + 1);
    } catch (const std::exception& e) {
      throw std::runtime_error(path_ + ":" + std::to_string(number) + ": " + e.what());
    }
  }
  for (const auto& [session, seconds] : session_seconds) {
    earlier_wall_seconds_ += seconds.first;
    earlier_cpu_seconds_ += seconds.second;
  }
}

void CampaignJournal::start_afresh() {
  std::filesystem::create_directories(std::filesystem::absolute(path_).parent_path());
  std::ofstream truncate(path_, std::ios::trunc);
  if (!truncate) throw std::runtime_error("cannot write " + path_);
  earlier_.clear();
  earlier_wall_seconds_ = 0;
  earlier_cpu_seconds_ = 0;
  session_ = 0;
}

void CampaignJournal::append(const MutantRecord& record, double session_seconds, double session_cpu_seconds) {
  std::ofstream out(path_, std::ios::app);
  out << nlohmann::json{{"session", session_},
                        {"sessionSeconds", session_seconds},
                        {"sessionCpuSeconds", session_cpu_seconds},
                        {"mutant", mutant_json(record, {})}}
             .dump()
      << "\n";
  if (!out.flush()) throw std::runtime_error("cannot append to " + path_);
}

}  // namespace skipsound::mutation
