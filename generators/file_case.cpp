#include "generators/file_case.h"

#include <ostream>

#include <nlohmann/json.hpp>

#include "generators/combinators.h"
#include "generators/predicate_gen.h"
#include "model/sql/printer.h"
#include "model/sql/row.h"
#include "model/stats/stats.h"
#include "model/values/exact_json.h"

namespace skipsound::generators {

rc::Gen<FileCase> file_case(Mutant writer_mutant) {
  return rc::gen::mapcat(table_shape(), [writer_mutant](const TableShape& table) {
    return rc::gen::mapcat(file_for(table, writer_mutant), [table](const GeneratedFile& file) {
      return rc::gen::map(vector_of<ExprPtr>(1, kMaxPredicatesPerFile, predicate_for(table, file)),
                          [table, file](std::vector<ExprPtr> predicates) {
                            return FileCase{table, file, std::move(predicates)};
                          });
    });
  });
}

void print_file_case(const FileCase& c, std::ostream& os) {
  const Schema& schema = c.table.schema;
  const StatsConfig& config = c.table.stats_config;
  os << "schema: " << schema.to_json().dump() << "\n";
  os << "numIndexedCols: " << config.num_indexed_cols << ", partitions: [";
  for (const auto& p : config.partition_columns) os << p << " ";
  os << "]\nstats (" << stats_history_name(c.file.history) << "): "
     << dump_json(stats_to_json(c.file.stats, schema)) << "\nrows:\n";
  for (size_t r = 0; r < c.file.rows.size(); ++r) {
    os << "  " << (c.file.deleted[r] ? "[deleted] " : "") << dump_json(row_to_json(c.file.rows[r], schema)) << "\n";
  }
  os << "predicates:\n";
  for (const ExprPtr& p : c.predicates) os << "  " << to_sql(p) << "\n";
}

}  // namespace skipsound::generators
