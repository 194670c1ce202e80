#include "model/mutants/mutant.h"

#include <utility>

namespace skipsound {

namespace {

constexpr std::pair<Mutant, const char*> kNames[] = {
    {Mutant::None, "none"},
    {Mutant::SkipMissingStats, "skip-missing-stats"},
    {Mutant::TrustWideNullcount, "trust-wide-nullcount"},
    {Mutant::NoTimestampMaxBump, "no-timestamp-max-bump"},
    {Mutant::StringMaxPlainPrefix, "string-max-plain-prefix"},
    {Mutant::IeeeNanOrder, "ieee-nan-order"},
    {Mutant::LeAsLt, "le-as-lt"},
    {Mutant::AppendSuppression, "append-suppression"},
    {Mutant::AndAcrossReads, "and-across-reads"},
    {Mutant::SkipWholeTableRead, "skip-whole-table-read"},
    {Mutant::EmptyReadsSkipAll, "empty-reads-skip-all"},
};

}  // namespace

const char* mutant_name(Mutant m) {
  for (const auto& [mutant, name] : kNames) {
    if (mutant == m) return name;
  }
  return "none";
}

std::optional<Mutant> mutant_from_name(std::string_view name) {
  for (const auto& [mutant, mutant_text] : kNames) {
    if (name == mutant_text) return mutant;
  }
  return std::nullopt;
}

const std::vector<Mutant>& all_mutants() {
  static const std::vector<Mutant> mutants = [] {
    std::vector<Mutant> out;
    for (const auto& [mutant, name] : kNames) {
      if (mutant != Mutant::None) out.push_back(mutant);
    }
    return out;
  }();
  return mutants;
}

bool is_per_file_mutant(Mutant m) {
  switch (m) {
    case Mutant::SkipMissingStats:
    case Mutant::TrustWideNullcount:
    case Mutant::NoTimestampMaxBump:
    case Mutant::StringMaxPlainPrefix:
    case Mutant::IeeeNanOrder:
    case Mutant::LeAsLt: return true;
    default: return false;
  }
}

bool is_conflict_mutant(Mutant m) { return m != Mutant::None && !is_per_file_mutant(m); }

}  // namespace skipsound
