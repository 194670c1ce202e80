#include "model/table/commit.h"

#include <algorithm>

namespace skipsound {

bool Commit::has_metadata() const {
  return std::any_of(other_actions.begin(), other_actions.end(),
                     [](const Action& a) { return std::holds_alternative<Metadata>(a); });
}

bool Commit::has_protocol() const {
  return std::any_of(other_actions.begin(), other_actions.end(),
                     [](const Action& a) { return std::holds_alternative<Protocol>(a); });
}

std::vector<Action> Commit::to_actions(const Schema& schema) const {
  std::vector<Action> actions;
  actions.reserve(1 + other_actions.size() + removes.size() + adds.size());
  actions.push_back(info);
  actions.insert(actions.end(), other_actions.begin(), other_actions.end());
  for (const FileRemoval& removal : removes) actions.push_back(removal.to_remove_action());
  for (const TableFile& add : adds) actions.push_back(add.to_add_action(schema));
  return actions;
}

}  // namespace skipsound
