// Connection reuse, the in-flight cap as a queue, and the adaptive cap.
#include <catch2/catch.hpp>

#include "adapters/http_judge.hpp"
#include "tests/http/fake_apis.hpp"
#include "tests/http/test_support.hpp"

using namespace ij;
using namespace ij::test;
using namespace std::chrono_literals;

namespace {

judge_adapter_ptr make(const judge_spec& spec) {
  auto a = make_http_adapter(spec, fast_tuning());
  if (!a)
    throw std::runtime_error(render_error(a.error()));
  return std::move(*a);
}

planned_reply no_retry(planned_reply r) {
  r.headers.emplace_back("x-should-retry", "false");
  return r;
}

} // namespace

TEST_CASE("keep-alive: N calls with cap 1 use one connection", "[http][pool]") {
  fake_api fake({});
  auto spec = spec_for("openai", fake.base_url());
  spec.max_in_flight = 1;
  auto a = make(spec);
  auto replies = call_many(*a, "p", options_for(spec), 10);
  for (auto& r : replies)
    CHECK(r.ok);
  CHECK(fake.server().requests() == 10);
  CHECK(fake.server().connections() == 1);
  CHECK(std::dynamic_pointer_cast<http_judge>(a)->connections_opened() == 1);
  // Sequential calls reuse it as well.
  for (int i = 0; i < 3; ++i)
    CHECK(call_and_wait(*a, "p", options_for(spec)).ok);
  CHECK(fake.server().connections() == 1);
}

TEST_CASE("in-flight cap queues: with cap 2 the server never sees more than 2 "
          "of 10 calls",
          "[http][pool]") {
  fake_api_options o;
  o.latency = 50ms;
  o.threads = 2;
  fake_api fake(o);
  auto spec = spec_for("openai", fake.base_url());
  spec.max_in_flight = 2;
  auto a = make(spec);
  auto replies = call_many(*a, "p", options_for(spec), 10);
  for (auto& r : replies) {
    CHECK(r.ok);
    CHECK(r.attempts == 1);
  }
  CHECK(fake.server().requests() == 10);
  CHECK(fake.server().max_concurrent() <= 2);
  CHECK(fake.server().connections() <= 2);
}

TEST_CASE("a pooled connection the server dropped is replaced transparently",
          "[http][pool]") {
  fake_api fake({});
  auto spec = spec_for("openai", fake.base_url());
  auto a = make(spec);
  auto first = fake.success("DECISION: EQUIVALENT");
  first.drop_after = true;
  fake.script({first});
  CHECK(call_and_wait(*a, "p", options_for(spec)).ok);
  auto second = call_and_wait(*a, "p", options_for(spec));
  CHECK(second.ok);
  CHECK(second.attempts == 1);
  CHECK(fake.server().connections() == 2);
}

TEST_CASE("adaptive concurrency: lowered on 429/529 regained after successes",
          "[http][pool][aimd]") {
  fake_api fake({});
  auto spec = spec_for("openai", fake.base_url());
  spec.max_in_flight = 4;
  auto a = make(spec); // fast_tuning: a run of 2 successes regains 1
  REQUIRE(a->current_concurrency() == 4);

  fake.script({no_retry(fake.error(429, "rate_limit_error", "slow down"))});
  CHECK_FALSE(call_and_wait(*a, "p", options_for(spec)).ok);
  CHECK(a->current_concurrency() == 2);

  fake.script({no_retry(fake.error(529, "overloaded_error", "Overloaded"))});
  CHECK_FALSE(call_and_wait(*a, "p", options_for(spec)).ok);
  CHECK(a->current_concurrency() == 1);

  // A 500 is not an overload signal.
  fake.script({no_retry(fake.error(500, "server_error", "boom"))});
  CHECK_FALSE(call_and_wait(*a, "p", options_for(spec)).ok);
  CHECK(a->current_concurrency() == 1);

  std::vector<std::uint32_t> seen;
  for (int i = 0; i < 8; ++i) {
    CHECK(call_and_wait(*a, "p", options_for(spec)).ok);
    seen.push_back(a->current_concurrency());
  }
  CHECK(seen == std::vector<std::uint32_t>{1, 2, 2, 3, 3, 4, 4, 4});
}

TEST_CASE("adaptive concurrency: one burst of 429s halves the cap once and the "
          "lower cap is enforced",
          "[http][pool][aimd]") {
  fake_api_options o;
  o.latency = 100ms;
  fake_api fake(o);
  auto spec = spec_for("openai", fake.base_url());
  spec.max_in_flight = 8;
  auto a = make(spec);
  std::vector<planned_reply> burst(
    8, no_retry(fake.error(429, "rate_limit_error", "slow")));
  fake.script(burst);
  auto failed = call_many(*a, "p", options_for(spec), 8);
  for (auto& r : failed)
    CHECK_FALSE(r.ok);
  CHECK(a->current_concurrency() == 4);

  // Under the lowered cap the server sees at most 4 at once (a long
  // success run keeps the cap from growing back during the check).
  fake_api_options o2;
  o2.latency = 50ms;
  o2.threads = 2;
  fake_api second(o2);
  spec.base_url = second.base_url();
  auto tuning = fast_tuning();
  tuning.success_run = 1000;
  auto b = adapter_or_null(make_http_adapter(spec, tuning));
  REQUIRE(b);
  second.script({no_retry(second.error(429, "rate_limit_error", "slow"))});
  CHECK_FALSE(call_and_wait(*b, "p", options_for(spec)).ok);
  REQUIRE(b->current_concurrency() == 4);
  auto ok = call_many(*b, "p", options_for(spec), 12);
  for (auto& r : ok)
    CHECK(r.ok);
  CHECK(second.server().max_concurrent() <= 4);
  CHECK(b->current_concurrency() == 4);
}
