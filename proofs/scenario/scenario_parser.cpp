// The scenario parser: a file's lines, one directive each, handed to the ScenarioBuilder; the
// expectations a file states; errors located at "<source>:<line>".
#include <algorithm>
#include <sstream>

#include "model/sql/schema.h"
#include "model/values/ascii_text.h"
#include "model/values/input_error.h"
#include "model/values/input_limits.h"
#include "model/values/types.h"
#include "proofs/oracles/serial_oracle.h"
#include "proofs/scenario/scenario.h"
#include "proofs/scenario/scenario_builder.h"
#include "proofs/scenario/scenario_text.h"

namespace skipsound {

using namespace scenario_text;

namespace {

class ScenarioParser {
 public:
  ScenarioParser(std::string source, std::optional<Mutant> mutant) : builder_(std::move(source), mutant) {}

  Scenario parse(std::string_view text) {
    std::istringstream lines{std::string(text)};
    std::string line;
    while (std::getline(lines, line)) {
      ++line_number_;
      const std::string directive = trim_whitespace(line);
      if (directive.empty() || directive.front() == '#') continue;
      builder_.at_line(line_number_);
      try {
        parse_directive(directive);
      } catch (const InputError& e) {
        throw located(e.column() > 0 ? e.render() : e.message());
      } catch (const std::exception& e) {
        throw located(e.what());
      }
    }
    Scenario scenario;
    try {
      scenario = builder_.finish();
    } catch (const InputError& e) {
      throw located(e.message());
    }
    check_finding_expectation(scenario);
    return scenario;
  }

 private:
  InputError located(const std::string& message) const {
    return InputError(builder_.scenario().source + ":" + std::to_string(line_number_) + ": " + message);
  }

  // One entry per directive keyword: `<keyword>: body` or `<keyword> <argument>: body`. A head
  // that matches none is a transaction line. New directives are one entry and one member.
  struct Directive {
    std::string_view keyword;
    bool takes_argument;
    void (ScenarioParser::*parse)(const std::string& argument, const std::string& body);
  };

  static const std::vector<Directive>& directives() {
    static const std::vector<Directive> kDirectives = {
        {"schema", false, &ScenarioParser::parse_schema},
        {"partitioned by", false, &ScenarioParser::parse_partitioning},
        {"property", true, &ScenarioParser::parse_property},
        {"flag", true, &ScenarioParser::parse_flag},
        {"mutant", false, &ScenarioParser::parse_mutant},
        {"log", false, &ScenarioParser::parse_log},
        {"file", true, &ScenarioParser::parse_file},
        {"stats", true, &ScenarioParser::parse_raw_stats},
        {"step", false, &ScenarioParser::parse_step},
        {"commit", false, &ScenarioParser::parse_commit_order},
        {"expect", true, &ScenarioParser::parse_expectation},
    };
    return kDirectives;
  }

  void parse_directive(const std::string& line) {
    const size_t colon = line.find(':');
    if (colon == std::string::npos) throw InputError("expected '<directive>: ...'");
    const std::string head = trim_whitespace(std::string_view(line).substr(0, colon));
    const std::string body = trim_whitespace(std::string_view(line).substr(colon + 1));
    const std::string key = ascii_lower(head);
    for (const Directive& d : directives()) {
      if (key == d.keyword && !d.takes_argument) return (this->*d.parse)("", body);
      const bool with_argument = key.size() > d.keyword.size() && key.rfind(d.keyword, 0) == 0 &&
                                 key[d.keyword.size()] == ' ';
      if (with_argument && d.takes_argument) return (this->*d.parse)(trim_whitespace(head.substr(d.keyword.size())), body);
    }
    parse_transaction_line(head, body);
  }

  void parse_partitioning(const std::string&, const std::string& body) {
    builder_.partitioned_by(split_top_level(body, ','));
  }

  void parse_property(const std::string& name, const std::string& body) { builder_.property(name, body); }

  void parse_schema(const std::string&, const std::string& body) {
    builder_.check_table_open();
    std::vector<StructField> fields;
    for (const std::string& column : split_top_level(body, ',')) {
      const size_t name_end = end_of_column_name(column);
      if (name_end >= column.size()) throw InputError("expected '<name> <type>' in the schema");
      fields.push_back(StructField{top_level_name(column.substr(0, name_end)),
                                   parse_type_name(trim_whitespace(column.substr(name_end))), true, {}});
    }
    builder_.schema(std::move(fields));
  }

  void parse_flag(const std::string& name, const std::string& value) { builder_.flag(name, on_off(value)); }

  void parse_log(const std::string&, const std::string& value) {
    const std::string where = ascii_lower(value);
    if (where == "replayed") {
      builder_.log(LogReplay::InMemory);
    } else if (where == "directory") {
      builder_.log(LogReplay::Directory);
    } else {
      throw InputError("log: expected 'replayed' or 'directory', got '" + value + "'");
    }
  }

  void parse_mutant(const std::string&, const std::string& name) {
    const auto mutant = mutant_from_name(ascii_lower(name));
    if (!mutant) throw InputError(unknown_mutant_message(name));
    builder_.mutant(*mutant);
    names_a_mutant_ = true;
  }

  void parse_file(const std::string& spec, const std::string& body) {
    builder_.check_files_open();
    std::istringstream in(spec);
    std::string name, option;
    in >> name;
    StatsPresence presence = StatsPresence::Collected;
    std::vector<int> deleted;
    std::vector<std::string> columns_without_stats;
    while (in >> option) {
      const std::string lower = ascii_lower(option);
      if (lower == "nostats") {
        presence = StatsPresence::Missing;
      } else if (lower.rfind("nostats=", 0) == 0) {
        columns_without_stats = split_top_level(option.substr(8), ',');
      } else if (lower.rfind("deleted=", 0) == 0) {
        for (const std::string& index : split_top_level(option.substr(8), ',')) deleted.push_back(parse_int(index));
      } else {
        throw InputError("unknown file option '" + option + "'");
      }
    }
    builder_.file(name, builder_.rows(body), presence, columns_without_stats, deleted);
  }

  void parse_raw_stats(const std::string& name, const std::string& body) { builder_.raw_stats(name, body); }

  // `<name> [options] [@v<N>]: <operation>`.
  void parse_transaction_line(const std::string& head, const std::string& body) {
    builder_.build_table();
    std::string name = head;
    std::vector<std::string> options;
    if (const size_t bracket = head.find('['); bracket != std::string::npos) {
      const size_t close = head.find(']', bracket);
      if (close == std::string::npos) throw InputError("expected ']' after the transaction options");
      options = split_top_level(std::string_view(head).substr(bracket + 1, close - bracket - 1), ',');
      name = head.substr(0, bracket) + head.substr(close + 1);
    }
    std::optional<int64_t> start;
    if (const size_t at = name.find('@'); at != std::string::npos) {
      const std::string version = trim_whitespace(name.substr(at + 1));
      if (version.size() < 2 || ascii_lower(version.substr(0, 1)) != "v") throw InputError("expected @v<version>, got '@" + version + "'");
      start = parse_int(version.substr(1));
      if (*start < 0) throw InputError("a version is 0 or more");
      name = name.substr(0, at);
    }
    name = trim_whitespace(name);
    if (name.empty() || name.find(' ') != std::string::npos) {
      throw InputError("unknown directive '" + head + "'");
    }
    builder_.transaction(name, start, options, body);
  }

  // `step [options]: <operation>`: committed history, named S1, S2, ... in the reports.
  void parse_step(const std::string&, const std::string& body) {
    builder_.build_table();
    std::string text = body;
    std::vector<std::string> options;
    if (!text.empty() && text.front() == '[') {
      const size_t close = text.find(']');
      if (close == std::string::npos) throw InputError("expected ']' after the step options");
      options = split_top_level(std::string_view(text).substr(1, close - 1), ',');
      text = trim_whitespace(text.substr(close + 1));
    }
    builder_.step(options, text);
  }

  void parse_commit_order(const std::string&, const std::string& body) {
    for (const std::string& name : split_top_level(body, ',')) builder_.commit(name);
  }

  // expect <T>: <verdict> | expect table: <rows> | expect <T> keeps from <W>: <files>
  // | expect dv <file>: <positions> | expect dv <file>: cardinality <n>
  // | expect findings: none | expect mutant: killed
  void parse_expectation(const std::string& subject, const std::string& body) {
    if (ascii_lower(subject) == "table") {
      builder_.scenario().expected_table = builder_.rows(body);
      return;
    }
    if (const auto findings = finding_expectation(ascii_lower(subject), ascii_lower(body))) {
      if (builder_.scenario().findings != FindingExpectation::Unstated && builder_.scenario().findings != *findings) {
        throw InputError("'expect findings: none' and 'expect mutant: killed' contradict each other");
      }
      builder_.scenario().findings = *findings;
      findings_line_ = line_number_;
      return;
    }
    const std::vector<std::string> words = words_of(subject);
    if (words.size() == 2 && ascii_lower(words[0]) == "dv") {
      builder_.scenario().expected_dvs.push_back(parse_expected_dv(words[1], body));
      return;
    }
    if (words.size() == 4 && ascii_lower(words[1]) == "keeps" && ascii_lower(words[2]) == "from") {
      ExpectedSurvivors survivors{builder_.transaction_index(words[0]), builder_.transaction_index(words[3]), {}};
      if (!trim_whitespace(body).empty()) survivors.files = split_top_level(body, ',');
      std::sort(survivors.files.begin(), survivors.files.end());
      builder_.scenario().expected_survivors.push_back(std::move(survivors));
      return;
    }
    if (words.size() != 1) {
      throw InputError("expected 'expect <transaction>:', 'expect table:', 'expect <T> keeps from <W>:', "
                       "'expect dv <file>:', 'expect findings: none' or 'expect mutant: killed'");
    }
    builder_.scenario().expected[builder_.transaction_index(subject)] = parse_verdict(body);
  }

  static std::optional<FindingExpectation> finding_expectation(const std::string& subject, const std::string& body) {
    if (subject == "findings") {
      if (body != "none") throw InputError("expected 'expect findings: none', got '" + body + "'");
      return FindingExpectation::None;
    }
    if (subject == "mutant") {
      if (body != "killed") throw InputError("expected 'expect mutant: killed', got '" + body + "'");
      return FindingExpectation::Killed;
    }
    return std::nullopt;
  }

  static ExpectedDv parse_expected_dv(const std::string& path, const std::string& body) {
    ExpectedDv expected{path, std::nullopt, std::nullopt};
    const std::vector<std::string> words = words_of(body);
    if (!words.empty() && ascii_lower(words[0]) == "cardinality") {
      if (words.size() != 2) throw InputError("expected 'expect dv <file>: cardinality <n>'");
      const int n = parse_int(words[1]);
      if (n < 0) throw InputError("a cardinality is 0 or more");
      expected.cardinality = static_cast<size_t>(n);
      return expected;
    }
    expected.positions.emplace();
    if (words.empty() || (words.size() == 1 && ascii_lower(words[0]) == "none")) return expected;
    for (const std::string& position : split_top_level(body, ',')) {
      const int row = parse_int(position);
      if (row < 0) throw InputError("a DV position is 0 or more, got '" + position + "'");
      expected.positions->push_back(static_cast<uint32_t>(row));
    }
    std::sort(expected.positions->begin(), expected.positions->end());
    expected.positions->erase(std::unique(expected.positions->begin(), expected.positions->end()),
                              expected.positions->end());
    return expected;
  }

  ExpectedVerdict parse_verdict(const std::string& body) const {
    const std::vector<std::string> words = words_of(body);
    if (words.empty()) throw InputError("expected a verdict");
    const auto kind = verdict_kind_from_name(ascii_lower(words[0]));
    if (!kind) throw InputError("unknown verdict '" + words[0] + "'");
    ExpectedVerdict expected{*kind, std::nullopt, std::nullopt, std::nullopt};
    const bool aborts = *kind == VerdictKind::Abort || *kind == VerdictKind::FalseConflict;
    size_t next = 1;
    if (aborts) {
      if (words.size() > 1) expected.exception = conflict_kind_from_exception_name(words[1]);
      if (!expected.exception) throw InputError("expected an exception name after '" + words[0] + "'");
      next = 2;
      for (; next + 1 < words.size(); next += 2) {
        const std::string word = ascii_lower(words[next]);
        if (word == "by") {
          expected.winner = builder_.scenario().transactions[builder_.transaction_index(words[next + 1])].name;
        } else if (word == "on") {
          expected.file = words[next + 1];
        } else {
          break;
        }
      }
    }
    if (next < words.size()) throw InputError("unexpected '" + words[next] + "' after '" + words[0] + "'");
    return expected;
  }


  // `expect findings: none` cannot stand beside a transaction expected to be a finding, and a
  // kill needs a mutant to kill.
  void check_finding_expectation(const Scenario& scenario) const {
    const auto at_findings_line = [&](const std::string& message) {
      return InputError(scenario.source + ":" + std::to_string(findings_line_) + ": " + message);
    };
    if (scenario.findings == FindingExpectation::Killed && !names_a_mutant_) {
      throw at_findings_line("'expect mutant: killed' needs a 'mutant:' line");
    }
    if (scenario.findings != FindingExpectation::None) return;
    for (const auto& [index, verdict] : scenario.expected) {
      if (is_unsound(verdict.kind)) {
        throw at_findings_line("'expect findings: none' contradicts 'expect " + scenario.transactions[index].name +
                               ": " + expected_verdict_text(verdict) + "'");
      }
    }
  }

  ScenarioBuilder builder_;
  int line_number_ = 0;
  bool names_a_mutant_ = false;  // a `mutant:` line was read
  int findings_line_ = 0;        // of `expect findings:` or `expect mutant:`
};

}  // namespace

Scenario parse_scenario(std::string_view text, const std::string& source, std::optional<Mutant> mutant) {
  return ScenarioParser(source, mutant).parse(text);
}

Scenario load_scenario(const std::string& path, std::optional<Mutant> mutant) {
  const std::string text = with_error_context("scenario file", [&] { return read_bounded_file(path); });
  return parse_scenario(text, path, mutant);
}

}  // namespace skipsound
