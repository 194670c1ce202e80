#include "proofs/report/html_report.h"

#include <algorithm>
#include <cmath>

#include "common/number_text.h"
#include "proofs/gate/gate_report.h"
#include "proofs/report/decision_section.h"
#include "proofs/report/html_page.h"
#include "proofs/report/run_section.h"

namespace skipsound {

namespace {

using html::element;

std::string verdict_badge(bool passed) {
  return passed ? "<span class=\"verdict pass\">PASSED</span>" : "<span class=\"verdict fail\">FAILED</span>";
}

std::string fact(const std::string& name, const std::string& value_html) {
  return "<tr><td>" + escape_markup(name) + "</td><td>" + value_html + "</td></tr>\n";
}

std::string replay_command(const GateReport& r) {
  return r.command.empty() ? "skipsound gate --seed " + std::to_string(r.seed) : r.command;
}

std::string header_html(const GateReport& r) {
  const std::vector<std::string> failures = r.failures();
  std::string out = "<h1>skipsound gate " + verdict_badge(failures.empty()) + "</h1>\n<table class=\"facts\">\n";
  out += fact("seed", std::to_string(r.seed));
  if (r.shard.count > 1) out += fact("shard", std::to_string(r.shard.index) + "/" + std::to_string(r.shard.count));
  out += fact("replay", element("code", "", replay_command(r)));
  out += fact("wall time", fixed(r.seconds, 1) + " s");
  out += "</table>\n";
  if (failures.empty()) return out + "<p>Nothing unsound, every mutant killed.</p>\n";
  out += element("h3", "", std::to_string(failures.size()) + " failures") + "<ul>\n";
  for (const std::string& f : failures) out += element("li", "headline", f) + "\n";
  return out + "</ul>\n";
}

// Each phase's span in the gate's wall time, its first finding marked.
std::string phases_html(const GateReport& r) {
  constexpr double kLeft = 120, kWidth = 600, kRow = 20;
  const double total = std::max(r.seconds, 1e-3);
  std::string content;
  std::string table = "<table class=\"grid\"><tr><th>phase</th><th>started (s)</th><th>seconds</th><th>first finding</th></tr>\n";
  for (size_t i = 0; i < r.phases.size(); ++i) {
    const PhaseTiming& p = r.phases[i];
    const double y = 8 + kRow * static_cast<double>(i);
    content += html::svg_text(8, y + 12, p.phase);
    content += "<rect class=\"bar1\" x=\"" + fixed(kLeft + kWidth * p.started / total, 1) + "\" y=\"" + fixed(y + 2, 1) +
               "\" width=\"" + fixed(std::max(1.0, kWidth * p.seconds / total), 1) + "\" height=\"12\"/>\n";
    std::string first = "-";
    if (p.first_finding) {
      first = "after " + fixed(*p.first_finding, 2) + " s";
      content += "<rect class=\"abort\" x=\"" + fixed(kLeft + kWidth * (p.started + *p.first_finding) / total - 1, 1) +
                 "\" y=\"" + fixed(y, 1) + "\" width=\"3\" height=\"16\"/>\n";
    }
    table += "<tr>" + element("td", "", p.phase) + element("td", "", fixed(p.started, 1)) +
             element("td", "", fixed(p.seconds, 1)) + element("td", "", first) + "</tr>\n";
  }
  for (const std::string& skipped : r.skipped_phases) {
    table += "<tr>" + element("td", "", skipped) + "<td colspan=\"3\">not run (--fail-fast gate)</td></tr>\n";
  }
  const double height = 16 + kRow * static_cast<double>(r.phases.size());
  return "<h2>phase timings</h2>\n<div class=\"side\"><div>" + table + "</table></div><div>" +
         html::svg(kLeft + kWidth + 20, height, "phase timings (red: first finding)", content) + "</div></div>\n";
}

// The command that replays a finding's file as `gate --out OUT` saves it.
std::string replay_line(const std::string& replay_file) {
  return "<p>replay: " + element("code", "", "skipsound replay OUT/" + replay_file) + " (gate --out OUT writes it)</p>\n";
}

// A shrunk scenario drawn, with the command that replays its saved file and the file itself.
std::string scenario_counterexample_html(const std::shared_ptr<const JudgedRun>& shrunk, const std::string& replay_file,
                                         const std::string& scenario_text) {
  std::string out = shrunk ? html::judged_run_html(*shrunk) : "";
  out += replay_line(replay_file);
  return out + "<details><summary>the replayable scenario file</summary>" + element("pre", "", scenario_text) +
         "</details>\n";
}

std::string explorer_finding_html(const InterleavingFinding& f, const std::string& replay_file) {
  std::string out = "<div class=\"finding\">" + element("p", "headline", f.headline);
  out += "<table class=\"facts\">" + fact("trial seed", std::to_string(f.seed)) +
         fact("found after", std::to_string(f.trials_to_find) + " trials, " + fixed(f.seconds_to_find, 2) + " s") +
         fact("shrink steps", std::to_string(f.shrink_steps)) + "</table>\n";
  return out + scenario_counterexample_html(f.shrunk, replay_file, f.scenario_text) + "</div>\n";
}

std::string text_finding_html(const std::string& headline, const std::string& report) {
  return "<div class=\"finding\">" + element("p", "headline", headline) + element("pre", "", report) + "</div>\n";
}

std::string findings_html(const GateReport& r) {
  std::string out;
  for (const CategoryResult& c : r.categories) {
    if (!c.finding) continue;
    const std::string category = world_category_name(c.category);
    out += element("h3", "", "explorer finding (" + category + ")") +
           explorer_finding_html(*c.finding, "explorer-" + category + ".scn");
  }
  if (r.per_file.first_failure_decision) {
    out += element("h3", "", "per-file finding") + "<div class=\"finding\">" +
           html::decision_html(*r.per_file.first_failure_decision) + replay_line("per-file-finding.json") + "</div>\n";
  } else if (!r.per_file.first_failure.empty()) {
    out += element("h3", "", "per-file finding") + text_finding_html("per-file properties", r.per_file.first_failure);
  }
  for (const CorpusFileResult& c : r.corpus) {
    if (!c.failed()) continue;
    std::string problems;
    for (const CorpusProblem& p : c.problems) problems += problem_text(p) + "\n";
    out += element("h3", "", "corpus " + c.file) + text_finding_html(problems, c.report);
  }
  return out.empty() ? "" : "<h2>findings</h2>\n" + out;
}

std::string mutant_counterexample_html(const MutantResult& m) {
  if (m.shrunk) return scenario_counterexample_html(m.shrunk, m.replay_file, m.replay_content);
  if (m.decision) return html::decision_html(*m.decision) + replay_line(m.replay_file);
  return element("pre", "", m.report);
}

std::string mutants_html(const GateReport& r) {
  if (r.mutants.empty()) return "";
  std::string out = "<h2>mutant matrix</h2>\n<table class=\"grid\"><tr><th>mutant</th><th>verdict</th><th>trials</th>"
                    "<th>seconds</th><th>killed by</th></tr>\n";
  for (const MutantResult& m : r.mutants) {
    out += std::string(m.killed() ? "<tr>" : "<tr class=\"differs\">") + element("td", "", mutant_name(m.mutant)) +
           element("td", "", m.killed() ? "killed" : "SURVIVED") + element("td", "", std::to_string(m.trials)) +
           element("td", "", fixed(m.seconds, 2)) + element("td", "", m.killed() ? killed_by_text(m) : "-") + "</tr>\n";
  }
  out += "</table>\n";
  // A short matrix (a named mutant) opens its counterexamples; the full one lists them folded.
  const bool open = r.mutants.size() <= 3;
  for (const MutantResult& m : r.mutants) {
    if (!m.killed()) continue;
    out += std::string("<details") + (open ? " open" : "") + "><summary>" + element("b", "", mutant_name(m.mutant)) +
           " killed by " + escape_markup(killed_by_text(m)) + ": " + element("span", "headline", m.headline) + "</summary>\n" +
           "<div class=\"finding\">" + mutant_counterexample_html(m) + "</div></details>\n";
  }
  return out;
}

std::string plots_html(const GateReport& r) {
  if (r.categories.empty()) return "";
  std::string out = "<h2>explorer: false conflicts and throughput</h2>\n"
                    "<p>False conflicts per 100 commit attempts in each category, of the trials that ran with each "
                    "tier of docs/semantics.md §10 off and on (the number the tiers exist to lower).</p>\n<div class=\"side\">\n";
  for (generators::Tier tier : generators::all_tiers()) {
    html::BarChart chart{std::string("tier ") + generators::tier_name(tier), {"off", "on"}, {}, 1};
    for (const CategoryResult& c : r.categories) {
      const TierSplit& split = c.stats.tiers[static_cast<size_t>(tier)];
      chart.rows.push_back({world_category_name(c.category), {100 * split.side[0].false_conflicts_per_attempt(),
                                                              100 * split.side[1].false_conflicts_per_attempt()}});
    }
    out += "<div>" + html::bar_chart_svg(chart) + "</div>\n";
  }
  html::BarChart speed{"trials per second", {}, {}, 0};
  for (const CategoryResult& c : r.categories) speed.rows.push_back({world_category_name(c.category), {c.stats.trials_per_second()}});
  return out + "<div>" + html::bar_chart_svg(speed) + "</div>\n</div>\n";
}

std::string coverage_cell(const CoverageRow& row) {
  const bool optional = row.info.need != coverage::Need::Required;
  const std::string cls = row.hits == 0 ? (optional ? "optional" : "zero") : row.hits >= 100 ? "many" : "hit";
  std::string count = std::to_string(row.hits);
  if (row.skips) count += " / " + std::to_string(row.skips) + " skips";
  const std::string why = row.info.need == coverage::Need::Unreachable ? std::string(" (not required: ") + row.info.why + ")"
                          : row.info.need == coverage::Need::Finding  ? " (only a bug reaches it)"
                                                                      : "";
  return "<div class=\"cell " + cls + "\" title=\"" + escape_markup(std::string(row.info.name) + why) + "\">" +
         element("b", "", count) + " " + escape_markup(row.info.name) + "</div>\n";
}

std::string coverage_html(const GateCoverage& c) {
  std::string out = "<h2>coverage</h2>\n<p class=\"legend\"><span class=\"cell zero\">never reached</span>"
                    "<span class=\"cell optional\">not required, not reached</span><span class=\"cell hit\">reached</span>"
                    "<span class=\"cell many\">reached 100+ times</span>" +
                    std::string(c.required ? "" : " (a reduced run: unreached rows do not fail it)") + "</p>\n";
  std::string section;
  for (const CoverageRow& row : c.rows) {
    if (row.info.section != section) {
      out += (section.empty() ? "" : "</div>\n") + element("h4", "", row.info.section) + "<div class=\"coverage\">\n";
      section = row.info.section;
    }
    out += coverage_cell(row);
  }
  return out + (section.empty() ? "" : "</div>\n");
}

}  // namespace

std::string gate_report_html(const GateReport& r) {
  const std::string body = header_html(r) + phases_html(r) + findings_html(r) + mutants_html(r) + plots_html(r) +
                           coverage_html(r.coverage);
  return html::page("skipsound gate, seed " + std::to_string(r.seed), body);
}

std::string replay_report_html(const std::string& command, const std::vector<ReplayedFile>& files) {
  const bool all_as_expected =
      std::all_of(files.begin(), files.end(), [](const ReplayedFile& f) { return f.as_expected; });
  // "skipsound scenario", "skipsound replay": the command's first two words.
  const std::string name = command.substr(0, command.find(' ', command.find(' ') + 1));
  std::string body = "<h1>" + escape_markup(name) + " " + verdict_badge(all_as_expected) + "</h1>\n";
  body += "<table class=\"facts\">" + fact("command", element("code", "", command)) + "</table>\n";
  for (const ReplayedFile& f : files) {
    body += "<h2>" + escape_markup(f.file) + " " + escape_markup(f.as_expected ? "(as expected)" : "(DIFFERS)") + "</h2>\n";
    if (f.scenario) body += html::judged_run_html(*f.scenario);
    if (f.decision) body += html::decision_html(*f.decision);
  }
  return html::page(command, body);
}

}  // namespace skipsound
