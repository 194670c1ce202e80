// The pieces every HTML report page is made of (text from data goes through escape_markup,
// proofs/gate/markup.h): the page frame with its inline style
// sheet, tables of rows, and the SVG helpers. A page loads nothing from outside itself: no
// scripts, fonts, images or style sheets by address (docs/gate.md, "The HTML report").
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "model/sql/row.h"
#include "model/sql/schema.h"
#include "proofs/gate/markup.h"

namespace skipsound::html {

// <!DOCTYPE html> ... with the style sheet inline; `body` is HTML already escaped.
std::string page(const std::string& title, const std::string& body);

// <tag class="cls">escaped text</tag>
std::string element(const std::string& tag, const std::string& cls, std::string_view text);

// A table with one column per schema leaf; `marked[i]` highlights rows[i] (class "differs").
std::string rows_table(const Schema& schema, const std::vector<Row>& rows, const std::vector<bool>& marked = {});

// Monospaced SVG text is measured by its length: this many pixels per character at 12 px.
inline constexpr double kCharWidth = 7.3;
// <text x y class>escaped</text>
std::string svg_text(double x, double y, std::string_view text, const std::string& cls = "");
// An <svg> element of that size wrapping `content`, with an accessible label.
std::string svg(double width, double height, const std::string& label, const std::string& content);

// One horizontal bar chart: a label and one or more bars a row (series in the given classes),
// each bar with its value printed after it; the scale is the largest value.
struct BarRow {
  std::string label;
  std::vector<double> values;  // one a series
};
struct BarChart {
  std::string title;
  std::vector<std::string> series;  // legend names; the bars' classes are "bar0", "bar1", ...
  std::vector<BarRow> rows;
  int decimals = 1;
};
std::string bar_chart_svg(const BarChart& chart);

}  // namespace skipsound::html
