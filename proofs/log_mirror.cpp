#include "proofs/log_mirror.h"

#include <nlohmann/json.hpp>
#include <map>
#include <utility>

#include "model/values/input_error.h"

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
  return stats ? stats_to_json(*stats, schema).dump() : "none";
}

std::string key_text(const FileKey& key) { return key.first + (key.second.empty() ? "" : " (DV " + key.second + ")"); }

}  // namespace

LogMirror::LogMirror(const Table& initial, Mutant mutant) : schema_(initial.schema()), mutant_(mutant) {
  std::vector<Action> actions{initial.protocol(), initial.metadata()};
  for (const TableFile& file : initial.files()) actions.push_back(file.to_add_action(schema_));
  commits_.push_back({commit_file_name(0), commit_to_json(actions)});
}

Commit LogMirror::log(const Commit& commit, const Table& model_after) {
  const size_t version = commits_.size();
  commits_.push_back({commit_file_name(static_cast<int64_t>(version)), commit_to_json(commit.to_actions(schema_))});
  if (commit.has_metadata()) schema_ = model_after.schema();
  const std::string at = "version " + std::to_string(version) + ": ";
  DeltaTable replayed;
  try {
    replayed = replay_delta_log(commits_, mutant_);
  } catch (const InputError& e) {
    problems_.push_back(at + "the log does not replay: " + e.render());
    return commit;
  }
  std::map<FileKey, const LiveFile*> live = by_key(replayed);
  for (const TableFile& file : model_after.files()) {
    const FileKey key = key_of(file, schema_);
    const auto found = live.find(key);
    if (found == live.end()) {
      problems_.push_back(at + key_text(key) + " is live in the model, not in the replayed log");
      continue;
    }
    const LiveFile& read = *found->second;
    if (read.stats != file.stats) {
      problems_.push_back(at + key_text(key) + ": its stats read back as " + stats_text(read.stats, schema_) +
                          ", written " + stats_text(file.stats, schema_));
    }
    if (read.partition_values != file.partition_values) {
      problems_.push_back(at + key_text(key) + ": its partition values do not read back as written");
    }
    live.erase(found);
  }
  for (const auto& [key, file] : live) problems_.push_back(at + key_text(key) + " is live in the replayed log, not in the model");

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

}  // namespace skipsound
