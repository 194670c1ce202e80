#include "proofs/perfile/per_file_log.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include <nlohmann/json.hpp>

#include "checker/candidate_file.h"
#include "model/mutants/fault_injection.h"
#include "model/table/table.h"
#include "model/values/input_error.h"
#include "model/values/temporal.h"
#include "model/values/exact_json.h"

namespace skipsound {
namespace {

using generators::GeneratedFile;
using generators::TableShape;
using nlohmann::json;

bool column_mapped(const Schema& schema) {
  for (const Leaf& leaf : schema.leaves()) {
    if (leaf.physical_path != leaf.path) return true;
  }
  return false;
}

StatsNaming naming_of(const Schema& schema) {
  return column_mapped(schema) ? StatsNaming::Physical : StatsNaming::Logical;
}

// The same instant as a writer in another zone logs it: local wall-clock time and the offset.
// A value whose local time the writer cannot print (near the int64 limits) keeps its Z form.
std::string timestamp_at_offset(int64_t micros, int minutes, const std::string& utc_text) {
  int64_t local = 0;
  if (__builtin_add_overflow(micros, int64_t{minutes} * 60'000'000, &local)) return utc_text;
  char zone[16];
  std::snprintf(zone, sizeof zone, "%c%02d:%02d", minutes < 0 ? '-' : '+', std::abs(minutes) / 60, std::abs(minutes) % 60);
  const std::string text = format_timestamp(local, TimestampFormat{'T', 3, false}) + zone;
  return parse_timestamp(text, ZonePolicy::ConvertToUtc) == micros ? text : utc_text;
}

// Where a leaf's stat sits in a section of the stats JSON.
json* stat_slot(json& stats, const char* section, const ColumnPath& names) {
  json* slot = &stats[section];
  for (const std::string& name : names) slot = &(*slot)[name];
  return slot;
}

// Rewrites the timestamp min/max of the stats JSON at the file's zone offset (docs/semantics.md §4.5:
// readers convert offsets to UTC).
void offset_timestamps(json& stats, const Schema& schema, const FileStats& written, int minutes) {
  if (minutes == 0) return;
  const bool physical = naming_of(schema) == StatsNaming::Physical;
  for (const Leaf& leaf : schema.leaves()) {
    if (leaf.type.kind != TypeKind::Timestamp) continue;
    const ColumnStats& c = written.column(leaf.ordinal);
    for (const auto& [section, bound] : {std::pair{"minValues", &c.min}, std::pair{"maxValues", &c.max}}) {
      if (!*bound || (*bound)->is_null()) continue;
      json* slot = stat_slot(stats, section, physical ? leaf.physical_path : leaf.path);
      *slot = timestamp_at_offset((*bound)->as_int(), minutes, slot->get<std::string>());
    }
  }
}

// Decimal min/max as JSON strings, as writers other than Delta's log them ("1.50" for 1.50).
void decimals_as_strings(json& stats, const Schema& schema, const FileStats& written) {
  const bool physical = naming_of(schema) == StatsNaming::Physical;
  for (const Leaf& leaf : schema.leaves()) {
    if (leaf.type.kind != TypeKind::Decimal) continue;
    const ColumnStats& c = written.column(leaf.ordinal);
    for (const auto& [section, bound] : {std::pair{"minValues", &c.min}, std::pair{"maxValues", &c.max}}) {
      if (!*bound || (*bound)->is_null()) continue;
      *stat_slot(stats, section, physical ? leaf.physical_path : leaf.path) = decimal_to_string((*bound)->as_decimal());
    }
  }
}

// Stats of a column dropped after the file was written: keys the schema no longer has, sorted
// before every column's (a reader must skip them without shifting later keys).
void add_dropped_column(json& stats) {
  for (const char* section : {"minValues", "maxValues", "nullCount"}) stats[section]["a_dropped"] = 0;
}

// A partition value as Delta logs it: a string, null for NULL (docs/semantics.md §4.7).
std::optional<std::string> partition_text(const Value& v) {
  if (v.is_null()) return std::nullopt;
  // Every digit of a finite double (to_display prints a float's shortest float digits).
  if (is_floating(v.type.kind) && std::isfinite(v.as_double())) return json(v.as_double()).dump();
  return to_display(v);
}

Metadata metadata_of(const TableShape& table, bool deletion_vectors) {
  TableProperties properties;
  properties.stats = table.stats_config;
  properties.deletion_vectors = deletion_vectors;
  Metadata metadata = Table(table.schema, properties).metadata();
  if (column_mapped(table.schema)) metadata.configuration["delta.columnMapping.mode"] = "name";
  return metadata;
}

Protocol protocol_of(const TableShape& table, bool deletion_vectors) {
  Protocol protocol;
  protocol.min_reader_version = 3;
  protocol.min_writer_version = 7;
  std::vector<std::string> features;
  if (column_mapped(table.schema)) features.push_back("columnMapping");
  if (deletion_vectors) features.push_back("deletionVectors");
  protocol.reader_features = features;
  protocol.writer_features = features;
  return protocol;
}

AddFile add_action(const TableShape& table, const GeneratedFile& file, const DeletedRows& deleted) {
  const Schema& schema = table.schema;
  AddFile add;
  add.path = kPerFileCasePath;
  const Row values = written_partition_values(table, file);
  for (const std::string& column : table.stats_config.partition_columns) {
    const Leaf* leaf = schema.find_leaf({column});
    add.partition_values[leaf->physical_path.front()] = partition_text(values[leaf->ordinal]);
  }
  add.size = static_cast<int64_t>(file.rows.size());
  json stats = stats_to_json(file.stats, schema, naming_of(schema));
  offset_timestamps(stats, schema, file.stats, file.log.timestamp_offset_minutes);
  if (file.log.decimals_as_strings) decimals_as_strings(stats, schema, file.stats);
  if (file.log.dropped_column_stats) add_dropped_column(stats);
  add.stats = dump_json(stats);
  add.deletion_vector = inline_descriptor(deleted);
  return add;
}

RemoveFile remove_action(const AddFile& add) {
  RemoveFile remove;
  remove.path = add.path;
  remove.partition_values = add.partition_values;
  remove.deletion_vector = add.deletion_vector;
  return remove;
}

// The DVs the file went through: none, then (for two deletes) the first deleted row, then all.
std::vector<DeletedRows> dv_versions(const GeneratedFile& file) {
  DeletedRows all;
  for (uint32_t r = 0; r < file.deleted.size(); ++r) {
    if (file.deleted[r]) all.push_back(r);
  }
  std::vector<DeletedRows> versions{{}};
  const bool two_deletes = file.history != generators::StatsHistory::DeletedOnce;
  if (two_deletes && all.size() >= 2) versions.push_back({all.front()});
  if (!all.empty()) versions.push_back(all);
  return versions;
}

bool same_value(const Value& a, const Value& b) {
  if (a.is_null() || b.is_null()) return a.is_null() && b.is_null();
  return spark_compare(a, b) == std::strong_ordering::equal;
}

void compare_partition_values(const TableShape& table, const Row& written, const Row& read,
                              std::vector<std::string>& problems) {
  for (const Leaf& leaf : table.schema.leaves()) {
    if (!generators::is_partition_leaf(leaf, table.stats_config)) continue;
    const Value& w = written[leaf.ordinal];
    const Value& r = read[leaf.ordinal];
    if (!same_value(w, r)) {
      problems.push_back("partition value of " + path_to_sql(leaf.path) + ": written " +
                         (w.is_null() ? "NULL" : to_sql_literal(w)) + ", read " + (r.is_null() ? "NULL" : to_sql_literal(r)));
    }
  }
}

void compare_live_file(const TableShape& table, const GeneratedFile& file, const LiveFile& live, LogReadBack& out) {
  if (live.dv_cardinality() != file.dv_cardinality()) {
    out.problems.push_back("the live file's DV has " + std::to_string(live.dv_cardinality()) + " rows, the writer deleted " +
                           std::to_string(file.dv_cardinality()));
  }
  if (!out.stats) {
    out.problems.push_back("the stats text did not read back");
  } else {
    const json written = stats_to_json(file.stats, table.schema);
    const json read = stats_to_json(*out.stats, table.schema);
    if (written != read) out.problems.push_back("stats read back as " + dump_json(read) + ", written " + dump_json(written));
  }
  compare_partition_values(table, written_partition_values(table, file), out.partition_values, out.problems);
}

}  // namespace

Row written_partition_values(const TableShape& table, const GeneratedFile& file) {
  Row values;
  for (const Leaf& leaf : table.schema.leaves()) {
    values.push_back(file.rows.empty() ? Value::null(leaf.type) : file.rows.front()[leaf.ordinal]);
  }
  return values;
}

std::vector<LogCommit> file_case_log(const TableShape& table, const GeneratedFile& file) {
  const std::vector<DeletedRows> versions = dv_versions(file);
  const bool deletion_vectors = versions.size() > 1;
  std::vector<Action> first = {protocol_of(table, deletion_vectors), metadata_of(table, deletion_vectors),
                               add_action(table, file, versions.front())};
  std::vector<LogCommit> commits{{commit_file_name(0), commit_to_json(first)}};
  for (size_t v = 1; v < versions.size(); ++v) {
    const AddFile before = add_action(table, file, versions[v - 1]);
    const AddFile after = add_action(table, file, versions[v]);
    std::vector<Action> update = {remove_action(before), after};
    if (file.log.add_before_remove) std::swap(update.front(), update.back());
    commits.push_back({commit_file_name(static_cast<int64_t>(v)), commit_to_json(update)});
  }
  return commits;
}

LogReadBack read_back(const TableShape& table, const GeneratedFile& file, Mutant mutant) {
  LogReadBack out;
  const std::vector<LogCommit> commits = file_case_log(table, file);
  for (const LogCommit& c : commits) out.log_text += c.file + ":\n" + c.text;
  out.partition_values = written_partition_values(table, file);
  DeltaTable read;
  try {
    const FaultScope fault(mutant);
    read = replay_delta_log(commits);
  } catch (const InputError& e) {
    out.problems.push_back("the log does not read back: " + e.render());
    return out;
  }
  if (read.stats_config.num_indexed_cols != table.stats_config.num_indexed_cols ||
      read.stats_config.stats_columns != table.stats_config.stats_columns) {
    out.problems.push_back("the stats settings read back differently from metaData.configuration");
  }
  if (read.files.size() != 1) {
    out.problems.push_back("the log replays to " + std::to_string(read.files.size()) +
                           " live files; the writer left one");
  }
  if (read.files.empty()) return out;
  const LiveFile& live = read.files.front();
  out.stats_text = live.add.stats.value_or("");
  out.stats_naming = read.stats_naming();
  if (live.stats && live.add.stats) {
    out.decode = smt::read_stats_for_oracle(out.stats_text, table.schema, out.stats_naming, *live.stats).differences;
    for (const smt::DecodeDifference& d : out.decode) out.problems.push_back("DECODE " + smt::describe_difference(d, table.schema));
  }
  out.stats = live.stats;
  out.dv_cardinality = live.dv_cardinality();
  out.partition_values = partition_row(live.partition_values, table.schema);
  compare_live_file(table, file, live, out);
  return out;
}

}  // namespace skipsound
