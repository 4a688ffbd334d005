// core/voting/sequential_stop: when a pair's voting stops (issue 16).
#include <catch2/catch.hpp>

#include "core/voting/sequential_stop.hpp"

using namespace ij;

namespace {

vote_tally tally_of(std::uint32_t n, std::uint32_t k,
                    std::initializer_list<judge_decision> ds) {
  vote_tally t{vote_config{n, k}};
  for (auto d : ds)
    t.add(d);
  return t;
}

constexpr auto eq = judge_decision::equivalent;
constexpr auto diff = judge_decision::different;
constexpr auto abst = judge_decision::abstain;

} // namespace

TEST_CASE("sequential voting stops exactly at the threshold") {
  auto t = tally_of(5, 3, {eq});
  CHECK(stop_now(t, 5, 1, 0.99, 0.99) == stop_reason::probability);
  CHECK(stop_now(t, 5, 1, 0.9899999, 0.99) == stop_reason::none);
  // The leading decision may be DIFFERENT: P(equivalent) = 0.01.
  auto d = tally_of(5, 3, {diff});
  CHECK(stop_now(d, 5, 1, 0.01, 0.99) == stop_reason::probability);
  CHECK(stop_now(d, 5, 1, 0.0100001, 0.99) == stop_reason::none);
  // Without a threshold or a probability, today's rule alone.
  CHECK(stop_now(t, 5, 1, 0.999, std::nullopt) == stop_reason::none);
  CHECK(stop_now(t, 5, 1, std::nullopt, 0.99) == stop_reason::none);
}

TEST_CASE("sequential voting never goes beyond N votes") {
  // Five votes asked, no side at k, the probability below the threshold.
  auto t = tally_of(5, 3, {eq, eq, diff, diff, abst});
  CHECK(stop_now(t, 5, 5, 0.6, 0.99) == stop_reason::votes_exhausted);
  auto four = tally_of(5, 3, {eq, eq, diff, abst});
  CHECK(stop_now(four, 5, 4, 0.6, 0.99) == stop_reason::none);
  // A single vote that abstains: the votes are out.
  auto one = tally_of(1, 1, {abst});
  CHECK(stop_now(one, 1, 1, std::nullopt, 0.99)
        == stop_reason::votes_exhausted);
  // Three abstentions of five: no side can reach 3, an early stop.
  auto none = tally_of(5, 3, {abst, abst, abst});
  CHECK(stop_now(none, 5, 3, std::nullopt, 0.99) == stop_reason::outcome_fixed);
}

TEST_CASE("today's early stop comes first when both apply") {
  auto t = tally_of(5, 3, {eq, eq, eq});
  CHECK(stop_now(t, 5, 3, 0.999, 0.99) == stop_reason::outcome_fixed);
  CHECK(stop_now(t, 5, 3, 0.5, 0.99) == stop_reason::outcome_fixed);
}

TEST_CASE("a pair stopped on probability takes the leading decision") {
  auto t = tally_of(5, 3, {diff});
  auto o = probability_outcome(t.counts(), 0.004, 0.99);
  REQUIRE(o.equivalent);
  CHECK_FALSE(*o.equivalent);
  CHECK(o.confidence == 1.0);
  CHECK(o.probability == 0.004);
  CHECK_FALSE(o.fault);
  CHECK(o.detail == "1/1 DIFFERENT, stopped at P=0.9960 >= 0.99");
  CHECK(to_string(stop_reason::probability) == "probability");
  CHECK(to_string(stop_reason::outcome_fixed) == "outcome_fixed");
  CHECK(to_string(stop_reason::votes_exhausted) == "votes_exhausted");
  CHECK(leading_probability(0.3) == Approx(0.7));
}

TEST_CASE("a probability never stops a pair on a decision no vote made") {
  // One EQUIVALENT vote that a map turned around (P(equivalent) near 0):
  // DIFFERENT leads at 0.9995, but no vote said DIFFERENT.
  auto t = tally_of(5, 3, {eq});
  CHECK(stop_now(t, 5, 1, 0.0005, 0.99) == stop_reason::none);
  auto d = tally_of(5, 3, {diff, diff});
  CHECK(stop_now(d, 5, 2, 0.9995, 0.99) == stop_reason::none);
  // Once a vote takes that decision, its probability may stop the pair.
  auto both = tally_of(5, 3, {eq, diff});
  CHECK(stop_now(both, 5, 2, 0.0005, 0.99) == stop_reason::probability);
  // The votes still run out.
  auto five = tally_of(5, 3, {eq, eq, abst, abst, abst});
  CHECK(stop_now(five, 5, 5, 0.0005, 0.99) == stop_reason::votes_exhausted);
}
