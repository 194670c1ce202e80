// A table's history as a Delta log, replayed by the production reader after every commit
// (docs/semantics.md §4.7: the real input path). Commit 0 holds the protocol, the metaData and an
// add for every initial file; each commit after it is the model commit's own actions as JSON
// text. After each commit the whole log is replayed (model/log/delta_log.h) and compared with the
// model's table: the live files, keyed by (path, DV) as Delta keys them, their stats and their
// partition values must read back as the model wrote them. Whatever does not is a problem, a
// finding even when no conflict check trips on it. The commit handed back carries the replayed
// stats and partition values on its adds, so the conflict checker sees a winner's files as the
// reader made them from the text; the model's rows stay the oracles' truth.
//
// With LogReplay::Directory the commits are files of a table directory of its own under the
// system's temporary folder, each beside a `.crc` checksum file as Delta writes one, and the
// table is loaded from that directory the way `skipsound skip --table` loads one: the commits
// listed, ordered and read up to a version. After each commit the latest version and the one
// before it (time travel) are loaded and compared with the model's tables of those versions,
// and a load that warns about a log this mirror wrote itself is a problem too.
#pragma once
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "model/log/delta_log.h"
#include "model/table/commit.h"
#include "model/table/table.h"
#include "model/values/scratch_directory.h"

namespace skipsound {

// Where a run's commits are read back from: not at all, the log's text in memory, or a table directory.
enum class LogReplay { Off, InMemory, Directory };

class LogMirror {
 public:
  // An injected input-path mutant of the log or stats reader (model/mutants/fault_injection.h)
  // misreads the text.
  // `where`: InMemory or Directory (Off is the caller's: no mirror).
  explicit LogMirror(const Table& initial, LogReplay where = LogReplay::InMemory);

  // Logs `commit` as the next version, replays the log and compares it with `model_after` (the
  // model's table once the commit is applied). Returns the commit with its adds as replayed.
  Commit log(const Commit& commit, const Table& model_after);

  // How the replayed log differs from the model, one line each, with the version.
  const std::vector<std::string>& problems() const { return problems_; }

 private:
  // Writes commits_.back() (and its .crc file) into the table directory.
  void write_latest(const Table& model);
  // The log's latest version or `version`, from the text in memory or from the directory.
  DeltaTable replay(std::optional<int64_t> version) const;
  std::string without_table_dir(std::string text) const;
  // Adds a problem for each way `replayed` differs from `model` (with `schema`, the one of its version).
  void compare(const DeltaTable& replayed, const Table& model, const Schema& schema, const std::string& at);

  Schema schema_;
  std::vector<LogCommit> commits_;
  std::vector<std::string> problems_;
  std::optional<ScratchDirectory> table_dir_;  // with LogReplay::Directory
  std::optional<Table> previous_model_;        // with a directory: the model's table at the version before the latest
  Schema previous_schema_;
};

}  // namespace skipsound
