// A judge's batch settings and batch discount (issue 17): defaults, each
// field, the writer, and the errors, pinned.
#include <catch2/catch.hpp>

#include "config_error.hpp"
#include "core/config/run_config.hpp"
#include "tests/error_text.hpp"

using namespace ij;

namespace {

using test_config::error_of;

std::string judge_with(const std::string& type, const std::string& extra) {
  return R"({"judges":[{"type":")" + type
         + R"(","model":"m","temperature":0,)"
           R"("timeout_ms":1,"max_in_flight":1)"
         + extra + "}]}";
}

} // namespace

TEST_CASE("batch settings: defaults, each field, and the manifest's copy") {
  auto plain = parse_config(judge_with("anthropic", ""), "x.json");
  INFO(::test::why(plain));
  REQUIRE(plain);
  CHECK_FALSE(plain->judges[0].batch.enabled);
  CHECK(to_json(*plain).find("\"batch\"") == std::string::npos);
  auto on = parse_config(
    judge_with("anthropic", R"(,"batch":{"enabled":true})"), "x.json");
  INFO(::test::why(on));
  REQUIRE(on);
  CHECK(on->judges[0].batch
        == batch_settings{true, 1000, std::chrono::milliseconds(60000),
                          std::chrono::milliseconds(30000), "sync",
                          std::nullopt});
  auto cfg = parse_config(
    judge_with("openai", R"(,"prices":{"input":1,"output":2},)"
                         R"("batch":{"enabled":true,"max_requests":50000,)"
                         R"("max_wait_ms":10,"poll_ms":20,)"
                         R"("on_failure":"fault","deadline_ms":3600000})"),
    "x.json");
  INFO(::test::why(cfg));
  REQUIRE(cfg);
  auto& b = cfg->judges[0].batch;
  CHECK(b
        == batch_settings{true, 50000, std::chrono::milliseconds(10),
                          std::chrono::milliseconds(20), "fault",
                          std::chrono::milliseconds(3600000)});
  CHECK(cfg->judges[0].prices->batch_discount == 0.5);
  auto text = to_json(*cfg);
  CHECK(text.find(
          R"("batch":{"enabled":true,"max_requests":50000,"max_wait_ms":10,)"
          R"("poll_ms":20,"on_failure":"fault","deadline_ms":3600000})")
        != std::string::npos);
  CHECK(text.find(R"("batch_discount":0.5)") != std::string::npos);
}

TEST_CASE("batch settings: the errors name the field") {
  CHECK(error_of(judge_with("ollama", R"(,"batch":{"enabled":true})"))
        == "x.json: /judges/0/batch: judge \"ollama:m\" of type \"ollama\" has "
           "no batch "
           "API (batch is for anthropic and openai judges)");
  CHECK(error_of(judge_with(
          "openai", R"(,"batch":{"enabled":true,"max_requests":50001})"))
        == "x.json: /judges/0/batch/max_requests: must be from 1 to 50000 (the "
           "openai "
           "API's requests per batch)");
  CHECK(error_of(judge_with("anthropic",
                            R"(,"batch":{"enabled":true,"max_requests":0})"))
        == "x.json: /judges/0/batch/max_requests: must be >= 1");
  CHECK(error_of(judge_with("openai", R"(,"batch":{"on_failure":"retry"})"))
          .rfind("x.json: /judges/0/batch/on_failure:", 0)
        == 0);
  CHECK(error_of(judge_with(
          "openai", R"(,"prices":{"input":1,"output":1,"batch_discount":1.5})"))
        == "x.json: /judges/0/prices/batch_discount: must be <= 1");
}
