// A judge's budget meter (core/budgets/judge_budget.hpp).
#include <catch2/catch.hpp>

#include "core/budgets/judge_budget.hpp"

using namespace ij;

TEST_CASE("a budget without limits is never reached") {
  budget_meter m;
  for (int i = 0; i < 100; ++i)
    m.count_call();
  CHECK_FALSE(m.reached());
  CHECK(m.why().empty());
}

TEST_CASE("max_calls is reached at the count, and says so") {
  judge_budget b;
  b.max_calls = 3;
  budget_meter m{b, {}};
  m.count_call();
  m.count_call();
  CHECK_FALSE(m.reached());
  m.count_call();
  CHECK(m.reached());
  CHECK(m.why() == "max_calls 3 reached (3 calls made)");
}

TEST_CASE("token and cost limits count the tokens replies report") {
  judge_budget b;
  b.max_output_tokens = 100;
  budget_meter out{b, {}};
  out.count_tokens(1000, 99);
  CHECK_FALSE(out.reached());
  out.count_tokens(0, 1);
  CHECK(out.reached());

  judge_budget c;
  c.max_cost = 0.5;
  // 1.0 per million input tokens, 4.0 per million output tokens.
  budget_meter cost{c, token_prices{1.0, 4.0}};
  cost.count_tokens(200000, 50000); // 0.2 + 0.2
  CHECK(cost.cost() == Approx(0.4));
  CHECK_FALSE(cost.reached());
  cost.count_tokens(100000, 0);
  CHECK(cost.reached());
  CHECK(cost.why().rfind("max_cost 0.5 reached", 0) == 0);
  CHECK(cost_of(1000000, 1000000, token_prices{3.0, 15.0}) == Approx(18.0));
}

TEST_CASE("a zero limit is reached before the first call") {
  judge_budget b;
  b.max_input_tokens = 0;
  CHECK(budget_meter{b, {}}.reached());
}
