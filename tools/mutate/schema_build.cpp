#include "tools/mutate/schema_build.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "tools/mutate/mutant_run.h"
#include "tools/mutate/mutant_schema.h"

namespace skipsound::mutation {

namespace fs = std::filesystem;

namespace {

constexpr const char* kRuntimeHeader = "tools/mutate/mutant_schema_runtime.h";
constexpr size_t kMaxBuildRounds = 25;

// Unchanged files keep their time stamps, so the copy's build recompiles only what changed.
void write_if_changed(const fs::path& path, const std::string& text) {
  if (fs::exists(path) && fs::file_size(path) == text.size() && read_text_file(path.string()) == text) return;
  fs::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  if (!out.flush()) throw std::runtime_error("cannot write " + path.string());
}

// Build folders (any folder holding a CMakeCache.txt, and the top-level build/), .git and the
// scratch folder itself stay behind; so do the files in `mutated`, written with their schemata.
void copy_sources(const fs::path& from, const fs::path& to, const std::set<fs::path>& mutated) {
  const fs::path scratch = fs::weakly_canonical(to);
  for (auto it = fs::recursive_directory_iterator(from); it != fs::recursive_directory_iterator(); ++it) {
    const fs::path& path = it->path();
    if (it->is_directory()) {
      const bool skipped = path.filename() == ".git" || (it.depth() == 0 && path.filename() == "build") ||
                           fs::exists(path / "CMakeCache.txt") || fs::weakly_canonical(path) == scratch;
      if (skipped) it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file() && path.filename() != ".git" && !mutated.count(path.lexically_relative(from))) {
      write_if_changed(to / path.lexically_relative(from), read_text_file(path.string()));
    }
  }
}

std::string include_line_for(const std::string& file) {
  std::string up;
  for (fs::path dir = fs::path(file).parent_path(); !dir.empty(); dir = dir.parent_path()) up += "../";
  return "#include \"" + up + kRuntimeHeader + "\"";
}

// The lines of `file` the build log's diagnostics point at (errors, their notes and the template
// and constexpr back-traces), whatever form of the path the compiler printed.
std::set<size_t> blamed_lines(const std::string& log, const std::string& file) {
  static const std::regex diagnostic(R"(^([^:\s]+):(\d+):(\d+):)");
  std::set<size_t> lines;
  std::istringstream in(log);
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    if (!std::regex_search(line, m, diagnostic)) continue;
    const std::string path = m[1].str();
    if (path == file || (path.size() > file.size() && path.compare(path.size() - file.size(), file.size(), file) == 0 &&
                         path[path.size() - file.size() - 1] == '/')) {
      lines.insert(std::stoul(m[2].str()));
    }
  }
  return lines;
}

struct FileSchema {
  std::string original;
  std::vector<NumberedMutation> mutations;
  std::vector<std::pair<size_t, LineSpan>> site_lines;  // in the order of `mutations`
  std::set<size_t> blamed_before;                       // lines an earlier round's diagnostics named
};

// The sources and mutations a blame list belongs to.
std::string fingerprint_of(const std::map<std::string, FileSchema>& files) {
  size_t hash = 0;
  for (const auto& [file, schema] : files) {
    hash = hash * 31 + std::hash<std::string>{}(file + '\n' + schema.original);
    for (const NumberedMutation& n : schema.mutations) hash = hash * 31 + n.id;
  }
  return std::to_string(hash);
}

std::set<size_t> read_blamed(const fs::path& path, const std::string& fingerprint) {
  std::ifstream in(path);
  std::string first;
  std::set<size_t> ids;
  if (!std::getline(in, first) || first != fingerprint) return ids;
  for (size_t id; in >> id;) ids.insert(id);
  return ids;
}

void write_blamed(const fs::path& path, const std::string& fingerprint, const std::set<size_t>& ids) {
  std::ostringstream text;
  text << fingerprint << "\n";
  for (size_t id : ids) text << id << "\n";
  write_if_changed(path, text.str());
}

}  // namespace

std::vector<std::string> configure_arguments_like(const std::string& build_dir) {
  std::ifstream cache(fs::path(build_dir) / "CMakeCache.txt");
  if (!cache) throw std::invalid_argument(build_dir + " is not a configured build folder");
  const std::vector<std::string> kept = {"CMAKE_BUILD_TYPE", "CMAKE_CXX_COMPILER", "CMAKE_CXX_COMPILER_LAUNCHER",
                                         "CMAKE_CXX_FLAGS",  "CMAKE_EXE_LINKER_FLAGS", "SKIPSOUND_TCMALLOC"};
  std::vector<std::string> arguments;
  for (std::string line; std::getline(cache, line);) {
    const size_t colon = line.find(':'), equals = line.find('=');
    if (colon == std::string::npos || equals == std::string::npos || colon > equals) continue;
    const std::string key = line.substr(0, colon), value = line.substr(equals + 1);
    if (key == "CMAKE_GENERATOR") arguments.insert(arguments.begin(), {"-G", value});
    if (std::find(kept.begin(), kept.end(), key) != kept.end() && !value.empty()) arguments.push_back("-D" + key + "=" + value);
  }
  return arguments;
}

SchemaBuild build_schema(const SchemaBuildConfig& config, const std::vector<Candidate>& candidates) {
  const auto start = std::chrono::steady_clock::now();
  const fs::path root(config.source_root);
  if (!fs::is_regular_file(root / kRuntimeHeader)) {
    throw std::invalid_argument("the source root has no " + std::string(kRuntimeHeader) + " for the schema build");
  }
  const fs::path scratch = fs::absolute(config.scratch_dir);
  const fs::path copy = scratch / "source", build = copy / "build" / "schema";
  std::map<std::string, FileSchema> files;
  for (const Candidate& c : candidates) files[c.file].mutations.push_back({c.index, c.mutation});
  std::set<fs::path> mutated;
  for (const auto& entry : files) mutated.insert(fs::path(entry.first));
  fs::create_directories(copy);
  copy_sources(root, copy, mutated);
  for (auto& [file, schema] : files) {
    schema.original = read_text_file((root / file).string());
    schema.site_lines = schema_site_lines(schema.original, schema.mutations);
  }

  SchemaBuild result;
  result.binary = (build / config.target).string();
  const std::string log = (scratch / "build.log").string();
  // The choices an earlier build of the same sources blamed stay out: a slice or a resumed run
  // then compiles nothing.
  const std::string fingerprint = fingerprint_of(files);
  const fs::path blamed_file = scratch / "blamed-choices.txt";
  std::set<size_t> excluded = read_blamed(blamed_file, fingerprint);
  for (const auto& [file, schema] : files) {
    write_if_changed(copy / file, render_schemata(schema.original, schema.mutations, excluded, include_line_for(file)).text);
  }
  if (!fs::exists(build / "CMakeCache.txt")) {
    std::vector<std::string> configure = {"cmake", "-S", copy.string(), "-B", build.string(),
                                          "-DSKIPSOUND_TESTS=OFF", "-DSKIPSOUND_BENCH=OFF"};
    for (const std::string& a : configure_arguments_like(config.reference_build_dir)) configure.push_back(a);
    if (run_process(configure, config.build_timeout, log).exit_code != 0) {
      result.failure = "configuring the schema copy failed:\n" + file_tail(log, 25);
      return result;
    }
  }
  // Keep going past a failed file: each round then blames the choices of every file at once.
  std::vector<std::string> build_command = {"cmake", "--build", build.string(), "--target", config.target, "--parallel",
                                            std::to_string(std::max(1u, std::thread::hardware_concurrency()))};
  const std::vector<std::string> like = configure_arguments_like(build.string());
  if (std::find(like.begin(), like.end(), "Unix Makefiles") != like.end()) build_command.insert(build_command.end(), {"--", "-k"});
  if (std::find(like.begin(), like.end(), "Ninja") != like.end()) build_command.insert(build_command.end(), {"--", "-k", "0"});
  for (;;) {
    result.chosen.clear();
    result.left_out.clear();
    for (const auto& [file, schema] : files) {
      const SchemaSource s = render_schemata(schema.original, schema.mutations, excluded, include_line_for(file));
      write_if_changed(copy / file, s.text);
      result.chosen.insert(s.chosen.begin(), s.chosen.end());
      result.left_out.insert(result.left_out.end(), s.left_out.begin(), s.left_out.end());
    }
    ++result.rounds;
    if (run_process(build_command, config.build_timeout, log).exit_code == 0) {
      write_blamed(blamed_file, fingerprint, excluded);
      break;
    }
    // Blame the mutants whose site covers a line the diagnostics name; failing that, every
    // mutant of a file they name. A literal is the usual culprit (one a constant expression or
    // a comparison category's `< 0` needs), so a blamed line with a constant's choice first loses
    // only those, and the others when it is blamed again.
    const std::string text = read_text_file(log);
    const size_t before = excluded.size();
    std::vector<size_t> of_named_files;
    for (auto& [file, schema] : files) {
      const std::set<size_t> lines = blamed_lines(text, file);
      if (lines.empty()) continue;
      const auto blamed_in = [&](const LineSpan& span) {
        std::vector<size_t> hit;
        for (auto l = lines.lower_bound(span.first); l != lines.end() && *l <= span.last; ++l) hit.push_back(*l);
        return hit;
      };
      std::set<size_t> with_constants;
      for (size_t k = 0; k < schema.mutations.size(); ++k) {
        const auto& [id, span] = schema.site_lines[k];
        if (!result.chosen.count(id) || schema.mutations[k].mutation.op != Operator::Constant) continue;
        for (size_t l : blamed_in(span)) with_constants.insert(l);
      }
      for (size_t k = 0; k < schema.mutations.size(); ++k) {
        const auto& [id, span] = schema.site_lines[k];
        if (!result.chosen.count(id)) continue;
        of_named_files.push_back(id);
        for (size_t l : blamed_in(span)) {
          if (schema.mutations[k].mutation.op == Operator::Constant || !with_constants.count(l) ||
              schema.blamed_before.count(l)) {
            excluded.insert(id);
          }
        }
      }
      schema.blamed_before.insert(lines.begin(), lines.end());
    }
    if (excluded.size() == before) excluded.insert(of_named_files.begin(), of_named_files.end());
    if (excluded.size() == before || result.rounds >= kMaxBuildRounds) {
      result.failure = "the schema copy does not build, and no mutant is left to blame:\n" + file_tail(log, 25);
      break;
    }
  }
  std::sort(result.left_out.begin(), result.left_out.end());
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace skipsound::mutation
