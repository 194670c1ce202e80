#include "proofs/explorer/world_scenario.h"

#include <nlohmann/json.hpp>

#include "model/values/exact_json.h"
#include "model/values/input_error.h"
#include "model/values/types.h"
#include "proofs/scenario/scenario_builder.h"

namespace skipsound {

using generators::World;

namespace {

// World transaction t is named T<t + 1>. (Names are appended, not `"T" + ...`: GCC 12 warns
// falsely on that at -O3.)
std::string transaction_name(size_t t) {
  std::string name = "T";
  name += std::to_string(t + 1);
  return name;
}

// A world transaction's options, as a scenario's `T1 [...]` names them.
std::vector<std::string> transaction_options(const generators::WorldTransaction& txn) {
  std::vector<std::string> options;
  if (txn.whole_table_read) options.push_back("whole-table-read");
  if (txn.not_blind) options.push_back("not-blind");
  if (txn.no_stats) options.push_back("no-stats");
  if (txn.blind_unknown) options.push_back("blind-unknown");
  return options;
}

// The schedule's steps in order, for the text and the builder alike: every transaction but the
// late one declared, then the commits; a late transaction is declared after the first commit, so
// it starts at that version. `commits(from, to)` takes commit_order[from, to) as one line.
template <class Declare, class Commits>
void walk_schedule(const World& world, const Declare& declare, const Commits& commits) {
  for (size_t t = 0; t < world.transactions.size(); ++t) {
    if (t != world.late_start) declare(t);
  }
  const size_t early_commits = world.late_start ? 1 : 0;
  if (world.late_start) {
    commits(0, early_commits);
    declare(*world.late_start);
  }
  commits(early_commits, world.commit_order.size());
}

}  // namespace

std::string world_scenario_text(const World& world, Mutant mutant, const std::vector<std::string>& expect_lines) {
  std::string text = "# interleaving world, category " + std::string(world_category_name(world.category)) + "\n";
  text += std::string("schema: id long, x ") + generators::x_type_sql(world.x_type) + ", p string\n";
  if (world.partitioned) text += "partitioned by: p\n";
  if (world.num_indexed_cols != 32) text += "property numIndexedCols: " + std::to_string(world.num_indexed_cols) + "\n";
  if (world.deletion_vectors) text += "property deletionVectors: on\n";
  if (world.write_serializable) text += "property isolation: WriteSerializable\n";
  if (world.log == generators::WorldLog::Replayed) text += "log: replayed\n";
  if (world.log == generators::WorldLog::Directory) text += "log: directory\n";
  const generators::WorldFlags defaults;
  for (generators::Tier tier : generators::all_tiers()) {
    const bool on = generators::tier_on(world.flags, tier);
    if (on != generators::tier_on(defaults, tier)) text += std::string("flag ") + generators::tier_flag_name(tier) + (on ? ": on\n" : ": off\n");
  }
  if (mutant != Mutant::None) text += std::string("mutant: ") + mutant_name(mutant) + "\n";
  for (size_t f = 0; f < world.files.size(); ++f) {
    std::string deleted;
    for (int r : world.files[f].deleted) deleted += (deleted.empty() ? " deleted=" : ",") + std::to_string(r);
    text += "file f" + std::to_string(f) + (world.files[f].has_stats ? "" : " nostats") + deleted + ": [";
    for (size_t r = 0; r < world.files[f].rows.size(); ++r) {
      text += (r ? ", " : "") + generators::world_row_json(world.files[f].rows[r], world.x_type);
    }
    text += "]\n";
  }
  for (const std::string& op : world.history) text += "step: " + op + "\n";
  const auto declare = [&](size_t t) {
    const generators::WorldTransaction& txn = world.transactions[t];
    const std::vector<std::string> options = transaction_options(txn);
    std::string head = transaction_name(t);
    if (!options.empty()) {
      head += " [";
      for (size_t o = 0; o < options.size(); ++o) head += (o ? ", " : "") + options[o];
      head += "]";
    }
    for (const std::string& op : txn.operations) text += head + ": " + op + "\n";
  };
  const auto commit_line = [&](size_t from, size_t to) {
    text += "commit: ";
    for (size_t i = from; i < to; ++i) {
      if (i > from) text += ", ";
      text += transaction_name(world.commit_order[i]);
    }
    text += "\n";
  };
  walk_schedule(world, declare, commit_line);
  for (const std::string& line : expect_lines) text += line + "\n";
  return text;
}

Scenario world_scenario(const World& world, Mutant mutant) {
  ScenarioBuilder scenario("explorer", std::nullopt);
  // Each directive on the line world_scenario_text gives it (its comment is line 1), so the
  // transactions and the errors name the lines of the file a finding saves.
  int line = 1;
  const auto next_line = [&] { scenario.at_line(++line); };
  try {
    next_line();
    scenario.schema({StructField{"id", DataType::of(TypeKind::Long), true, {}},
                     StructField{"x", parse_type_name(generators::x_type_sql(world.x_type)), true, {}},
                     StructField{"p", DataType::of(TypeKind::String), true, {}}});
    if (world.partitioned) {
      next_line();
      scenario.partitioned_by({"p"});
    }
    if (world.num_indexed_cols != 32) {
      next_line();
      scenario.property("numIndexedCols", std::to_string(world.num_indexed_cols));
    }
    if (world.deletion_vectors) {
      next_line();
      scenario.property("deletionVectors", "on");
    }
    if (world.write_serializable) {
      next_line();
      scenario.property("isolation", "WriteSerializable");
    }
    if (world.log != generators::WorldLog::ModelOnly) {
      next_line();
      scenario.log(world.log == generators::WorldLog::Replayed ? LogReplay::InMemory : LogReplay::Directory);
    }
    const generators::WorldFlags defaults;
    for (generators::Tier tier : generators::all_tiers()) {
      const bool on = generators::tier_on(world.flags, tier);
      if (on == generators::tier_on(defaults, tier)) continue;
      next_line();
      scenario.flag(generators::tier_flag_name(tier), on);
    }
    if (mutant != Mutant::None) {
      next_line();
      scenario.mutant(mutant);
    }
    for (size_t f = 0; f < world.files.size(); ++f) {
      next_line();
      nlohmann::json rows = nlohmann::json::array();
      for (const generators::WorldRow& row : world.files[f].rows) {
        rows.push_back({{"id", row.id}, {"x", parse_json_exact(generators::x_json(world.x_type, row.x))}, {"p", row.p}});
      }
      std::string name = "f";
      name += std::to_string(f);
      scenario.file(name, scenario.json_rows(rows),
                    world.files[f].has_stats ? StatsPresence::Collected : StatsPresence::Missing, {},
                    world.files[f].deleted);
    }
    for (const std::string& op : world.history) {
      next_line();
      scenario.step({}, op);
    }
    const auto declare = [&](size_t t) {
      const generators::WorldTransaction& txn = world.transactions[t];
      for (const std::string& op : txn.operations) {
        next_line();
        scenario.transaction(transaction_name(t), std::nullopt, transaction_options(txn), op);
      }
    };
    const auto commit_line = [&](size_t from, size_t to) {
      next_line();
      for (size_t i = from; i < to; ++i) scenario.commit(transaction_name(world.commit_order[i]));
    };
    walk_schedule(world, declare, commit_line);
    return scenario.finish();
  } catch (const InputError& e) {
    throw InputError("explorer:" + std::to_string(line) + ": " + (e.column() > 0 ? e.render() : e.message()));
  } catch (const std::exception& e) {
    throw InputError("explorer:" + std::to_string(line) + ": " + e.what());
  }
}

}  // namespace skipsound
