#include "proofs/engines/engine_judge.h"

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <set>

#include "model/log/delta_log.h"
#include "model/stats/stats_consistency.h"
#include "model/table/transaction.h"
#include "model/values/input_error.h"

namespace skipsound::engines {

namespace {

using nlohmann::json;

// A response that does not have the protocol's shape (docs/engines.md, "Response").
struct MalformedResponse {
  std::string what;
};

const json& field(const json& j, const char* name) {
  const auto it = j.find(name);
  if (it == j.end()) throw MalformedResponse{std::string("no \"") + name + "\""};
  return *it;
}

// The table at each version the engine wrote, read by skipsound's log reader, with the rows the
// driver read from each data file.
class VersionedTables {
 public:
  VersionedTables(const json& response, const std::string& dir, const Schema& schema, EngineJudgement& out)
      : dir_(dir), schema_(schema), out_(out) {
    if (response.contains("foreign")) out_.foreign_files = field(response, "foreign").get<std::set<std::string>>();
    for (const auto& [path, file] : field(response, "files").items()) {
      std::vector<Row> rows;
      for (const json& r : field(file, "rows")) rows.push_back(row_from_driver(r, schema));
      rows_[path] = std::make_shared<const std::vector<Row>>(std::move(rows));
    }
    for (const json& v : field(response, "versions")) read_version(field(v, "version").get<int64_t>(), field(v, "files"));
  }

  const Table* at(int64_t version) const {
    const auto it = tables_.find(version);
    return it == tables_.end() ? nullptr : &it->second;
  }

 private:
  void read_version(int64_t version, const json& engine_listing) {
    DeltaTable log;
    try {
      log = load_delta_table(dir_, version);
    } catch (const InputError& e) {
      out_.findings.push_back(engine_finding(EngineFindingKind::Log, "skipsound's log reader refuses version " +
                                                           std::to_string(version) + ": " + e.what()));
      return;
    }
    std::set<std::string> listed(engine_listing.begin(), engine_listing.end());
    std::set<std::string> read;
    for (const LiveFile& f : log.files) read.insert(f.add.path);
    if (listed != read) {
      out_.findings.push_back(engine_finding(EngineFindingKind::Log, "at version " + std::to_string(version) + " the engine lists " +
                                                           std::to_string(listed.size()) + " live files, skipsound's reader " +
                                                           std::to_string(read.size())));
      return;
    }
    Table table(log.metadata.schema, TableProperties::from_metadata(log.metadata));
    for (const LiveFile& f : log.files) {
      const auto rows = rows_.find(f.add.path);
      if (rows == rows_.end()) throw MalformedResponse{"no rows for " + f.add.path};
      TableFile file{f.add.path, with_partition_values(*rows->second, f), {}, f.stats, f.partition_values, f.add.data_change};
      audit_stats(file, f, version);
      table.add_initial_file(std::move(file));
    }
    tables_.emplace(version, std::move(table));
  }

  // A partitioned table's data files hold no partition column: its value is the add's.
  PhysicalRows with_partition_values(const std::vector<Row>& rows, const LiveFile& f) const {
    if (f.partition_values.empty()) return std::make_shared<const std::vector<Row>>(rows);
    std::vector<Row> full = rows;
    for (const Leaf& leaf : schema_.leaves()) {
      const auto it = f.partition_values.find(leaf.path.back());
      if (it == f.partition_values.end()) continue;
      for (Row& r : full) r[static_cast<size_t>(leaf.ordinal)] = it->second;
    }
    return std::make_shared<const std::vector<Row>>(std::move(full));
  }

  // docs/semantics.md §4: every live row must be one the stats allow; numRecords counts them all.
  // The allowance is the one the oracles use; a writer that follows other sound rules (no string
  // cut) still gives stats every row of the file satisfies.
  void audit_stats(const TableFile& file, const LiveFile& f, int64_t version) {
    if (!file.stats || !audited_.insert(file.path).second) return;
    const std::string where = file.path + " (version " + std::to_string(version) + ")";
    if (file.stats->num_records && *file.stats->num_records != file.physical_count()) {
      out_.findings.push_back(engine_finding(EngineFindingKind::UnsoundStats, "numRecords of " + where + " is " +
                                                                     std::to_string(*file.stats->num_records) + ", the file holds " +
                                                                     std::to_string(file.physical_count()) + " rows"));
      return;
    }
    FileEvidence evidence;
    evidence.stats = &*file.stats;
    evidence.dv_cardinality = f.dv_cardinality();
    for (const Leaf& leaf : schema_.leaves()) {
      const auto it = f.partition_values.find(leaf.path.back());
      if (it != f.partition_values.end()) evidence.partition_values[leaf.ordinal] = it->second;
    }
    // Stats no Delta Spark writer gives (an uncut 40-character string min, ...) are delta-rs's
    // stats dialect, noted; each file is audited under its own writer's dialect (docs/semantics.md §4.8).
    const RowAllowance spark = row_allowance(evidence, schema_);
    const bool foreign = out_.foreign_files.count(file.path) > 0;
    if (spark.impossible && !foreign) {
      const std::string& why = *spark.impossible;  // "stats.x.min = <value>: <the rule>"
      ++out_.stats_dialect[why.substr(why.rfind(": ") == std::string::npos ? 0 : why.rfind(": ") + 2)];
    }
    evidence.dialect = foreign ? StatsDialect::DeltaSpark : StatsDialect::DeltaRs;
    const RowAllowance allowance = foreign ? spark : row_allowance(evidence, schema_);
    for (const Row& row : file.live_rows()) {
      const ConsistencyVerdict v = check_row_consistency(row, allowance);
      if (v.kind == Consistency::Inconsistent) {
        out_.findings.push_back(engine_finding(EngineFindingKind::UnsoundStats, "the stats of " + where + " exclude its row " +
                                                                       row_to_driver(row, schema_).dump() + ": " + v.reason));
        return;
      }
    }
  }

  std::string dir_;
  const Schema& schema_;
  EngineJudgement& out_;
  std::map<std::string, PhysicalRows> rows_;
  std::map<int64_t, Table> tables_;
  std::set<std::string> audited_;
};

// A version's commit as skipsound's log reader parses it: its commitInfo (isBlindAppend decides
// which serial orders WriteSerializable allows, docs/semantics.md §7) and its file actions, the
// adds carrying the rows of `after` (the table at that version). The log, not a diff of two
// versions: a remove of a file a winner already removed is the engine's action too.
Commit logged_commit(const std::string& dir, int64_t version, const Table& after, const Commit& own) {
  const std::filesystem::path file = std::filesystem::path(dir) / "_delta_log" / commit_file_name(version);
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  Commit c;
  c.changes_data = own.changes_data;
  for (const Action& a : parse_commit(text.str(), file.filename().string())) {
    if (const auto* info = std::get_if<CommitInfo>(&a)) c.info = *info;
    if (const auto* remove = std::get_if<RemoveFile>(&a)) c.removes.push_back({remove->path, {}, {}, remove->data_change});
    if (const auto* add = std::get_if<AddFile>(&a)) {
      const TableFile* live = after.find_file(add->path);
      if (!live) throw MalformedResponse{"version " + std::to_string(version) + " adds " + add->path + ", not live there"};
      c.adds.push_back(*live);
    }
  }
  return c;
}

// The transaction's operations, each RESTORE given the live files of its target version as
// skipsound's reader read the engine's log there (docs/semantics.md §10.8).
std::vector<Operation> restored_files(const ScenarioTransaction& txn, const std::vector<int64_t>& world_versions,
                                      const VersionedTables& tables) {
  std::vector<Operation> operations = txn.operations;
  for (const auto& [at, version] : txn.restore_versions) {
    const Table* target = static_cast<size_t>(version) < world_versions.size() ? tables.at(world_versions[version]) : nullptr;
    if (!target) throw MalformedResponse{txn.name + " restores world version " + std::to_string(version) + ", which the engine never wrote"};
    operations[at].restore_to = target->files();
  }
  return operations;
}

json allowed_tables(const SerialVerdict& v, const Schema& schema) {
  json tables = json::array();
  for (const SerialOutcome& o : v.allowed) {
    json rows = json::array();
    for (const Row& r : o.rows) rows.push_back(row_to_driver(r, schema));
    tables.push_back(rows);
  }
  return tables;
}

EngineOutcome outcome_of(const std::string& name) {
  if (name == "committed") return EngineOutcome::Committed;
  if (name == "aborted") return EngineOutcome::Aborted;
  if (name == "error") return EngineOutcome::Failed;
  throw MalformedResponse{"unknown outcome \"" + name + "\""};
}

void judge(const Scenario& scenario, const WorldRequest& world, const json& response, const std::string& dir,
           EngineJudgement& out) {
  if (response.contains("driver_error")) {
    out.findings.push_back(engine_finding(EngineFindingKind::EngineError, "the driver failed: " + response["driver_error"].get<std::string>()));
    return;
  }
  if (response.contains("unsupported")) {
    out.unsupported = response["unsupported"].get<std::string>();
    return;
  }
  const json& attempts = field(response, "attempts");
  if (attempts.size() != world.attempts.size()) throw MalformedResponse{"answers for another number of attempts"};
  int64_t latest = field(response, "base_version").get<int64_t>();
  // The version each attempt read and the version it left (equal for an abort, a failure or an
  // operation that wrote nothing).
  std::vector<std::pair<int64_t, int64_t>> spans;
  // The engine's version of each world version (the table after k committed attempts), as the
  // driver maps a RESTORE's target.
  std::vector<int64_t> world_versions{latest};
  for (size_t i = 0; i < attempts.size(); ++i) {
    const json& a = attempts[i];
    if (field(a, "outcome").get<std::string>() == "unsupported") {
      out.unsupported = field(a, "reason").get<std::string>();
      return;
    }
    JudgedAttempt judged{world.attempts[i].transaction, outcome_of(field(a, "outcome").get<std::string>()), {}, {}};
    const std::string& name = scenario.transactions[judged.transaction].name;
    if (judged.outcome != EngineOutcome::Committed) {
      judged.exception = field(a, "exception").get<std::string>() + ": " + field(a, "message").get<std::string>();
      judged.exception = judged.exception.substr(0, judged.exception.find('\n'));
    }
    if (judged.outcome == EngineOutcome::Failed) {
      out.findings.push_back(engine_finding(EngineFindingKind::EngineError, name + " failed: " + judged.exception, judged.transaction));
    }
    const int64_t read = field(a, "read_version").get<int64_t>();
    const int64_t before = latest;
    if (judged.outcome == EngineOutcome::Committed && !field(a, "version").is_null()) latest = a["version"].get<int64_t>();
    if (judged.outcome == EngineOutcome::Committed) world_versions.push_back(latest);
    spans.push_back({read, before});
    out.attempts.push_back(judged);
  }
  const VersionedTables tables(response, dir, scenario.table.schema(), out);
  if (const Table* last = tables.at(latest)) {
    out.final_table = *last;
    out.final_version = latest;
  }
  // The oracle's attempts: each transaction run by the model on the snapshot the engine gave it.
  std::vector<Transaction> transactions(scenario.transactions.size());
  std::vector<OracleAttempt> oracle_attempts;
  std::map<int64_t, size_t> committed_at;  // version -> transaction
  for (size_t i = 0; i < out.attempts.size(); ++i) {
    const JudgedAttempt& a = out.attempts[i];
    const auto [read, before] = spans[i];
    const int64_t after = a.outcome == EngineOutcome::Committed && !attempts[i]["version"].is_null()
                              ? attempts[i]["version"].get<int64_t>() : before;
    const Table* snapshot = tables.at(read);
    const Table* state_before = tables.at(before);
    const Table* state_after = tables.at(after);
    if (!snapshot || !state_before || !state_after || a.outcome == EngineOutcome::Failed) return;  // a finding says why
    const ScenarioTransaction& st = scenario.transactions[a.transaction];
    try {
      transactions[a.transaction] = run_transaction(st.name, *snapshot, restored_files(st, world_versions, tables),
                                                    st.settings, EveryFilePlanner());
    } catch (const InputError& e) {
      out.unsupported = std::string("the model refuses the world: ") + e.what();
      return;
    }
    OracleAttempt o{a.transaction, *snapshot, {}, *state_before, a.outcome == EngineOutcome::Committed};
    for (const auto& [v, t] : committed_at) {
      if (v > read && v <= before) o.winners.push_back(t);
    }
    // A commit is judged by what the engine logged: the oracle compares it with the model's
    // re-run on the snapshot (a wrong result) and with the allowed serial orders.
    if (o.committed) {
      // An operation that wrote no commit is nowhere in the log's order: like a read, it is
      // ordered at its snapshot (an empty commit that changes no data, docs/semantics.md §6).
      transactions[a.transaction].commit = after == before ? Commit{{}, {}, {}, {}, false}
                                                           : logged_commit(dir, after, *state_after, transactions[a.transaction].commit);
      o.committed_actions = transactions[a.transaction].commit;
    }
    if (after != before) committed_at[after] = a.transaction;
    oracle_attempts.push_back(std::move(o));
  }
  const std::vector<SerialVerdict> verdicts = judge_attempts(transactions, oracle_attempts);
  for (size_t i = 0; i < verdicts.size(); ++i) {
    out.attempts[i].verdict = verdicts[i].kind;
    const std::string& name = scenario.transactions[out.attempts[i].transaction].name;
    if (verdicts[i].kind == VerdictKind::MissedConflict) {
      out.findings.push_back(engine_finding(EngineFindingKind::MissedConflict,
                              name + " committed, but no allowed serial order gives its table", out.attempts[i].transaction,
                              allowed_tables(verdicts[i], scenario.table.schema())));
    } else if (verdicts[i].kind == VerdictKind::WrongResult) {
      out.findings.push_back(engine_finding(EngineFindingKind::WrongResult,
                              name + " committed rows its operations do not give on its snapshot", out.attempts[i].transaction,
                              allowed_tables(verdicts[i], scenario.table.schema())));
    }
  }
}

}  // namespace

const char* engine_finding_name(EngineFindingKind k) {
  switch (k) {
    case EngineFindingKind::EngineError: return "ENGINE ERROR";
    case EngineFindingKind::Log: return "LOG";
    case EngineFindingKind::UnsoundStats: return "ENGINE UNSOUND STATS";
    case EngineFindingKind::MissedConflict: return "ENGINE MISSED CONFLICT";
    case EngineFindingKind::WrongResult: return "ENGINE WRONG RESULT";
    case EngineFindingKind::UnsoundSkip: return "ENGINE UNSOUND SKIP";
    case EngineFindingKind::WrongQueryResult: return "ENGINE WRONG QUERY RESULT";
  }
  return "?";
}

EngineFinding engine_finding(EngineFindingKind kind, std::string headline, std::optional<size_t> transaction,
                             json allowed_tables) {
  EngineFinding f;
  f.kind = kind;
  f.headline = std::move(headline);
  f.transaction = transaction;
  f.allowed_tables = std::move(allowed_tables);
  return f;
}

EngineJudgement judge_engine_run(const Scenario& scenario, const WorldRequest& world, const json& response,
                                 const std::string& table_dir) {
  EngineJudgement out;
  try {
    judge(scenario, world, response, table_dir, out);
  } catch (const MalformedResponse& m) {
    out.findings.push_back(engine_finding(EngineFindingKind::EngineError, "the driver's response is malformed: " + m.what));
  } catch (const InputError& e) {
    out.findings.push_back(engine_finding(EngineFindingKind::EngineError, std::string("the driver's response is malformed: ") + e.what()));
  } catch (const json::exception& e) {
    out.findings.push_back(engine_finding(EngineFindingKind::EngineError, std::string("the driver's response is malformed: ") + e.what()));
  }
  return out;
}

}  // namespace skipsound::engines
