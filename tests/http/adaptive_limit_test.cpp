#include <catch2/catch.hpp>

#include "adapters/adaptive_limit.hpp"

using namespace ij;

TEST_CASE("adaptive limit halves on overload never below 1", "[http][aimd]") {
  adaptive_limit l(8, 3);
  CHECK(l.current() == 8);
  l.on_overload(l.epoch());
  CHECK(l.current() == 4);
  l.on_overload(l.epoch());
  l.on_overload(l.epoch());
  CHECK(l.current() == 1);
  l.on_overload(l.epoch());
  CHECK(l.current() == 1);
}

TEST_CASE("one burst of overload replies halves the cap once", "[http][aimd]") {
  adaptive_limit l(8, 3);
  auto sent = l.epoch(); // eight requests sent at the old cap
  for (int i = 0; i < 8; ++i)
    l.on_overload(sent);
  CHECK(l.current() == 4);
}

TEST_CASE("a run of successes raises the cap by one up to the configured cap",
          "[http][aimd]") {
  adaptive_limit l(4, 3);
  l.on_overload(l.epoch());
  REQUIRE(l.current() == 2);
  l.on_success();
  l.on_success();
  CHECK(l.current() == 2);
  l.on_success();
  CHECK(l.current() == 3);
  for (int i = 0; i < 3; ++i)
    l.on_success();
  CHECK(l.current() == 4);
  for (int i = 0; i < 30; ++i)
    l.on_success();
  CHECK(l.current() == 4);
  // An overload in the middle of a run restarts the run.
  l.on_overload(l.epoch());
  l.on_success();
  l.on_success();
  l.on_overload(l.epoch());
  CHECK(l.current() == 1);
  CHECK(adaptive_limit(0, 0).current() == 1);
}
