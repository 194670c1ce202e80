#include "model/log/delta_log.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cctype>
#include <filesystem>
#include <sstream>
#include <string_view>

#include "model/coverage/coverage.h"
#include "model/mutants/fault_injection.h"
#include "model/values/input_error.h"
#include "model/values/input_limits.h"
#include "model/values/temporal.h"
#include "model/values/ascii_text.h"
#include "model/values/exact_json.h"

namespace skipsound {
namespace fs = std::filesystem;
namespace {

constexpr int kVersionDigits = 20;

std::string version_file_name(int64_t version, const char* suffix) {
  std::string digits = std::to_string(version);
  return std::string(kVersionDigits - std::min<size_t>(digits.size(), kVersionDigits), '0') +
         digits + suffix;
}

std::optional<int64_t> commit_version(const std::string& name) {
  if (name.size() != kVersionDigits + 5 || name.substr(kVersionDigits) != ".json") return std::nullopt;
  int64_t version = 0;
  const auto [end, ec] = std::from_chars(name.data(), name.data() + kVersionDigits, version);
  if (ec != std::errc() || end != name.data() + kVersionDigits) return std::nullopt;
  return version;
}

// The JSON commits present, sorted by version; at most kMaxLogCommits of them.
std::vector<int64_t> list_commits(const fs::path& log_dir) {
  std::vector<int64_t> versions;
  std::error_code error;
  for (fs::directory_iterator it(log_dir, error), end; !error && it != end; it.increment(error)) {
    if (auto v = commit_version(it->path().filename().string())) versions.push_back(*v);
    if (versions.size() > kMaxLogCommits) {
      throw InputError(log_dir.string() + " holds more than " + std::to_string(kMaxLogCommits) +
                       " JSON commits, the limit skipsound replays");
    }
  }
  if (error) throw InputError("cannot list " + log_dir.string() + ": " + error.message());
  std::sort(versions.begin(), versions.end());
  return versions;
}

std::optional<int64_t> last_checkpoint_version(const fs::path& log_dir) {
  const fs::path file = log_dir / "_last_checkpoint";
  std::error_code error;
  if (!fs::exists(file, error)) return std::nullopt;
  try {
    const auto j = parse_json_exact(read_bounded_file(file));
    return j.at("version").get<int64_t>();
  } catch (const nlohmann::json::exception& e) {
    throw InputError(file.string() + ": malformed _last_checkpoint: " + e.what());
  }
}

[[noreturn]] void refuse_checkpoint(const fs::path& log_dir, int64_t checkpoint, const std::string& why) {
  throw InputError("checkpoint " + (log_dir / version_file_name(checkpoint, ".checkpoint.parquet")).string() +
                   " is not supported: " + why + " (skipsound replays JSON commits only)");
}

// Checks that commits 0..target are all present as JSON and says why not otherwise.
void check_replayable(const fs::path& log_dir, const std::vector<int64_t>& versions, int64_t target,
                      std::optional<int64_t> checkpoint) {
  auto refuse_missing = [&](int64_t missing) {
    const std::string gap = "commit " + version_file_name(missing, ".json") + " is missing";
    if (checkpoint && *checkpoint >= missing && *checkpoint <= target) {
      refuse_checkpoint(log_dir, *checkpoint, gap + " and only the checkpoint could supply it");
    }
    throw InputError(log_dir.string() + ": " + gap + " (versions must run from 0 without gaps)");
  };
  int64_t expected = 0;
  for (int64_t v : versions) {
    if (v > target) break;
    if (v != expected) refuse_missing(expected);
    ++expected;
  }
  if (expected <= target) refuse_missing(expected);
}

// Text of a timestamp partition value, in any of the forms Delta writers use; UTC assumed.
Value timestamp_from_text(const std::string& text, TypeKind kind) {
  const auto policy = kind == TypeKind::TimestampNtz ? ZonePolicy::Reject : ZonePolicy::ConvertToUtc;
  const auto micros = parse_timestamp(text, policy);
  if (!micros) throw InputError("not a " + type_name(DataType::of(kind)) + ": '" + text + "'");
  return Value::integral(kind, *micros);
}

template <class Int>
Int parse_number(const std::string& text, const DataType& type) {
  Int value{};
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) {
    throw InputError("not a " + type_name(type) + ": '" + text + "'");
  }
  return value;
}

double parse_floating(const std::string& text, const DataType& type) {
  const std::string lower = ascii_lower(text);
  if (lower == "nan") return std::numeric_limits<double>::quiet_NaN();
  if (lower == "infinity" || lower == "inf") return std::numeric_limits<double>::infinity();
  if (lower == "-infinity" || lower == "-inf") return -std::numeric_limits<double>::infinity();
  return parse_number<double>(text, type);
}

std::string quoted_path(const std::string& path) { return "'" + path + "'"; }

LiveFile make_live_file(const AddFile& add, const Metadata& metadata, std::vector<std::string>& warnings) {
  LiveFile live{add, std::nullopt, {}};
  if (add.deletion_vector) coverage::hit(coverage::Probe::LogDeletionVector);
  try {
    live.stats = add.parse_stats(metadata.schema, metadata.stats_naming());
  } catch (const std::exception& e) {
    // A stats-less file is always kept by the skipping logic, so dropping bad stats is sound.
    warnings.push_back("stats of " + quoted_path(add.path) + " ignored: " + e.what());
  }
  const bool mapped = metadata.column_mapping_mode() != ColumnMappingMode::None;
  for (const std::string& column : metadata.partition_columns) {
    const StructField* field = nullptr;
    for (const StructField& f : metadata.schema.fields()) {
      if (f.name == column) field = &f;
    }
    if (!field) throw InputError("partition column '" + column + "' is not in the table schema");
    const std::string& key = mapped && !field->physical_name.empty() ? field->physical_name : field->name;
    const auto it = add.partition_values.find(key);
    if (it == add.partition_values.end()) {
      throw InputError("add " + quoted_path(add.path) + " has no partition value for '" + key + "'");
    }
    try {
      live.partition_values.emplace(column, partition_value_from_text(it->second, field->type));
    } catch (const InputError& e) {
      throw InputError("add " + quoted_path(add.path) + ", partition column '" + column + "': " + e.message());
    }
  }
  return live;
}

using FileKey = std::pair<std::string, std::string>;  // (path, DV id)

struct Replay {
  std::map<FileKey, AddFile> live;
  std::optional<Metadata> metadata;
  std::optional<Protocol> protocol;
  std::string commit_file;             // the commit being applied
  std::string metadata_file, protocol_file;  // the commits of the live metaData and protocol
  std::map<std::string, int64_t> app_versions;
  std::map<std::string, std::string> domains;

  void apply(const Action& action) {
    std::visit([this](const auto& a) { on(a); }, action);
  }
  void on(const AddFile& a) { live[{a.path, dv_id(a.deletion_vector)}] = a; }
  // A remove cancels the add of the same (path, DV id) only (docs/semantics.md §4.7), unless a
  // log-replay mutant keys it by the path alone or drops its DV.
  void on(const RemoveFile& r) {
    if (fault_active(Mutant::RemoveByPathOnly)) {
      std::erase_if(live, [&](const auto& entry) { return entry.first.first == r.path; });
      return;
    }
    const FileKey key{r.path, fault_active(Mutant::RemoveIgnoresDv) ? std::string() : dv_id(r.deletion_vector)};
    if (live.contains(key)) coverage::hit(coverage::Probe::LogRemoveReconciled);
    live.erase(key);
  }
  void on(const Metadata& m) {
    metadata = m;
    metadata_file = commit_file;
  }
  void on(const Protocol& p) {
    protocol = p;
    protocol_file = commit_file;
  }
  void on(const Txn& t) { app_versions[t.app_id] = t.version; }
  void on(const DomainMetadata& d) {
    if (d.removed) {
      domains.erase(d.domain);
    } else {
      domains[d.domain] = d.configuration;
    }
  }
  void on(const CommitInfo&) {}
  void on(const AddCdcFile&) {}  // change data is not table data
};

// Reader features whose effect on the log and on stats the model implements (docs/semantics.md §4.7):
//   columnMapping        stats and partition values keyed by physical names (Metadata::stats_naming);
//   deletionVectors      files keyed by (path, DV id), the DV cardinality, wide bounds;
//   timestampNtz         the timestamp_ntz type with its stats and partition values;
//   vacuumProtocolCheck  constrains VACUUM only, which reads nothing skipsound reads.
// Anything else changes what a file's stats or rows mean (typeWidening: old files' stats in the
// old type; collations: a string order other than UTF-8 bytes; variantType: a type the model
// lacks; v2Checkpoint: a log whose state may live in checkpoint sidecars), so it is refused.
constexpr std::array<std::string_view, 4> kSupportedReaderFeatures = {
    "columnMapping", "deletionVectors", "timestampNtz", "vacuumProtocolCheck"};
// 1: plain; 2: column mapping; 3: table features (readerFeatures lists what is needed).
constexpr int kMaxReaderVersion = 3;

// Refuses a table whose protocol requires more than skipsound reads, as Delta readers refuse one
// newer than they are: deciding skips on a table read wrongly would be silently wrong.
void check_readable(const Protocol& protocol, const std::string& protocol_file) {
  if (protocol.min_reader_version > kMaxReaderVersion) {
    throw InputError(protocol_file + ": unsupported Delta protocol: minReaderVersion " +
                     std::to_string(protocol.min_reader_version) + " (skipsound reads versions up to " +
                     std::to_string(kMaxReaderVersion) + ")");
  }
  std::string unsupported;
  for (const std::string& feature : protocol.reader_features.value_or(std::vector<std::string>{})) {
    if (std::find(kSupportedReaderFeatures.begin(), kSupportedReaderFeatures.end(), feature) ==
        kSupportedReaderFeatures.end()) {
      unsupported += (unsupported.empty() ? "" : ", ") + feature;
    }
  }
  if (unsupported.empty()) return;
  std::string supported;
  for (std::string_view feature : kSupportedReaderFeatures) {
    supported += (supported.empty() ? "" : ", ") + std::string(feature);
  }
  throw InputError(protocol_file + ": unsupported Delta reader feature(s): " + unsupported +
                   " (skipsound implements " + supported + ")");
}

}  // namespace

Value partition_value_from_text(const std::optional<std::string>& text, const DataType& type) {
  if (!text && fault_active(Mutant::PartitionNullAsEmpty) && type.kind == TypeKind::String) return Value::string("");
  if (!text || text->empty()) {
    coverage::hit(coverage::Probe::PartitionValueNull);
    return Value::null(type);
  }
  coverage::hit(coverage::Probe::PartitionValueTyped);
  const std::string& t = *text;
  switch (type.kind) {
    case TypeKind::Boolean:
      if (t == "true") return Value::boolean(true);
      if (t == "false") return Value::boolean(false);
      throw InputError("not a boolean: '" + t + "'");
    case TypeKind::Byte:
    case TypeKind::Short:
    case TypeKind::Int:
    case TypeKind::Long: {
      const auto v = parse_number<int64_t>(t, type);
      if (v < integral_min(type.kind) || v > integral_max(type.kind)) {
        throw InputError("out of range for " + type_name(type) + ": '" + t + "'");
      }
      return Value::integral(type.kind, v);
    }
    case TypeKind::Float:
    case TypeKind::Double:
      return Value::floating(type.kind, parse_floating(t, type));
    case TypeKind::Decimal:
      try {
        return Value::decimal(parse_decimal(t), type.precision);
      } catch (const std::invalid_argument&) {
        throw InputError("not a " + type_name(type) + ": '" + t + "'");
      }
    case TypeKind::Date: {
      const auto days = parse_date(t);
      if (!days) throw InputError("not a date: '" + t + "'");
      return Value::integral(TypeKind::Date, *days);
    }
    case TypeKind::Timestamp:
    case TypeKind::TimestampNtz:
      return timestamp_from_text(t, type.kind);
    case TypeKind::String:
      return Value::string(t);
    case TypeKind::Binary:
      return Value::binary(t);
    default:
      throw InputError("a " + type_name(type) + " column cannot be a partition column");
  }
}

std::string commit_file_name(int64_t version) { return version_file_name(version, ".json"); }

DeltaTable load_delta_table(const std::string& dir, std::optional<int64_t> version) {
  const fs::path log_dir = fs::path(dir) / "_delta_log";
  std::error_code error;
  if (!fs::is_directory(log_dir, error)) throw InputError("not a Delta table: " + log_dir.string() + " does not exist");
  const std::vector<int64_t> versions = list_commits(log_dir);
  const std::optional<int64_t> checkpoint = last_checkpoint_version(log_dir);
  if (versions.empty()) {
    if (checkpoint) refuse_checkpoint(log_dir, *checkpoint, "the log has no JSON commits");
    throw InputError("not a Delta table: " + log_dir.string() + " holds no JSON commits");
  }
  const int64_t latest = versions.back();
  if (version && (*version < 0 || *version > latest)) {
    throw InputError("version " + std::to_string(*version) + " not found: " + log_dir.string() +
                     " has commits " + std::to_string(versions.front()) + ".." + std::to_string(latest));
  }
  const int64_t target = version.value_or(latest);
  check_replayable(log_dir, versions, target, checkpoint);
  coverage::hit(coverage::Probe::LogDirectory);
  if (target < latest) coverage::hit(coverage::Probe::LogEarlierVersion);

  std::vector<LogCommit> commits;
  std::uintmax_t log_bytes = 0;
  for (int64_t v = 0; v <= target; ++v) {
    const std::string file = (log_dir / version_file_name(v, ".json")).string();
    commits.push_back({file, read_bounded_file(file)});
    if ((log_bytes += commits.back().text.size()) > kMaxLogBytes) {
      throw InputError(log_dir.string() + ": commits 0.." + std::to_string(v) + " hold more than " +
                       byte_size_text(kMaxLogBytes) + ", the limit skipsound replays");
    }
  }
  DeltaTable table = replay_delta_log(commits);
  table.dir = dir;
  if (checkpoint) {
    table.warnings.insert(table.warnings.begin(), "_last_checkpoint (version " + std::to_string(*checkpoint) +
                                                      ") ignored: replayed JSON commits 0.." + std::to_string(target) + " instead");
  }
  return table;
}

DeltaTable replay_delta_log(const std::vector<LogCommit>& commits) {
  DeltaTable table;
  table.version = static_cast<int64_t>(commits.size()) - 1;
  Replay replay;
  for (const LogCommit& commit : commits) {
    replay.commit_file = commit.file;
    for (const Action& action : parse_commit(commit.text, commit.file)) replay.apply(action);
    if (replay.live.size() > kMaxLiveFiles) {
      throw InputError(commit.file + ": more than " + std::to_string(kMaxLiveFiles) +
                       " live files, the limit skipsound replays");
    }
  }
  const std::string folder = commits.empty() ? std::string() : fs::path(commits.front().file).parent_path().string();
  const std::string log = folder.empty() ? std::string("the log") : folder;
  const std::string range = "commits 0.." + std::to_string(table.version);
  if (!replay.metadata) throw InputError(log + ": no metaData action in " + range);
  if (!replay.protocol) throw InputError(log + ": no protocol action in " + range);
  check_readable(*replay.protocol, replay.protocol_file);
  table.metadata = std::move(*replay.metadata);
  table.stats_config = with_error_context(replay.metadata_file + ": metaData.configuration", [&] {
    return StatsConfig::from_configuration(table.metadata.configuration, table.metadata.partition_columns);
  });
  table.protocol = std::move(*replay.protocol);
  table.app_versions = std::move(replay.app_versions);
  table.domains = std::move(replay.domains);
  for (const auto& [key, add] : replay.live) {
    table.files.push_back(make_live_file(add, table.metadata, table.warnings));
  }
  return table;
}

}  // namespace skipsound
