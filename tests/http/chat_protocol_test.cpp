// The one request writer and reply reader of the three chat APIs, driven by
// each API's protocol description (the fakes check the same requests on the
// wire in backends_test.cpp).
#include <catch2/catch.hpp>
#include <rapidjson/document.h>
#include <rapidjson/pointer.h>

#include "adapters/chat_protocol.hpp"
#include "tests/error_text.hpp"

using namespace ij;

namespace {

call_options opts() {
  call_options o;
  o.model = "m";
  o.temperature = 0.25;
  o.seed = 11;
  o.max_tokens = 99;
  return o;
}

rapidjson::Document body_of(const std::string& type) {
  rapidjson::Document d;
  d.Parse(
    chat_request_body(*chat_protocol_for(type), "the prompt", opts()).c_str());
  REQUIRE(d.IsObject());
  return d;
}

const rapidjson::Value* at(const rapidjson::Document& d, const char* pointer) {
  return rapidjson::Pointer(pointer).Get(d);
}

} // namespace

TEST_CASE("chat request: each API gets its fields where it takes them",
          "[http][protocol]") {
  CHECK(chat_protocol_for("stub") == nullptr);
  for (auto type : {"ollama", "anthropic", "openai"}) {
    auto d = body_of(type);
    INFO(type);
    CHECK(std::string{at(d, "/model")->GetString()} == "m");
    CHECK(std::string{at(d, "/messages/0/role")->GetString()} == "user");
    CHECK(std::string{at(d, "/messages/0/content")->GetString()}
          == "the prompt");
  }
  auto ollama = body_of("ollama");
  CHECK(at(ollama, "/stream")->IsFalse());
  CHECK(at(ollama, "/options/temperature")->GetDouble() == 0.25);
  CHECK(at(ollama, "/options/seed")->GetInt64() == 11);
  CHECK(at(ollama, "/options/num_predict")->GetUint() == 99);
  CHECK(at(ollama, "/temperature") == nullptr);

  auto anthropic = body_of("anthropic");
  CHECK(at(anthropic, "/max_tokens")->GetUint() == 99);
  CHECK(at(anthropic, "/temperature")->GetDouble() == 0.25);
  CHECK(at(anthropic, "/seed") == nullptr);
  CHECK(at(anthropic, "/stream") == nullptr);
  CHECK_FALSE(chat_protocol_for("anthropic")->sends_seed);

  auto openai = body_of("openai");
  CHECK(at(openai, "/max_tokens")->GetUint() == 99);
  CHECK(at(openai, "/seed")->GetInt64() == 11);
  CHECK(at(openai, "/stream")->IsFalse());
}

TEST_CASE("chat request: target under the base path and the key's header only "
          "with a key",
          "[http][protocol]") {
  auto openai =
    chat_request(*chat_protocol_for("openai"), "/v1", "", "p", opts());
  CHECK(openai.target == "/v1/chat/completions");
  CHECK(openai.headers.empty());
  auto keyed =
    chat_request(*chat_protocol_for("openai"), "/v1", "sk-1", "p", opts());
  REQUIRE(keyed.headers.size() == 1);
  CHECK(keyed.headers[0]
        == std::make_pair(std::string{"authorization"},
                          std::string{"Bearer sk-1"}));
  auto anthropic =
    chat_request(*chat_protocol_for("anthropic"), "", "sk-ant", "p", opts());
  CHECK(anthropic.target == "/v1/messages");
  CHECK(anthropic.headers
        == std::vector<std::pair<std::string, std::string>>{
          {"x-api-key", "sk-ant"}, {"anthropic-version", "2023-06-01"}});
  CHECK(
    chat_request(*chat_protocol_for("ollama"), "/proxy", "", "p", opts()).target
    == "/proxy/api/chat");
}

TEST_CASE("chat reply: text and token counts from each API's shape",
          "[http][protocol]") {
  auto r = read_chat_reply(
    *chat_protocol_for("ollama"),
    R"({"message":{"role":"assistant","content":"A"},"done":true,)"
    R"("prompt_eval_count":3,"eval_count":4})");
  REQUIRE(r);
  CHECK(r->text == "A");
  CHECK(r->input_tokens == 3);
  CHECK(r->output_tokens == 4);

  auto o = read_chat_reply(*chat_protocol_for("openai"),
                           R"({"choices":[{"message":{"content":null}}]})");
  REQUIRE(o);
  CHECK(o->text.empty());
  CHECK(o->input_tokens == 0); // no usage: 0, not a failure

  auto a = read_chat_reply(
    *chat_protocol_for("anthropic"),
    R"({"type":"message","content":[{"type":"text","text":"x"},)"
    R"({"type":"tool_use"},{"type":"text","text":"y"}],)"
    R"("usage":{"input_tokens":5,"output_tokens":6}})");
  REQUIRE(a);
  CHECK(a->text == "xy");
  CHECK(a->output_tokens == 6);
}

TEST_CASE("chat reply: error shapes and missing text are not replies",
          "[http][protocol]") {
  // The reason a body is not a reply (empty when it is one).
  auto err = [](const char* type, const std::string& body) {
    auto r = read_chat_reply(*chat_protocol_for(type), body);
    if (r)
      return std::string{};
    CHECK(r.error() == errc::bad_reply);
    return ::test::why(r);
  };
  // Ollama's last stream line can carry an error with status 200.
  CHECK(err("ollama", R"({"error":"runner died"})")
        == "server error: runner died");
  CHECK(err("anthropic",
            R"({"type":"error","error":{"type":"api_error","message":"boom"}})")
        == "server error: boom");
  CHECK(err("anthropic", R"({"type":"message"})").find("no \"content\" array")
        == 0);
  CHECK(err("openai", R"({"object":"list"})")
          .find("no \"/choices/0/message\" object")
        == 0);
  CHECK(err("openai", R"({"choices":[{"message":{"content":7}}]})")
        == "\"/choices/0/message/content\" is neither a string nor null");
  CHECK(err("openai", "[1]").find("not a JSON object") == 0);
}
