#include "model/table/transaction.h"

namespace skipsound {

std::string Transaction::describe() const {
  std::string text;
  for (const Operation& op : operations) {
    if (!text.empty()) text += "; ";
    text += op.text;
  }
  return text;
}

Transaction run_transaction(std::string name, const Table& snapshot,
                            std::vector<Operation> operations, WriterSettings settings,
                            const ScanPlanner& planner) {
  Transaction txn;
  txn.name = std::move(name);
  txn.snapshot_version = snapshot.version();
  txn.operations = std::move(operations);
  txn.settings = std::move(settings);
  OperationResult result = execute(snapshot, txn.operations, planner, txn.settings);
  txn.reads = std::move(result.reads);
  txn.commit = std::move(result.commit);
  return txn;
}

OperationResult rerun(const Transaction& txn, const Table& state, const ScanPlanner& planner) {
  return execute(state, txn.operations, planner, txn.settings);
}

}  // namespace skipsound
