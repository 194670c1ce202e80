// Decisions taken by another skipping implementation, to be judged by the Z3 oracle
// (`skipsound check --decisions FILE.jsonl`; the line format is documented in
// cli/cli_check.cpp).
#pragma once
#include <string>
#include <vector>

#include "checker/file_decision.h"
#include "model/sql/expr.h"
#include "cli/file_inputs.h"

namespace skipsound::cli {

struct ExternalDecision {
  int line = 0;          // 1-based line of the decisions file
  std::string name;      // "file" from the line, else the live file's path, else "line N"
  std::string predicate;
  ExprPtr bound;         // the predicate bound against file.schema
  LoadedFiles file;      // exactly one candidate
  FileVerdict decision = FileVerdict::Keep;
};

// Reads every non-blank line. Throws InputError as "PATH:LINE: message" for malformed JSON, a
// missing or ill-typed field, a bad schema, stats or predicate, an unknown table or live file.
// Relative "table" directories are resolved against the decisions file's folder.
std::vector<ExternalDecision> read_external_decisions(const std::string& path);

}  // namespace skipsound::cli
