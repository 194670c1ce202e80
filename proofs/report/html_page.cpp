#include "proofs/report/html_page.h"

#include <algorithm>
#include <sstream>

#include "common/number_text.h"
#include "model/values/value.h"

namespace skipsound::html {

namespace {

// Local fonts only: a page that named a web font would load it from outside.
constexpr const char* kStyle = R"(
body { font-family: system-ui, sans-serif; margin: 1.5em 2em; color: #1d1d1f; max-width: 1400px; }
h1 { font-size: 1.6em; margin-bottom: 0.2em; }
h2 { font-size: 1.25em; border-bottom: 1px solid #ccc; padding-bottom: 0.2em; margin-top: 1.6em; }
h3 { font-size: 1.05em; margin-bottom: 0.3em; }
code, pre, .mono { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 12px; }
pre { background: #f5f5f7; padding: 0.6em; overflow-x: auto; white-space: pre-wrap; }
.verdict { display: inline-block; padding: 0.15em 0.6em; border-radius: 4px; color: #fff; font-weight: bold; }
.verdict.fail { background: #c62828; } .verdict.pass { background: #2e7d32; }
.headline { font-weight: bold; color: #b71c1c; }
.facts td { padding: 0.1em 1em 0.1em 0; vertical-align: top; }
table.grid { border-collapse: collapse; margin: 0.3em 0; }
table.grid th, table.grid td { border: 1px solid #ccc; padding: 0.15em 0.5em; font-family: ui-monospace, monospace; font-size: 12px; text-align: left; }
table.grid th { background: #eee; }
tr.differs td { background: #ffcdd2; font-weight: bold; }
td.true { color: #2e7d32; font-weight: bold; } td.false { color: #c62828; font-weight: bold; }
.side { display: flex; flex-wrap: wrap; gap: 1.5em; align-items: flex-start; }
.side > div { min-width: 12em; }
.scroll { overflow-x: auto; }
.finding { border-left: 4px solid #c62828; padding-left: 1em; margin: 1em 0; }
details > summary { cursor: pointer; }
.coverage { display: grid; grid-template-columns: repeat(auto-fill, minmax(15em, 1fr)); gap: 3px; }
.cell { padding: 0.2em 0.4em; font-size: 11px; border-radius: 3px; }
.cell.hit { background: #c8e6c9; } .cell.many { background: #81c784; }
.cell.zero { background: #c62828; color: #fff; font-weight: bold; }
.cell.optional { background: #e0e0e0; color: #555; }
.legend span { margin-right: 1em; }
svg text { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 12px; fill: #1d1d1f; }
svg text.name { font-weight: bold; font-size: 13px; }
svg text.small { font-size: 11px; fill: #555; }
svg text.bad { fill: #b71c1c; font-weight: bold; }
svg .bar0 { fill: #9e9e9e; } svg .bar1 { fill: #1976d2; } svg .bar2 { fill: #ef6c00; }
svg .lane { fill: #fafafa; stroke: #e0e0e0; }
svg .life { stroke: #546e7a; stroke-width: 4; }
svg .commit { fill: #2e7d32; } svg .abort { fill: #c62828; }
svg .edge { stroke: #90a4ae; stroke-width: 1.5; fill: none; stroke-dasharray: 4 3; }
svg .edge.conflict { stroke: #c62828; stroke-dasharray: none; }
svg .edge.wrong { stroke: #ef6c00; stroke-width: 2.5; stroke-dasharray: none; }
svg rect.kept { fill: #e3f2fd; stroke: #1976d2; }
svg rect.skipped { fill: #f1f8e9; stroke: #7cb342; }
svg rect.reconciled { fill: #f3e5f5; stroke: #8e24aa; }
svg rect.marked { fill: #ffebee; stroke: #c62828; stroke-width: 3; }
)";

}  // namespace

std::string page(const std::string& title, const std::string& body) {
  return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" + escape_markup(title) +
         "</title>\n<style>" + kStyle + "</style>\n</head>\n<body>\n" + body + "</body>\n</html>\n";
}

std::string element(const std::string& tag, const std::string& cls, std::string_view text) {
  return "<" + tag + (cls.empty() ? "" : " class=\"" + cls + "\"") + ">" + escape_markup(text) + "</" + tag + ">";
}

std::string rows_table(const Schema& schema, const std::vector<Row>& rows, const std::vector<bool>& marked) {
  std::string out = "<table class=\"grid\"><tr>";
  for (const Leaf& leaf : schema.leaves()) out += element("th", "", path_to_sql(leaf.path));
  out += "</tr>\n";
  for (size_t r = 0; r < rows.size(); ++r) {
    out += r < marked.size() && marked[r] ? "<tr class=\"differs\">" : "<tr>";
    for (const Leaf& leaf : schema.leaves()) {
      const auto column = static_cast<size_t>(leaf.ordinal);
      out += element("td", "", column < rows[r].size() ? to_display(rows[r][column]) : "NULL");
    }
    out += "</tr>\n";
  }
  if (rows.empty()) out += "<tr><td colspan=\"" + std::to_string(schema.leaves().size()) + "\">(no rows)</td></tr>\n";
  return out + "</table>\n";
}

std::string svg_text(double x, double y, std::string_view text, const std::string& cls) {
  return "<text x=\"" + fixed(x, 1) + "\" y=\"" + fixed(y, 1) + "\"" + (cls.empty() ? "" : " class=\"" + cls + "\"") +
         ">" + escape_markup(text) + "</text>\n";
}

std::string svg(double width, double height, const std::string& label, const std::string& content) {
  return "<svg role=\"img\" aria-label=\"" + escape_markup(label) + "\" width=\"" +
         fixed(width, 0) + "\" height=\"" + fixed(height, 0) + "\" viewBox=\"0 0 " + fixed(width, 0) + " " +
         fixed(height, 0) + "\">\n" + content + "</svg>\n";
}

std::string bar_chart_svg(const BarChart& chart) {
  constexpr double kBar = 12, kGap = 8, kTop = 24, kBarArea = 260;
  size_t label_chars = 8;
  double largest = 0;
  for (const BarRow& row : chart.rows) {
    label_chars = std::max(label_chars, row.label.size());
    for (double v : row.values) largest = std::max(largest, v);
  }
  const double left = 10 + kCharWidth * static_cast<double>(label_chars) + 10;
  const double series = static_cast<double>(std::max<size_t>(1, chart.series.size()));
  const double row_height = series * kBar + kGap;
  std::string content = svg_text(10, 16, chart.title, "name");
  double legend_x = left + kBarArea + 70;
  for (size_t s = 0; s < chart.series.size(); ++s) {
    content += "<rect class=\"bar" + std::to_string(s) + "\" x=\"" + fixed(legend_x, 0) + "\" y=\"" +
               fixed(kTop + s * 16, 0) + "\" width=\"10\" height=\"10\"/>" +
               svg_text(legend_x + 14, kTop + s * 16 + 9, chart.series[s], "small");
  }
  for (size_t r = 0; r < chart.rows.size(); ++r) {
    const double y = kTop + static_cast<double>(r) * row_height;
    content += svg_text(10, y + series * kBar / 2 + 4, chart.rows[r].label);
    for (size_t s = 0; s < chart.rows[r].values.size(); ++s) {
      const double v = chart.rows[r].values[s];
      const double width = largest > 0 ? kBarArea * v / largest : 0;
      const double bar_y = y + static_cast<double>(s) * kBar;
      content += "<rect class=\"bar" + std::to_string(s) + "\" x=\"" + fixed(left, 1) + "\" y=\"" + fixed(bar_y, 1) +
                 "\" width=\"" + fixed(width, 1) + "\" height=\"" + fixed(kBar - 2, 0) + "\"/>" +
                 svg_text(left + width + 4, bar_y + kBar - 3, fixed(v, chart.decimals), "small");
    }
  }
  const double height = kTop + static_cast<double>(chart.rows.size()) * row_height + 10;
  const double legend_height = kTop + series * 16;
  return svg(legend_x + 200, std::max(height, legend_height), chart.title, content);
}

}  // namespace skipsound::html
