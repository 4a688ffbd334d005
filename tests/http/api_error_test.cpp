#include <catch2/catch.hpp>

#include "adapters/api_error.hpp"
#include "adapters/redaction.hpp"

using namespace ij;

TEST_CASE("parse_api_error reads every documented error shape",
          "[http][errors]") {
  auto ollama = parse_api_error(R"({"error":"model 'qwen' not found"})");
  CHECK(ollama.message == "model 'qwen' not found");
  CHECK(ollama.type.empty());

  auto anthropic = parse_api_error(
    R"({"type":"error","error":{"type":"overloaded_error","message":"Overloaded"},"request_id":"req_1"})");
  CHECK(anthropic.message == "Overloaded");
  CHECK(anthropic.type == "overloaded_error");

  auto openai = parse_api_error(
    R"({"error":{"message":"Incorrect API key","type":"invalid_request_error","param":null,"code":"invalid_api_key"}})");
  CHECK(openai.message == "Incorrect API key");
  CHECK(openai.type == "invalid_request_error");

  auto llama = parse_api_error(
    R"({"error":{"code":503,"message":"Loading model","type":"unavailable_error"}})");
  CHECK(llama.message == "Loading model");
  CHECK(llama.type == "unavailable_error");

  auto vllm_old = parse_api_error(
    R"({"object":"error","message":"max_tokens too large","type":"BadRequestError","param":null,"code":400})");
  CHECK(vllm_old.message == "max_tokens too large");
  CHECK(vllm_old.type == "BadRequestError");
}

TEST_CASE("parse_api_error falls back to a clean excerpt of other bodies",
          "[http][errors]") {
  auto html = parse_api_error("<html>\r\n<head><title>502 Bad "
                              "Gateway</title></head>\r\n<body><h1>502 Bad "
                              "Gateway</h1><hr>nginx</body></html>");
  CHECK(html.message.find("502 Bad Gateway") != std::string::npos);
  CHECK(html.message.find('<') == std::string::npos);
  CHECK(html.message.find('\n') == std::string::npos);

  CHECK(parse_api_error("").message == "(empty body)");
  CHECK(parse_api_error("upstream timed out").message == "upstream timed out");
  CHECK(parse_api_error(R"({"unexpected":true})").message
        == R"({"unexpected":true})");

  std::string big(5000, 'x');
  auto long_excerpt = parse_api_error(big).message;
  CHECK(long_excerpt.size() < 200);
  CHECK(long_excerpt.substr(long_excerpt.size() - 3) == "...");
  CHECK(body_excerpt(std::string("a\x01\x02 b")) == "a?? b");
}

TEST_CASE("an error status is classified for the judge record",
          "[http][errors]") {
  CHECK(fault_of_status(401) == fault_kind::auth);
  CHECK(fault_of_status(403) == fault_kind::auth);
  CHECK(fault_of_status(408) == fault_kind::timeout);
  CHECK(fault_of_status(429) == fault_kind::rate_limited);
  CHECK(fault_of_status(529) == fault_kind::rate_limited);
  CHECK(fault_of_status(500) == fault_kind::server_error);
  CHECK(fault_of_status(503) == fault_kind::server_error);
  CHECK(fault_of_status(400) == fault_kind::bad_request);
  CHECK(fault_of_status(404) == fault_kind::bad_request);
  CHECK(fault_of_status(413) == fault_kind::bad_request);
  CHECK(fault_of_status(301) == fault_kind::bad_request);
}

TEST_CASE("redact removes every occurrence of the secret", "[http][errors]") {
  CHECK(redact("key sk-1 and sk-1 again", "sk-1")
        == "key [redacted] and [redacted] again");
  CHECK(redact("nothing here", "sk-1") == "nothing here");
  CHECK(redact("no secret configured", "") == "no secret configured");
}
