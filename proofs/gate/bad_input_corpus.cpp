#include "proofs/gate/bad_input_corpus.h"

#include <sys/wait.h>

#include <array>
#include <charconv>
#include <cstdio>
#include <fstream>

#include "model/values/ascii_text.h"
#include "model/values/input_error.h"
#include "proofs/common/parallel_trials.h"

namespace skipsound {

namespace {

constexpr const char* kPlaceholder = "{skipsound}";

std::vector<std::string> split_fields(const std::string& line) {
  std::vector<std::string> fields;
  size_t start = 0;
  for (size_t bar; (bar = line.find(" | ", start)) != std::string::npos; start = bar + 3) {
    fields.push_back(trim_whitespace(line.substr(start, bar - start)));
  }
  fields.push_back(trim_whitespace(line.substr(start)));
  return fields;
}

std::string single_quoted(const std::string& text) {
  std::string out = "'";
  for (char ch : text) out += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return out + "'";
}

// The command with the binary in place of every {skipsound}.
std::string with_binary(std::string command, const std::string& binary) {
  const std::string quoted = single_quoted(binary);
  for (size_t at; (at = command.find(kPlaceholder)) != std::string::npos;) {
    command.replace(at, std::string(kPlaceholder).size(), quoted);
  }
  return command;
}

}  // namespace

std::vector<BadInputCase> load_bad_input_cases(const std::filesystem::path& dir) {
  const std::filesystem::path file = dir / "cases.txt";
  std::ifstream in(file);
  if (!in) throw InputError("cannot read " + file.string());
  std::vector<BadInputCase> cases;
  std::string line;
  for (size_t number = 1; std::getline(in, line); ++number) {
    if (line.empty() || line[0] == '#') continue;
    const std::string at = file.string() + ":" + std::to_string(number) + ": ";
    const std::vector<std::string> fields = split_fields(line);
    if (fields.size() != 4) throw InputError(at + "expected 4 fields separated by ' | ', got " + std::to_string(fields.size()));
    int status = 0;
    const std::string& s = fields[2];
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), status);
    if (ec != std::errc() || end != s.data() + s.size()) throw InputError(at + "exit status '" + s + "' is not a number");
    if (fields[1].find(kPlaceholder) == std::string::npos) throw InputError(at + "the command never runs {skipsound}");
    cases.push_back({fields[0], fields[1], status, fields[3], number});
  }
  return cases;
}

BadInputRun run_bad_input_case(const BadInputCase& c, const std::filesystem::path& dir, const std::string& binary,
                               int hang_limit_seconds) {
  const parallel::Stopwatch clock;
  BadInputRun run;
  const std::string shell = "cd " + single_quoted(dir.string()) + " && timeout " + std::to_string(hang_limit_seconds) +
                            " sh -c " + single_quoted(with_binary(c.command, binary)) + " 2>&1";
  FILE* pipe = popen(shell.c_str(), "r");
  if (pipe == nullptr) {
    run.problems.push_back("cannot start /bin/sh");
    return run;
  }
  std::array<char, 4096> buffer{};
  for (size_t n; (n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0;) run.output.append(buffer.data(), n);
  const int raw = pclose(pipe);
  run.seconds = clock.seconds();
  if (raw != -1 && WIFEXITED(raw)) run.exit_status = WEXITSTATUS(raw);
  if (run.exit_status != c.exit_status) {
    run.problems.push_back("exit status " + std::to_string(run.exit_status) + ", expected " + std::to_string(c.exit_status) +
                           (run.exit_status == 124 ? " (a hang, stopped after " + std::to_string(hang_limit_seconds) + " s)" : ""));
  }
  if (run.output.find(c.message) == std::string::npos) run.problems.push_back("the output lacks: " + c.message);
  if (run.output.find("internal error") != std::string::npos) run.problems.push_back("an internal error");
  return run;
}

}  // namespace skipsound
