// Fault scenarios against the protocol-faithful fakes. Each ends either in
// a success after retry or in ok=false with a clear error (which the judge
// records as a fault, I2), never in a wrong text.
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <catch2/catch.hpp>

#include "tests/http/fake_apis.hpp"
#include "tests/http/test_support.hpp"

using namespace ij;
using namespace ij::test;
using namespace std::chrono_literals;

namespace {

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

struct rig {
  explicit rig(api_kind kind, fake_api_options o = {})
      : fake([&] {
          o.kind = kind;
          if (kind == api_kind::anthropic && o.api_key.empty())
            o.api_key = "sk-ant-rig-key";
          return o;
        }()),
        key("IJ_TEST_RIG_KEY", kind == api_kind::anthropic
                                 ? std::optional<std::string>("sk-ant-rig-key")
                                 : std::nullopt) {
    std::string type = kind == api_kind::ollama      ? "ollama"
                       : kind == api_kind::anthropic ? "anthropic"
                                                     : "openai";
    spec = spec_for(type, fake.base_url());
    spec.api_key_env = "IJ_TEST_RIG_KEY";
  }

  judge_adapter_ptr adapter() {
    auto a = make_http_adapter(spec, fast_tuning());
    if (!a)
      throw std::runtime_error(render_error(a.error()));
    return std::move(*a);
  }

  adapter_reply call(std::chrono::milliseconds timeout = 20s) {
    auto a = adapter();
    return call_and_wait(*a, "prompt", options_for(spec, timeout));
  }

  fake_api fake;
  scoped_env key;
  judge_spec spec;
};

planned_reply with_header(planned_reply r, std::string name,
                          std::string value) {
  r.headers.emplace_back(std::move(name), std::move(value));
  return r;
}

} // namespace

TEST_CASE("429 with retry-after: success on retry the wait honoured",
          "[http][faults]") {
  rig r(api_kind::openai);
  r.fake.script({with_header(r.fake.error(429, "rate_limit_error", "slow down"),
                             "retry-after", "1")});
  auto reply = r.call();
  CHECK(reply.ok);
  CHECK(reply.attempts == 2);
  auto ex = r.fake.server().exchanges();
  REQUIRE(ex.size() == 2);
  // The client may not come back before the server said so.
  CHECK(ex[1].received - ex[0].received >= 1s);
}

TEST_CASE("429 with retry-after-ms is honoured too", "[http][faults]") {
  rig r(api_kind::anthropic);
  r.fake.script({with_header(r.fake.error(429, "rate_limit_error", "slow down"),
                             "retry-after-ms", "300")});
  auto reply = r.call();
  CHECK(reply.ok);
  CHECK(reply.attempts == 2);
  auto ex = r.fake.server().exchanges();
  REQUIRE(ex.size() == 2);
  CHECK(ex[1].received - ex[0].received >= 300ms);
}

TEST_CASE("529 overloaded: retried and reported once attempts run out",
          "[http][faults]") {
  rig r(api_kind::anthropic);
  auto overloaded = r.fake.error(529, "overloaded_error", "Overloaded");
  r.fake.script({overloaded});
  auto once = r.call();
  CHECK(once.ok);
  CHECK(once.attempts == 2);

  r.fake.script({overloaded, overloaded, overloaded});
  auto reply = r.call();
  CHECK_FALSE(reply.ok);
  CHECK(reply.attempts == 3);
  CHECK(contains(reply.error, "HTTP 529"));
  CHECK(contains(reply.error, "overloaded_error"));
  CHECK(contains(reply.error, "Overloaded"));
  CHECK(contains(reply.error, "3 attempts"));
  CHECK(contains(reply.error, "req_011CTestError"));
  CHECK(reply.fault == fault_kind::rate_limited);
  CHECK(r.fake.server().requests() == 5);
}

TEST_CASE("500: retried with backoff until success", "[http][faults]") {
  rig r(api_kind::ollama);
  auto boom = r.fake.error(500, "", "llama runner process has terminated");
  r.fake.script({boom, boom});
  auto reply = r.call();
  CHECK(reply.ok);
  CHECK(reply.attempts == 3);
  CHECK(r.fake.server().requests() == 3);
}

TEST_CASE("x-should-retry overrides the status", "[http][faults]") {
  rig r(api_kind::openai);
  r.fake.script(
    {with_header(r.fake.error(500, "server_error", "do not retry me"),
                 "x-should-retry", "false")});
  auto final_reply = r.call();
  CHECK_FALSE(final_reply.ok);
  CHECK(final_reply.attempts == 1);
  CHECK(contains(final_reply.error, "do not retry me"));
  CHECK(final_reply.fault == fault_kind::server_error);

  r.fake.script({with_header(r.fake.error(409, "conflict", "try again"),
                             "x-should-retry", "true")});
  auto retried = r.call();
  CHECK(retried.ok);
  CHECK(retried.attempts == 2);
}

TEST_CASE("a reply slower than the deadline ends in a deadline error",
          "[http][faults]") {
  fake_api_options o;
  o.latency = 3s;
  rig r(api_kind::openai, o);
  auto reply = r.call(300ms);
  CHECK_FALSE(reply.ok);
  CHECK(reply.attempts == 1);
  CHECK(contains(reply.error, "deadline of 300 ms"));
  CHECK(contains(reply.error, "waiting for the response"));
  CHECK(reply.fault == fault_kind::timeout);
  CHECK(reply.text.empty());
}

TEST_CASE("a call queued behind the cap past its deadline fails as such",
          "[http][faults]") {
  fake_api_options o;
  o.latency = 2s;
  rig r(api_kind::openai, o);
  r.spec.max_in_flight = 1;
  auto a = r.adapter();
  auto first = std::make_shared<std::promise<adapter_reply>>();
  a->call("slow", options_for(r.spec, 10s),
          [first](adapter_reply rep) { first->set_value(rep); });
  auto queued = call_and_wait(*a, "queued", options_for(r.spec, 200ms));
  CHECK_FALSE(queued.ok);
  CHECK(queued.attempts == 0);
  CHECK(contains(queued.error, "still queued"));
  CHECK(queued.fault == fault_kind::timeout);
  CHECK(first->get_future().get().ok);
}

TEST_CASE("a connection reset mid-body is retried and reported if it persists",
          "[http][faults]") {
  rig r(api_kind::openai);
  auto reset = r.fake.success("DECISION: EQUIVALENT");
  reset.action = planned_reply::how::reset_mid_body;
  r.fake.script({reset});
  auto healed = r.call();
  CHECK(healed.ok);
  CHECK(healed.attempts == 2);

  r.fake.script({reset, reset, reset});
  auto reply = r.call();
  CHECK_FALSE(reply.ok);
  CHECK(reply.attempts == 3);
  CHECK(reply.text.empty());
  CHECK((contains(reply.error, "reset") || contains(reply.error, "closed")));
  CHECK(reply.fault == fault_kind::connection);
}

TEST_CASE("a connection closed without a reply is retried", "[http][faults]") {
  rig r(api_kind::ollama);
  planned_reply drop;
  drop.action = planned_reply::how::close_without_reply;
  r.fake.script({drop});
  auto reply = r.call();
  CHECK(reply.ok);
  CHECK(reply.attempts == 2);
}

TEST_CASE("a refused connection fails after the bounded attempts",
          "[http][faults]") {
  std::uint16_t port = 0;
  {
    boost::asio::io_context io;
    boost::asio::ip::tcp::acceptor acc(
      io, {boost::asio::ip::make_address("127.0.0.1"), 0});
    port = acc.local_endpoint().port();
  } // closed again: nothing listens there now
  auto spec = spec_for("openai", "http://127.0.0.1:" + std::to_string(port));
  auto a = adapter_or_null(make_http_adapter(spec, fast_tuning()));
  REQUIRE(a);
  auto reply = call_and_wait(*a, "p", options_for(spec));
  CHECK_FALSE(reply.ok);
  CHECK(reply.attempts == 3);
  CHECK(
    contains(reply.error, "connecting to 127.0.0.1:" + std::to_string(port)));
  CHECK(contains(reply.error, "refused"));
  CHECK(reply.fault == fault_kind::connection);
}

TEST_CASE("malformed JSON in a 200 reply is a final error not a text",
          "[http][faults]") {
  rig r(api_kind::openai);
  planned_reply bad;
  bad.body = R"({"choices":[{"message":{"content":"EQUIVAL)";
  r.fake.script({bad});
  auto reply = r.call();
  CHECK_FALSE(reply.ok);
  CHECK(reply.attempts == 1);
  CHECK(reply.text.empty());
  CHECK(contains(reply.error, "malformed JSON"));
  CHECK(reply.fault == fault_kind::unreadable_reply);

  planned_reply wrong_shape;
  wrong_shape.body = R"({"object":"list","data":[]})";
  r.fake.script({wrong_shape});
  auto shape = r.call();
  CHECK_FALSE(shape.ok);
  CHECK(contains(shape.error, "choices"));
  CHECK(shape.fault == fault_kind::unreadable_reply);
}

TEST_CASE("an HTML error page is reported by a clean excerpt",
          "[http][faults]") {
  rig r(api_kind::anthropic);
  r.fake.script({fake_api::html_page(403, "403 Forbidden")});
  auto forbidden = r.call();
  CHECK_FALSE(forbidden.ok);
  CHECK(forbidden.attempts == 1);
  CHECK(contains(forbidden.error, "HTTP 403"));
  CHECK(contains(forbidden.error, "403 Forbidden"));
  CHECK_FALSE(contains(forbidden.error, "<"));
  CHECK(forbidden.fault == fault_kind::auth);

  auto gateway = fake_api::html_page(502, "502 Bad Gateway");
  r.fake.script({gateway, gateway, gateway});
  auto reply = r.call();
  CHECK_FALSE(reply.ok);
  CHECK(reply.attempts == 3);
  CHECK(contains(reply.error, "502 Bad Gateway"));
  CHECK(reply.fault == fault_kind::server_error);
}

TEST_CASE("empty content is an empty text which the parser calls PARSE_ERROR",
          "[http][faults]") {
  for (auto kind : {api_kind::anthropic, api_kind::openai, api_kind::ollama}) {
    rig r(kind);
    r.fake.script({r.fake.empty_content()});
    auto reply = r.call();
    CHECK(reply.ok);
    CHECK(reply.text.empty());
    CHECK(r.fake.violations().empty());
  }
}

TEST_CASE("a body over max_response_bytes is a final error", "[http][faults]") {
  rig r(api_kind::openai);
  r.spec.max_response_bytes = 1024;
  r.fake.script({r.fake.success(std::string(5000, 'x'))});
  auto reply = r.call();
  CHECK_FALSE(reply.ok);
  CHECK(reply.attempts == 1);
  CHECK(reply.text.empty());
  CHECK(contains(reply.error, "exceeds the limit of 1024 bytes"));
  CHECK(reply.fault == fault_kind::unreadable_reply);
  // The connection was dropped, not reused half-read: the next call is fine.
  CHECK(r.call().ok);
}

TEST_CASE("401 bad key: final no retry the server's message",
          "[http][faults]") {
  fake_api_options o;
  o.api_key = "sk-ant-the-right-key";
  rig r(api_kind::anthropic, o); // the rig's variable holds another key
  auto reply = r.call();
  CHECK_FALSE(reply.ok);
  CHECK(reply.attempts == 1);
  CHECK(r.fake.server().requests() == 1);
  CHECK(contains(reply.error, "HTTP 401"));
  CHECK(contains(reply.error, "authentication_error"));
  CHECK(contains(reply.error, "invalid x-api-key"));
  CHECK(reply.fault == fault_kind::auth);
}

TEST_CASE("the API key never leaks into an error or a reply text",
          "[http][faults][secret]") {
  const std::string key = "sk-ant-LEAKCHECK-5f3a9c";
  scoped_env env("IJ_TEST_LEAK_KEY", key);
  std::vector<adapter_reply> replies;
  {
    // A careless server that echoes the key it got into its 401 message.
    fake_api_options o;
    o.kind = api_kind::anthropic;
    o.api_key = "sk-ant-some-other-key";
    o.echo_key_in_errors = true;
    fake_api fake(o);
    auto spec = spec_for("anthropic", fake.base_url());
    spec.api_key_env = "IJ_TEST_LEAK_KEY";
    auto a = adapter_or_null(make_http_adapter(spec, fast_tuning()));
    REQUIRE(a);
    replies.push_back(call_and_wait(*a, "p", options_for(spec)));
    CHECK(contains(replies.back().error, "[redacted]"));
  }
  for (auto kind : {api_kind::anthropic, api_kind::openai}) {
    fake_api_options o;
    o.kind = kind;
    o.api_key = key;
    fake_api fake(o);
    auto spec = spec_for(kind == api_kind::anthropic ? "anthropic" : "openai",
                         fake.base_url());
    spec.api_key_env = "IJ_TEST_LEAK_KEY";
    spec.max_response_bytes = 4096;
    auto a = adapter_or_null(make_http_adapter(spec, fast_tuning()));
    REQUIRE(a);
    planned_reply echo_body;
    echo_body.status = 400;
    echo_body.content_type = "text/plain";
    echo_body.body = "bad request from key " + key;
    planned_reply malformed;
    malformed.body = "{\"key\":\"" + key + "\"";
    auto reset = fake.success("x");
    reset.action = planned_reply::how::reset_mid_body;
    fake.script({fake.error(429, "rate_limit_error", "limit for " + key),
                 fake.error(500, "api_error", key),
                 fake.error(500, "api_error", key), echo_body, malformed,
                 fake.success("the key is " + key),
                 fake.success(std::string(8000, 'k') + key), reset, reset,
                 reset, fake_api::html_page(404, key)});
    for (int i = 0; i < 8; ++i)
      replies.push_back(call_and_wait(*a, "p", options_for(spec)));
    CHECK(fake.violations().empty());
  }
  // A config error names the variable only.
  {
    scoped_env unset("IJ_TEST_LEAK_KEY_MISSING", std::nullopt);
    auto spec = spec_for("anthropic", "http://127.0.0.1:1");
    spec.api_key_env = "IJ_TEST_LEAK_KEY_MISSING";
    auto a = make_http_adapter(spec);
    CHECK_FALSE(a);
    CHECK_FALSE(contains(render_error(a.error()), key));
  }
  REQUIRE(replies.size() == 17);
  for (auto& rep : replies) {
    CHECK_FALSE(contains(rep.error, key));
    CHECK_FALSE(contains(rep.text, key));
    CHECK_FALSE(contains(rep.error, "LEAKCHECK"));
  }
}

TEST_CASE("shutdown completes every pending call with an error",
          "[http][lifecycle]") {
  fake_api_options o;
  o.latency = 5s;
  rig r(api_kind::openai, o);
  r.spec.max_in_flight = 2;
  auto a = r.adapter();
  std::vector<std::future<adapter_reply>> futures;
  for (int i = 0; i < 5; ++i) {
    auto p = std::make_shared<std::promise<adapter_reply>>();
    futures.push_back(p->get_future());
    a->call("p", options_for(r.spec, 30s),
            [p](adapter_reply rep) { p->set_value(rep); });
  }
  a.reset(); // joins the I/O thread after failing what was pending
  for (auto& f : futures) {
    REQUIRE(f.wait_for(0s) == std::future_status::ready);
    auto rep = f.get();
    CHECK_FALSE(rep.ok);
    CHECK(contains(rep.error, "shut down"));
    CHECK(rep.fault == fault_kind::unavailable);
  }
}

TEST_CASE("an adapter may be dropped from inside its own reply handler",
          "[http][lifecycle]") {
  rig r(api_kind::ollama);
  auto holder = std::make_shared<judge_adapter_ptr>(r.adapter());
  auto done = std::make_shared<std::promise<bool>>();
  (*holder)->call("p", options_for(r.spec), [holder, done](adapter_reply rep) {
    holder->reset(); // the last reference: destroyed on its own I/O thread
    done->set_value(rep.ok);
  });
  auto f = done->get_future();
  REQUIRE(f.wait_for(30s) == std::future_status::ready);
  CHECK(f.get());
}
