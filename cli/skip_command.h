// `skipsound skip`'s decision, callable without the command line: the ported Delta skipping suite
// (tests/cli/delta_skipping_suite_test.cpp) runs every case through exactly this path.
#pragma once
#include <string>

#include "checker/scan_filter.h"
#include "model/mutants/mutant.h"
#include "cli/file_inputs.h"

namespace skipsound::cli {

// Parses and binds `predicate_sql` against the files' schema and decides every file as `skip`
// prints it. Without partition values (--stats, --rows without --partition-columns) data skipping
// alone decides. Throws InputError on a predicate that does not parse or bind.
ScanResult skip_decisions(const std::string& predicate_sql, const LoadedFiles& files, Mutant mutant = Mutant::None);

}  // namespace skipsound::cli
