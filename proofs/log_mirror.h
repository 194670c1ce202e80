// A table's history as a Delta log, replayed by the production reader after every commit
// (docs/semantics.md §4: the real input path). Commit 0 holds the protocol, the metaData and an
// add for every initial file; each commit after it is the model commit's own actions as JSON
// text. After each commit the whole log is replayed (model/log/delta_log.h) and compared with the
// model's table: the live files, keyed by (path, DV) as Delta keys them, their stats and their
// partition values must read back as the model wrote them. Whatever does not is a problem, a
// finding even when no conflict check trips on it. The commit handed back carries the replayed
// stats and partition values on its adds, so the conflict checker sees a winner's files as the
// reader made them from the text; the model's rows stay the oracles' truth.
#pragma once
#include <string>
#include <vector>

#include "model/log/delta_log.h"
#include "model/mutants/mutant.h"
#include "model/table/commit.h"
#include "model/table/table.h"

namespace skipsound {

class LogMirror {
 public:
  // `mutant`: an input-path mutant of the log or stats reader (model/mutants/mutant.h) misreads the text.
  explicit LogMirror(const Table& initial, Mutant mutant = Mutant::None);

  // Logs `commit` as the next version, replays the log and compares it with `model_after` (the
  // model's table once the commit is applied). Returns the commit with its adds as replayed.
  Commit log(const Commit& commit, const Table& model_after);

  // How the replayed log differs from the model, one line each, with the version.
  const std::vector<std::string>& problems() const { return problems_; }

 private:
  Schema schema_;
  Mutant mutant_;
  std::vector<LogCommit> commits_;
  std::vector<std::string> problems_;
};

}  // namespace skipsound
