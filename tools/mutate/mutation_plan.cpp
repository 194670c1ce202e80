#include "tools/mutate/mutation_plan.h"

#include <glob.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace skipsound::mutation {

namespace {

uint64_t splitmix(uint64_t& state) {
  uint64_t x = (state += 0x9e3779b97f4a7c15ULL);
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// Fisher-Yates with our own generator: std::shuffle's order differs between standard libraries.
template <class T>
void shuffle(std::vector<T>& items, uint64_t seed) {
  uint64_t state = seed;
  for (size_t i = items.size(); i > 1; --i) std::swap(items[i - 1], items[splitmix(state) % i]);
}

}  // namespace

std::string read_text_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<std::string> expand_patterns(const std::string& root, const std::vector<std::string>& patterns) {
  std::vector<std::string> files;
  for (const std::string& pattern : patterns) {
    const std::string full = (std::filesystem::path(root) / pattern).string();
    glob_t matches{};
    const int status = glob(full.c_str(), 0, nullptr, &matches);
    size_t found = 0;
    for (size_t i = 0; status == 0 && i < matches.gl_pathc; ++i) {
      const std::filesystem::path path(matches.gl_pathv[i]);
      if (!std::filesystem::is_regular_file(path)) continue;
      files.push_back(std::filesystem::path(path).lexically_relative(root).string());
      ++found;
    }
    globfree(&matches);
    if (found == 0) throw std::invalid_argument("no file matches '" + pattern + "' under the source root");
  }
  std::sort(files.begin(), files.end());
  files.erase(std::unique(files.begin(), files.end()), files.end());
  return files;
}

std::vector<Candidate> enumerate_candidates(const std::string& root, const std::vector<std::string>& files) {
  std::vector<Candidate> all;
  for (const std::string& file : files) {
    const std::string source = read_text_file((std::filesystem::path(root) / file).string());
    for (const Mutation& m : enumerate_mutations(source)) {
      all.push_back(Candidate{file, all.size(), m, describe_mutation(source, m)});
    }
  }
  return all;
}

std::vector<Candidate> plan_run(const std::vector<Candidate>& all, const PlanOptions& o) {
  std::vector<Candidate> chosen;
  for (const Candidate& c : all) {
    const bool operator_wanted =
        o.operators.empty() || std::find(o.operators.begin(), o.operators.end(), c.mutation.op) != o.operators.end();
    const bool in_lines = !o.lines || (c.mutation.line >= o.lines->first && c.mutation.line <= o.lines->second);
    const auto changed = o.changed ? o.changed->find(c.file) : ChangedLines::const_iterator{};
    const bool in_change = !o.changed || (changed != o.changed->end() && changed->second.count(c.mutation.line));
    if (operator_wanted && in_lines && in_change && c.index % o.shard_count == o.shard_index) chosen.push_back(c);
  }
  shuffle(chosen, o.seed);
  if (chosen.size() > o.max_mutants) chosen.resize(o.max_mutants);
  return chosen;
}

}  // namespace skipsound::mutation
