// An interleaving world (generators/world_gen.h) as a scenario (proofs/scenario/scenario.h): the
// structure a trial runs, built directly, and the text reports and saved findings show. Built or
// printed and parsed back, it is the same scenario (tests/proofs/explorer/world_scenario_test.cpp),
// so a saved finding replays the run that failed.
#pragma once
#include <string>
#include <vector>

#include "generators/world_gen.h"
#include "model/mutants/mutant.h"
#include "proofs/scenario/scenario.h"

namespace skipsound {

// The world as a scenario file; `expect_lines` are appended verbatim.
std::string world_scenario_text(const generators::World& world, Mutant mutant,
                                const std::vector<std::string>& expect_lines = {});

// The scenario a trial runs: parse_scenario(world_scenario_text(world, mutant), "explorer")
// without the text. Throws InputError "explorer:<line>: ..." as that parse would.
Scenario world_scenario(const generators::World& world, Mutant mutant);

}  // namespace skipsound
