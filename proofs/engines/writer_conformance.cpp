#include "proofs/engines/writer_conformance.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <set>
#include <sstream>

#include <rapidcheck.h>

#include "generators/combinators.h"
#include "generators/value_gen.h"
#include "model/log/delta_log.h"
#include "model/values/input_error.h"
#include "model/values/scratch_directory.h"
#include "proofs/common/trial_seed.h"
#include "proofs/engines/engine_world.h"
#include "proofs/oracles/stats_audit.h"

namespace skipsound::engines {

namespace {

using nlohmann::json;

// The seed stream of conformance tables (proofs/common/trial_seed.h), apart from the explorer's categories.
constexpr uint64_t kConformanceStream = 0xC0F0;
constexpr uint64_t kScanStream = 0x5CA7;
constexpr int kGenerationSize = 50;

// --- generation ------------------------------------------------------------------------------

rc::Gen<DataType> leaf_type() {
  using K = TypeKind;
  const auto any_decimal = rc::gen::mapcat(generators::uniform_in(1, kMaxDecimalPrecision + 1), [](int p) {
    return rc::gen::map(generators::uniform_in(0, p + 1), [p](int s) { return DataType::decimal(p, s); });
  });
  return generators::weighted_one_of<DataType>(
      {{3, rc::gen::element(DataType::of(K::Long), DataType::of(K::Int))},
       {1, rc::gen::element(DataType::of(K::Short), DataType::of(K::Byte))},
       {3, rc::gen::weightedElement<DataType>({{3, DataType::of(K::Double)}, {1, DataType::of(K::Float)}})},
       {2, rc::gen::element(DataType::decimal(5, 2), DataType::decimal(18, 0), DataType::decimal(38, 18))},
       {1, any_decimal},
       {1, rc::gen::just(DataType::of(K::Date))},
       {3, rc::gen::element(DataType::of(K::Timestamp), DataType::of(K::TimestampNtz))},
       {3, rc::gen::just(DataType::of(K::String))},
       {1, rc::gen::just(DataType::of(K::Boolean))}});
}

// A struct of one to three fields f0, f1, ...; a field is itself a struct now and then, one level down.
DataType struct_type(int depth) {
  const int width = *generators::uniform_in(1, 4);
  std::vector<StructField> fields;
  for (int i = 0; i < width; ++i) {
    const bool nested = depth < 2 && *rc::gen::weightedElement<bool>({{4, false}, {1, true}});
    fields.push_back({"f" + std::to_string(i), nested ? struct_type(depth + 1) : *leaf_type(), true, ""});
  }
  return DataType{TypeKind::Struct, 0, 0, std::move(fields)};
}

Schema draw_schema() {
  const int columns = *generators::uniform_in(2, 8);
  std::vector<StructField> fields;
  for (int i = 0; i < columns; ++i) {
    const bool is_struct = *rc::gen::weightedElement<bool>({{4, false}, {1, true}});
    fields.push_back({"c" + std::to_string(i), is_struct ? struct_type(1) : *leaf_type(), true, ""});
  }
  return Schema(std::move(fields));
}

bool partitionable(const StructField& f) {
  return f.type.kind == TypeKind::Int || f.type.kind == TypeKind::Long || f.type.kind == TypeKind::String ||
         f.type.kind == TypeKind::Date || f.type.kind == TypeKind::Boolean;
}

// delta.dataSkippingStatsColumns: per non-partition top-level column, maybe the column itself or
// (a struct) one of its leaves; never empty.
std::string draw_stats_columns(const Schema& schema, const std::vector<std::string>& partition_columns) {
  std::vector<std::string> listed;
  for (const StructField& f : schema.fields()) {
    if (std::find(partition_columns.begin(), partition_columns.end(), f.name) != partition_columns.end()) continue;
    if (!*rc::gen::arbitrary<bool>()) continue;
    std::vector<ColumnPath> under;
    for (const Leaf& leaf : schema.leaves()) {
      if (leaf.path.front() == f.name && leaf.path.size() > 1) under.push_back(leaf.path);
    }
    const bool whole = under.empty() || *rc::gen::arbitrary<bool>();
    listed.push_back(whole ? path_to_sql({f.name}) : path_to_sql(*rc::gen::elementOf(under)));
  }
  if (listed.empty()) listed.push_back(path_to_sql(schema.leaves().back().path));
  std::string text;
  for (const std::string& s : listed) text += (text.empty() ? "" : ", ") + s;
  return text;
}

void draw_settings(ConformanceTable& t) {
  std::vector<const StructField*> candidates;
  for (const StructField& f : t.schema.fields()) {
    if (partitionable(f)) candidates.push_back(&f);
  }
  if (!candidates.empty() && *rc::gen::weightedElement<bool>({{3, false}, {1, true}})) {
    t.partition_columns.push_back((*rc::gen::elementOf(candidates))->name);
  }
  const std::optional<int> indexed = *rc::gen::weightedElement<std::optional<int>>(
      {{4, std::nullopt}, {1, 0}, {2, 1}, {2, 2}, {2, 3}, {1, 5}, {1, -1}});
  if (indexed) t.configuration[kNumIndexedColsKey] = std::to_string(*indexed);
  // The stats columns name a leaf of the last column when they would list nothing, so a
  // partitioned last column keeps them off.
  const bool last_is_partition = !t.partition_columns.empty() && t.partition_columns[0] == t.schema.fields().back().name;
  if (!last_is_partition && *rc::gen::weightedElement<bool>({{4, false}, {1, true}})) {
    t.configuration[kStatsColumnsKey] = draw_stats_columns(t.schema, t.partition_columns);
  }
  if (*rc::gen::weightedElement<bool>({{2, false}, {1, true}})) t.configuration["delta.columnMapping.mode"] = "name";
  if (*rc::gen::arbitrary<bool>()) t.configuration["delta.enableDeletionVectors"] = "true";
}

// A value of the leaf, NULL one time in six; a partition column draws from a small pool so that
// an append writes a few files, not one a row.
Value draw_value(const Leaf& leaf, const std::vector<Value>* pool) {
  if (pool) return *rc::gen::elementOf(*pool);
  if (*rc::gen::weightedElement<bool>({{5, false}, {1, true}})) return Value::null(leaf.type);
  return *generators::value_of(leaf.type);
}

void draw_files(ConformanceTable& t) {
  std::map<int, std::vector<Value>> pools;
  for (const Leaf& leaf : t.schema.leaves()) {
    if (t.partition_columns.empty() || leaf.path.front() != t.partition_columns[0]) continue;
    pools[leaf.ordinal] = {Value::null(leaf.type), *generators::value_of(leaf.type), *generators::value_of(leaf.type)};
  }
  // Many files a table: the engine writes them in one append, so a file costs little past the table's own start.
  const int files = *generators::uniform_in(4, 17);
  for (int i = 0; i < files; ++i) {
    std::vector<Row> rows;
    const int count = *generators::uniform_in(1, 7);
    for (int r = 0; r < count; ++r) {
      Row row;
      for (const Leaf& leaf : t.schema.leaves()) {
        const auto pool = pools.find(leaf.ordinal);
        row.push_back(draw_value(leaf, pool == pools.end() ? nullptr : &pool->second));
      }
      rows.push_back(std::move(row));
    }
    t.files.push_back(std::move(rows));
  }
}

// --- the driver's rows ------------------------------------------------------------------------

json nested_row(const Row& row, const Schema& schema) {
  json out = json::object();
  for (const Leaf& leaf : schema.leaves()) {
    json* at = &out;
    for (size_t i = 0; i + 1 < leaf.path.size(); ++i) at = &(*at)[leaf.path[i]];
    (*at)[leaf.path.back()] = value_to_driver(row.at(static_cast<size_t>(leaf.ordinal)));
  }
  return out;
}

// A row as the driver read it back; a missing key or a NULL struct leaves the leaves NULL.
Row row_from_nested(const json& j, const Schema& schema) {
  Row row;
  for (const Leaf& leaf : schema.leaves()) {
    const json* at = &j;
    for (const std::string& part : leaf.path) {
      if (!at->is_object() || !at->contains(part)) {
        at = nullptr;
        break;
      }
      at = &(*at)[part];
    }
    row.push_back(at ? value_from_driver(*at, leaf.type) : Value::null(leaf.type));
  }
  return row;
}

// --- comparison -------------------------------------------------------------------------------

StatsRule min_max_rule(const DataType& type, bool is_min) {
  switch (type.kind) {
    case TypeKind::Float:
    case TypeKind::Double: return StatsRule::FloatingMinMax;
    case TypeKind::Decimal: return StatsRule::DecimalMinMax;
    case TypeKind::Date: return StatsRule::DateMinMax;
    case TypeKind::Timestamp: return StatsRule::TimestampMinMax;
    case TypeKind::TimestampNtz: return StatsRule::TimestampNtzMinMax;
    case TypeKind::String: return is_min ? StatsRule::StringMin : StatsRule::StringMax;
    default: return is_integral(type.kind) ? StatsRule::IntegralMinMax : StatsRule::NoMinMax;
  }
}

std::string shown(const std::optional<Value>& v) { return v ? value_to_driver(*v).dump() : "absent"; }
std::string shown(const std::optional<int64_t>& n) { return n ? std::to_string(*n) : "absent"; }
std::string shown(const std::optional<bool>& b) { return b ? (*b ? "true" : "false") : "absent"; }

std::string dotted(const ColumnPath& path) {
  std::string out;
  for (const std::string& part : path) out += (out.empty() ? "" : ".") + part;
  return out;
}

bool is_partition(const Leaf& leaf, const StatsConfig& config) {
  return std::find(config.partition_columns.begin(), config.partition_columns.end(), leaf.path.front()) !=
         config.partition_columns.end();
}

// The settings a table exercises, each a row of the whole-file agreement table.
std::vector<std::string> table_settings(const DeltaTable& log) {
  std::vector<std::string> out;
  const auto set = [&](const char* key) { return log.metadata.config(key).has_value(); };
  if (set(kNumIndexedColsKey)) out.push_back("delta.dataSkippingNumIndexedCols set");
  if (set(kStatsColumnsKey)) out.push_back("delta.dataSkippingStatsColumns set");
  if (!log.metadata.partition_columns.empty()) out.push_back("partitioned");
  if (log.metadata.column_mapping_mode() == ColumnMappingMode::Name) out.push_back("column mapping: name");
  if (log.metadata.config("delta.enableDeletionVectors") == "true") out.push_back("deletion vectors on");
  const bool nested = std::any_of(log.metadata.schema.leaves().begin(), log.metadata.schema.leaves().end(),
                                  [](const Leaf& l) { return l.path.size() > 1; });
  if (nested) out.push_back("nested structs");
  out.push_back("every table");
  return out;
}

void tally(RuleTally& t, bool agree) {
  ++t.files;
  ++(agree ? t.agree : t.differ);
}

std::string fixed(double v, int digits) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

// The table's scans, judged on the log as skipsound reads it; a table whose log or rows failed
// the writer comparison has its error reported there already.
void judge_scans(const ConformanceTable& table, const std::string& dir, const std::vector<SparkScanPredicate>& predicates,
                 const json& response, ConformanceResult& result) {
  try {
    const DeltaTable log = load_delta_table(dir);
    std::map<std::string, std::vector<Row>> rows;
    for (const auto& [path, file] : response.at("files").items()) {
      for (const json& r : file.at("rows")) rows[path].push_back(row_from_nested(r, log.metadata.schema));
    }
    judge_scan_decisions(log, rows, predicates, response.value("scans", json()), table.name, result.scans);
  } catch (const InputError&) {
  } catch (const json::exception&) {
  }
}

void render_scans(const ScanDecisions& scans, std::ostringstream& out) {
  out << "scan decisions (engine vs skipsound's scan filter)\n"
      << "  form                   pairs  agree  lost skips  beyond (proved, not)  engine skips (unproved, unsound)  refused\n";
  for (const auto& [form, t] : scans.forms) {
    char line[256];
    std::snprintf(line, sizeof line, "  %-20s %7zu %6zu %11zu %9zu (%zu, %zu) %12zu (%zu, %zu) %8zu\n", form.c_str(), t.pairs,
                  t.agree, t.lost_skips, t.beyond_proved + t.beyond_unproved, t.beyond_proved, t.beyond_unproved,
                  t.engine_skips, t.engine_unproved, t.engine_unsound, t.refused);
    out << line;
  }
  for (const std::string& f : scans.findings) out << f << "\n";
  for (const std::string& l : scans.lost_skips) out << l << "\n";
}

}  // namespace

ConformanceTable conformance_table(uint64_t seed, const std::string& name) {
  const rc::Gen<ConformanceTable> gen = rc::gen::exec([name] {
    ConformanceTable t;
    t.name = name;
    t.schema = draw_schema();
    draw_settings(t);
    draw_files(t);
    return t;
  });
  return gen(rc::Random(seed), kGenerationSize).value();
}

json conformance_request(const ConformanceTable& t) {
  json files = json::array();
  for (const std::vector<Row>& rows : t.files) {
    json file = json::array();
    for (const Row& r : rows) file.push_back(nested_row(r, t.schema));
    files.push_back(file);
  }
  return {{"kind", "write"}, {"schema", t.schema.to_json()}, {"partition_columns", t.partition_columns},
          {"configuration", t.configuration}, {"files", files}};
}

const char* stats_rule_name(StatsRule r) {
  switch (r) {
    case StatsRule::NumRecords: return "numRecords = rows";
    case StatsRule::TightBounds: return "tightBounds (deletion vectors on)";
    case StatsRule::NullCount: return "nullCount of an indexed leaf";
    case StatsRule::IntegralMinMax: return "min/max: byte, short, int, long";
    case StatsRule::FloatingMinMax: return "min/max: float, double (NaN, -0.0, Infinity)";
    case StatsRule::DecimalMinMax: return "min/max: decimal";
    case StatsRule::DateMinMax: return "min/max: date";
    case StatsRule::TimestampMinMax: return "min/max: timestamp (ms floor)";
    case StatsRule::TimestampNtzMinMax: return "min/max: timestamp_ntz (ms floor)";
    case StatsRule::StringMin: return "string min: 32-code-point prefix";
    case StatsRule::StringMax: return "string max: whole, prefix + tie-breaker, or none";
    case StatsRule::NoMinMax: return "boolean: nullCount only";
    case StatsRule::NotIndexedByCount: return "no stats past dataSkippingNumIndexedCols";
    case StatsRule::NotIndexedByList: return "no stats outside dataSkippingStatsColumns";
    case StatsRule::PartitionColumn: return "no stats for partition columns";
  }
  return "?";
}

std::vector<FieldComparison> compare_file_stats(const Schema& schema, const StatsConfig& config,
                                                const std::vector<Row>& rows, const std::optional<FileStats>& engine,
                                                bool with_tight_bounds) {
  const FileStats model = collect_stats(rows, schema, config, with_tight_bounds);
  const FileStats none;
  const FileStats& theirs = engine ? *engine : none;
  std::vector<FieldComparison> out;
  out.push_back({StatsRule::NumRecords, "numRecords", shown(theirs.num_records), shown(model.num_records)});
  out.push_back({StatsRule::TightBounds, "tightBounds", shown(theirs.tight_bounds), shown(model.tight_bounds)});
  const std::vector<bool> indexed = indexed_leaves(schema, config);
  for (const Leaf& leaf : schema.leaves()) {
    const ColumnStats& e = theirs.column(leaf.ordinal);
    const ColumnStats& m = model.column(leaf.ordinal);
    const std::string name = dotted(leaf.path);
    std::optional<StatsRule> unindexed;
    if (is_partition(leaf, config)) {
      unindexed = StatsRule::PartitionColumn;
    } else if (!indexed[static_cast<size_t>(leaf.ordinal)]) {
      unindexed = config.stats_columns ? StatsRule::NotIndexedByList : StatsRule::NotIndexedByCount;
    }
    out.push_back({unindexed.value_or(min_max_rule(leaf.type, true)), "minValues." + name, shown(e.min), shown(m.min)});
    out.push_back({unindexed.value_or(min_max_rule(leaf.type, false)), "maxValues." + name, shown(e.max), shown(m.max)});
    out.push_back({unindexed.value_or(StatsRule::NullCount), "nullCount." + name, shown(e.null_count),
                   shown(m.null_count)});
  }
  return out;
}

void judge_conformance_table(const ConformanceTable& table, const std::string& dir, const json& response,
                             ConformanceResult& result) {
  ++result.tables;
  DeltaTable log;
  try {
    log = load_delta_table(dir);
  } catch (const InputError& e) {
    result.errors.push_back("LOG " + table.name + ": skipsound's reader refuses the log: " + e.what());
    return;
  }
  if (!response.contains("files") || !response["files"].is_object()) {
    result.errors.push_back("ENGINE ERROR " + table.name + ": the driver's answer lists no files");
    return;
  }
  const json& files = response["files"];
  std::set<std::string> listed;
  for (const auto& [path, file] : files.items()) listed.insert(path);
  std::set<std::string> live;
  for (const LiveFile& f : log.files) live.insert(f.add.path);
  if (live != listed) {
    result.errors.push_back("LOG " + table.name + ": skipsound's reader lists " + json(live).dump() +
                            ", the engine " + json(listed).dump());
    return;
  }
  const Schema& schema = log.metadata.schema;
  const bool tight = log.metadata.config("delta.enableDeletionVectors") == "true";
  const std::vector<std::string> settings = table_settings(log);
  for (const LiveFile& f : log.files) {
    ++result.files;
    const json& rows_json = files[f.add.path].value("rows", json::array());
    std::vector<Row> rows;
    try {
      for (const json& r : rows_json) rows.push_back(row_from_nested(r, schema));
    } catch (const InputError& e) {
      result.errors.push_back("ENGINE ERROR " + table.name + " " + f.add.path + ": a row the driver read back: " +
                              e.what());
      continue;
    }
    const std::vector<FieldComparison> fields = compare_file_stats(schema, log.stats_config, rows, f.stats, tight);
    std::map<StatsRule, bool> by_rule;
    bool file_agrees = true;
    for (const FieldComparison& c : fields) {
      by_rule.try_emplace(c.rule, true).first->second &= c.agree();
      file_agrees &= c.agree();
      if (!c.agree()) result.differences.push_back({table.name, f.add.path, c, rows_json});
    }
    for (const auto& [rule, agree] : by_rule) tally(result.rules[rule], agree);
    for (const std::string& s : settings) tally(result.settings[s], file_agrees);
    if (!f.stats) continue;
    const AuditedFile audited{&*f.stats, &rows, {}};
    for (const StatsClaimFinding& claim : audit_file_stats(schema, audited)) {
      result.unsound_stats.push_back("ENGINE UNSOUND STATS " + table.name + " " + f.add.path + ": " +
                                     claim_text(claim, schema) + ", but " + refutation_text(claim, schema, audited));
    }
  }
}

ConformanceResult run_writer_conformance(const ConformanceOptions& options, const ConformanceProgress& progress) {
  using Clock = std::chrono::steady_clock;
  const auto started = Clock::now();
  ConformanceResult result;
  result.seed = options.seed;
  std::optional<ScratchDirectory> scratch;
  std::filesystem::path root;
  if (options.keep_tables) {
    std::filesystem::create_directories(*options.keep_tables);
    root = *options.keep_tables;
  } else {
    scratch.emplace("conformance-tables");
    root = scratch->path();
  }
  DriverProcess driver(options.driver);
  for (size_t i = 0; result.files < options.min_files; ++i) {
    const std::string name = "table-" + std::to_string(i);
    const ConformanceTable table = conformance_table(stream_seed(options.seed, kConformanceStream, i), name);
    const std::filesystem::path dir = root / name;
    std::filesystem::remove_all(dir);
    json request = conformance_request(table);
    std::vector<SparkScanPredicate> predicates;
    if (options.predicates_per_table > 0) {
      predicates = spark_scan_predicates(table.schema, StatsConfig::from_configuration(table.configuration, table.partition_columns),
                                   table.files, stream_seed(options.seed, kScanStream, i), options.predicates_per_table);
      for (const SparkScanPredicate& p : predicates) request["scans"].push_back(p.sql);
    }
    request["trial"] = name;
    request["dir"] = dir.string();
    const DriverReply reply = driver.exchange(request.dump());
    if (reply.failure != ExchangeFailure::None) {
      result.errors.push_back("ENGINE ERROR " + name + ": the driver " + exchange_failure_name(reply.failure) + ": " +
                              reply.detail);
      ++result.tables;
    } else if (reply.response.contains("driver_error") || reply.response.contains("unsupported")) {
      result.errors.push_back("ENGINE ERROR " + name + ": " +
                              reply.response.value("driver_error", reply.response.value("unsupported", std::string())));
      ++result.tables;
    } else {
      result.engine = reply.response.value("engine", result.engine);
      judge_conformance_table(table, dir.string(), reply.response, result);
      if (!predicates.empty()) judge_scans(table, dir.string(), predicates, reply.response, result);
    }
    if (!options.keep_tables) std::filesystem::remove_all(dir);
    if (progress) progress(result.files, options.min_files);
    // A driver that writes no file at all would never reach the budget.
    if (result.errors.size() > 20 && result.files == 0) break;
  }
  result.seconds = std::chrono::duration<double>(Clock::now() - started).count();
  return result;
}

std::string render_writer_conformance(const ConformanceResult& r) {
  std::ostringstream out;
  out << "writer conformance: " << (r.engine.empty() ? "engine version unknown" : r.engine) << ", seed " << r.seed
      << "\n";
  const auto table = [&](const char* heading, const auto& rows, const auto& label) {
    out << heading << "                                          files  agree  differ\n";
    for (const auto& [key, t] : rows) {
      char line[256];
      std::snprintf(line, sizeof line, "  %-52s %6zu %6zu %7zu\n", label(key).c_str(), t.files, t.agree, t.differ);
      out << line;
    }
  };
  table("rule          ", r.rules, [](StatsRule k) { return std::string(stats_rule_name(k)); });
  table("table setting ", r.settings, [](const std::string& k) { return k; });
  for (const ConformanceDifference& d : r.differences) {
    out << "DIFFERS " << stats_rule_name(d.field.rule) << " [" << d.table << " " << d.file << "] " << d.field.field
        << ": Delta " << d.field.engine << ", skipsound's model " << d.field.model << "; rows " << d.rows.dump() << "\n";
  }
  for (const std::string& u : r.unsound_stats) out << u << "\n";
  if (!r.scans.forms.empty()) render_scans(r.scans, out);
  for (const std::string& e : r.errors) out << e << "\n";
  out << r.tables << " tables, " << r.files << " files, in " << fixed(r.seconds, 1) << " s ("
      << fixed(r.seconds > 0 ? static_cast<double>(r.files) / r.seconds : 0, 2) << " files/s), "
      << r.differences.size() << " differing fields, " << r.unsound_stats.size() << " unsound stats, "
      << r.errors.size() << " errors\n";
  return out.str();
}

}  // namespace skipsound::engines
