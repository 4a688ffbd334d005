#include <catch2/catch.hpp>

#include "adapters/adapter_factory.hpp"
#include "adapters/stub_judges.hpp"
#include "tests/error_text.hpp"

using namespace ij;

namespace {

judge_spec parse_ok(const std::string& name) {
  std::string error;
  auto spec = parse_judge_name(name);
  error = ::test::why(spec);
  INFO(name << ": " << error);
  REQUIRE(spec);
  CHECK(error.empty());
  return *spec;
}

std::string parse_error(const std::string& name) {
  std::string error;
  auto spec = parse_judge_name(name);
  error = ::test::why(spec);
  CHECK_FALSE(spec);
  return error;
}

} // namespace

TEST_CASE("judge names: every stub kind parses", "[judge_spec]") {
  for (const auto& kind : stub_kinds()) {
    auto spec = parse_ok("stub:" + kind);
    CHECK(spec.type == "stub");
    CHECK(spec.model == kind);
    CHECK(spec.name == "stub:" + kind);
    CHECK(spec.base_url.empty());
  }
}

TEST_CASE("judge names: backend models may contain ':'", "[judge_spec]") {
  auto spec = parse_ok("ollama:qwen2.5:7b");
  CHECK(spec.type == "ollama");
  CHECK(spec.model == "qwen2.5:7b");
  CHECK(spec.base_url.empty());
  CHECK(spec.name == "ollama:qwen2.5:7b");

  auto claude = parse_ok("anthropic:claude-haiku-4-5");
  CHECK(claude.type == "anthropic");
  CHECK(claude.model == "claude-haiku-4-5");

  auto oa = parse_ok("openai:Qwen/Qwen2.5-7B-Instruct");
  CHECK(oa.type == "openai");
  CHECK(oa.model == "Qwen/Qwen2.5-7B-Instruct");
}

TEST_CASE("judge names: an @URL suffix sets the base URL", "[judge_spec]") {
  auto spec = parse_ok("ollama:qwen2.5:7b@http://gpu-3:11434");
  CHECK(spec.type == "ollama");
  CHECK(spec.model == "qwen2.5:7b");
  CHECK(spec.base_url == "http://gpu-3:11434");
  CHECK(spec.name == "ollama:qwen2.5:7b@http://gpu-3:11434");

  auto tls = parse_ok("openai:my-model@https://llm.example.org/v1");
  CHECK(tls.model == "my-model");
  CHECK(tls.base_url == "https://llm.example.org/v1");

  auto anth = parse_ok("anthropic:claude-haiku-4-5@https://proxy.local:8443");
  CHECK(anth.model == "claude-haiku-4-5");
  CHECK(anth.base_url == "https://proxy.local:8443");
}

TEST_CASE("judge names: only the last '@' before http(s):// splits",
          "[judge_spec]") {
  // With a URL after it, an earlier '@' belongs to the model.
  auto both = parse_ok("openai:team@model@http://127.0.0.1:8000");
  CHECK(both.model == "team@model");
  CHECK(both.base_url == "http://127.0.0.1:8000");

  // A URL with user info keeps its own '@': the split is at the last '@'
  // that starts a scheme.
  auto userinfo = parse_ok("openai:m@http://user@host:8000");
  CHECK(userinfo.model == "m");
  CHECK(userinfo.base_url == "http://user@host:8000");

  auto last = parse_ok("openai:m@http://a@https://b");
  CHECK(last.model == "m@http://a");
  CHECK(last.base_url == "https://b");
}

TEST_CASE("judge names: an '@' followed by no URL is an error naming the value",
          "[judge_spec]") {
  // Not the model "x@notaurl" on the public API: a mistyped URL.
  CHECK(parse_error("openai:x@notaurl")
        == "judge name 'openai:x@notaurl': 'notaurl' after the '@' is not an "
           "http:// or https:// URL (a model whose name has an '@' takes a URL "
           "after it, or goes in a configuration file)");
  CHECK(parse_error("ollama:qwen2.5:7b@gpu-3:11434")
          .find("'gpu-3:11434' after the '@'")
        != std::string::npos);
  CHECK(parse_error("anthropic:claude@").find("'' after the '@'")
        != std::string::npos);
  CHECK(parse_error("openai:team@model").find("'model' after the '@'")
        != std::string::npos);
}

TEST_CASE("judge names: unknown type is an error naming the valid types",
          "[judge_spec]") {
  CHECK(parse_error("x:y")
        == "unknown judge type 'x' in 'x:y' (expected stub, rules, "
           "ollama, anthropic or openai)");
  CHECK(parse_error("Ollama:qwen")
        == "unknown judge type 'Ollama' in 'Ollama:qwen' (expected stub, "
           "rules, ollama, anthropic or openai)");
  CHECK(parse_error(":model")
        == "unknown judge type '' in ':model' (expected stub, rules, "
           "ollama, anthropic or openai)");
}

TEST_CASE("judge names: empty name and missing type are errors",
          "[judge_spec]") {
  auto empty = parse_error("");
  CHECK(empty.rfind("empty judge name (expected TYPE:MODEL", 0) == 0);
  auto bare = parse_error("numeric");
  CHECK(bare.rfind("judge name 'numeric' has no type (expected TYPE:MODEL", 0)
        == 0);
}

TEST_CASE("judge names: empty model is an error", "[judge_spec]") {
  CHECK(
    parse_error("ollama:").rfind("judge name 'ollama:' has an empty model", 0)
    == 0);
  CHECK(parse_error("openai:@http://127.0.0.1:8000")
          .rfind("judge name 'openai:@http://127.0.0.1:8000' has an empty "
                 "model",
                 0)
        == 0);
  CHECK(
    parse_error("stub:").rfind("judge name 'stub:' has an empty stub kind", 0)
    == 0);
}

TEST_CASE("judge names: unknown stub kind is an error listing the kinds",
          "[judge_spec]") {
  CHECK(parse_error("stub:scripted")
        == "unknown stub kind 'scripted' in 'stub:scripted' (expected "
           "numeric, equivalent, different, abstain, malformed, failing or "
           "gullible)");
  CHECK(parse_error("stub:NUMERIC")
        == "unknown stub kind 'NUMERIC' in 'stub:NUMERIC' (expected "
           "numeric, equivalent, different, abstain, malformed, failing or "
           "gullible)");
}

TEST_CASE("judge names: a URL without a host, or on a stub, is an error",
          "[judge_spec]") {
  CHECK(parse_error("ollama:m@http://")
        == "judge name 'ollama:m@http://' has a URL without a host");
  CHECK(parse_error("openai:m@https://")
        == "judge name 'openai:m@https://' has a URL without a host");
  CHECK(parse_error("stub:numeric@http://127.0.0.1:1")
        == "stub judge 'stub:numeric@http://127.0.0.1:1' takes no URL");
}

TEST_CASE("make_adapter builds each stub a name names", "[judge_spec]") {
  for (const auto& kind : stub_kinds()) {
    auto spec = parse_ok("stub:" + kind);
    auto adapter = make_adapter(spec);
    REQUIRE(adapter);
    CHECK((*adapter)->id() == "stub:" + kind);
  }
}

TEST_CASE("make_adapter rejects an unknown type or stub kind", "[judge_spec]") {
  judge_spec spec;
  spec.type = "grpc";
  spec.model = "m";
  auto grpc = make_adapter(spec);
  CHECK_FALSE(grpc);
  CHECK(test::why(grpc)
        == "unknown judge type 'grpc' (expected stub, rules, ollama, "
           "anthropic or openai)");
  CHECK(grpc.error() == ij::errc::bad_config);
  spec.type = "stub";
  spec.model = "oracle";
  auto oracle = make_adapter(spec);
  CHECK_FALSE(oracle);
  CHECK(test::why(oracle)
        == "unknown stub kind 'oracle' (expected numeric, equivalent, "
           "different, abstain, malformed, failing or gullible)");
  spec.type = "ollama";
  spec.model = "";
  spec.name = "ollama:";
  auto no_model = make_adapter(spec);
  CHECK_FALSE(no_model);
  CHECK(test::why(no_model)
        == "judge 'ollama:' of type 'ollama' names no model");
}

TEST_CASE("make_adapter hands HTTP judge types to the HTTP backends",
          "[judge_spec]") {
  // Building an adapter opens no connection: the port may be closed.
  auto ollama = make_adapter(parse_ok("ollama:qwen2.5:7b@http://127.0.0.1:9"));
  INFO(test::why(ollama));
  REQUIRE(ollama);
  CHECK((*ollama)->id().find("ollama") != std::string::npos);
  // The backends' own configuration errors come back unchanged.
  auto broken = make_adapter(parse_ok("openai:m@http://[broken"));
  CHECK_FALSE(broken);
  CHECK_FALSE(test::why(broken).empty());
  CHECK(broken.error() == ij::errc::bad_config);
}

TEST_CASE("call_options_for derives the vote's seed from the base seed",
          "[judge_spec]") {
  judge_spec spec;
  spec.model = "m";
  spec.temperature = 0.3;
  spec.max_tokens = 99;
  spec.timeout = std::chrono::milliseconds{1234};
  auto none = call_options_for(spec, 2);
  CHECK_FALSE(none.seed);
  spec.seed = 40;
  auto opts = call_options_for(spec, 2);
  CHECK(opts.model == "m");
  CHECK(opts.temperature == 0.3);
  CHECK(opts.seed == std::optional<std::int64_t>{42});
  CHECK(opts.max_tokens == 99);
  CHECK(opts.timeout == std::chrono::milliseconds{1234});
}

TEST_CASE("judge names: rules:math is the embedded rule judge",
          "[judge_spec]") {
  std::string error;
  auto spec = parse_judge_name("rules:math");
  error = ::test::why(spec);
  REQUIRE(spec);
  CHECK(spec->type == "rules");
  CHECK(spec->model == "math");
  auto adapter = make_adapter(*spec);
  REQUIRE(adapter);
  CHECK((*adapter)->id() == "rules:math");
  CHECK(parse_error("rules:algebra")
        == "unknown rule judge 'algebra' in 'rules:algebra' (expected "
           "rules:math)");
  CHECK(parse_error("rules:math@http://127.0.0.1:1")
        == "rule judge 'rules:math@http://127.0.0.1:1' takes no URL");
  judge_spec bad;
  bad.type = "rules";
  bad.model = "numeric";
  auto numeric = make_adapter(bad);
  CHECK_FALSE(numeric);
  CHECK(test::why(numeric) == "unknown rule judge 'numeric' (expected math)");
}
