// How many votes a worker queues for a far client
// (core/voting/queue_depth.hpp).
#include <catch2/catch.hpp>

#include "core/voting/queue_depth.hpp"

using namespace ij;
using namespace std::chrono_literals;

TEST_CASE(
  "the queue covers the round trip at the call rate, a quarter more and one, "
  "within the bound") {
  // C = 16, L = 100 ms: 160 calls/s.
  CHECK(queue_depth(50ms, 160.0, 64) == 11);  // 8 in transit
  CHECK(queue_depth(200ms, 160.0, 64) == 41); // 32 in transit
  CHECK(queue_depth(200ms, 160.0, 20) == 20); // the bound holds
  CHECK(queue_depth(10ms, 160.0, 64) == 3);
}

TEST_CASE("no round trip, no call rate or a bound of 0: no queue") {
  CHECK(queue_depth(0ms, 160.0, 64) == 0);
  CHECK(queue_depth(50ms, 0.0, 64) == 0);
  CHECK(queue_depth(50ms, 160.0, 0) == 0);
}

TEST_CASE("the call rate follows the mean latency of the calls") {
  latency_mean m;
  CHECK(m.rate(16) == 0.0);
  m.add(100.0);
  CHECK(m.rate(16) == Approx(160.0));
  m.add(200.0); // a fifth of the way
  CHECK(m.ms() == Approx(120.0));
}
