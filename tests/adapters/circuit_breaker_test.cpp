// The circuit breaker in front of an HTTP judge: a scripted inner adapter
// and a clock the test moves by hand (no sleeps, no timing).
#include <deque>
#include <memory>
#include <vector>

#include <catch2/catch.hpp>

#include "adapters/adapter_factory.hpp"
#include "adapters/circuit_breaker.hpp"

using namespace ij;
using namespace std::chrono_literals;
using state = circuit_breaker::state;

namespace {

/// Answers each call with the next scripted reply; counts the calls. With
/// `hold`, keeps the handlers instead (calls in flight).
class scripted_judge : public judge_adapter {
public:
  std::string id() const override { return "openai@http://127.0.0.1:9"; }
  void call(const std::string&, const call_options&,
            reply_handler done) override {
    ++calls;
    if (hold) {
      held.push_back(std::move(done));
      return;
    }
    auto r = script.empty() ? ok() : script.front();
    if (!script.empty())
      script.pop_front();
    done(r);
  }
  std::uint32_t current_concurrency() const override { return 3; }
  void abort(std::uint64_t call_id) override { aborted.push_back(call_id); }

  static adapter_reply ok() {
    adapter_reply r;
    r.ok = true;
    r.text = "DECISION: EQUIVALENT";
    return r;
  }
  static adapter_reply fault(fault_kind k, std::string text) {
    adapter_reply r;
    r.fault = k;
    r.error = std::move(text);
    return r;
  }

  int calls = 0;
  std::vector<std::uint64_t> aborted;
  bool hold = false;
  std::deque<adapter_reply> script;
  std::vector<reply_handler> held;
};

struct rig {
  explicit rig(breaker_settings s = {true, 3, 10000ms}) {
    inner = std::make_shared<scripted_judge>();
    breaker = std::make_shared<circuit_breaker>(
      inner, s, "check the API key in $K", [this] { return now; });
  }
  adapter_reply call() {
    adapter_reply got;
    int replies = 0;
    breaker->call("p", {}, [&](adapter_reply r) {
      ++replies;
      got = std::move(r);
    });
    REQUIRE(replies == 1);
    return got;
  }
  std::chrono::steady_clock::time_point now{};
  std::shared_ptr<scripted_judge> inner;
  std::shared_ptr<circuit_breaker> breaker;
};

adapter_reply refused() {
  return scripted_judge::fault(fault_kind::connection,
                               "connecting to 127.0.0.1:9: Connection refused");
}

} // namespace

TEST_CASE(
  "breaker: passes calls and what the adapter says through while closed",
  "[breaker]") {
  rig r;
  CHECK(r.breaker->id() == "openai@http://127.0.0.1:9");
  CHECK(r.breaker->current_concurrency() == 3);
  CHECK_FALSE(r.breaker->answers_inline());
  auto ok = r.call();
  CHECK(ok.ok);
  CHECK(ok.text == "DECISION: EQUIVALENT");
  CHECK(r.breaker->current_state() == state::closed);
}

TEST_CASE(
  "breaker: N connection failures in a row open it, then no call is made",
  "[breaker]") {
  rig r;
  r.inner->script = {refused(), refused()};
  CHECK(r.call().fault == fault_kind::connection);
  CHECK(r.call().fault == fault_kind::connection);
  CHECK(r.breaker->current_state() == state::closed);
  r.inner->script = {refused()};
  auto third = r.call();
  CHECK(third.fault == fault_kind::connection);
  CHECK_FALSE(third.refused_by_breaker); // it reached the backend
  CHECK(third.error.find(
          "3 connection failures in a row: no call to this judge for 10 s")
        != std::string::npos);
  CHECK(r.breaker->current_state() == state::open);
  for (int i = 0; i < 100; ++i) {
    auto not_sent = r.call();
    CHECK_FALSE(not_sent.ok);
    CHECK(not_sent.attempts == 0);
    CHECK(not_sent.refused_by_breaker);
    CHECK(not_sent.fault == fault_kind::unavailable);
    CHECK(not_sent.error.find(
            "not sent: the backend is unreachable (3 connection failures "
            "in a row, the last: connecting to 127.0.0.1:9: Connection "
            "refused)")
          == 0);
  }
  CHECK(r.inner->calls == 3);
}

TEST_CASE(
  "breaker: a reply from the backend resets the count, timeouts do not count",
  "[breaker]") {
  rig r;
  r.inner->script = {
    refused(),
    refused(),
    scripted_judge::fault(fault_kind::server_error, "HTTP 500"),
    refused(),
    refused(),
    scripted_judge::fault(fault_kind::timeout, "no reply within"),
    scripted_judge::fault(fault_kind::rate_limited, "HTTP 429"),
    refused(),
    refused(),
    scripted_judge::ok()};
  for (int i = 0; i < 10; ++i)
    r.call();
  CHECK(r.breaker->current_state() == state::closed);
  CHECK(r.inner->calls == 10);
}

TEST_CASE("breaker: after the cool-down one trial call, success closes, "
          "failure reopens",
          "[breaker]") {
  rig r;
  r.inner->script = {refused(), refused(), refused()};
  for (int i = 0; i < 3; ++i)
    r.call();
  r.now += 9999ms;
  CHECK(r.breaker->current_state() == state::open);
  CHECK(r.call().error.find("next try in 1 s") != std::string::npos);
  r.now += 1ms;
  CHECK(r.breaker->current_state() == state::half_open);

  // The trial fails: open again for a whole cool-down.
  r.inner->script = {refused()};
  CHECK(r.call().fault == fault_kind::connection);
  CHECK(r.inner->calls == 4);
  CHECK(r.breaker->current_state() == state::open);
  r.now += 5000ms;
  CHECK(r.call().fault == fault_kind::unavailable);
  CHECK(r.inner->calls == 4);

  // The next trial succeeds: closed, every call goes through again.
  r.now += 5000ms;
  CHECK(r.call().ok);
  CHECK(r.breaker->current_state() == state::closed);
  CHECK(r.call().ok);
  CHECK(r.inner->calls == 6);
}

TEST_CASE("breaker: while the trial is out, other calls are still not made",
          "[breaker]") {
  rig r;
  r.inner->script = {refused(), refused(), refused()};
  for (int i = 0; i < 3; ++i)
    r.call();
  r.now += 10000ms;
  r.inner->hold = true;
  bool trial_answered = false;
  r.breaker->call("p", {}, [&](adapter_reply rep) { trial_answered = rep.ok; });
  CHECK(r.inner->calls == 4);
  CHECK(r.call().fault == fault_kind::unavailable); // answered at once
  CHECK(r.inner->calls == 4);
  r.inner->held.at(0)(scripted_judge::ok());
  CHECK(trial_answered);
  CHECK(r.breaker->current_state() == state::closed);
}

TEST_CASE(
  "breaker: an aborted call (its run cancelled) is no fault of the backend",
  "[breaker]") {
  rig r;
  r.breaker->abort(42);
  CHECK(r.inner->aborted == std::vector<std::uint64_t>{42}); // passed on
  auto aborted = scripted_judge::fault(fault_kind::aborted,
                                       "aborted: its run was cancelled");
  // Closed: aborts neither count as connection failures nor reset them.
  r.inner->script = {refused(), refused(), aborted, aborted, aborted, aborted};
  for (int i = 0; i < 6; ++i)
    r.call();
  CHECK(r.breaker->current_state() == state::closed);
  r.inner->script = {refused()};
  r.call();
  CHECK(r.breaker->current_state() == state::open);
  // Half-open: an aborted trial neither closes nor reopens the circuit, and
  // the next call is the trial.
  r.now += 10000ms;
  r.inner->script = {aborted};
  CHECK(r.call().fault == fault_kind::aborted);
  CHECK(r.breaker->current_state() == state::half_open);
  auto calls = r.inner->calls;
  CHECK(r.call().ok); // the next trial went through
  CHECK(r.inner->calls == calls + 1);
  CHECK(r.breaker->current_state() == state::closed);
}

TEST_CASE("breaker: HTTP 401/403 opens it at once and says it is a "
          "configuration problem",
          "[breaker]") {
  rig r;
  r.inner->script = {scripted_judge::fault(
    fault_kind::auth, "HTTP 401 authentication_error: invalid x-api-key")};
  auto first = r.call();
  CHECK(first.fault == fault_kind::auth);
  CHECK_FALSE(first.refused_by_breaker);
  CHECK(first.error
        == "HTTP 401 authentication_error: invalid x-api-key — a configuration "
           "problem: check the API key in $K; no call to this judge for 10 s");
  CHECK(r.breaker->current_state() == state::open);
  auto next = r.call();
  CHECK(next.fault == fault_kind::auth);
  CHECK(next.attempts == 0);
  CHECK(next.refused_by_breaker);
  CHECK(next.error.find(
          "not sent: the backend refused this judge's credentials: HTTP 401 "
          "authentication_error: invalid x-api-key — a configuration problem")
        == 0);
  CHECK(r.inner->calls == 1);
}

TEST_CASE(
  "breaker: two 401s in flight both say what to check and for how long no call "
  "goes out",
  "[breaker]") {
  rig r;
  r.inner->hold = true;
  std::vector<adapter_reply> replies;
  for (int i = 0; i < 2; ++i)
    r.breaker->call("p", {}, [&](adapter_reply a) { replies.push_back(a); });
  for (auto& h : r.inner->held)
    h(scripted_judge::fault(fault_kind::auth,
                            "HTTP 401 authentication_error: bad key"));
  REQUIRE(replies.size() == 2);
  // Whichever reaches the user first, its words are the same.
  for (auto& a : replies)
    CHECK(
      a.error
      == "HTTP 401 authentication_error: bad key — a configuration problem: "
         "check the API key in $K; no call to this judge for 10 s");
}

TEST_CASE("breaker: calls in flight when it opens still answer as they are",
          "[breaker]") {
  rig r({true, 1, 10000ms});
  r.inner->hold = true;
  for (int i = 0; i < 3; ++i)
    r.breaker->call("p", {}, [](adapter_reply) {});
  r.inner->hold = false;
  for (auto& h : r.inner->held)
    h(refused());
  CHECK(r.breaker->current_state() == state::open);
  // The straggling failures do not move the end of the cool-down.
  r.now += 10000ms;
  CHECK(r.breaker->current_state() == state::half_open);
}

TEST_CASE(
  "breaker: make_adapter puts one in front of HTTP judges unless disabled",
  "[breaker]") {
  judge_spec spec;
  spec.type = "openai";
  spec.model = "m";
  spec.name = "openai:m";
  spec.base_url = "http://127.0.0.1:9";
  auto guarded = make_adapter(spec);
  REQUIRE(guarded);
  CHECK(std::dynamic_pointer_cast<circuit_breaker>(*guarded));
  CHECK((*guarded)->id() == "openai@http://127.0.0.1:9/v1");
  spec.breaker.enabled = false;
  auto bare = make_adapter(spec);
  REQUIRE(bare);
  CHECK_FALSE(std::dynamic_pointer_cast<circuit_breaker>(*bare));
  spec.type = "stub";
  spec.model = "numeric";
  spec.breaker.enabled = true;
  auto stub = make_adapter(spec);
  REQUIRE(stub);
  CHECK_FALSE(std::dynamic_pointer_cast<circuit_breaker>(*stub));
}
