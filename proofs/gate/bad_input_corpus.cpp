#include "proofs/gate/bad_input_corpus.h"

#include <sys/wait.h>

#include <nlohmann/json.hpp>
#include <fstream>
#include <map>
#include <set>
#include <stdexcept>

#include "model/values/input_error.h"
#include "model/values/input_limits.h"
#include "model/values/scratch_directory.h"
#include "common/subprocess.h"

namespace skipsound {

namespace {

// ---- generated inputs: too big to keep in the corpus, made for each run that names one ----

void write_text(const std::filesystem::path& file, const std::string& text) {
  std::ofstream out(file, std::ios::binary);
  out << text;
  if (!out.flush()) throw std::runtime_error("cannot write " + file.string());
}

// `bytes` zero bytes that take no disk space (a sparse file).
void write_zeros(const std::filesystem::path& file, std::uintmax_t bytes) {
  write_text(file, "");
  std::filesystem::resize_file(file, bytes);
}

// One decisions line whose predicate, `x = 1 OR x = 1 OR ...`, doubles past 1.1 MB (1,179,644
// bytes): beyond the predicate limit.
void write_decision_with_a_long_predicate(const std::filesystem::path& file) {
  std::string predicate = "x = 1";
  while (predicate.size() < 1'100'000) predicate = predicate + " OR " + predicate;
  write_text(file, R"({"predicate":")" + predicate +
                       R"(","decision":"kept","schema":{"type":"struct","fields":[{"name":"x","type":"long"}]},)"
                       R"("stats":{"numRecords":1}})" "\n");
}

// A Delta table whose one commit adds one file more than the live files skipsound replays.
void write_table_of_too_many_files(const std::filesystem::path& dir) {
  std::filesystem::create_directories(dir / "_delta_log");
  std::string commit =
      R"({"protocol":{"minReaderVersion":1,"minWriterVersion":2}})" "\n"
      R"({"metaData":{"id":"t","format":{"provider":"parquet","options":{}},"schemaString":)"
      R"("{\"type\":\"struct\",\"fields\":[{\"name\":\"i\",\"type\":\"integer\",\"nullable\":true,\"metadata\":{}}]}",)"
      R"("partitionColumns":[],"configuration":{},"createdTime":1}})" "\n";
  for (size_t n = 0; n <= kMaxLiveFiles; ++n) {
    commit += R"({"add":{"path":"f)" + std::to_string(n) +
              R"(.parquet","partitionValues":{},"size":1,"modificationTime":1,"dataChange":true}})" "\n";
  }
  write_text(dir / "_delta_log" / "00000000000000000000.json", commit);
}

using Generator = void (*)(const std::filesystem::path& where);

// The generated inputs a case can name; docs/cli.md's "Bad input" lists them.
const std::map<std::string, Generator>& generated_inputs() {
  static const std::map<std::string, Generator> all{
      {"file-of-100-mib", [](const std::filesystem::path& p) { write_zeros(p, 100u << 20); }},
      {"zeros-70-mb", [](const std::filesystem::path& p) { write_zeros(p, 70'000'000); }},
      {"decision-with-1.1-mb-predicate", write_decision_with_a_long_predicate},
      {"table-of-100001-live-files", write_table_of_too_many_files},
  };
  return all;
}

// ---- reading cases.txt ----

const std::set<std::string> kCaseKeys{"name", "args", "stdin", "exit", "message"};

// Refusals of one cases.txt line, each naming file:line and what in the line is wrong.
class CaseLine {
 public:
  CaseLine(const std::filesystem::path& dir, const std::filesystem::path& file, size_t number)
      : dir_(dir), at_(file.string() + ":" + std::to_string(number) + ": ") {}

  [[noreturn]] void refuse(const std::string& why) const { throw InputError(at_ + why); }

  nlohmann::json object(const std::string& text) const {
    nlohmann::json j;
    try {
      j = nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error& e) {
      refuse(std::string("not a JSON object (one case per line; see docs/cli.md, \"Bad input\"): ") + e.what());
    }
    if (!j.is_object()) refuse("expected a JSON object, got " + std::string(j.type_name()));
    for (const auto& [key, value] : j.items()) {
      if (!kCaseKeys.contains(key)) refuse("unknown key \"" + key + "\"");
    }
    for (const char* key : {"name", "args", "exit", "message"}) {
      if (!j.contains(key)) refuse("no \"" + std::string(key) + "\"");
    }
    return j;
  }

  std::string text(const nlohmann::json& j, const std::string& where) const {
    if (!j.is_string()) refuse(where + ": expected a string, got " + j.dump());
    std::string s = j.get<std::string>();
    if (s.find('\0') != std::string::npos) refuse(where + ": holds a NUL byte");
    return s;
  }

  enum class Role { Argument, Stdin };

  // A string, {"contents": FILE} or {"generated": NAME} for an argument; {"file": FILE} or
  // {"generated": NAME} for stdin.
  BadInputSource source(const nlohmann::json& j, const std::string& where, Role role) const {
    const bool argument = role == Role::Argument;
    if (argument && j.is_string()) return {BadInputSource::Kind::Text, text(j, where)};
    const char* file_key = argument ? "contents" : "file";
    const std::string expected = std::string(argument ? "a string, " : "") + "{\"" + file_key +
                                 "\": FILE} or {\"generated\": NAME}";
    if (!j.is_object() || j.size() != 1) refuse(where + ": expected " + expected + ", got " + j.dump());
    const auto only = j.begin();
    const std::string& key = only.key();
    const nlohmann::json& value = only.value();
    if (key == "generated") return {BadInputSource::Kind::Generated, generated_name(value, where)};
    if (key != file_key) refuse(where + ": expected " + expected + ", got " + j.dump());
    return {argument ? BadInputSource::Kind::Contents : BadInputSource::Kind::File, folder_file(value, where)};
  }

 private:
  // A relative name that stays inside the case folder, of a file there.
  std::string folder_file(const nlohmann::json& j, const std::string& where) const {
    const std::filesystem::path name(text(j, where));
    bool leaves = name.empty() || name.is_absolute();
    for (const std::filesystem::path& part : name) leaves = leaves || part == "..";
    if (leaves) refuse(where + ": " + j.dump() + " is not a file name inside the case folder");
    if (!std::filesystem::is_regular_file(dir_ / name)) refuse(where + ": no file " + name.string() + " in the case folder");
    return name.string();
  }

  std::string generated_name(const nlohmann::json& j, const std::string& where) const {
    const std::string name = text(j, where);
    if (generated_inputs().contains(name)) return name;
    std::string known;
    for (const auto& [n, write] : generated_inputs()) known += (known.empty() ? "" : ", ") + n;
    refuse(where + ": no generated input \"" + name + "\" (there are: " + known + ")");
  }

  std::filesystem::path dir_;
  std::string at_;
};

BadInputCase parse_case(const CaseLine& line, const std::string& text, size_t number) {
  const nlohmann::json j = line.object(text);
  BadInputCase c;
  c.line = number;
  c.name = line.text(j["name"], "name");
  if (c.name.empty()) line.refuse("name: empty");
  if (!j["args"].is_array()) line.refuse("args: expected a list of arguments, got " + j["args"].dump());
  for (size_t i = 0; i < j["args"].size(); ++i) {
    c.arguments.push_back(line.source(j["args"][i], "args[" + std::to_string(i) + "]", CaseLine::Role::Argument));
  }
  if (j.contains("stdin")) c.standard_input = line.source(j["stdin"], "stdin", CaseLine::Role::Stdin);
  const nlohmann::json& exit = j["exit"];
  if (!exit.is_number_integer() || exit.get<int64_t>() < 0 || exit.get<int64_t>() > 255) {
    line.refuse("exit: expected an exit status 0..255, got " + exit.dump());
  }
  c.exit_status = exit.get<int>();
  c.message = line.text(j["message"], "message");
  return c;
}

// ---- running a case ----

// The inputs of one run: files of the case folder, and generated inputs made in a scratch folder
// of the run's own on first use.
class RunInputs {
 public:
  explicit RunInputs(const std::filesystem::path& dir) : dir_(dir) {}

  std::string argument(const BadInputSource& s) {
    if (s.kind == BadInputSource::Kind::Text) return s.value;
    if (s.kind != BadInputSource::Kind::Contents) return file(s).string();
    std::string bytes = read_bounded_file(dir_ / s.value);
    if (bytes.find('\0') != std::string::npos) throw InputError(s.value + " holds a NUL byte, which no argument can");
    return bytes;
  }

  std::filesystem::path file(const BadInputSource& s) {
    return s.kind == BadInputSource::Kind::Generated ? generated(s.value) : dir_ / s.value;
  }

 private:
  std::filesystem::path generated(const std::string& name) {
    if (!scratch_) scratch_.emplace("bad-input");
    const std::filesystem::path where = scratch_->path() / name;
    if (!std::filesystem::exists(where)) generated_inputs().at(name)(where);
    return where;
  }

  std::filesystem::path dir_;
  std::optional<ScratchDirectory> scratch_;
};

std::string displayed(const std::string& argument) {
  const bool plain = !argument.empty() && argument.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                                     "0123456789_./=,:+-") == std::string::npos;
  return plain ? argument : nlohmann::json(argument).dump();
}

std::string displayed(const BadInputSource& s) {
  switch (s.kind) {
    case BadInputSource::Kind::Text: return displayed(s.value);
    case BadInputSource::Kind::Contents: return "<contents of " + s.value + ">";
    case BadInputSource::Kind::File: return s.value;
    case BadInputSource::Kind::Generated: return "<generated " + s.value + ">";
  }
  return {};
}

// What differs from the case's expected exit status, if anything.
std::optional<std::string> exit_problem(const ProcessOutput& p, int expected, int hang_limit_seconds) {
  const std::string expecting = ", expected exit status " + std::to_string(expected);
  if (!p.spawn_error.empty()) return "cannot run " + p.spawn_error;
  if (p.killed) return "a hang: killed after " + std::to_string(hang_limit_seconds) + " s" + expecting;
  if (!p.exit_status()) return "killed by signal " + std::to_string(WTERMSIG(p.status)) + expecting;
  if (*p.exit_status() != expected) return "exit status " + std::to_string(*p.exit_status()) + ", expected " + std::to_string(expected);
  return std::nullopt;
}

}  // namespace

std::vector<BadInputCase> load_bad_input_cases(const std::filesystem::path& dir) {
  const std::filesystem::path file = dir / "cases.txt";
  std::ifstream in(file);
  if (!in) throw InputError("cannot read " + file.string());
  std::vector<BadInputCase> cases;
  std::string text;
  for (size_t number = 1; std::getline(in, text); ++number) {
    if (text.find_first_not_of(" \t\r") == std::string::npos || text[0] == '#') continue;
    cases.push_back(parse_case(CaseLine(dir, file, number), text, number));
  }
  return cases;
}

std::string bad_input_command_line(const BadInputCase& c) {
  // Appended piece by piece: GCC 12 warns, wrongly, on "literal" + temporary.
  std::string line = "skipsound";
  for (const BadInputSource& a : c.arguments) {
    line += ' ';
    line += displayed(a);
  }
  if (c.standard_input) {
    line += " < ";
    line += displayed(*c.standard_input);
  }
  return line;
}

BadInputRun run_bad_input_case(const BadInputCase& c, const std::filesystem::path& dir, const std::string& binary,
                               int hang_limit_seconds) {
  BadInputRun run;
  // The process starts in the case folder, where a relative binary would no longer be found.
  ProcessRequest request({binary.find('/') == std::string::npos ? binary : std::filesystem::absolute(binary).string()},
                              hang_limit_seconds * 1000);
  request.working_dir = dir;
  RunInputs inputs(dir);
  try {
    for (const BadInputSource& a : c.arguments) request.argv.push_back(inputs.argument(a));
    if (c.standard_input) request.stdin_file = inputs.file(*c.standard_input);
  } catch (const std::exception& e) {
    run.problems.push_back(std::string("cannot prepare the case's input: ") + e.what());
    return run;
  }
  const ProcessOutput p = run_process(request);
  run.output = p.text;
  run.seconds = p.seconds;
  run.exit_status = p.exit_status().value_or(-1);
  if (const auto problem = exit_problem(p, c.exit_status, hang_limit_seconds)) run.problems.push_back(*problem);
  if (run.output.find(c.message) == std::string::npos) run.problems.push_back("the output lacks: " + c.message);
  if (run.output.find("internal error") != std::string::npos) run.problems.push_back("an internal error");
  return run;
}

}  // namespace skipsound
