// Per-item bookkeeping: an item's statistical verdict is decided exactly when
// its last pair is, once the input has ended (SPEC §8).
#include <catch2/catch.hpp>

#include "core/verdicts/item_ledger.hpp"

using namespace ij;

TEST_CASE("interleaved items get their statistical verdict when each "
          "completes after the input ends") {
  statistical_params params;
  params.min_decided = 2;
  item_ledger ledger{params};
  // Item A: 3 pairs (I4, I4, I3); item B: 2 pairs (I5, I5); interleaved.
  for (auto item : {"A", "B", "A", "B", "A"})
    ledger.admit(item);
  CHECK_FALSE(ledger.decide("A", verdict_rule::i4));
  CHECK_FALSE(ledger.decide("B", verdict_rule::i5));
  CHECK_FALSE(ledger.decide("A", verdict_rule::i4));
  // The input ends while both items still miss a pair: nothing yet.
  CHECK(ledger.end_input().empty());
  CHECK(ledger.open_items() == 2);
  auto b = ledger.decide("B", verdict_rule::i5);
  REQUIRE(b);
  CHECK(b->item == "B");
  CHECK(b->c5 == 2);
  CHECK(b->n == 2);
  CHECK(b->decided == 2);
  CHECK(b->rule == verdict_rule::i5);
  auto a = ledger.decide("A", verdict_rule::i3);
  REQUIRE(a);
  CHECK(a->item == "A");
  CHECK(a->c4 == 2);
  CHECK(a->c3 == 1);
  CHECK(a->n == 3);
  CHECK(a->params.min_decided == 2);
  CHECK(ledger.open_items() == 0);
}

TEST_CASE("items complete before the input ends are due at its end, in item "
          "order") {
  item_ledger ledger{statistical_params{}};
  ledger.admit("Y");
  ledger.admit("X");
  CHECK_FALSE(ledger.decide("Y", verdict_rule::i4));
  CHECK_FALSE(ledger.decide("X", verdict_rule::i4));
  CHECK(ledger.open_items() == 2);
  auto due = ledger.end_input();
  REQUIRE(due.size() == 2);
  CHECK(due[0].item == "X");
  CHECK(due[1].item == "Y");
  CHECK(due[0].c4 == 1);
  CHECK(due[0].rule == verdict_rule::i3); // d < minDecided
  CHECK(ledger.open_items() == 0);
  CHECK(ledger.input_ended());
}

TEST_CASE("a decision for an item never admitted is ignored") {
  item_ledger ledger{statistical_params{}};
  ledger.end_input();
  CHECK_FALSE(ledger.decide("ghost", verdict_rule::i4));
  CHECK(ledger.open_items() == 0);
}
