#include "proofs/engines/engine_scan.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <set>

#include "generators/predicate_gen.h"
#include "model/sql/evaluator.h"
#include "model/sql/printer.h"
#include "model/values/input_error.h"

namespace skipsound::engines {

namespace {

using nlohmann::json;

// Predicates of depth 0..2 (generators/predicate_gen.h: depth = size / 25): mostly forms the
// engines' APIs take, with AND, OR and NOT over them.
constexpr int kPredicateSize = 50;

json column_form(const Expr& e, const Schema& schema) {
  return {{"column", schema.leaves().at(static_cast<size_t>(e.leaf)).path.back()}};
}

json literal_form(const Value& v, const DataType& column_type) {
  // Arrow compares NaN as IEEE does (`x < NaN` is never true); Spark orders it above every double.
  if (!v.is_null() && is_floating(v.type.kind) && std::isnan(v.as_double())) {
    throw NotPyarrowExpressible{"a NaN literal (Arrow compares NaN as IEEE does, Spark orders it last)"};
  }
  // A NULL literal takes its column's type: pyarrow has no typed NULL of its own here.
  const DataType& type = v.is_null() ? column_type : v.type;
  switch (type.kind) {
    case TypeKind::Long: return {{"literal", value_to_driver(v)}, {"type", "long"}};
    case TypeKind::Int: return {{"literal", value_to_driver(v)}, {"type", "int"}};
    case TypeKind::Double: return {{"literal", value_to_driver(v)}, {"type", "double"}};
    case TypeKind::String: return {{"literal", value_to_driver(v)}, {"type", "string"}};
    case TypeKind::Date: return {{"literal", value_to_driver(v)}, {"type", "date"}};
    case TypeKind::Timestamp: return {{"literal", value_to_driver(v)}, {"type", "timestamp"}};
    case TypeKind::Boolean: return {{"literal", value_to_driver(v)}, {"type", "boolean"}};
    case TypeKind::Decimal:
      return {{"literal", value_to_driver(v)},
              {"type", "decimal(" + std::to_string(type.precision) + "," + std::to_string(type.scale) + ")"}};
    default: throw NotPyarrowExpressible{"a literal of type " + type_name(type)};
  }
}

// An operand of a comparison: a column, or a literal typed as the other side's column.
json operand_form(const ExprPtr& e, const ExprPtr& other, const Schema& schema) {
  if (e->kind == ExprKind::Column) return column_form(*e, schema);
  if (e->kind == ExprKind::Literal) return literal_form(e->literal, other->type);
  throw NotPyarrowExpressible{"a comparison operand other than a column or a literal"};
}

json compare_form(CompareOp op, const ExprPtr& lhs, const ExprPtr& rhs, const Schema& schema) {
  return {{"compare", compare_op_sql(op)},
          {"operands", {operand_form(lhs, rhs, schema), operand_form(rhs, lhs, schema)}}};
}

json binary(const char* op, json lhs, json rhs) { return {{op, json::array({std::move(lhs), std::move(rhs)})}}; }

// `a <=> b` never yields NULL: with a literal on one side it is `c IS NULL` (NULL literal) or
// `c IS NOT NULL AND c = v`, which pyarrow evaluates alike.
json null_safe_equal_form(const Expr& e, const Schema& schema) {
  const bool literal_right = e.children[1]->kind == ExprKind::Literal;
  const ExprPtr& column = literal_right ? e.children[0] : e.children[1];
  const ExprPtr& literal = literal_right ? e.children[1] : e.children[0];
  if (literal->kind != ExprKind::Literal || column->kind != ExprKind::Column) {
    throw NotPyarrowExpressible{"<=> other than between a column and a literal"};
  }
  if (literal->literal.is_null()) return {{"is_null", column_form(*column, schema)}};
  return binary("and", {{"is_not_null", column_form(*column, schema)}},
                compare_form(CompareOp::Eq, column, literal, schema));
}

// `v IN (a, b)` as `v = a OR v = b`: the same three-valued answer (a NULL item makes a miss NULL).
json in_form(const Expr& e, const Schema& schema) {
  json out;
  for (size_t i = 1; i < e.children.size(); ++i) {
    json equal = compare_form(CompareOp::Eq, e.children[0], e.children[i], schema);
    out = out.is_null() ? equal : binary("or", std::move(out), std::move(equal));
  }
  if (out.is_null()) throw NotPyarrowExpressible{"an empty IN list"};
  return out;
}

// `LIKE 'abc%'` (no other wildcard, no escape) is a prefix test.
json like_form(const Expr& e, const Schema& schema) {
  const ExprPtr& pattern = e.children[1];
  if (e.children.size() != 2 || e.children[0]->kind != ExprKind::Column || pattern->kind != ExprKind::Literal ||
      pattern->literal.is_null()) {
    throw NotPyarrowExpressible{"LIKE other than a column and a pattern"};
  }
  const std::string& text = pattern->literal.as_string();
  const std::string prefix = text.empty() ? text : text.substr(0, text.size() - 1);
  if (text.empty() || text.back() != '%' || prefix.find_first_of("%_\\") != std::string::npos) {
    throw NotPyarrowExpressible{"LIKE other than a prefix ('abc%')"};
  }
  return {{"starts_with", column_form(*e.children[0], schema)}, {"prefix", prefix}};
}

std::string canonical(const Row& row, const Schema& schema) { return row_to_driver(row, schema).dump(); }

// Judges one answer of kept files: every live file it leaves out must hold no matching row.
json scan_detail(const ScanSubject& subject, const ScanPredicate& p, const char* key, const char* part) {
  return {{"version", subject.version}, {"predicate", {{"sql", p.sql}, {"pyarrow", p.pyarrow}}}, {"part", part},
          {"answer", key}};
}

// The engine failed on one part of a scan: an ENGINE ERROR that names the part and the predicate.
void scan_error(const ScanSubject& subject, const ScanPredicate& p, const char* key, const char* part,
                const json& answer, ScanJudgement& out) {
  EngineFinding f = engine_finding(EngineFindingKind::EngineError, std::string(part) + " for `" + p.sql +
                                                                       "` failed: " + answer["error"].get<std::string>());
  f.scan = scan_detail(subject, p, key, part);
  out.findings.push_back(std::move(f));
}

// A live row of the dropped file that matches, or (with the oracle) a row its stats allow that
// matches, as the headline's end; none when the skip is sound. Z3's unknown proves nothing either
// way: the skip is then counted as not judged on its stats, in `out.unsupported`.
std::optional<std::pair<std::string, json>> unsound_skip(const ScanSubject& subject, const ScanPredicate& p,
                                                         const TableFile& file, ScanJudgement& out) {
  const Schema& schema = subject.table.schema();
  for (const Row& row : file.live_rows()) {
    if (evaluate(*p.bound, row) == Truth::True) return std::pair{"yet its row " + canonical(row, schema) + " matches", row_to_driver(row, schema)};
  }
  if (!subject.oracle || !file.stats) return std::nullopt;
  FileEvidence evidence;
  evidence.stats = &*file.stats;
  for (const Leaf& leaf : schema.leaves()) {
    const auto it = file.partition_values.find(leaf.path.back());
    if (it != file.partition_values.end()) evidence.partition_values[leaf.ordinal] = it->second;
  }
  evidence.dialect = subject.foreign.count(file.path) ? StatsDialect::DeltaSpark : StatsDialect::DeltaRs;
  const smt::OracleResult r = subject.oracle->check(p.bound, schema, evidence);
  if (const auto* unknown = std::get_if<smt::Unknown>(&r)) {
    ++out.unsupported["the oracle on a dropped file's stats: unknown (" + unknown->reason + ")"];
    return std::nullopt;
  }
  if (const auto* internal = std::get_if<smt::InternalError>(&r)) {
    ++out.unsupported["the oracle on a dropped file's stats: internal error, a skipsound bug (" + internal->message + ")"];
    return std::nullopt;
  }
  const auto* sat = std::get_if<smt::Sat>(&r);
  if (!sat) return std::nullopt;
  return std::pair{std::string("yet its stats (") + stats_dialect_name(evidence.dialect) + " dialect) allow the matching row " +
                       canonical(sat->witness, schema) + " (no row of the file matches)",
                   row_to_driver(sat->witness, schema)};
}

// Judges one answer of kept files (`key` names it, "fragments" or "pruned"; `part` says it in a
// headline): every live file it leaves out must hold no matching row.
void judge_kept(const ScanSubject& subject, const ScanPredicate& p, const char* key, const char* part,
                const json& answer, ScanJudgement& out) {
  if (answer.contains("unsupported")) {
    ++out.unsupported[std::string(part) + ": " + answer["unsupported"].get<std::string>()];
    return;
  }
  if (answer.contains("error")) {
    scan_error(subject, p, key, part, answer, out);
    return;
  }
  const std::vector<std::string> kept_list = answer.at("kept").get<std::vector<std::string>>();
  const std::set<std::string> kept(kept_list.begin(), kept_list.end());
  for (const std::string& path : kept) {
    if (!subject.table.find_file(path)) {
      out.findings.push_back(engine_finding(EngineFindingKind::EngineError, std::string(part) + " for `" + p.sql +
                                                                                "` keeps " + path + ", not a live file"));
      return;
    }
  }
  for (const TableFile& file : subject.table.files()) {
    ++out.file_decisions;
    if (kept.count(file.path)) continue;
    const auto unsound = unsound_skip(subject, p, file, out);
    if (!unsound) continue;
    EngineFinding f = engine_finding(EngineFindingKind::UnsoundSkip,
                                     std::string(part) + " drops " + file.path + " for `" + p.sql + "`, " + unsound->first);
    f.scan = scan_detail(subject, p, key, part);
    f.scan["file"] = file.path;
    f.scan["row"] = unsound->second;
    // A re-run names its files anew: a reproduction finds the file by its rows.
    f.scan["file_rows"] = json::array();
    for (const Row& row : file.live_rows()) f.scan["file_rows"].push_back(row_to_driver(row, subject.table.schema()));
    out.findings.push_back(std::move(f));
    return;  // one finding per predicate and part
  }
}

void judge_query(const ScanSubject& subject, const ScanPredicate& p, const json& answer, ScanJudgement& out) {
  if (answer.contains("unsupported")) {
    ++out.unsupported["query: " + answer["unsupported"].get<std::string>()];
    return;
  }
  if (answer.contains("error")) {
    scan_error(subject, p, "query", "the query", answer, out);
    return;
  }
  ++out.queries;
  const Schema& schema = subject.table.schema();
  std::multiset<std::string> expected, got;
  json expected_rows = json::array();
  for (const Row& row : subject.table.live_rows()) {
    if (evaluate(*p.bound, row) != Truth::True) continue;
    expected.insert(canonical(row, schema));
    expected_rows.push_back(row_to_driver(row, schema));
  }
  for (const json& r : answer.at("rows")) got.insert(canonical(row_from_driver(r, schema), schema));
  if (got == expected) return;
  std::vector<std::string> missing, extra;
  std::set_difference(expected.begin(), expected.end(), got.begin(), got.end(), std::back_inserter(missing));
  std::set_difference(got.begin(), got.end(), expected.begin(), expected.end(), std::back_inserter(extra));
  std::string headline = "the query for `" + p.sql + "` returns " + std::to_string(got.size()) + " rows, the model " +
                         std::to_string(expected.size());
  if (!missing.empty()) headline += "; missing " + missing.front();
  if (!extra.empty()) headline += "; not matching " + extra.front();
  EngineFinding f = engine_finding(EngineFindingKind::WrongQueryResult, headline);
  f.scan = scan_detail(subject, p, "query", "query");
  f.scan["expected_rows"] = expected_rows;
  out.findings.push_back(std::move(f));
}

// The line of driver.py that imports scan.py: the reproduction has scan.py's text in its place.
constexpr const char* kScanImport = "from scan import ";

}  // namespace

std::vector<ExprPtr> scan_predicates(const Table& table, uint64_t seed, size_t count) {
  std::vector<ExprPtr> out;
  if (table.files().empty()) return out;
  const generators::TableShape shape{table.schema(), table.properties().stats};
  for (size_t i = 0; i < count; ++i) {
    const TableFile& file = table.files()[i % table.files().size()];
    generators::GeneratedFile near;
    near.rows = *file.rows;
    near.deleted.assign(near.rows.size(), false);
    if (file.stats) near.stats = *file.stats;
    out.push_back(generators::predicate_for(shape, near)(rc::Random(seed + i), kPredicateSize).value());
  }
  return out;
}

json pyarrow_form(const Expr& e, const Schema& schema) {
  switch (e.kind) {
    case ExprKind::Column: return column_form(e, schema);
    case ExprKind::Literal:
      if (e.literal.is_null()) return {{"literal", nullptr}, {"type", "boolean"}};
      if (e.literal.type.kind != TypeKind::Boolean) throw NotPyarrowExpressible{"a non-boolean literal as a predicate"};
      return {{"boolean", e.literal.as_bool()}};
    case ExprKind::Compare:
      if (e.cmp_op == CompareOp::NullSafeEq) return null_safe_equal_form(e, schema);
      return compare_form(e.cmp_op, e.children[0], e.children[1], schema);
    case ExprKind::And: return binary("and", pyarrow_form(*e.children[0], schema), pyarrow_form(*e.children[1], schema));
    case ExprKind::Or: return binary("or", pyarrow_form(*e.children[0], schema), pyarrow_form(*e.children[1], schema));
    case ExprKind::Not: return {{"not", pyarrow_form(*e.children[0], schema)}};
    case ExprKind::IsNull: return {{"is_null", pyarrow_form(*e.children[0], schema)}};
    case ExprKind::IsNotNull: return {{"is_not_null", pyarrow_form(*e.children[0], schema)}};
    case ExprKind::In: return in_form(e, schema);
    case ExprKind::Between:
      return binary("and", compare_form(CompareOp::Ge, e.children[0], e.children[1], schema),
                    compare_form(CompareOp::Le, e.children[0], e.children[2], schema));
    case ExprKind::Like: return like_form(e, schema);
    default: throw NotPyarrowExpressible{"arithmetic, casts, functions and pattern forms"};
  }
}

ScanTranslation translate_scan_predicate(const ExprPtr& bound, const Schema& schema) {
  ScanTranslation out;
  ScanPredicate p;
  p.bound = bound;
  try {
    p.sql = to_sql(bound, SqlDialect::DataFusion);
  } catch (const UnsupportedInDialect& u) {
    out.unsupported = std::string("DataFusion SQL: ") + u.what();
    return out;
  }
  try {
    p.pyarrow = pyarrow_form(*bound, schema);
  } catch (const NotPyarrowExpressible& n) {
    p.pyarrow_unsupported = "pyarrow expression: " + n.reason;
  }
  out.predicate = std::move(p);
  return out;
}

json scan_request(const std::string& dir, int64_t version, const std::vector<ScanPredicate>& predicates) {
  json list = json::array();
  for (const ScanPredicate& p : predicates) {
    json one = {{"sql", p.sql}, {"pyarrow", p.pyarrow}};
    if (p.pyarrow.is_null()) one["pyarrow_unsupported"] = p.pyarrow_unsupported;
    list.push_back(std::move(one));
  }
  return {{"scan", {{"dir", dir}, {"version", version}, {"predicates", std::move(list)}}}};
}

ScanJudgement judge_scan(const ScanSubject& subject, const std::vector<ScanPredicate>& predicates,
                         const json& response) {
  ScanJudgement out;
  try {
    const json& scans = response.at("scans");
    if (!scans.is_array() || scans.size() != predicates.size()) {
      throw std::invalid_argument("answers for another number of predicates");
    }
    for (size_t i = 0; i < predicates.size(); ++i) {
      judge_kept(subject, predicates[i], "fragments", "pyarrow fragments", scans[i].at("fragments"), out);
      judge_kept(subject, predicates[i], "pruned", "delta-rs file skipping", scans[i].at("pruned"), out);
      judge_query(subject, predicates[i], scans[i].at("query"), out);
    }
  } catch (const std::exception& e) {  // json's type and key errors, a bad row (InputError)
    out.findings.push_back(engine_finding(EngineFindingKind::EngineError,
                                          std::string("the driver's scan answer is malformed: ") + e.what()));
  }
  return out;
}

ScanJudgement scan_final_table(DriverProcess& driver, const ScanSubject& subject, const std::string& dir, uint64_t seed,
                               size_t count) {
  ScanJudgement out;
  std::vector<ScanPredicate> predicates;
  for (const ExprPtr& bound : scan_predicates(subject.table, seed, count)) {
    ScanTranslation t = translate_scan_predicate(bound, subject.table.schema());
    if (t.predicate) {
      predicates.push_back(std::move(*t.predicate));
    } else {
      ++out.unsupported[t.unsupported];
    }
  }
  if (predicates.empty()) return out;
  const DriverReply reply = driver.exchange(scan_request(dir, subject.version, predicates).dump());
  if (reply.failure != ExchangeFailure::None) {
    out.findings.push_back(engine_finding(EngineFindingKind::EngineError, std::string("the driver ") +
                                                                              exchange_failure_name(reply.failure) +
                                                                              " on a scan: " + reply.detail));
    return out;
  }
  ScanJudgement judged = judge_scan(subject, predicates, reply.response);
  for (auto& [reason, n] : out.unsupported) judged.unsupported[reason] += n;
  return judged;
}

std::string scan_reproduction_assertions(const EngineFinding& finding) {
  std::ostringstream out;
  out << "SCAN = json.loads(" << json(finding.scan.dump()).dump() << ")\n"
      << "answer = scan({'dir': REQUEST['dir'], 'version': SCAN['version'], 'predicates': [SCAN['predicate']]},\n"
      << "              arrow_type, value_in, value_out)['scans'][0][SCAN['answer']]\n"
      << "assert 'error' not in answer, 'delta-rs failed: ' + answer['error']\n";
  if (finding.kind == EngineFindingKind::UnsoundSkip) {
    out << "def holds(file_rows, rows):  # a data file holds no partition column\n"
        << "    keys = set(file_rows[0]) if file_rows else set()\n"
        << "    return canonical(file_rows) == canonical([{k: v for k, v in r.items() if k in keys} for r in rows])\n"
        << "dropped = [p for p, f in result['files'].items() if holds(f['rows'], SCAN['file_rows'])]\n"
        << "assert dropped, 'the world ran otherwise: no file holds ' + json.dumps(SCAN['file_rows'])\n"
        << "assert any(p in answer['kept'] for p in dropped), (SCAN['part'] + ' drop ' + dropped[0] + ' for '\n"
        << "    + SCAN['predicate']['sql'] + ', yet the row ' + json.dumps(SCAN['row']) + ' matches')\n";
  } else if (finding.kind == EngineFindingKind::WrongQueryResult) {
    out << "assert canonical(answer['rows']) == canonical(SCAN['expected_rows']), ('the query for '\n"
        << "    + SCAN['predicate']['sql'] + ' returns ' + json.dumps(answer['rows']) + ', not '\n"
        << "    + json.dumps(SCAN['expected_rows']))\n";
  }
  return out.str();
}

std::string delta_rs_driver_source(const std::filesystem::path& engines_dir) {
  const auto text = [](const std::filesystem::path& path) {
    std::ifstream in(path);
    if (!in) throw InputError("cannot read " + path.string());
    std::stringstream all;
    all << in.rdbuf();
    return all.str();
  };
  const std::string scan = text(engines_dir / "delta_rs" / "scan.py");
  std::string driver = text(engines_dir / "delta_rs" / "driver.py");
  const size_t import = driver.find(kScanImport);
  if (import != std::string::npos) driver.erase(import, driver.find('\n', import) + 1 - import);
  return scan + "\n\n" + driver;
}

}  // namespace skipsound::engines
