// `skipsound parse` and `skipsound eval`: a predicate bound against a schema, printed back as SQL
// or JSON, or evaluated on one row (docs/semantics.md §2.3, §3.2).
#include <iostream>
#include <memory>

#include <nlohmann/json.hpp>

#include "model/sql/binder.h"
#include "model/sql/evaluator.h"
#include "model/values/input_error.h"
#include "model/sql/printer.h"
#include "model/sql/row.h"
#include "cli/cli.h"
#include "cli/file_inputs.h"
#include "model/values/exact_json.h"

namespace skipsound::cli {

namespace {

Schema schema_from_file(const std::string& path) {
  const std::string text = read_text_file(path);
  try {
    return Schema::from_json_text(text);
  } catch (const SchemaError& e) {
    throw InputError("bad schema in " + path + ": " + e.what());
  } catch (const nlohmann::json::exception& e) {
    throw InputError("bad schema JSON in " + path + ": " + e.what());
  }
}

struct PredicateArguments {
  std::string predicate;
  std::string schema_file;
  std::string row_json;
  bool json = false;
};

void add_predicate_options(CLI::App& command, PredicateArguments& args) {
  command.add_option("--schema", args.schema_file, "Spark StructType JSON file")->required();
  command.add_option("predicate", args.predicate, "a Spark SQL WHERE predicate")->required();
}

}  // namespace

void add_parse_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<PredicateArguments>();
  CLI::App* command = app.add_subcommand(
      "parse", "parse and bind a predicate; print it back as SQL (or as a JSON tree with --json)");
  add_predicate_options(*command, *args);
  command->add_flag("--json", args->json, "print the bound IR as JSON");
  command->callback([args, &exit_code] {
    const ExprPtr bound = parse_and_bind(args->predicate, schema_from_file(args->schema_file));
    std::cout << (args->json ? dump_json(to_json(bound), 2) : to_sql(bound)) << "\n";
    exit_code = kExitOk;
  });
}

void add_eval_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<PredicateArguments>();
  CLI::App* command = app.add_subcommand(
      "eval", "evaluate a predicate on one row: prints TRUE, FALSE or NULL");
  add_predicate_options(*command, *args);
  command->add_option("--row", args->row_json, "the row as a JSON object nested like the schema")
      ->required();
  command->callback([args, &exit_code] {
    const Schema schema = schema_from_file(args->schema_file);
    const ExprPtr bound = parse_and_bind(args->predicate, schema);
    nlohmann::json row_json;
    try {
      row_json = parse_json_exact(args->row_json);
    } catch (const nlohmann::json::parse_error& e) {
      throw InputError(std::string("--row is not JSON: ") + e.what());
    }
    try {
      std::cout << truth_name(evaluate(*bound, row_from_json(row_json, schema))) << "\n";
    } catch (const NotEvaluable& e) {
      throw InputError(std::string("cannot evaluate: ") + e.what());
    }
    exit_code = kExitOk;
  });
}

}  // namespace skipsound::cli
