#include "proofs/report/decision_section.h"

#include "model/sql/printer.h"
#include "model/stats/stats.h"
#include "model/values/exact_json.h"
#include "proofs/report/html_page.h"

namespace skipsound::html {

namespace {

std::string value_text(const Value& v) { return v.is_null() ? "NULL" : to_sql_literal(v); }

// The skipping expression as a tree, one part a row, indented by depth, with its value.
void trace_rows(const SkipTrace& trace, int depth, std::string& out) {
  const std::string value = value_text(trace.value);
  const std::string cls = value == "TRUE" ? "true" : value == "FALSE" ? "false" : "";
  out += "<tr><td style=\"padding-left:" + std::to_string(0.5 + 1.5 * depth) + "em\">" + escape_markup(trace.text) +
         "</td>" + element("td", cls, value) + "</tr>\n";
  for (const SkipTrace& child : trace.children) trace_rows(child, depth + 1, out);
}

std::string file_rows_html(const Schema& schema, const generators::GeneratedFile& file) {
  std::vector<bool> deleted(file.deleted.begin(), file.deleted.end());
  return "<details><summary>the file's " + std::to_string(file.rows.size()) + " rows (" +
         std::to_string(file.dv_cardinality()) + " deleted by its DV, highlighted)</summary>\n" +
         rows_table(schema, file.rows, deleted) + "</details>\n";
}

}  // namespace

std::string decision_html(const DecisionFinding& f) {
  const Schema& schema = f.table.schema;
  const FileDecision& data = f.check.production.data;
  std::string out = element("p", "headline", f.headline);
  out += "<table class=\"facts\"><tr><td>predicate</td><td>" + element("code", "", to_sql(f.predicate)) + "</td></tr>\n";
  out += "<tr><td>outcome</td><td>" + escape_markup(outcome_name(f.check.outcome)) + "</td></tr>\n";
  out += "<tr><td>production verdict</td><td>" + escape_markup(verdict_name(f.check.production.verdict)) + " — " +
         escape_markup(f.check.production.reason) + "</td></tr>\n";
  out += "<tr><td>mutant</td><td>" + escape_markup(mutant_name(f.origin.mutant)) + "</td></tr>\n";
  if (f.origin.seed) out += "<tr><td>seed</td><td>" + std::to_string(*f.origin.seed) + "</td></tr>\n";
  if (!f.origin.replay_command.empty()) {
    out += "<tr><td>replay</td><td>" + element("code", "", f.origin.replay_command) + "</td></tr>\n";
  }
  out += "</table>\n";
  out += element("h4", "", "file stats (" + std::string(generators::stats_history_name(f.file.history)) + ", DV cardinality " +
                               std::to_string(f.file.dv_cardinality()) + ")");
  out += element("pre", "", dump_json(stats_to_json(f.file.stats, schema)));
  out += file_rows_html(schema, f.file);
  out += element("h4", "", "skipping expression, each part's value on the stats");
  if (data.evaluation) {
    out += "<table class=\"grid trace\"><tr><th>part</th><th>value</th></tr>\n";
    trace_rows(*data.evaluation, 0, out);
    out += "</table>\n";
  } else {
    out += element("p", "", data.expression);
  }
  out += element("p", "", std::string("stats verification: ") +
                              (data.verification.outcome == VerificationOutcome::Passed ? "passed" : "failed") +
                              (data.verification.missing ? " (missing " + to_string(*data.verification.missing, schema) + ")" : ""));
  if (f.check.witness) {
    out += element("h4", "", "witness row (" + f.check.witness_source + ")") + rows_table(schema, {*f.check.witness}, {true});
    if (!f.check.witness_problem.empty()) out += element("p", "headline", "rejected: " + f.check.witness_problem);
  }
  if (f.check.oracle) out += element("p", "", "oracle: " + smt::describe(*f.check.oracle, schema));
  return out;
}

}  // namespace skipsound::html
