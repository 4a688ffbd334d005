#include <catch2/catch.hpp>

#include "adapters/retry_policy.hpp"

using namespace ij;
using namespace std::chrono;

TEST_CASE("retryable statuses follow the SDK: 408 429 5xx 529",
          "[http][retry]") {
  for (unsigned s : {408u, 429u, 500u, 502u, 503u, 504u, 529u})
    CHECK(retryable_status(s));
  for (unsigned s : {200u, 400u, 401u, 403u, 404u, 413u, 422u})
    CHECK_FALSE(retryable_status(s));
}

TEST_CASE("x-should-retry is read as a boolean override", "[http][retry]") {
  CHECK(parse_should_retry("true") == std::optional<bool>(true));
  CHECK(parse_should_retry(" FALSE ") == std::optional<bool>(false));
  CHECK_FALSE(parse_should_retry(""));
  CHECK_FALSE(parse_should_retry("maybe"));
}

TEST_CASE("server delays from retry-after-ms and retry-after seconds or HTTP "
          "date count only within 0 to 60 s",
          "[http][retry]") {
  auto now = system_clock::now();
  CHECK(server_retry_delay("", "2", now) == std::optional<milliseconds>(2000));
  CHECK(server_retry_delay("", "0.5", now) == std::optional<milliseconds>(500));
  CHECK(server_retry_delay("250", "2", now)
        == std::optional<milliseconds>(250));
  CHECK_FALSE(server_retry_delay("", "0", now));
  CHECK_FALSE(server_retry_delay("", "61", now));
  CHECK_FALSE(server_retry_delay("", "-1", now));
  CHECK_FALSE(server_retry_delay("", "soon", now));
  CHECK_FALSE(server_retry_delay("", "", now));

  auto date = parse_http_date("Wed, 21 Oct 2015 07:28:00 GMT");
  REQUIRE(date);
  CHECK(system_clock::to_time_t(*date) == 1445412480);
  CHECK(
    server_retry_delay("", "Wed, 21 Oct 2015 07:28:00 GMT", *date - seconds(3))
    == std::optional<milliseconds>(3000));
  // A date in the past or too far ahead falls back to backoff.
  CHECK_FALSE(server_retry_delay("", "Wed, 21 Oct 2015 07:28:00 GMT",
                                 *date + seconds(1)));
  CHECK_FALSE(server_retry_delay("", "Wed, 21 Oct 2015 07:28:00 GMT",
                                 *date - minutes(5)));
  CHECK_FALSE(parse_http_date("21 Oct 2015"));
  CHECK_FALSE(parse_http_date("Wed, 21 Oct 2015 07:28:00 PST"));
}

TEST_CASE("backoff doubles is capped and jittered within 0.75 1",
          "[http][retry]") {
  auto base = milliseconds(500);
  auto cap = milliseconds(8000);
  CHECK(backoff_delay(0, base, cap, 1.0) == milliseconds(500));
  CHECK(backoff_delay(0, base, cap, 0.0) == milliseconds(375));
  CHECK(backoff_delay(1, base, cap, 1.0) == milliseconds(1000));
  CHECK(backoff_delay(3, base, cap, 1.0) == milliseconds(4000));
  CHECK(backoff_delay(10, base, cap, 1.0) == milliseconds(8000));
  CHECK(backoff_delay(100, base, cap, 0.0) == milliseconds(6000));
  for (double j : {0.0, 0.3, 0.9, 1.0}) {
    auto d = backoff_delay(2, base, cap, j);
    CHECK(d >= milliseconds(1500));
    CHECK(d <= milliseconds(2000));
  }
}

TEST_CASE(
  "a response is retried as x-should-retry says, else as its status says",
  "[http][retry]") {
  CHECK(should_retry_response(500, ""));
  CHECK_FALSE(should_retry_response(500, "false"));
  CHECK(should_retry_response(409, "true"));
  CHECK_FALSE(should_retry_response(409, ""));
  CHECK_FALSE(should_retry_response(401, "maybe"));
}

TEST_CASE("plan_retry: attempts run out, backoff or the server's delay, never "
          "past the deadline",
          "[http][retry]") {
  retry_schedule s{3, milliseconds(500), milliseconds(8000)};
  auto far = milliseconds(60000);
  // After the first failed attempt: the first backoff step.
  auto first = plan_retry(s, 1, std::nullopt, far, far, 1.0);
  CHECK(first.retry);
  CHECK(first.delay == milliseconds(500));
  CHECK(first.no_time.empty());
  // The second retry doubles it.
  CHECK(plan_retry(s, 2, std::nullopt, far, far, 1.0).delay
        == milliseconds(1000));
  // The server's delay wins over the backoff.
  CHECK(plan_retry(s, 1, milliseconds(3000), far, far, 1.0).delay
        == milliseconds(3000));
  // The attempts ran out: no retry, and no deadline reason.
  auto out = plan_retry(s, 3, std::nullopt, far, far, 1.0);
  CHECK_FALSE(out.retry);
  CHECK(out.no_time.empty());
  // A wait reaching the deadline is not planned, and says why.
  auto late = plan_retry(s, 1, milliseconds(3000), milliseconds(2000),
                         milliseconds(9000), 1.0);
  CHECK_FALSE(late.retry);
  CHECK(late.no_time
        == "no time left before the call's deadline of 9000 ms for a retry in "
           "3000 ms");
  CHECK_FALSE(
    plan_retry(s, 1, std::nullopt, milliseconds(500), far, 1.0).retry);
  CHECK(plan_retry(s, 1, std::nullopt, milliseconds(501), far, 1.0).retry);
}
