#include "proofs/report/run_section.h"

#include <algorithm>
#include <map>

#include "common/number_text.h"
#include "model/sql/printer.h"
#include "proofs/report/html_page.h"
#include "proofs/scenario/interleaving_report.h"

namespace skipsound::html {

namespace {

constexpr double kLabelWidth = 190;  // the lane names' column
constexpr double kSlotWidth = 130;   // one commit attempt
constexpr double kHeaderHeight = 34;
constexpr double kLine = 16;
constexpr double kChipHeight = 20;

double text_width(const std::string& text) { return kCharWidth * static_cast<double>(text.size()); }

// One chip of a winner check: a winner file and what the check decided on it.
struct Chip {
  std::string text;
  std::string cls;      // kept, skipped, reconciled, marked
  std::string tooltip;  // the filter's one-line reason
};

// What a lane shows under its life line, top to bottom.
struct LaneItem {
  std::string text;
  std::string cls;          // of the text
  std::vector<Chip> chips;  // a row of chips instead of text
};

struct Lane {
  size_t transaction = 0;
  size_t start_slot = 0;
  size_t end_slot = 0;
  const CommitAttempt* attempt = nullptr;  // null: it never tried to commit
  std::vector<LaneItem> items;
  double top = 0;
  double height = 0;
};

const WrongExclusion* marked_exclusion(const ScenarioRun& run, size_t loser, size_t winner, const std::string& path) {
  for (const RunFinding& finding : run.findings) {
    const auto& e = finding.exclusion;
    if (e && e->loser == loser && e->winner == winner && e->path == path) return &*e;
  }
  return nullptr;
}

std::string row_text(const Schema& schema, const Row& row) {
  std::string text;
  for (const Leaf& leaf : schema.leaves()) {
    const auto column = static_cast<size_t>(leaf.ordinal);
    text += (text.empty() ? "" : ", ") + path_to_sql(leaf.path) + "=" +
            (column < row.size() ? to_display(row[column]) : std::string("NULL"));
  }
  return "{" + text + "}";
}

// The winner check's decision on every file the winner added, and the Case 2 reconciliations.
std::vector<LaneItem> check_items(const JudgedRun& judged, const CommitAttempt& attempt, size_t k) {
  const ScenarioRun& run = judged.run;
  const WinnerCheck& check = attempt.checks[k];
  const size_t winner = attempt.winners[k];
  std::vector<LaneItem> items{{"vs " + run.transactions[winner].name + ": " + check.line, "", {}}};
  LaneItem chips;
  std::vector<LaneItem> witnesses;
  if (check.append) {
    for (const CandidateOutcome& file : check.append->filtered.files) {
      const bool kept = file.verdict == CandidateVerdict::Survives;
      const std::string step = filter_step_name(file.decided_by);
      const WrongExclusion* wrong = kept ? nullptr : marked_exclusion(run, attempt.transaction, winner, file.path);
      chips.chips.push_back({file.path + (kept ? " kept · " : " skipped · ") + step + (wrong ? " · SHOULD BE KEPT" : ""),
                             wrong ? "marked" : kept ? "kept" : "skipped", file.reason});
      if (!wrong) continue;
      witnesses.push_back({"should have kept " + file.path + ": " + wrong->witness_source + " matches " + wrong->read +
                               (wrong->witness ? ": " + row_text(judged.scenario.table.schema(), *wrong->witness) : ""),
                           "bad", {}});
    }
  }
  for (const std::string& path : check.reconciled_paths) {
    chips.chips.push_back({path + " reconciled · Case 2", "reconciled", "docs/semantics.md §10.2"});
  }
  if (!chips.chips.empty()) items.push_back(std::move(chips));
  items.insert(items.end(), witnesses.begin(), witnesses.end());
  return items;
}

std::vector<LaneItem> lane_items(const JudgedRun& judged, const Lane& lane) {
  const Transaction& txn = judged.run.transactions[lane.transaction];
  std::vector<LaneItem> items{{"does:   " + txn.describe(), "", {}},
                              {"reads:  " + reads_text(txn.reads), "", {}},
                              {"writes: " + writes_text(txn.commit), "", {}}};
  if (!lane.attempt) return items;
  if (const auto* aborted = std::get_if<Aborted>(&lane.attempt->result)) {
    items.push_back({std::string("aborted: ") + exception_name(aborted->conflict.kind) + " — " + aborted->conflict.reason,
                     "bad", {}});
  }
  for (size_t k = 0; k < lane.attempt->checks.size(); ++k) {
    for (LaneItem& item : check_items(judged, *lane.attempt, k)) items.push_back(std::move(item));
  }
  return items;
}

double item_height(const LaneItem& item) { return item.chips.empty() ? kLine : kChipHeight + 6; }

double chip_width(const Chip& chip) { return text_width(chip.text) + 12; }

double item_width(const LaneItem& item) {
  if (item.chips.empty()) return text_width(item.text);
  double width = 0;
  for (const Chip& chip : item.chips) width += chip_width(chip) + 6;
  return width;
}

// The lanes in transaction order, laid out top to bottom; slot 0 is the initial table, slot a+1
// the a-th commit attempt.
std::vector<Lane> layout_lanes(const JudgedRun& judged) {
  const ScenarioRun& run = judged.run;
  std::map<int64_t, size_t> slot_of_version{{run.schedule.versions.front().version(), 0}};
  std::map<size_t, size_t> attempt_of;
  for (size_t a = 0; a < run.schedule.attempts.size(); ++a) {
    const CommitAttempt& attempt = run.schedule.attempts[a];
    attempt_of[attempt.transaction] = a;
    if (const auto* committed = std::get_if<Committed>(&attempt.result)) slot_of_version[committed->version] = a + 1;
  }
  std::vector<Lane> lanes;
  double top = kHeaderHeight;
  for (size_t t = 0; t < run.transactions.size(); ++t) {
    if (run.transactions[t].name.empty()) continue;  // never reached its snapshot
    Lane lane;
    lane.transaction = t;
    const auto version = slot_of_version.find(run.transactions[t].snapshot_version);
    lane.start_slot = version == slot_of_version.end() ? 0 : version->second;
    const auto attempt = attempt_of.find(t);
    lane.attempt = attempt == attempt_of.end() ? nullptr : &run.schedule.attempts[attempt->second];
    lane.end_slot = attempt == attempt_of.end() ? run.schedule.attempts.size() + 1 : attempt->second + 1;
    lane.items = lane_items(judged, lane);
    lane.top = top;
    lane.height = 40;
    for (const LaneItem& item : lane.items) lane.height += item_height(item);
    top += lane.height + 8;
    lanes.push_back(std::move(lane));
  }
  return lanes;
}

double slot_x(size_t slot) { return kLabelWidth + kSlotWidth * (static_cast<double>(slot) + 0.5); }
double life_y(const Lane& lane) { return lane.top + 22; }

std::string slot_headers(const ScenarioRun& run) {
  std::string out = svg_text(slot_x(0) - 40, 20, "v" + std::to_string(run.schedule.versions.front().version()) + " initial", "small");
  for (size_t a = 0; a < run.schedule.attempts.size(); ++a) {
    const CommitAttempt& attempt = run.schedule.attempts[a];
    const auto* committed = std::get_if<Committed>(&attempt.result);
    const std::string label = run.transactions[attempt.transaction].name +
                              (committed ? " → v" + std::to_string(committed->version) : std::string(" aborts"));
    out += svg_text(slot_x(a + 1) - 40, 20, label, "small");
  }
  return out;
}

std::string lane_svg(const JudgedRun& judged, const Lane& lane, double width) {
  const ScenarioRun& run = judged.run;
  const Transaction& txn = run.transactions[lane.transaction];
  const bool step = judged.scenario.transactions[lane.transaction].history_step;
  std::string out = "<g class=\"lane-group\" data-transaction=\"" + escape_markup(txn.name) + "\">\n";
  out += "<rect class=\"lane\" x=\"2\" y=\"" + fixed(lane.top, 1) + "\" width=\"" + fixed(width - 4, 1) + "\" height=\"" +
         fixed(lane.height, 1) + "\" rx=\"4\"/>\n";
  out += svg_text(10, lane.top + 20, txn.name + (step ? " (history step)" : ""), "name");
  out += svg_text(10, lane.top + 36, "snapshot v" + std::to_string(txn.snapshot_version), "small");
  const double y = life_y(lane);
  out += "<line class=\"life\" x1=\"" + fixed(slot_x(lane.start_slot), 1) + "\" y1=\"" + fixed(y, 1) + "\" x2=\"" +
         fixed(slot_x(lane.end_slot), 1) + "\" y2=\"" + fixed(y, 1) + "\"/>\n";
  out += "<circle class=\"commit\" cx=\"" + fixed(slot_x(lane.start_slot), 1) + "\" cy=\"" + fixed(y, 1) + "\" r=\"4\"/>\n";
  const double end = slot_x(lane.end_slot);
  if (!lane.attempt) {
    out += svg_text(end + 8, y + 4, "never commits", "small");
  } else if (const auto* committed = std::get_if<Committed>(&lane.attempt->result)) {
    out += "<circle class=\"commit\" cx=\"" + fixed(end, 1) + "\" cy=\"" + fixed(y, 1) + "\" r=\"8\"/>\n" +
           svg_text(end + 12, y + 4, "commit v" + std::to_string(committed->version));
  } else {
    out += "<path class=\"abort\" d=\"M" + fixed(end - 7, 1) + " " + fixed(y - 7, 1) + " l14 14 l-3 3 l-14 -14 z M" +
           fixed(end + 7, 1) + " " + fixed(y - 7, 1) + " l-14 14 l3 3 l14 -14 z\" style=\"stroke:#c62828;stroke-width:2\"/>\n" +
           svg_text(end + 12, y + 4, "abort", "bad");
  }
  double item_y = lane.top + 40;
  for (const LaneItem& item : lane.items) {
    if (item.chips.empty()) {
      out += svg_text(kLabelWidth, item_y + 12, item.text, item.cls);
    } else {
      double x = kLabelWidth;
      for (const Chip& chip : item.chips) {
        out += "<g class=\"chip\"><title>" + escape_markup(chip.tooltip) + "</title><rect class=\"" + chip.cls + "\" x=\"" +
               fixed(x, 1) + "\" y=\"" + fixed(item_y + 2, 1) + "\" width=\"" + fixed(chip_width(chip), 1) +
               "\" height=\"" + fixed(kChipHeight, 0) + "\" rx=\"3\"/>" +
               svg_text(x + 6, item_y + 16, chip.text, chip.cls == "marked" ? "bad" : "") + "</g>\n";
        x += chip_width(chip) + 6;
      }
    }
    item_y += item_height(item);
  }
  return out + "</g>\n";
}

// An edge from each winner's commit to the attempt checked against it: red when that check
// aborted the loser, orange when it excluded a file it should have kept.
std::string edges_svg(const JudgedRun& judged, const std::vector<Lane>& lanes) {
  std::map<size_t, const Lane*> lane_of;
  for (const Lane& lane : lanes) lane_of[lane.transaction] = &lane;
  std::string out;
  for (const Lane& loser : lanes) {
    if (!loser.attempt) continue;
    for (size_t winner : loser.attempt->winners) {
      const auto found = lane_of.find(winner);
      if (found == lane_of.end()) continue;
      const Lane& from = *found->second;
      const auto* aborted = std::get_if<Aborted>(&loser.attempt->result);
      bool wrong = false;
      for (const RunFinding& f : judged.run.findings) {
        wrong = wrong || (f.exclusion && f.exclusion->loser == loser.transaction && f.exclusion->winner == winner);
      }
      const std::string cls = wrong ? "edge wrong" : aborted && aborted->winner == winner ? "edge conflict" : "edge";
      const double x1 = slot_x(from.end_slot), y1 = life_y(from), x2 = slot_x(loser.end_slot), y2 = life_y(loser);
      out += "<path class=\"" + cls + "\" d=\"M" + fixed(x1, 1) + " " + fixed(y1, 1) + " C" + fixed(x1 + 40, 1) + " " +
             fixed(y1, 1) + " " + fixed(x2 - 40, 1) + " " + fixed(y2, 1) + " " + fixed(x2, 1) + " " + fixed(y2, 1) +
             "\"/>\n";
    }
  }
  return out;
}

bool contains(const std::vector<Row>& rows, const Row& row) { return std::find(rows.begin(), rows.end(), row) != rows.end(); }

std::vector<bool> marks(const std::vector<Row>& rows, const std::vector<Row>& differing) {
  std::vector<bool> marked;
  for (const Row& row : rows) marked.push_back(contains(differing, row));
  return marked;
}

// A verdict no serial order explains (or a wrong result): its outcome and the allowed ones side
// by side, the rows that differ highlighted.
std::string outcomes_html(const JudgedRun& judged, const TransactionVerdict& verdict) {
  const Schema& schema = judged.scenario.table.schema();
  const std::string& name = judged.run.transactions[verdict.transaction].name;
  std::string out = "<h4>" + escape_markup(name) + ": " + escape_markup(verdict_kind_name(verdict.kind)) +
                    (verdict.exception ? " (" + escape_markup(exception_name(*verdict.exception)) + ")" : "") + "</h4>\n";
  const bool committed = verdict.kind == VerdictKind::MissedConflict || verdict.kind == VerdictKind::WrongResult;
  out += "<div class=\"side\"><div>" +
         element("h5", "", committed ? "committed outcome" : "outcome had it committed") +
         rows_table(schema, verdict.outcome, marks(verdict.outcome, verdict.diff.only_in_outcome)) + "</div>\n";
  for (size_t i = 0; i < verdict.allowed.size(); ++i) {
    const SerialOutcome& serial = verdict.allowed[i];
    out += "<div>" + element("h5", "", "allowed serial outcome " + serial.order) +
           rows_table(schema, serial.rows, i == 0 ? marks(serial.rows, verdict.diff.only_in_serial) : std::vector<bool>{}) +
           "</div>\n";
  }
  return out + "</div>\n";
}

std::string findings_html(const JudgedRun& judged) {
  if (judged.run.findings.empty()) return "";
  const Schema& schema = judged.scenario.table.schema();
  std::string out = "<h4>findings</h4>\n<ul>\n";
  for (const RunFinding& f : judged.run.findings) {
    out += "<li>" + element("span", "headline", f.headline) + (f.expected ? " (expected)" : "");
    if (!f.detail.empty()) out += "<br>" + element("code", "", f.detail);
    if (f.exclusion && f.exclusion->witness) {
      out += "<br>witness row (" + escape_markup(f.exclusion->witness_source) + "), matching " + element("code", "", f.exclusion->read) +
             ":" + rows_table(schema, {*f.exclusion->witness}, {true});
    }
    out += "</li>\n";
  }
  return out + "</ul>\n";
}

std::string initial_table_html(const Table& table) {
  std::string out = "<details><summary>initial table: version " + std::to_string(table.version()) + ", " +
                    std::to_string(table.files().size()) + " files, " +
                    (table.properties().deletion_vectors ? "deletion vectors" : "copy-on-write") + ", " +
                    escape_markup(isolation_level_name(table.properties().isolation)) + "</summary>\n";
  for (const TableFile& file : table.files()) {
    out += element("h5", "", file.path + (file.stats ? "" : " (no stats)")) + rows_table(table.schema(), file.live_rows());
  }
  return out + "</details>\n";
}

}  // namespace

std::string schedule_svg(const JudgedRun& judged) {
  const std::vector<Lane> lanes = layout_lanes(judged);
  double width = slot_x(judged.run.schedule.attempts.size() + 1) + 160;
  for (const Lane& lane : lanes) {
    for (const LaneItem& item : lane.items) width = std::max(width, kLabelWidth + item_width(item) + 20);
  }
  std::string content = slot_headers(judged.run);
  for (const Lane& lane : lanes) content += lane_svg(judged, lane, width);
  content += edges_svg(judged, lanes);
  const double height = lanes.empty() ? kHeaderHeight : lanes.back().top + lanes.back().height + 8;
  return svg(width, height, "the schedule of " + judged.scenario.source + ", one lane per transaction", content);
}

std::string judged_run_html(const JudgedRun& judged) {
  const Scenario& scenario = judged.scenario;
  std::string out = "<p>scenario " + element("code", "", scenario.source) + ", conflict data skipping " +
                    (scenario.options.conflict_data_skipping ? "on" : "off") + ", mutant " +
                    element("code", "", mutant_name(scenario.mutant)) + "</p>\n";
  out += initial_table_html(scenario.table);
  out += "<div class=\"scroll\">" + schedule_svg(judged) + "</div>\n";
  out += "<p class=\"legend small\"><span>● snapshot / commit</span><span>✖ abort</span>"
         "<span>chips: <b>kept</b> (blue), <b>skipped</b> (green, by the step named), <b>reconciled</b> (purple), "
         "<b>should have been kept</b> (red)</span><span>edges: winner → checked attempt; red = the conflict it "
         "raised, orange = a file it wrongly excluded</span></p>\n";
  out += findings_html(judged);
  for (const TransactionVerdict& verdict : judged.run.verdicts) {
    if (is_unsound(verdict.kind) || verdict.kind == VerdictKind::FalseConflict) out += outcomes_html(judged, verdict);
  }
  for (const std::string& mismatch : judged.run.mismatches) out += element("p", "headline", "UNEXPECTED " + mismatch);
  return out + element("p", "", summary_line(scenario, judged.run));
}

}  // namespace skipsound::html
