// Where a judge record's call went, and the reasons of a run's faults
// (core/session/call_route.hpp, core/session/fault_reason_tally.hpp; issue 20).
#include <catch2/catch.hpp>

#include "core/session/call_route.hpp"
#include "core/session/fault_reason_tally.hpp"

using namespace ij;

TEST_CASE("a record's call is sent, refused by the breaker, refused at a "
          "budget, cached "
          "or taken by no worker") {
  CHECK(route_of({}) == call_route::sent);
  // A failed call that reached the backend (or timed out there) was sent.
  CHECK(route_of({false, false, fault_kind::connection, true})
        == call_route::sent);
  CHECK(route_of({false, false, fault_kind::deadline, true})
        == call_route::sent);
  CHECK(route_of({false, true, fault_kind::unavailable, true})
        == call_route::refused_breaker);
  // After a 401 the breaker refuses with fault kind auth: still not sent.
  CHECK(route_of({false, true, fault_kind::auth, true})
        == call_route::refused_breaker);
  CHECK(route_of({false, false, fault_kind::budget, true})
        == call_route::refused_budget);
  CHECK(route_of({true, false, fault_kind::none, true}) == call_route::cached);
  CHECK(route_of({false, false, fault_kind::unavailable, false})
        == call_route::unplaced);
  call_routes r;
  for (auto x :
       {call_route::sent, call_route::sent, call_route::refused_breaker,
        call_route::refused_budget, call_route::cached, call_route::unplaced})
    r.add(x);
  CHECK(r.sent == 2);
  CHECK(r.refused_breaker == 1);
  CHECK(r.refused_budget == 1);
  CHECK(r.cached == 1);
  CHECK(r.unplaced == 1);
}

TEST_CASE(
  "fault reasons keep the first message per judge and kind, with the count") {
  fault_reason_tally t;
  t.add("a", fault_kind::connection,
        "connecting to 127.0.0.1:1: Connection refused");
  t.add("a", fault_kind::unavailable, "not sent: the backend is unreachable");
  t.add("a", fault_kind::connection,
        "connecting to 127.0.0.1:1: Connection reset");
  t.add("b", fault_kind::connection, "resolving judge.invalid: Host not found");
  t.add("a", fault_kind::none, "not a fault");
  auto& r = t.reasons();
  REQUIRE(r.size() == 3);
  CHECK(r[0]
        == fault_reason{"a", fault_kind::connection,
                        "connecting to 127.0.0.1:1: Connection refused", 2});
  CHECK(r[1]
        == fault_reason{"a", fault_kind::unavailable,
                        "not sent: the backend is unreachable", 1});
  CHECK(r[2].judge == "b");
  CHECK(fault_reason_line(r[0])
        == "judge a: connection: connecting to 127.0.0.1:1: Connection refused "
           "(first of 2 such faults)");
  CHECK(fault_reason_line(r[1])
        == "judge a: unavailable: not sent: the backend is unreachable (the "
           "only such fault)");
}
