#include "proofs/perfile/skip_judgement.h"

#include "model/sql/row.h"
#include "model/stats/stats.h"
#include "proofs/common/decision_text.h"
#include "model/values/exact_json.h"

namespace skipsound::cli {

namespace {

std::string joined(const std::vector<std::string>& parts) {
  std::string text;
  for (const std::string& p : parts) text += (text.empty() ? "" : "; ") + p;
  return text;
}

std::string stats_text(const JudgedFile& file) {
  if (!file.stats) return "none (the file carries no stats)";
  return dump_json(stats_to_json(*file.stats, *file.schema));
}

std::string witness_text(const Row& witness, const Schema& schema) { return dump_json(row_to_json(witness, schema)); }

void print_unsound_skip_report(std::ostream& out, const JudgedFile& file) {
  const smt::Sat& sat = std::get<smt::Sat>(file.oracle);
  const Row& witness = sat.witness;
  out << "----------------------------------------\n"
      << "UNSOUND SKIP: " << file.name << "\n"
      << "predicate:   " << file.predicate << "\n"
      << "file stats:  " << stats_text(file) << "\n"
      << "witness row: " << witness_text(witness, *file.schema) << smt::calls_text(sat) << "\n"
      << "  (consistent with the stats, and the predicate evaluates to TRUE on it)\n"
      << "decision:    SKIP by " << file.decided_by << "\n"
      << "skipping expression (skipsound's, " << verdict_name(file.production.verdict)
      << "): " << file.production.expression << "\n";
  if (file.production.evaluation) print_skip_trace(out, *file.production.evaluation);
  out << "  verification: " << verification_text(file.production.verification, *file.schema) << "\n"
      << "ERROR: the file was skipped, but a row it may hold matches the predicate\n"
      << "----------------------------------------\n";
}

}  // namespace

const char* judgement_name(Judgement j) {
  switch (j) {
    case Judgement::ProvedSkip: return "proved skip";
    case Judgement::Keep: return "keep";
    case Judgement::MissedSkip: return "missed skip";
    case Judgement::UnsoundSkip: return "UNSOUND SKIP";
    case Judgement::Unknown: return "unknown";
    case Judgement::InternalError: return "INTERNAL ERROR";
    case Judgement::ImpossibleStats: return "impossible stats";
    case Judgement::Decode: return "DECODE";
  }
  return "?";
}

bool is_finding(Judgement j) {
  return j == Judgement::UnsoundSkip || j == Judgement::InternalError || j == Judgement::Decode;
}

Judgement judge(FileVerdict decision, const smt::OracleResult& oracle) {
  const bool skipped = decision == FileVerdict::Skip;
  switch (smt::verdict_of(oracle)) {
    case smt::OracleVerdict::Unsat: return skipped ? Judgement::ProvedSkip : Judgement::MissedSkip;
    case smt::OracleVerdict::Sat: return skipped ? Judgement::UnsoundSkip : Judgement::Keep;
    case smt::OracleVerdict::Unknown: return Judgement::Unknown;
    case smt::OracleVerdict::InternalError: return Judgement::InternalError;
    case smt::OracleVerdict::ImpossibleStats: return Judgement::ImpossibleStats;
  }
  return Judgement::Unknown;
}

Judgement judge(FileVerdict decision, const smt::OracleResult& oracle, const std::vector<smt::DecodeDifference>& decode) {
  return decode.empty() ? judge(decision, oracle) : Judgement::Decode;
}

std::string judgement_line(const JudgedFile& file) {
  const Schema& schema = *file.schema;
  switch (file.judgement) {
    case Judgement::Decode: {
      std::vector<std::string> parts;
      for (const smt::DecodeDifference& d : file.decode) parts.push_back(smt::describe_difference(d, schema));
      JudgedFile on_oracle_reading = file;
      on_oracle_reading.judgement = judge(file.decision, file.oracle);
      return "DECODE (" + joined(parts) + "; on the oracle's reading: " + judgement_line(on_oracle_reading) + ")";
    }
    case Judgement::ProvedSkip: return "SKIP, proved (" + joined(std::get<smt::Unsat>(file.oracle).reason) + ")";
    case Judgement::Keep:
      return "KEEP (a row may match: " + witness_text(std::get<smt::Sat>(file.oracle).witness, schema) +
             smt::calls_text(std::get<smt::Sat>(file.oracle)) + ")";
    case Judgement::MissedSkip:
      return "KEEP, missed skip (no row can match: " + joined(std::get<smt::Unsat>(file.oracle).reason) + ")";
    case Judgement::UnsoundSkip:
      return "UNSOUND SKIP (witness row " + witness_text(std::get<smt::Sat>(file.oracle).witness, schema) +
             smt::calls_text(std::get<smt::Sat>(file.oracle)) + ")";
    case Judgement::Unknown:
      return std::string("UNKNOWN (") + verdict_name(file.decision) + " not judged: " +
             std::get<smt::Unknown>(file.oracle).reason + ")";
    case Judgement::InternalError: return smt::describe(file.oracle, schema);
    case Judgement::ImpossibleStats:
      return std::string("IMPOSSIBLE STATS (") + verdict_name(file.decision) +
             " not judged: no writer stores these stats: " + std::get<smt::ImpossibleStats>(file.oracle).reason +
             ")";
  }
  return "?";
}

void print_judged_file(std::ostream& out, const JudgedFile& file) {
  out << file.name << ": " << judgement_line(file) << "\n";
  if (file.judgement == Judgement::UnsoundSkip) print_unsound_skip_report(out, file);
}

nlohmann::json judged_file_json(const JudgedFile& file) {
  nlohmann::json j{{"file", file.name},
                   {"predicate", file.predicate},
                   {"decision", verdict_name(file.decision)},
                   {"decided_by", file.decided_by},
                   {"judgement", judgement_name(file.judgement)},
                   {"finding", is_finding(file.judgement)},
                   {"oracle", smt::describe(file.oracle, *file.schema)},
                   {"stats", file.stats ? stats_to_json(*file.stats, *file.schema) : nlohmann::json()},
                   {"expression", file.production.expression},
                   {"verification", verification_text(file.production.verification, *file.schema)}};
  if (const auto* sat = std::get_if<smt::Sat>(&file.oracle)) {
    j["witness"] = row_to_json(sat->witness, *file.schema);
    for (const smt::CallValue& c : sat->calls) j["calls"][c.name] = value_to_json(c.value);
  }
  if (const auto* unsat = std::get_if<smt::Unsat>(&file.oracle)) j["reason"] = unsat->reason;
  if (file.production.evaluation) j["evaluation"] = skip_trace_json(*file.production.evaluation);
  for (const smt::DecodeDifference& d : file.decode) {
    j["decode"].push_back({{"stat", smt::stat_name(d, *file.schema)},
                           {"text", d.text},
                           {"oracle", d.oracle ? value_to_json(*d.oracle) : nlohmann::json()},
                           {"production", d.production ? value_to_json(*d.production) : nlohmann::json()}});
  }
  return j;
}

bool JudgementTally::has_finding() const {
  return count(Judgement::UnsoundSkip) > 0 || count(Judgement::InternalError) > 0 || count(Judgement::Decode) > 0;
}

std::string JudgementTally::summary_line() const {
  int total = 0;
  for (const int c : counts_) total += c;
  std::string text = "Summary: " + std::to_string(total) + (total == 1 ? " file" : " files");
  for (int i = 0; i < kJudgementCount; ++i) {
    const auto j = static_cast<Judgement>(i);
    if ((j == Judgement::InternalError || j == Judgement::ImpossibleStats || j == Judgement::Decode) && count(j) == 0) continue;
    text += (i == 0 ? ": " : ", ") + std::to_string(count(j)) + " " + judgement_name(j);
  }
  return text;
}

nlohmann::json JudgementTally::json() const {
  nlohmann::json j = nlohmann::json::object();
  for (int i = 0; i < kJudgementCount; ++i) j[judgement_name(static_cast<Judgement>(i))] = counts_[i];
  return j;
}

}  // namespace skipsound::cli
