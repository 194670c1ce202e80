#include "proofs/scenario/live_stats_audit.h"

#include <set>
#include <utility>

namespace skipsound {

namespace {

std::vector<bool> deleted_rows(const TableFile& file) {
  std::vector<bool> deleted(static_cast<size_t>(file.physical_count()), false);
  for (uint32_t r : file.deleted) {
    if (r < deleted.size()) deleted[r] = true;
  }
  return deleted;
}

// Appended piece by piece: GCC 12 warns falsely (-Wrestrict) on "v" + std::to_string(…) at -O3.
std::string file_text(int64_t version, const TableFile& file) {
  std::string text = "v";
  text += std::to_string(version);
  text += ' ';
  text += file.path;
  if (!file.deleted.empty()) {
    text += " (DV of ";
    text += std::to_string(file.deleted.size());
    text += file.deleted.size() == 1 ? " row)" : " rows)";
  }
  return text;
}

}  // namespace

std::vector<LiveStatsFinding> audit_live_stats(const ScheduleRun& run) {
  std::vector<LiveStatsFinding> findings;
  std::set<std::pair<std::string, DeletedRows>> audited;  // (path, DV): a file's stats never change
  for (const Table& table : run.versions) {
    for (const TableFile& file : table.files()) {
      if (!file.stats || !file.rows || !audited.insert({file.path, file.deleted}).second) continue;
      const AuditedFile audited_file{&*file.stats, &*file.rows, deleted_rows(file)};
      for (StatsClaimFinding& claim : audit_file_stats(table.schema(), audited_file)) {
        std::string text = file_text(table.version(), file) + ": " + claim_text(claim, table.schema()) + ": " +
                           refutation_text(claim, table.schema(), audited_file);
        findings.push_back({table.version(), file.path, file.deleted.size(), std::move(claim), std::move(text)});
      }
    }
  }
  return findings;
}

}  // namespace skipsound
