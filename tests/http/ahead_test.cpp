// An HTTP judge behind a far endpoint (issue 31): with queue_max it sends
// requests ahead beyond max_in_flight, sized to the round trip a GET of its
// base path times, so that the server's slots do not idle a round trip
// between two calls; without it, the server never sees more than
// max_in_flight. The endpoint is 50 ms away through the bench's delay proxy.
#include <catch2/catch.hpp>

#include "adapters/http_judge.hpp"
#include "bench/delay_proxy.hpp"
#include "tests/http/fake_apis.hpp"
#include "tests/http/test_support.hpp"

using namespace ij;
using namespace ij::test;
using namespace std::chrono_literals;

namespace {

struct far_endpoint {
  fake_api fake;
  bench::delay_proxy proxy;

  far_endpoint()
      : fake(options()), proxy("127.0.0.1", fake.server().port(), 25ms) {}
  static fake_api_options options() {
    fake_api_options o;
    o.latency = 50ms;
    o.threads = 2;
    o.record_requests = false;
    return o;
  }
  judge_spec spec(std::uint32_t queue_max) {
    auto s = spec_for("openai", "http://" + proxy.address());
    s.max_in_flight = 2;
    s.queue_max = queue_max;
    return s;
  }
};

} // namespace

TEST_CASE(
  "ahead: without queue_max the server never sees more than max_in_flight, "
  "and no probe",
  "[http][ahead]") {
  far_endpoint e;
  auto spec = e.spec(0);
  auto a = adapter_or_null(make_http_adapter(spec, fast_tuning()));
  REQUIRE(a);
  for (auto& r : call_many(*a, "p", options_for(spec), 30))
    CHECK(r.ok);
  CHECK(a->calls_ahead() == 0);
  CHECK(e.fake.server().max_concurrent() <= 2);
  CHECK(e.fake.server().requests() == 30);
}

TEST_CASE(
  "ahead: with queue_max, requests go ahead to cover the round trip, within "
  "the bound",
  "[http][ahead]") {
  far_endpoint e;
  auto spec = e.spec(8);
  auto a = adapter_or_null(make_http_adapter(spec, fast_tuning()));
  REQUIRE(a);
  for (auto& r : call_many(*a, "p", options_for(spec), 60))
    CHECK(r.ok);
  // 2 slots at 50 ms are 40 calls/s; a 50 ms round trip holds 2 of them:
  // with the margin, 4 ahead (core/voting/queue_depth.hpp).
  CHECK(a->calls_ahead() >= 2);
  CHECK(a->calls_ahead() <= 8);
  CHECK(e.fake.server().max_concurrent() > 2);
  CHECK(e.fake.server().max_concurrent() <= 2 + 8 + 1); // and a probe
  // The calls, and the probes that timed the round trip (not calls).
  CHECK(e.fake.server().requests() > 60);
}
