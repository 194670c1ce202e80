#include "proofs/scenario/log_mirror.h"

#include <nlohmann/json.hpp>
#include <fstream>
#include <map>
#include <stdexcept>
#include <utility>

#include "model/values/input_error.h"
#include "model/values/exact_json.h"
#include "smt/oracle_stats_reader.h"

namespace skipsound {

namespace {

using FileKey = std::pair<std::string, std::string>;  // (path, DV id), as Delta's replay keys files

FileKey key_of(const TableFile& file, const Schema& schema) {
  const AddFile add = file.to_add_action(schema);
  return {add.path, dv_id(add.deletion_vector)};
}

std::map<FileKey, const LiveFile*> by_key(const DeltaTable& table) {
  std::map<FileKey, const LiveFile*> files;
  for (const LiveFile& f : table.files) files[{f.add.path, dv_id(f.add.deletion_vector)}] = &f;
  return files;
}

std::string stats_text(const std::optional<FileStats>& stats, const Schema& schema) {
  return stats ? dump_json(stats_to_json(*stats, schema)) : "none";
}

std::string key_text(const FileKey& key) { return key.first + (key.second.empty() ? "" : " (DV " + key.second + ")"); }

void write_file(const std::filesystem::path& file, const std::string& text) {
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out << text;
  if (!out.flush()) throw std::runtime_error("cannot write " + file.string());
}

// The version checksum Delta writes beside a commit (`N.crc`): a reader must list it and skip it.
std::string checksum_text(const Table& model, const Schema& schema) {
  int64_t bytes = 0;
  for (const TableFile& file : model.files()) bytes += file.to_add_action(schema).size;
  const nlohmann::json crc{{"tableSizeBytes", bytes},
                           {"numFiles", model.files().size()},
                           {"numMetadata", 1},
                           {"numProtocol", 1}};
  return crc.dump() + "\n";
}

}  // namespace

LogMirror::LogMirror(const Table& initial, LogReplay where) : schema_(initial.schema()) {
  std::vector<Action> actions{initial.protocol(), initial.metadata()};
  for (const TableFile& file : initial.files()) actions.push_back(file.to_add_action(schema_));
  commits_.push_back({commit_file_name(0), commit_to_json(actions)});
  if (where == LogReplay::Directory) {
    previous_model_ = initial;
    previous_schema_ = schema_;
    table_dir_.emplace("log");
    std::filesystem::create_directory(table_dir_->path() / "_delta_log");
    write_latest(initial);
  }
}

void LogMirror::write_latest(const Table& model) {
  const std::filesystem::path log_dir = table_dir_->path() / "_delta_log";
  write_file(log_dir / commits_.back().file, commits_.back().text);
  std::string crc = commits_.back().file;
  crc.replace(crc.size() - 4, 4, "crc");
  write_file(log_dir / crc, checksum_text(model, schema_));
}

DeltaTable LogMirror::replay(std::optional<int64_t> version) const {
  if (table_dir_) return load_delta_table(table_dir_->path().string(), version);
  return replay_delta_log(commits_);
}

Commit LogMirror::log(const Commit& commit, const Table& model_after) {
  const size_t version = commits_.size();
  commits_.push_back({commit_file_name(static_cast<int64_t>(version)), commit_to_json(commit.to_actions(schema_))});
  if (commit.has_metadata()) schema_ = model_after.schema();
  if (table_dir_) write_latest(model_after);
  const std::string at = "version " + std::to_string(version) + ": ";
  DeltaTable replayed;
  try {
    replayed = replay(std::nullopt);
    if (table_dir_) {
      const int64_t earlier = static_cast<int64_t>(version) - 1;
      compare(replay(earlier), *previous_model_, previous_schema_, "version " + std::to_string(earlier) + " (time travel): ");
    }
  } catch (const InputError& e) {
    problems_.push_back(at + "the log does not replay: " + without_table_dir(e.render()));
    return commit;
  }
  compare(replayed, model_after, schema_, at);
  if (table_dir_) {  // only time travel reads the version before
    previous_model_ = model_after;
    previous_schema_ = schema_;
  }

  Commit as_read = commit;
  const std::map<FileKey, const LiveFile*> replayed_files = by_key(replayed);
  for (TableFile& add : as_read.adds) {
    const auto found = replayed_files.find(key_of(add, schema_));
    if (found == replayed_files.end()) continue;  // removed again in the same commit, or listed above
    add.stats = found->second->stats;
    add.partition_values = found->second->partition_values;
  }
  return as_read;
}

// Reports name the scratch folder "<table directory>": its name differs from run to run, and a
// finding must read the same in every replay of its seed.
std::string LogMirror::without_table_dir(std::string text) const {
  if (!table_dir_) return text;
  const std::string dir = table_dir_->path().string();
  for (size_t at; (at = text.find(dir)) != std::string::npos;) text.replace(at, dir.size(), "<table directory>");
  return text;
}

void LogMirror::compare(const DeltaTable& replayed, const Table& model, const Schema& schema, const std::string& at) {
  for (const std::string& warning : replayed.warnings) {
    problems_.push_back(at + "the replay warns: " + without_table_dir(warning));
  }
  std::map<FileKey, const LiveFile*> live = by_key(replayed);
  for (const TableFile& file : model.files()) {
    const FileKey key = key_of(file, schema);
    const auto found = live.find(key);
    if (found == live.end()) {
      problems_.push_back(at + key_text(key) + " is live in the model, not in the replayed log");
      continue;
    }
    const LiveFile& read = *found->second;
    if (read.stats && read.add.stats) {
      for (const smt::DecodeDifference& d :
           smt::read_stats_for_oracle(*read.add.stats, schema, replayed.stats_naming(), *read.stats).differences) {
        problems_.push_back(at + key_text(key) + ": DECODE " + smt::describe_difference(d, schema));
      }
    }
    if (read.stats != file.stats) {
      problems_.push_back(at + key_text(key) + ": its stats read back as " + stats_text(read.stats, schema) +
                          ", written " + stats_text(file.stats, schema));
    }
    if (read.partition_values != file.partition_values) {
      problems_.push_back(at + key_text(key) + ": its partition values do not read back as written");
    }
    live.erase(found);
  }
  for (const auto& [key, file] : live) problems_.push_back(at + key_text(key) + " is live in the replayed log, not in the model");
}

}  // namespace skipsound
