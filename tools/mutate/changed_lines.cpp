#include "tools/mutate/changed_lines.h"

#include <filesystem>
#include <sstream>
#include <stdexcept>

#include "tools/mutate/mutant_run.h"

namespace skipsound::mutation {

ChangedLines parse_changed_lines(std::string_view unified_diff) {
  ChangedLines changed;
  std::string file;
  std::istringstream in{std::string(unified_diff)};
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("+++ ", 0) == 0) {
      file = line.substr(4);
      if (file.rfind("b/", 0) == 0) file = file.substr(2);
      if (file == "/dev/null") file.clear();
      continue;
    }
    if (line.rfind("@@ ", 0) != 0 || file.empty()) continue;
    // @@ -a[,b] +c[,d] @@: d lines from c on the new side (d is 1 when omitted).
    const size_t plus = line.find(" +");
    if (plus == std::string::npos) continue;
    size_t used = 0;
    const size_t first = std::stoul(line.substr(plus + 2), &used);
    size_t count = 1;
    if (line[plus + 2 + used] == ',') count = std::stoul(line.substr(plus + 3 + used));
    for (size_t l = first; l < first + count; ++l) changed[file].insert(l);
  }
  return changed;
}

ChangedLines changed_lines_since(const std::string& root, const std::string& revision,
                                 const std::vector<std::string>& files, const std::string& work_dir) {
  std::filesystem::create_directories(work_dir);
  const std::string log = (std::filesystem::path(work_dir) / "changed-since.diff").string();
  std::vector<std::string> git = {"git", "-C", root, "diff", "--relative", "--unified=0", "--no-color",
                                  "--no-ext-diff", revision, "--"};
  git.insert(git.end(), files.begin(), files.end());
  const ProcessResult diff = run_process(git, 300, log);
  if (diff.exit_code != 0) {
    throw std::invalid_argument("--changed-since " + revision + ": git diff failed:\n" + file_tail(log, 5));
  }
  return parse_changed_lines(read_text_file(log));
}

}  // namespace skipsound::mutation
