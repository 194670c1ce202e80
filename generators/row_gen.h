// RapidCheck generators for a file's rows. Values are drawn column by column from a small pool
// per column (so duplicates, shared string prefixes and exact bounds recur), with a null rate
// per column ranging from never to always; partition columns hold one value per file.
#pragma once
#include <vector>

#include <rapidcheck.h>

#include "generators/schema_gen.h"
#include "model/sql/row.h"

namespace skipsound::generators {

rc::Gen<std::vector<Row>> rows_for(const TableShape& table);

}  // namespace skipsound::generators
