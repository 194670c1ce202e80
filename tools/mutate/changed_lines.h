// Diff mode (docs/mutation.md, --changed-since): the lines of each file that differ from a git
// revision, so a run mutates only what a change touched.
#pragma once
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace skipsound::mutation {

using ChangedLines = std::map<std::string, std::set<size_t>>;  // file (as the diff names it) -> lines

// The new side's lines of a `git diff --unified=0` (added or changed; a pure deletion adds none).
ChangedLines parse_changed_lines(std::string_view unified_diff);

// The lines of `files` (relative to root) in the working tree that differ from `revision`.
// Throws std::invalid_argument with git's message when git cannot diff (not a repository, an
// unknown revision).
ChangedLines changed_lines_since(const std::string& root, const std::string& revision,
                                 const std::vector<std::string>& files, const std::string& work_dir);

}  // namespace skipsound::mutation
