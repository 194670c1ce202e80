// A trial builds its world's Scenario directly (world_scenario); a finding saves the world as
// text (world_scenario_text). The two must agree exactly, or a saved finding would replay another
// run than the one that failed: the world printed and parsed back is the world built.
#include <optional>
#include <string>

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "generators/world_gen.h"
#include "model/values/input_error.h"
#include "proofs/explorer/world_scenario.h"
#include "proofs/scenario/interleaving_report.h"
#include "proofs/scenario/scenario.h"

namespace skipsound {
namespace {

using generators::World;
using generators::WorldCategory;

void same_operation(const Operation& a, const Operation& b) {
  RC_ASSERT(a.kind == b.kind);
  RC_ASSERT(a.text == b.text);
  RC_ASSERT(!a.condition == !b.condition);
  if (a.condition) RC_ASSERT(*a.condition == *b.condition);
  RC_ASSERT(a.rows == b.rows);
  RC_ASSERT(a.assignments.size() == b.assignments.size());
  RC_ASSERT(a.name == b.name);
}

void same_table(const Table& a, const Table& b) {
  RC_ASSERT(a.schema() == b.schema());
  RC_ASSERT(a.properties().stats == b.properties().stats);
  RC_ASSERT(a.properties().deletion_vectors == b.properties().deletion_vectors);
  RC_ASSERT(a.properties().isolation == b.properties().isolation);
  RC_ASSERT(a.files().size() == b.files().size());
  for (size_t i = 0; i < a.files().size(); ++i) {
    const TableFile& fa = a.files()[i];
    const TableFile& fb = b.files()[i];
    RC_ASSERT(fa.path == fb.path);
    RC_ASSERT(fa.live_rows() == fb.live_rows());
    RC_ASSERT(fa.deleted == fb.deleted);
    RC_ASSERT(fa.stats == fb.stats);
  }
}

void same_scenario(const Scenario& a, const Scenario& b) {
  same_table(a.table, b.table);
  RC_ASSERT(a.mutant == b.mutant);
  RC_ASSERT(a.log == b.log);
  RC_ASSERT(a.options.conflict_data_skipping == b.options.conflict_data_skipping);
  RC_ASSERT(a.options.value_exact == b.options.value_exact);
  RC_ASSERT(a.options.row_level_concurrency == b.options.row_level_concurrency);
  RC_ASSERT(a.options.removed_rows == b.options.removed_rows);
  RC_ASSERT(a.options.exclude_no_data_change == b.options.exclude_no_data_change);
  RC_ASSERT(a.transactions.size() == b.transactions.size());
  for (size_t t = 0; t < a.transactions.size(); ++t) {
    const ScenarioTransaction& ta = a.transactions[t];
    const ScenarioTransaction& tb = b.transactions[t];
    RC_ASSERT(ta.name == tb.name);
    RC_ASSERT(ta.line == tb.line);
    RC_ASSERT(ta.start_version == tb.start_version);
    RC_ASSERT(ta.history_step == tb.history_step);
    RC_ASSERT(ta.bound_width == tb.bound_width);
    RC_ASSERT(ta.settings.stats == tb.settings.stats);
    RC_ASSERT(ta.settings.reads_whole_table == tb.settings.reads_whole_table);
    RC_ASSERT(ta.settings.force_not_blind == tb.settings.force_not_blind);
    RC_ASSERT(ta.settings.blind_flag_unknown == tb.settings.blind_flag_unknown);
    RC_ASSERT(ta.operations.size() == tb.operations.size());
    for (size_t o = 0; o < ta.operations.size(); ++o) same_operation(ta.operations[o], tb.operations[o]);
  }
  RC_ASSERT(a.timeline.size() == b.timeline.size());
  for (size_t e = 0; e < a.timeline.size(); ++e) {
    RC_ASSERT(a.timeline[e].kind == b.timeline[e].kind);
    RC_ASSERT(a.timeline[e].transaction == b.timeline[e].transaction);
  }
}

RC_GTEST_PROP(WorldScenario, AWorldBuiltIsTheWorldPrintedAndParsedBack, ()) {
  const WorldCategory category = *rc::gen::elementOf(generators::all_world_categories());
  const World world = *generators::world(category);
  // None, a writer mutant (it shapes the initial files' stats) and a conflict-time one.
  const Mutant mutant = *rc::gen::elementOf(std::vector<Mutant>{Mutant::None, Mutant::StringMaxPlainPrefix,
                                                                Mutant::AppendSuppression});
  RC_TAG(world_category_name(category));
  RC_CLASSIFY(mutant != Mutant::None, "under a mutant");
  std::optional<Scenario> built, parsed;
  std::string built_error, parsed_error;
  try {
    built = world_scenario(world, mutant);
  } catch (const InputError& e) {
    built_error = e.what();
  }
  try {
    parsed = parse_scenario(world_scenario_text(world, mutant), "explorer");
  } catch (const InputError& e) {
    parsed_error = e.what();
  }
  RC_CLASSIFY(!built, "refused");
  RC_ASSERT(built_error == parsed_error);
  if (!built) return;
  same_scenario(*built, *parsed);
  // And the same run, report for report (or the same error).
  const auto report = [](const Scenario& scenario) {
    try {
      return render_report(scenario, run_scenario(scenario));
    } catch (const InputError& e) {
      return std::string("refused: ") + e.what();
    }
  };
  RC_ASSERT(report(*built) == report(*parsed));
}

}  // namespace
}  // namespace skipsound
