// Decisions taken by another skipping implementation, to be judged by the Z3 oracle
// (`skipsound check --decisions FILE.jsonl`; the line format is documented in
// cli/cli_check.cpp).
#pragma once
#include <string>
#include <vector>

#include "checker/file_decision.h"
#include "model/sql/expr.h"
#include "cli/file_inputs.h"
#include "model/values/input_error.h"

namespace skipsound::cli {

struct ExternalDecision {
  int line = 0;          // 1-based line of the decisions file
  std::string name;      // "file" from the line, else the live file's path, else "line N"
  std::string predicate;
  ExprPtr bound;         // the predicate bound against file.schema
  LoadedFiles file;      // exactly one candidate
  FileVerdict decision = FileVerdict::Keep;
};

// A line that could not be read: "PATH:LINE: message", with the column in the line when the
// fault has one (malformed JSON, a bad predicate).
struct BadDecisionLine {
  int line = 0;
  InputError error;
};

struct ExternalDecisions {
  std::vector<ExternalDecision> decisions;  // the lines that read, in file order
  std::vector<BadDecisionLine> bad_lines;   // the others, in file order
};

// Reads every non-blank line with the exact JSON reader (model/values/exact_json.h), so a stat
// or row is judged with the digits the engine wrote. A line with malformed JSON, a missing or
// ill-typed field, a bad schema, stats or predicate, an unknown table or live file is a bad line;
// the other lines are still read. Throws InputError only when the file cannot be read.
// Relative "table" directories are resolved against the decisions file's folder.
ExternalDecisions read_external_decisions(const std::string& path);

}  // namespace skipsound::cli
