// Each backend against its protocol-faithful fake: the request is what the
// real API accepts, the prompt arrives byte for byte, the reply's text and
// token usage come back; configuration errors are reported before any call.
#include <atomic>
#include <thread>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <catch2/catch.hpp>

#include "adapters/http_judge.hpp"
#include "tests/error_text.hpp"
#include "tests/http/fake_apis.hpp"
#include "tests/http/test_support.hpp"

using namespace ij;
using namespace ij::test;

namespace {

fake_api_options opts_for(api_kind kind, std::string key = {}) {
  fake_api_options o;
  o.kind = kind;
  o.api_key = std::move(key);
  o.reply_text = "REASON: same value\nDECISION: EQUIVALENT";
  return o;
}

} // namespace

TEST_CASE("ollama: /api/chat with stream false - text tokens and prompt intact",
          "[http][ollama]") {
  fake_api fake(opts_for(api_kind::ollama));
  auto spec = spec_for("ollama", fake.base_url());
  auto adapter = adapter_or_null(make_http_adapter(spec, fast_tuning()));
  REQUIRE(adapter);
  CHECK(adapter->id() == "ollama@" + fake.base_url());
  CHECK(adapter->supports_seed());
  CHECK(adapter->current_concurrency() == spec.max_in_flight);

  auto reply = call_and_wait(*adapter, tricky_prompt(), options_for(spec));
  CHECK(reply.ok);
  CHECK(reply.error.empty());
  CHECK(reply.text == "REASON: same value\nDECISION: EQUIVALENT");
  CHECK(reply.attempts == 1);
  CHECK(reply.input_tokens == 42);
  CHECK(reply.output_tokens == 7);
  CHECK(fake.violations().empty());
  REQUIRE(fake.prompts().size() == 1);
  CHECK(fake.prompts()[0] == tricky_prompt());
  auto body = fake.bodies().at(0);
  CHECK(body.find("\"stream\":false") != std::string::npos);
  CHECK(body.find("\"seed\":7") != std::string::npos);
  CHECK(body.find("\"num_predict\":64") != std::string::npos);
  CHECK(body.find("\"temperature\":0.0") != std::string::npos);
}

TEST_CASE("ollama fake is faithful: without stream false it streams NDJSON",
          "[http][ollama]") {
  namespace net = boost::asio;
  namespace http = boost::beast::http;
  fake_api fake(opts_for(api_kind::ollama));
  net::io_context io;
  net::ip::tcp::socket sock(io);
  sock.connect({net::ip::make_address("127.0.0.1"), fake.server().port()});
  http::request<http::string_body> req{http::verb::post, "/api/chat", 11};
  req.set(http::field::host, "127.0.0.1");
  req.set(http::field::content_type, "application/json");
  req.body() =
    R"({"model":"judge-model","messages":[{"role":"user","content":"hi"}]})";
  req.prepare_payload();
  http::write(sock, req);
  boost::beast::flat_buffer buf;
  http::response<http::string_body> res;
  http::read(sock, buf, res);
  CHECK(res.result_int() == 200);
  CHECK(res[http::field::content_type] == "application/x-ndjson");
  CHECK(std::count(res.body().begin(), res.body().end(), '\n') == 3);
  REQUIRE(fake.violations().size() == 1);
  CHECK(fake.violations()[0].find("stream") != std::string::npos);
}

TEST_CASE("ollama: unknown model gives a final error telling to pull it",
          "[http][ollama]") {
  fake_api fake(opts_for(api_kind::ollama));
  auto spec = spec_for("ollama", fake.base_url(), "qwen2.5:7b");
  auto adapter = adapter_or_null(make_http_adapter(spec, fast_tuning()));
  REQUIRE(adapter);
  auto reply = call_and_wait(*adapter, "prompt", options_for(spec));
  CHECK_FALSE(reply.ok);
  CHECK(reply.attempts == 1);
  CHECK(reply.error.find("404") != std::string::npos);
  CHECK(reply.error.find("model 'qwen2.5:7b' not found") != std::string::npos);
  CHECK(reply.error.find("ollama pull qwen2.5:7b") != std::string::npos);
  CHECK(reply.fault == fault_kind::bad_request);
  CHECK(fake.server().requests() == 1);
}

TEST_CASE("ollama: base URL from OLLAMA_HOST also without a scheme",
          "[http][ollama]") {
  fake_api fake(opts_for(api_kind::ollama));
  scoped_env host("OLLAMA_HOST",
                  "127.0.0.1:" + std::to_string(fake.server().port()));
  auto spec = spec_for("ollama", "");
  auto adapter = adapter_or_null(make_http_adapter(spec, fast_tuning()));
  REQUIRE(adapter);
  CHECK(adapter->id() == "ollama@" + fake.base_url());
  CHECK(call_and_wait(*adapter, "p", options_for(spec)).ok);
  {
    scoped_env unset("OLLAMA_HOST", std::nullopt);
    CHECK(resolve_base_url(spec) == "http://127.0.0.1:11434");
  }
  scoped_env bare("OLLAMA_HOST", "gpu-box");
  CHECK(resolve_base_url(spec) == "http://gpu-box:11434");
}

TEST_CASE("anthropic: headers max_tokens text blocks joined no seed",
          "[http][anthropic]") {
  scoped_env key("IJ_TEST_ANTHROPIC_KEY", "sk-ant-test-0123456789");
  fake_api fake(opts_for(api_kind::anthropic, "sk-ant-test-0123456789"));
  auto spec = spec_for("anthropic", fake.base_url(), "claude-haiku-4-5");
  spec.api_key_env = "IJ_TEST_ANTHROPIC_KEY";
  auto adapter = adapter_or_null(make_http_adapter(spec, fast_tuning()));
  REQUIRE(adapter);
  CHECK_FALSE(adapter->supports_seed());
  CHECK(adapter->id() == "anthropic@" + fake.base_url());

  // A thinking block first, then two text blocks: only the text counts.
  auto mixed = fake.success("");
  mixed.body =
    R"({"id":"msg_1","type":"message","role":"assistant","model":"claude-haiku-4-5",)"
    R"("content":[{"type":"thinking","thinking":"hmm","signature":"x"},)"
    R"({"type":"text","text":"REASON: equal\n"},{"type":"tool_use","id":"t","name":"n","input":{}},)"
    R"({"type":"text","text":"DECISION: EQUIVALENT"}],"stop_reason":"end_turn",)"
    R"("stop_sequence":null,"usage":{"input_tokens":11,"output_tokens":5}})";
  fake.script({mixed});
  auto reply = call_and_wait(*adapter, tricky_prompt(), options_for(spec));
  CHECK(reply.ok);
  CHECK(reply.text == "REASON: equal\nDECISION: EQUIVALENT");
  CHECK(reply.input_tokens == 11);
  CHECK(reply.output_tokens == 5);
  CHECK(fake.violations().empty());
  CHECK(fake.prompts().at(0) == tricky_prompt());
  auto body = fake.bodies().at(0);
  CHECK(body.find("\"max_tokens\":64") != std::string::npos);
  CHECK(body.find("seed") == std::string::npos);
}

TEST_CASE("anthropic: a missing key fails at construction naming the variable",
          "[http][anthropic]") {
  scoped_env unset("IJ_TEST_NO_KEY", std::nullopt);
  auto spec = spec_for("anthropic", "http://127.0.0.1:1", "claude-haiku-4-5");
  spec.api_key_env = "IJ_TEST_NO_KEY";
  auto named = make_http_adapter(spec);
  CHECK_FALSE(named);
  CHECK(::test::why(named).find("IJ_TEST_NO_KEY") != std::string::npos);
  CHECK(named.error() == errc::bad_config);

  scoped_env unset_default("ANTHROPIC_API_KEY", std::nullopt);
  spec.api_key_env.clear();
  auto by_default = make_http_adapter(spec);
  CHECK_FALSE(by_default);
  CHECK(::test::why(by_default).find("ANTHROPIC_API_KEY") != std::string::npos);

  scoped_env empty("IJ_TEST_EMPTY_KEY", "");
  spec.api_key_env = "IJ_TEST_EMPTY_KEY";
  CHECK_FALSE(make_http_adapter(spec));
}

TEST_CASE("anthropic: base URL from ANTHROPIC_BASE_URL else the public API",
          "[http][anthropic]") {
  auto spec = spec_for("anthropic", "", "claude-haiku-4-5");
  {
    scoped_env unset("ANTHROPIC_BASE_URL", std::nullopt);
    CHECK(resolve_base_url(spec) == "https://api.anthropic.com");
  }
  scoped_env set("ANTHROPIC_BASE_URL", "http://127.0.0.1:9999");
  CHECK(resolve_base_url(spec) == "http://127.0.0.1:9999");
}

TEST_CASE("openai: /v1/chat/completions with the seed and without a key header",
          "[http][openai]") {
  scoped_env unset("OPENAI_API_KEY", std::nullopt);
  fake_api fake(opts_for(api_kind::openai));
  // A base without a path means the usual /v1.
  auto spec = spec_for("openai", fake.base_url());
  auto adapter = adapter_or_null(make_http_adapter(spec, fast_tuning()));
  REQUIRE(adapter);
  CHECK(adapter->id() == "openai@" + fake.base_url() + "/v1");
  auto reply = call_and_wait(*adapter, tricky_prompt(), options_for(spec));
  CHECK(reply.ok);
  CHECK(reply.text == "REASON: same value\nDECISION: EQUIVALENT");
  CHECK(reply.input_tokens == 42);
  CHECK(reply.output_tokens == 7);
  CHECK(fake.violations().empty());
  CHECK(fake.prompts().at(0) == tricky_prompt());
  auto body = fake.bodies().at(0);
  CHECK(body.find("\"seed\":7") != std::string::npos);
  CHECK(body.find("\"max_tokens\":64") != std::string::npos);

  // An explicit /v1 base works the same.
  spec.base_url = fake.base_url() + "/v1/";
  auto again = adapter_or_null(make_http_adapter(spec, fast_tuning()));
  REQUIRE(again);
  CHECK(call_and_wait(*again, "p", options_for(spec)).ok);
}

TEST_CASE(
  "openai: bearer key from the named variable - null content is empty text",
  "[http][openai]") {
  scoped_env key("IJ_TEST_OPENAI_KEY", "sk-local-abc");
  auto o = opts_for(api_kind::openai, "sk-local-abc");
  fake_api fake(o);
  auto spec = spec_for("openai", fake.base_url() + "/v1");
  spec.api_key_env = "IJ_TEST_OPENAI_KEY";
  auto adapter = adapter_or_null(make_http_adapter(spec, fast_tuning()));
  REQUIRE(adapter);
  fake.script({fake.empty_content()});
  auto reply = call_and_wait(*adapter, "p", options_for(spec));
  CHECK(reply.ok);
  CHECK(reply.text.empty());
  CHECK(fake.violations().empty());
  CHECK(call_and_wait(*adapter, "p", options_for(spec)).ok);
}

TEST_CASE("openai: base URL from OPENAI_BASE_URL else api.openai.com/v1",
          "[http][openai]") {
  auto spec = spec_for("openai", "");
  {
    scoped_env unset("OPENAI_BASE_URL", std::nullopt);
    CHECK(resolve_base_url(spec) == "https://api.openai.com/v1");
  }
  scoped_env set("OPENAI_BASE_URL", "http://127.0.0.1:8000/v1");
  CHECK(resolve_base_url(spec) == "http://127.0.0.1:8000/v1");
}

TEST_CASE("call returns at once - done runs once on the adapter's I/O thread",
          "[http][lifecycle]") {
  fake_api_options o = opts_for(api_kind::openai);
  o.latency = std::chrono::milliseconds(1000);
  fake_api fake(o);
  auto spec = spec_for("openai", fake.base_url());
  auto adapter = adapter_or_null(make_http_adapter(spec, fast_tuning()));
  REQUIRE(adapter);
  auto calls = std::make_shared<std::atomic<int>>(0);
  auto thread = std::make_shared<std::promise<std::thread::id>>();
  adapter->call("p", options_for(spec), [calls, thread](adapter_reply) {
    if (++*calls == 1)
      thread->set_value(std::this_thread::get_id());
  });
  // The server holds the reply for a second: nothing can have come back yet.
  CHECK(*calls == 0);
  auto id = thread->get_future().get();
  CHECK(id != std::this_thread::get_id());
  adapter.reset();
  CHECK(*calls == 1);
}

TEST_CASE("configuration errors are reported before any call",
          "[http][config]") {
  auto stub = make_http_adapter(spec_for("stub", "http://x"));
  CHECK_FALSE(stub);
  CHECK(::test::why(stub).find("stub") != std::string::npos);
  auto ftp = make_http_adapter(spec_for("openai", "ftp://x"));
  CHECK_FALSE(ftp);
  CHECK(::test::why(ftp).find("ftp") != std::string::npos);
  auto no_model =
    make_http_adapter(spec_for("openai", "http://127.0.0.1:8000", ""));
  CHECK_FALSE(no_model);
  CHECK(::test::why(no_model).find("model") != std::string::npos);
  auto tls_spec = spec_for("openai", "https://127.0.0.1:8443/v1");
  tls_spec.ca_file = "/nonexistent/ca.pem";
  auto no_ca = make_http_adapter(tls_spec);
  CHECK_FALSE(no_ca);
  CHECK(::test::why(no_ca).find("/nonexistent/ca.pem") != std::string::npos);
  // Each is the judge's configuration, found before any call.
  for (auto* made : {&stub, &ftp, &no_model, &no_ca})
    CHECK(made->error() == errc::bad_config);
}
