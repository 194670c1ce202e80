#include "proofs/gate/gate_coverage.h"

#include <sstream>

#include <nlohmann/json.hpp>

namespace skipsound {

namespace {

const char* need_name(coverage::Need need) {
  switch (need) {
    case coverage::Need::Required: return "required";
    case coverage::Need::Finding: return "finding";
    case coverage::Need::Unreachable: return "unreachable";
  }
  return "?";
}

std::string row_name(const CoverageRow& row) { return std::string(row.info.section) + ": " + row.info.name; }

bool is_rule(const CoverageRow& row) { return std::string(row.info.section) == "§5 rule"; }

}  // namespace

std::vector<std::string> GateCoverage::unreached() const {
  std::vector<std::string> out;
  for (const CoverageRow& row : rows) {
    if (row.info.need == coverage::Need::Required && row.hits == 0) out.push_back(row_name(row));
  }
  return out;
}

GateCoverage coverage_since(const coverage::Counts& before, bool required) {
  const coverage::Counts gained = coverage::snapshot().since(before);
  GateCoverage out;
  out.required = required;
  for (const coverage::ProbeInfo& info : coverage::probe_catalogue()) {
    const auto i = static_cast<size_t>(info.probe);
    out.rows.push_back(CoverageRow{info, gained.hits[i], gained.skips[i]});
  }
  return out;
}

std::string coverage_table_text(const GateCoverage& c) {
  std::ostringstream out;
  out << "coverage (hits in this run; §5 rules: reached / took part in a skip)";
  if (!c.required) out << ", not required of a reduced run";
  out << "\n";
  std::string section;
  for (const CoverageRow& row : c.rows) {
    if (row.info.section != section) {
      section = row.info.section;
      out << "  " << section << "\n";
    }
    std::string count = std::to_string(row.hits);
    if (is_rule(row)) count += " / " + std::to_string(row.skips);
    out << "    " << count << std::string(count.size() < 16 ? 16 - count.size() : 1, ' ') << row.info.name;
    if (row.info.need == coverage::Need::Finding) out << "  (only a bug reaches it)";
    if (row.info.need == coverage::Need::Unreachable) out << "  (not required: " << row.info.why << ")";
    if (row.info.need == coverage::Need::Required && row.hits == 0) out << "  NEVER REACHED";
    out << "\n";
  }
  return out.str();
}

nlohmann::json coverage_json(const GateCoverage& c) {
  nlohmann::json rows = nlohmann::json::array();
  for (const CoverageRow& row : c.rows) {
    nlohmann::json j = {{"section", row.info.section}, {"name", row.info.name}, {"need", need_name(row.info.need)},
                        {"hits", row.hits}};
    if (is_rule(row)) j["skips"] = row.skips;
    if (row.info.need == coverage::Need::Unreachable) j["why"] = row.info.why;
    rows.push_back(std::move(j));
  }
  return {{"required", c.required}, {"rows", rows}, {"unreached", c.unreached()}};
}

}  // namespace skipsound
