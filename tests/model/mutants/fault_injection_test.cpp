// The fault-injection context (model/mutants/fault_injection.h): a scope injects its mutant on its
// own thread only, and restores the one before it when it ends.
#include "model/mutants/fault_injection.h"

#include <thread>

#include <gtest/gtest.h>

namespace skipsound {
namespace {

TEST(FaultInjection, NoFaultOutsideEveryScope) {
  for (Mutant m : all_mutants()) EXPECT_FALSE(fault_active(m)) << mutant_name(m);
}

TEST(FaultInjection, AScopeInjectsOneMutantAndNestedScopesRestoreTheOuter) {
  {
    const FaultScope outer(Mutant::LeAsLt);
    EXPECT_TRUE(fault_active(Mutant::LeAsLt));
    EXPECT_FALSE(fault_active(Mutant::AppendSuppression));
    {
      const FaultScope inner(Mutant::None);
      EXPECT_FALSE(fault_active(Mutant::LeAsLt));
    }
    EXPECT_TRUE(fault_active(Mutant::LeAsLt));
  }
  EXPECT_FALSE(fault_active(Mutant::LeAsLt));
}

TEST(FaultInjection, EachThreadHasItsOwnFault) {
  const FaultScope here(Mutant::AppendSuppression);
  bool other_saw_append_suppression = true;
  bool other_saw_its_own = false;
  std::thread other([&] {
    other_saw_append_suppression = fault_active(Mutant::AppendSuppression);
    const FaultScope there(Mutant::LeAsLt);
    other_saw_its_own = fault_active(Mutant::LeAsLt);
  });
  other.join();
  EXPECT_FALSE(other_saw_append_suppression);
  EXPECT_TRUE(other_saw_its_own);
  EXPECT_TRUE(fault_active(Mutant::AppendSuppression));
  EXPECT_FALSE(fault_active(Mutant::LeAsLt));
}

}  // namespace
}  // namespace skipsound
