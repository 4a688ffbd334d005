// The verdict actor: single verdicts and per-item statistical verdicts
// (SPEC §8).
#include <catch2/catch.hpp>

#include "actors/verdict.hpp"
#include "core/outcome_mapping.hpp"
#include "test_support.hpp"

using namespace ij;
using namespace ij::test;

namespace {

answer_pair pair_in(std::string item, std::string id) {
  answer_pair p;
  p.id = std::move(id);
  p.item = std::move(item);
  p.a = "1";
  p.b = "1";
  return p;
}

vote_result result_with(std::optional<bool> eq, bool fault = false,
                        bool absent = false) {
  vote_result vr;
  vr.absent = absent;
  vr.outcome.equivalent = eq;
  vr.outcome.fault = fault;
  vr.outcome.confidence = eq ? 1.0 : 0.0;
  vr.counts.votes = 1;
  vr.counts.min_agreement = 1;
  return vr;
}

} // namespace

TEST_CASE("the single verdict follows the I1-I5 table") {
  test_system t;
  verdict_sink sink{t.sys};
  verdict_actor v = t.sys.spawn(verdict, statistical_params{},
                                caf::actor_cast<caf::actor_addr>(sink.actor));
  auto absent = ask<single_verdict>(t.sys, v, pair_in("i", "1"),
                                    result_with(std::nullopt, false, true));
  auto fault = ask<single_verdict>(t.sys, v, pair_in("i", "2"),
                                   result_with(std::nullopt, true));
  auto undecided = ask<single_verdict>(t.sys, v, pair_in("i", "3"),
                                       result_with(std::nullopt));
  auto yes = ask<single_verdict>(t.sys, v, pair_in("i", "4"), result_with(true));
  auto no = ask<single_verdict>(t.sys, v, pair_in("", "5"), result_with(false));
  t.run();
  CHECK(absent->value->rule == verdict_rule::i1);
  CHECK(fault->value->rule == verdict_rule::i2);
  CHECK(undecided->value->rule == verdict_rule::i3);
  CHECK(yes->value->rule == verdict_rule::i4);
  CHECK(yes->value->verdict == verdict_kind::invariant);
  CHECK(no->value->rule == verdict_rule::i5);
  CHECK(no->value->verdict == verdict_kind::violated);
  // An empty item defaults to the pair's id; counts come along.
  CHECK(no->value->item == "5");
  CHECK(no->value->counts.votes == 1);
  CHECK(sink.got->empty()); // no total known yet
}

TEST_CASE("interleaved items get their statistical verdict when each "
          "completes after its total arrives") {
  test_system t;
  verdict_sink sink{t.sys};
  statistical_params params;
  params.min_decided = 2;
  verdict_actor v = t.sys.spawn(verdict, params,
                                caf::actor_cast<caf::actor_addr>(sink.actor));
  // Item A: 3 pairs (I4, I4, I3); item B: 2 pairs (I5, I5); interleaved.
  ask<single_verdict>(t.sys, v, pair_in("A", "a1"), result_with(true));
  ask<single_verdict>(t.sys, v, pair_in("B", "b1"), result_with(false));
  ask<single_verdict>(t.sys, v, pair_in("A", "a2"), result_with(true));
  t.run();
  // B's total arrives while B still misses a pair: nothing yet.
  caf::anon_send(v, item_total_atom::value, std::string{"B"}, std::uint32_t{2});
  caf::anon_send(v, item_total_atom::value, std::string{"A"}, std::uint32_t{3});
  t.run();
  CHECK(sink.got->empty());
  ask<single_verdict>(t.sys, v, pair_in("B", "b2"), result_with(false));
  t.run();
  REQUIRE(sink.got->size() == 1);
  auto& b = sink.got->at(0);
  CHECK(b.item == "B");
  CHECK(b.c5 == 2);
  CHECK(b.n == 2);
  CHECK(b.decided == 2);
  CHECK(b.rule == verdict_rule::i5);
  ask<single_verdict>(t.sys, v, pair_in("A", "a3"),
                      result_with(std::nullopt));
  t.run();
  REQUIRE(sink.got->size() == 2);
  auto& a = sink.got->at(1);
  CHECK(a.item == "A");
  CHECK(a.c4 == 2);
  CHECK(a.c3 == 1);
  CHECK(a.n == 3);
  CHECK(a.params.min_decided == 2);
}

TEST_CASE("an item whose total comes last is emitted on the total") {
  test_system t;
  verdict_sink sink{t.sys};
  verdict_actor v = t.sys.spawn(verdict, statistical_params{},
                                caf::actor_cast<caf::actor_addr>(sink.actor));
  ask<single_verdict>(t.sys, v, pair_in("X", "x1"), result_with(true));
  t.run();
  auto open = ask<std::uint32_t>(t.sys, v, finish_atom::value);
  t.run();
  REQUIRE(open->value);
  CHECK(*open->value == 1);
  caf::anon_send(v, item_total_atom::value, std::string{"X"}, std::uint32_t{1});
  t.run();
  REQUIRE(sink.got->size() == 1);
  CHECK(sink.got->at(0).c4 == 1);
  CHECK(sink.got->at(0).rule == verdict_rule::i3); // d < minDecided
  auto none = ask<std::uint32_t>(t.sys, v, finish_atom::value);
  t.run();
  CHECK(*none->value == 0);
}
