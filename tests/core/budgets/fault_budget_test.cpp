// The run's fault budget (core/budgets/fault_budget.hpp).
#include <catch2/catch.hpp>

#include "core/budgets/fault_budget.hpp"

using namespace ij;

TEST_CASE("the fault rate is the share of judged pairs with verdict I2") {
  fault_budget b{0.5};
  CHECK(b.rate() == 0.0);
  CHECK_FALSE(b.exceeded());
  b.add(verdict_rule::i2);
  CHECK(b.exceeded());       // 1 of 1
  CHECK_FALSE(b.stop_now()); // too few pairs to stop a run early
  CHECK(b.explanation()
        == "fault rate 100.0% (1 of 1 judged pairs were I2 faults) is above "
           "max_fault_rate 0.5");
  b.add(verdict_rule::i4);
  CHECK(b.rate() == 0.5);
  CHECK_FALSE(b.exceeded()); // at the maximum is not above it
  b.add(verdict_rule::i1);
  b.add(verdict_rule::i3);
  CHECK(b.rate() == 0.25);
}

TEST_CASE("a high fault rate stops the run once enough pairs are judged") {
  fault_budget b{0.2};
  for (std::uint64_t i = 1; i < fault_budget::min_pairs_to_stop; ++i) {
    b.add(verdict_rule::i2);
    CHECK_FALSE(b.stop_now());
  }
  b.add(verdict_rule::i2);
  CHECK(b.stop_now());

  fault_budget never{1.0};
  for (int i = 0; i < 100; ++i)
    never.add(verdict_rule::i2);
  CHECK_FALSE(never.exceeded());
}
