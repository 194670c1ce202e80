#include "cli/external_decisions.h"

#include <filesystem>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include "model/sql/binder.h"
#include "model/log/delta_log.h"
#include "model/values/input_error.h"
#include "model/values/exact_json.h"

namespace skipsound::cli {

namespace {

using nlohmann::json;

const json& required(const json& line, const char* field) {
  const auto it = line.find(field);
  if (it == line.end()) throw InputError(std::string("missing \"") + field + "\"");
  return *it;
}

std::string required_string(const json& line, const char* field) {
  const json& value = required(line, field);
  if (!value.is_string()) throw InputError(std::string("\"") + field + "\" must be a string");
  return value.get<std::string>();
}

FileVerdict decision_of(const json& line) {
  const std::string decision = required_string(line, "decision");
  if (decision == "kept") return FileVerdict::Keep;
  if (decision == "skipped") return FileVerdict::Skip;
  throw InputError("\"decision\" must be \"kept\" or \"skipped\", not \"" + decision + "\"");
}

// The stats' text: the string as given, or the object as written (its numbers kept exactly).
std::string stats_text_of(const json& stats) {
  return stats.is_string() ? stats.get<std::string>() : dump_json(stats);
}

// "stats" as a JSON string (as in a Delta add action) or as an object.
FileStats stats_of(const json& stats, const Schema& schema) {
  if (stats.is_string()) return stats_from_json_text(stats.get<std::string>(), schema);
  if (stats.is_object()) return stats_from_json(stats, schema);
  throw InputError("\"stats\" must be a JSON string or object");
}

Schema schema_of(const json& schema) {
  if (schema.is_string()) return Schema::from_json_text(schema.get<std::string>());
  if (schema.is_object()) return Schema::from_json(schema);
  throw InputError("\"schema\" must be a Spark StructType (object or string)");
}

class TableCache {
 public:
  explicit TableCache(std::filesystem::path base) : base_(std::move(base)) {}

  const DeltaTable& table(const std::string& dir, std::optional<int64_t> version) {
    std::filesystem::path path(dir);
    if (path.is_relative()) path = base_ / path;
    const auto key = std::make_pair(path.string(), version);
    auto it = tables_.find(key);
    if (it == tables_.end()) it = tables_.emplace(key, load_delta_table(path.string(), version)).first;
    return it->second;
  }

 private:
  std::filesystem::path base_;
  std::map<std::pair<std::string, std::optional<int64_t>>, DeltaTable> tables_;
};

void load_inline(const json& line, LoadedFiles& file) {
  file.schema = schema_of(line.at("schema"));
  file.stats.push_back(stats_of(required(line, "stats"), file.schema));
  file.stats_texts.push_back(LoadedFiles::StatsText{stats_text_of(line.at("stats"))});
  int64_t deleted = 0;
  if (const auto it = line.find("deletedRows"); it != line.end()) {
    if (!it->is_number_integer() || it->get<int64_t>() < 0)
      throw InputError("\"deletedRows\" must be a non-negative integer");
    deleted = it->get<int64_t>();
  }
  file.candidates.push_back(CandidateFile{"", &file.stats.front(), {}, deleted});
}

void load_live_file(const json& line, TableCache& tables, LoadedFiles& file) {
  std::optional<int64_t> version;
  if (const auto it = line.find("version"); it != line.end()) {
    if (!it->is_number_integer()) throw InputError("\"version\" must be an integer");
    version = it->get<int64_t>();
  }
  const DeltaTable& table = tables.table(required_string(line, "table"), version);
  const std::string path = required_string(line, "path");
  const auto live = std::find_if(table.files.begin(), table.files.end(),
                                 [&](const LiveFile& f) { return f.add.path == path; });
  if (live == table.files.end()) throw InputError("no live file \"" + path + "\" in " + table.dir);
  file.schema = table.metadata.schema;
  file.config = table.stats_config;
  const FileStats* stats = nullptr;
  std::optional<LoadedFiles::StatsText> text;
  if (const auto it = line.find("stats"); it != line.end()) {
    stats = &file.stats.emplace_back(stats_of(*it, file.schema));
    text = LoadedFiles::StatsText{stats_text_of(*it)};
  } else if (live->stats) {
    stats = &file.stats.emplace_back(*live->stats);
    if (live->add.stats) text = LoadedFiles::StatsText{*live->add.stats, table.stats_naming()};
  }
  file.stats_texts.push_back(std::move(text));
  file.candidates.push_back(CandidateFile{path, stats, partition_row(live->partition_values, file.schema),
                                          live->dv_cardinality()});
  file.have_partition_values = true;
}

ExternalDecision decision_from_line(const json& line, int number, TableCache& tables) {
  if (!line.is_object()) throw InputError("a line must be a JSON object");
  ExternalDecision d;
  d.line = number;
  d.predicate = required_string(line, "predicate");
  d.decision = decision_of(line);
  if (line.contains("schema") == line.contains("table"))
    throw InputError("give exactly one of \"schema\" (inline) or \"table\" with \"path\"");
  if (line.contains("schema")) load_inline(line, d.file);
  else load_live_file(line, tables, d.file);
  d.name = line.contains("file") ? required_string(line, "file")
           : !d.file.candidates.front().path.empty() ? d.file.candidates.front().path
                                                     : "line " + std::to_string(number);
  d.file.candidates.front().path = d.name;
  d.bound = parse_and_bind(d.predicate, d.file.schema);
  return d;
}

// The line's fault as "PATH:LINE: message", keeping the column within the line where it has one;
// nullopt for an exception that is no fault of the input (skipsound's own bug: it propagates).
std::optional<InputError> line_error(const std::string& where, const std::string& line, const std::exception& e) {
  if (const auto* parse = dynamic_cast<const json::parse_error*>(&e)) {
    return InputError(where + "not valid JSON: " + parse->what(), static_cast<int>(std::min(parse->byte, line.size() + 1)), line);
  }
  if (const auto* input = dynamic_cast<const InputError*>(&e)) return InputError(where + input->message(), input->column(), input->source());
  if (dynamic_cast<const SchemaError*>(&e)) return InputError(where + "bad schema: " + e.what());
  if (dynamic_cast<const json::exception*>(&e)) return InputError(where + e.what());
  return std::nullopt;
}

}  // namespace

ExternalDecisions read_external_decisions(const std::string& path) {
  std::istringstream lines(read_text_file(path));
  TableCache tables(std::filesystem::path(path).parent_path());
  ExternalDecisions read;
  int number = 0;
  for (std::string line; std::getline(lines, line);) {
    ++number;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    try {
      read.decisions.push_back(decision_from_line(parse_json_exact(line), number, tables));
    } catch (const std::exception& e) {
      std::optional<InputError> error = line_error(path + ":" + std::to_string(number) + ": ", line, e);
      if (!error) throw;
      read.bad_lines.push_back({number, std::move(*error)});
    }
  }
  return read;
}

}  // namespace skipsound::cli
