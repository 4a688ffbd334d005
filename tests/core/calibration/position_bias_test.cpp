#include <catch2/catch.hpp>

#include "core/calibration/position_bias.hpp"
#include "core/verdicts/verdict_table.hpp"

using namespace ij;

namespace {

judge_record rec(std::string worker, std::uint32_t vote, bool swapped,
                 judge_decision d, bool fault = false) {
  judge_record r;
  r.worker_id = std::move(worker);
  r.vote_index = vote;
  r.swapped = swapped;
  r.decision = d;
  r.transport_failed = fault;
  return r;
}

std::string by_worker(const judge_record& r) {
  return r.worker_id;
}

} // namespace

TEST_CASE("position bias: the first readable decision each way round is "
          "compared, per judge") {
  using d = judge_decision;
  position_bias_tally t;
  // Judge x: vote 0 straight EQUIVALENT, vote 1 swapped DIFFERENT: changed.
  // Judge y: the same decision both ways: unchanged.
  t.add_pair({rec("x", 0, false, d::equivalent), rec("y", 1, true, d::abstain),
              rec("x", 1, true, d::different), rec("y", 2, false, d::abstain)},
             by_worker);
  // A fault or a parse error is no decision: vote 3 is the swapped one.
  t.add_pair(
    {rec("x", 0, false, d::different), rec("x", 1, true, d::equivalent, true),
     rec("x", 2, false, d::equivalent), rec("x", 3, true, d::different),
     rec("x", 5, true, d::parse_error)},
    by_worker);
  // Only one way round: no comparison.
  t.add_pair(
    {rec("x", 0, false, d::different), rec("x", 2, false, d::different)},
    by_worker);
  t.add_pair({rec("x", 0, false, d::different)}, by_worker);
  auto rates = t.rates(0.05);
  REQUIRE(rates.size() == 2);
  CHECK(rates[0].judge == "x");
  CHECK(rates[0].comparisons == 2);
  CHECK(rates[0].changed == 1);
  CHECK(rates[0].rate == 0.5);
  auto [lo, hi] = wilson_interval(1, 2, 0.05);
  CHECK(rates[0].lo == lo);
  CHECK(rates[0].hi == hi);
  CHECK(rates[1].judge == "y");
  CHECK(rates[1].comparisons == 1);
  CHECK(rates[1].changed == 0);
  CHECK(rates[1].rate == 0.0);
  CHECK(rates[1].lo == 0.0);
  CHECK(rates[1].hi > 0.5);
}

TEST_CASE("position bias: no comparison, no rate (interval 0..1)") {
  position_bias_tally t;
  CHECK(t.rates(0.05).empty());
  t.add("z", true);
  t.add("z", true);
  t.add("z", false);
  auto r = t.rates(0.05);
  REQUIRE(r.size() == 1);
  CHECK(r[0].comparisons == 3);
  CHECK(r[0].changed == 2);
  CHECK(r[0].rate == Approx(2.0 / 3.0));
  CHECK(r[0].lo < r[0].rate);
  CHECK(r[0].hi > r[0].rate);
}
