#include "proofs/engines/engine_world.h"

#include <cmath>

#include "model/sql/printer.h"
#include "model/values/input_error.h"
#include "model/values/temporal.h"

namespace skipsound::engines {

namespace {

using nlohmann::json;

struct Unsupported {
  std::string reason;
};

std::string driver_type(const DataType& t) {
  switch (t.kind) {
    case TypeKind::Long: return "long";
    case TypeKind::Int: return "int";
    case TypeKind::Double: return "double";
    case TypeKind::String: return "string";
    case TypeKind::Date: return "date";
    case TypeKind::Timestamp: return "timestamp";
    case TypeKind::Boolean: return "boolean";
    case TypeKind::Decimal: return "decimal(" + std::to_string(t.precision) + "," + std::to_string(t.scale) + ")";
    default: throw Unsupported{"column type " + type_name(t)};
  }
}

std::string dialect_sql(const ExprPtr& e, SqlDialect d) {
  try {
    return to_sql(e, d);
  } catch (const UnsupportedInDialect& u) {
    throw Unsupported{std::string(d == SqlDialect::DataFusion ? "DataFusion" : "Spark") + " SQL: " + u.what()};
  }
}

json optional_sql(const ExprPtr& e, SqlDialect d) { return e ? json(dialect_sql(e, d)) : json(nullptr); }

std::string leaf_name(const Schema& schema, int leaf) {
  return path_to_sql(schema.leaves().at(static_cast<size_t>(leaf)).path);
}

json assignments(const std::vector<Assignment>& set, const Schema& schema, SqlDialect d) {
  json out = json::object();
  for (const Assignment& a : set) out[leaf_name(schema, a.leaf)] = dialect_sql(a.value, d);
  return out;
}

json rows_json(const std::vector<Row>& rows, const Schema& schema) {
  json out = json::array();
  for (const Row& r : rows) out.push_back(row_to_driver(r, schema));
  return out;
}

json merge_json(const Operation& op, const Schema& schema, SqlDialect d) {
  json m = {{"kind", "merge"}, {"source", rows_json(op.rows, schema)}, {"on", dialect_sql(op.merge.on, d)}};
  m["matched"] = json::array();
  for (const MergeClause& c : op.merge.matched) {
    json clause = {{"predicate", optional_sql(c.condition, d)}};
    if (c.action == MergeAction::Delete) {
      clause["action"] = "delete";
    } else {
      clause["action"] = "update";
      clause["set"] = assignments(c.assignments, schema, d);
    }
    m["matched"].push_back(clause);
  }
  m["not_matched"] = json::array();
  for (const MergeClause& c : op.merge.not_matched) {
    m["not_matched"].push_back({{"action", "insert"}, {"predicate", optional_sql(c.condition, d)},
                                {"set", assignments(c.assignments, schema, d)}});
  }
  return m;
}

// `restore_version`: the world version a RESTORE goes back to (the driver maps it to the engine's),
// null for a transaction without one.
json operation_json(const Operation& op, const Schema& schema, const int64_t* restore_version, SqlDialect d) {
  switch (op.kind) {
    case OperationKind::Insert:
      if (op.rows_per_file != 0) throw Unsupported{"INSERT ROWS PER FILE"};
      return {{"kind", "append"}, {"rows", rows_json(op.rows, schema)}};
    case OperationKind::Delete: return {{"kind", "delete"}, {"predicate", optional_sql(op.condition, d)}};
    case OperationKind::Update:
      return {{"kind", "update"}, {"predicate", optional_sql(op.condition, d)}, {"set", assignments(op.assignments, schema, d)}};
    case OperationKind::Merge: return merge_json(op, schema, d);
    case OperationKind::Optimize:
      if (op.optimize_mode != OptimizeMode::Compaction) throw Unsupported{"OPTIMIZE CLUSTER BY"};
      if (!op.optimize_files.empty()) throw Unsupported{"OPTIMIZE FILES (a chosen subset)"};
      return {{"kind", "compact"}};
    case OperationKind::Restore:
      if (!restore_version) throw Unsupported{"RESTORE without a version"};
      return {{"kind", "restore"}, {"version", *restore_version}};
    default: throw Unsupported{std::string(operation_kind_name(op.kind))};
  }
}

// A commit without isBlindAppend, or one that is not a blind append, needs nothing of the engine:
// the oracle takes every commit's isBlindAppend from the engine's log, and delta-rs writes none
// (its appends are not blind to Delta's readers). A read besides the operation (a SELECT, a
// whole-table read) cannot be said through its API: its conflict checker sees only the
// operation's own predicate. A writer without stats writes with parquet statistics off.
json transaction_json(const ScenarioTransaction& txn, const Schema& schema, SqlDialect d) {
  if (txn.start_version) throw Unsupported{"a transaction at a named version"};
  if (txn.settings.reads_whole_table) throw Unsupported{"a whole-table read besides the operation"};
  if (txn.operations.size() != 1) throw Unsupported{"several operations in one transaction"};
  const auto restore = txn.restore_versions.find(0);
  const int64_t* restore_version = restore == txn.restore_versions.end() ? nullptr : &restore->second;
  json operation = operation_json(txn.operations[0], schema, restore_version, d);
  if (txn.settings.stats == StatsPresence::Missing) operation["stats"] = false;
  return {{"name", txn.name}, {"operation", operation}};
}

json table_json(const Table& table) {
  const TableProperties& p = table.properties();
  if (p.deletion_vectors) throw Unsupported{"deletion vectors"};
  if (p.stats.stats_columns) throw Unsupported{"delta.dataSkippingStatsColumns"};
  if (!p.other_configuration.empty()) throw Unsupported{"table properties beyond skipping and isolation"};
  json configuration = json::object();
  if (p.stats.num_indexed_cols != 32) {
    configuration["delta.dataSkippingNumIndexedCols"] = std::to_string(p.stats.num_indexed_cols);
  }
  if (p.isolation != IsolationLevel::Serializable) configuration["delta.isolationLevel"] = isolation_level_name(p.isolation);
  json schema = json::array();
  for (const StructField& f : table.schema().fields()) {
    if (table.schema().find_field({f.name}) != nullptr) throw Unsupported{"struct columns"};
    schema.push_back({{"name", f.name}, {"type", driver_type(f.type)}});
  }
  json files = json::array();
  json without_stats = json::array();  // indexes of the files written with parquet statistics off
  for (const TableFile& f : table.files()) {
    if (!f.deleted.empty()) throw Unsupported{"deletion vectors"};
    if (!f.stats) without_stats.push_back(files.size());
    files.push_back(rows_json(*f.rows, table.schema()));
  }
  return {{"schema", schema}, {"partition_columns", p.partition_columns()}, {"configuration", configuration},
          {"files", files}, {"files_without_stats", without_stats}};
}

}  // namespace

Translation translate_for_delta_rs(const Scenario& scenario) { return translate_world(scenario, SqlDialect::DataFusion); }

Translation translate_world(const Scenario& scenario, SqlDialect d) {
  Translation out;
  try {
    WorldRequest world;
    world.request = table_json(scenario.table);
    const Schema& schema = scenario.table.schema();
    json transactions = json::array();
    for (const ScenarioTransaction& txn : scenario.transactions) transactions.push_back(transaction_json(txn, schema, d));
    std::vector<size_t> start(scenario.transactions.size(), 0);
    json attempts = json::array();
    for (const TimelineEvent& event : scenario.timeline) {
      if (event.kind == TimelineEvent::Kind::Declare) {
        start[event.transaction] = world.attempts.size();
        continue;
      }
      world.attempts.push_back({event.transaction, start[event.transaction]});
      attempts.push_back({{"transaction", event.transaction}, {"start", start[event.transaction]}});
    }
    world.request["transactions"] = transactions;
    world.request["attempts"] = attempts;
    out.world = std::move(world);
  } catch (const Unsupported& u) {
    out.unsupported = u.reason;
  }
  return out;
}

json value_to_driver(const Value& v) {
  if (v.is_null()) return nullptr;
  switch (v.type.kind) {
    case TypeKind::Double:
    case TypeKind::Float:
      if (std::isnan(v.as_double())) return "NaN";
      if (std::isinf(v.as_double())) return v.as_double() > 0 ? "Infinity" : "-Infinity";
      return v.as_double();
    case TypeKind::Decimal: return decimal_to_string(v.as_decimal());
    case TypeKind::Date: return format_date(v.as_int());
    case TypeKind::Timestamp: return v.as_int();
    case TypeKind::String: return v.as_string();
    case TypeKind::Boolean: return v.as_bool();
    default: return v.as_int();
  }
}

Value value_from_driver(const json& j, const DataType& type) {
  if (j.is_null()) return Value::null(type);
  const auto wrong = [&](const char* expected) -> Value {
    throw InputError("a " + type_name(type) + " value must be " + expected + ", not " + j.dump());
  };
  try {
    switch (type.kind) {
      case TypeKind::Double:
      case TypeKind::Float:
        if (j.is_string()) {
          const std::string& s = j.get_ref<const std::string&>();
          if (s == "NaN") return Value::floating(type.kind, std::nan(""));
          if (s == "Infinity" || s == "-Infinity") return Value::floating(type.kind, s[0] == '-' ? -INFINITY : INFINITY);
          return wrong("a number, NaN or (-)Infinity");
        }
        if (!j.is_number()) return wrong("a number");
        return Value::floating(type.kind, j.get<double>());
      case TypeKind::Decimal: {
        if (!j.is_string()) return wrong("a string of digits");
        const std::optional<Decimal> d = rescale_decimal(parse_decimal(j.get<std::string>()), type.scale);
        if (!d || !fits_precision(*d, type.precision)) return wrong("within the type's precision and scale");
        return Value::decimal(*d, type.precision);
      }
      case TypeKind::Date: {
        if (!j.is_string()) return wrong("a yyyy-mm-dd string");
        const std::optional<int64_t> days = parse_date(j.get<std::string>());
        if (!days) return wrong("a yyyy-mm-dd string");
        return Value::integral(TypeKind::Date, *days);
      }
      case TypeKind::String:
        if (!j.is_string()) return wrong("a string");
        return Value::string(j.get<std::string>());
      case TypeKind::Boolean:
        if (!j.is_boolean()) return wrong("true or false");
        return Value::boolean(j.get<bool>());
      default:
        if (!j.is_number_integer()) return wrong("an integer");
        return Value::integral(type.kind, j.get<int64_t>());
    }
  } catch (const std::invalid_argument&) {
    return wrong("well formed");
  }
}

json row_to_driver(const Row& row, const Schema& schema) {
  json out = json::object();
  for (const Leaf& leaf : schema.leaves()) {
    out[leaf.path.back()] = value_to_driver(row.at(static_cast<size_t>(leaf.ordinal)));
  }
  return out;
}

Row row_from_driver(const json& j, const Schema& schema) {
  if (!j.is_object()) throw InputError("a row must be a JSON object, not " + j.dump());
  Row row;
  for (const Leaf& leaf : schema.leaves()) {
    const auto it = j.find(leaf.path.back());
    row.push_back(it == j.end() ? Value::null(leaf.type) : value_from_driver(*it, leaf.type));
  }
  return row;
}

}  // namespace skipsound::engines
