// Aborting a call (issue 26: a cancelled run's calls stop): a request on
// the wire has its connection closed, a queued one is dropped, each answers
// `aborted` saying whether the server saw it, and the slot goes at once to
// the next call. The server thinks for a minute: the next call can only
// reach it if the aborted call's slot was freed (nothing asserts on time).
#include <future>
#include <thread>

#include <catch2/catch.hpp>

#include "adapters/http_judge.hpp"
#include "tests/http/fake_apis.hpp"
#include "tests/http/test_support.hpp"

using namespace ij;
using namespace ij::test;
using namespace std::chrono_literals;

namespace {

/// Polls until `done` (a broken build must not hang the suite: two minutes).
template <class Done>
bool soon(Done done) {
  for (int i = 0; i < 12000; ++i) {
    if (done())
      return true;
    std::this_thread::sleep_for(10ms);
  }
  return false;
}

struct pending {
  std::shared_ptr<std::promise<adapter_reply>> promise =
    std::make_shared<std::promise<adapter_reply>>();
  std::future<adapter_reply> future = promise->get_future();

  reply_handler handler() {
    return [p = promise](adapter_reply r) { p->set_value(std::move(r)); };
  }
  bool answered() { return future.wait_for(0ms) == std::future_status::ready; }
  adapter_reply get() {
    REQUIRE(soon([this] { return answered(); }));
    return future.get();
  }
};

struct rig {
  fake_api fake;
  judge_spec spec;
  judge_adapter_ptr adapter;

  rig() : fake(slow()) {
    spec = spec_for("openai", fake.base_url());
    spec.max_in_flight = 1;
    adapter = adapter_or_null(make_http_adapter(spec, fast_tuning()));
    REQUIRE(adapter);
  }
  static fake_api_options slow() {
    fake_api_options o;
    o.latency = 60s; // longer than any test: only an abort ends a call
    o.threads = 2;
    return o;
  }
  void call(std::uint64_t id, pending& p) {
    auto opts = options_for(spec, 120s);
    opts.call_id = id;
    adapter->call("p", opts, p.handler());
  }
};

} // namespace

TEST_CASE(
  "abort: a call on the wire is cut, answers aborted as sent, and its slot "
  "goes to the next call at once",
  "[http][abort]") {
  rig r;
  pending first, second;
  r.call(1, first);
  REQUIRE(soon([&] { return r.fake.server().requests() == 1; }));
  r.call(2, second); // waits behind the cap of 1
  r.adapter->abort(1);
  auto cut = first.get();
  CHECK_FALSE(cut.ok);
  CHECK(cut.fault == fault_kind::aborted);
  CHECK(cut.attempts == 1); // the server had the request
  CHECK_THAT(cut.error, Catch::Contains("run was cancelled"));
  // The slot is free: the queued call reaches the server while the first
  // one's minute is far from over.
  REQUIRE(soon([&] { return r.fake.server().requests() == 2; }));
  CHECK_FALSE(second.answered());
  // The aborted call's connection was closed, not reused.
  CHECK(r.fake.server().connections() == 2);
  r.adapter->abort(2);
  CHECK(second.get().fault == fault_kind::aborted);
}

TEST_CASE(
  "abort: a call queued behind the cap is dropped: never sent, answered at "
  "once",
  "[http][abort]") {
  rig r;
  pending first, second;
  r.call(1, first);
  REQUIRE(soon([&] { return r.fake.server().requests() == 1; }));
  r.call(2, second);
  r.adapter->abort(2);
  auto dropped = second.get();
  CHECK(dropped.fault == fault_kind::aborted);
  CHECK(dropped.attempts == 0); // the server never saw it
  CHECK_THAT(dropped.error, Catch::Contains("nothing had been sent"));
  CHECK_FALSE(first.answered());
  // Unknown, unnamed and answered calls are ignored.
  r.adapter->abort(2);
  r.adapter->abort(99);
  r.adapter->abort(0);
  r.adapter->abort(1);
  CHECK(first.get().fault == fault_kind::aborted);
  CHECK(r.fake.server().requests() == 1);
}
