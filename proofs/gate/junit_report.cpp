#include "proofs/gate/junit_report.h"

#include <sstream>
#include <vector>

#include "proofs/gate/markup.h"

namespace skipsound {

namespace {

struct TestCase {
  std::string name;
  double seconds = 0;
  std::string failure;  // headline; empty = passed
  std::string details;  // the report, shown by CI next to the failure
};

void write_suite(std::ostringstream& out, const std::string& suite, const std::vector<TestCase>& cases) {
  size_t failures = 0;
  double seconds = 0;
  for (const TestCase& c : cases) {
    failures += c.failure.empty() ? 0 : 1;
    seconds += c.seconds;
  }
  out << "  <testsuite name=\"" << escape_markup(suite) << "\" tests=\"" << cases.size() << "\" failures=\""
      << failures << "\" time=\"" << seconds << "\">\n";
  for (const TestCase& c : cases) {
    out << "    <testcase classname=\"skipsound.gate." << escape_markup(suite) << "\" name=\"" << escape_markup(c.name)
        << "\" time=\"" << c.seconds << "\"";
    if (c.failure.empty()) {
      out << "/>\n";
      continue;
    }
    out << ">\n      <failure message=\"" << escape_markup(c.failure) << "\">" << escape_markup(c.details)
        << "</failure>\n    </testcase>\n";
  }
  out << "  </testsuite>\n";
}

}  // namespace

std::string gate_junit_xml(const GateReport& r) {
  std::vector<TestCase> corpus;
  for (const CorpusFileResult& c : r.corpus) {
    std::string problems;
    for (const CorpusProblem& p : c.problems) problems += problem_text(p) + "\n";
    corpus.push_back({c.file, c.seconds, c.failed() ? problem_text(c.problems.front()) : "", problems + c.report});
  }
  const std::vector<TestCase> per_file = {
      {"per-file properties", r.per_file.seconds,
       r.per_file.failing_cases ? std::to_string(r.per_file.failing_cases) + " failing cases" : "",
       r.per_file.first_failure}};
  std::vector<TestCase> categories;
  for (const CategoryResult& c : r.categories) {
    categories.push_back({world_category_name(c.category), c.stats.seconds,
                          c.finding ? c.finding->headline : "", c.finding ? c.finding->report : ""});
  }
  std::vector<TestCase> proofs;
  for (const ProofGroupResult& p : r.proofs) proofs.push_back({p.group, p.seconds, p.failed() ? p.group + " failed" : "", summary_to_text(p.summary)});
  std::vector<TestCase> mutants;
  for (const MutantResult& m : r.mutants) {
    mutants.push_back({mutant_name(m.mutant), m.seconds, m.killed() ? "" : std::string(mutant_name(m.mutant)) + " survived",
                       ""});
  }
  std::ostringstream out;
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"skipsound gate\" time=\"" << r.seconds << "\">\n";
  write_suite(out, "corpus", corpus);
  write_suite(out, "per-file", per_file);
  write_suite(out, "explorer", categories);
  if (!proofs.empty()) write_suite(out, "proofs", proofs);
  if (!mutants.empty()) write_suite(out, "mutants", mutants);
  out << "</testsuites>\n";
  return out.str();
}

}  // namespace skipsound
