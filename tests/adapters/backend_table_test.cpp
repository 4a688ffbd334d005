// Issue 30: a new backend kind is its row in the backend table
// (core/config/backend_kinds) and its adapter (adapters/backend_makers),
// nothing else. This file declares a fake kind in both and nowhere else; a run
// configuration naming it passes the checks, the factory builds its adapter
// and a call goes through it. Its own binary: the kind it adds would show
// in the other tests' lists of known kinds.
#include <atomic>
#include <memory>
#include <string>

#include <catch2/catch.hpp>

#include "adapters/adapter_factory.hpp"
#include "adapters/backend_makers.hpp"
#include "adapters/batch_protocol.hpp"
#include "adapters/chat_protocol.hpp"
#include "core/config/backend_kinds.hpp"
#include "core/config/run_config.hpp"
#include "tests/error_text.hpp"

using namespace ij;

namespace {

// The fake backend: answers every call inline with a fixed reply, and
// counts the calls it took.
class fake_adapter : public judge_adapter {
public:
  explicit fake_adapter(std::string model) : model_(std::move(model)) {}
  std::string id() const override { return "fake:" + model_; }
  void call(const std::string& prompt, const call_options& opts,
            reply_handler done) override {
    ++calls;
    adapter_reply r;
    r.ok = true;
    r.text = "DECISION: EQUIVALENT (" + opts.model + ", "
             + std::to_string(prompt.size()) + " bytes)";
    done(std::move(r));
  }
  bool answers_inline() const override { return true; }
  std::atomic<int> calls{0};

private:
  std::string model_;
};

// The row and the maker, once per process.
void declare_fake_kind() {
  static const bool declared = [] {
    backend_kind k;
    k.name = "fake";
    k.http = true;
    k.logprobs = true;
    k.json_constraint = true;
    REQUIRE_FALSE(add_backend_kind(k));
    REQUIRE_FALSE(add_adapter_maker("fake", [](const judge_spec& spec) {
      return caf::expected<judge_adapter_ptr>{
        std::make_shared<fake_adapter>(spec.model)};
    }));
    return true;
  }();
  CHECK(declared);
}

constexpr const char* fake_config =
  R"({"judges":[{"type":"fake","model":"m1","temperature":0,"timeout_ms":1000,)"
  R"("max_in_flight":2,"logprobs":true,"constrain":"json"}]})";

} // namespace

TEST_CASE("a fake backend kind: configured, built by the factory, called") {
  declare_fake_kind();
  auto cfg = parse_config(fake_config, "fake.json");
  INFO(test::why(cfg));
  REQUIRE(cfg);
  REQUIRE(cfg->judges.size() == 1);
  CHECK(cfg->judges[0].type == "fake");
  CHECK(is_backend_type("fake"));
  auto bound = bind_judges(*cfg);
  INFO(test::why(bound));
  REQUIRE(bound);
  REQUIRE(bound->size() == 1);
  // The factory puts an HTTP kind's circuit breaker in front of the maker's
  // adapter: the call goes through both.
  auto& adapter = (*bound)[0].adapter;
  CHECK(adapter->id() == "fake:m1");
  adapter_reply got;
  int answered = 0;
  adapter->call("the prompt", call_options_for(cfg->judges[0], 0),
                [&](adapter_reply r) {
                  got = std::move(r);
                  ++answered;
                });
  CHECK(answered == 1);
  CHECK(got.ok);
  CHECK(got.text == "DECISION: EQUIVALENT (m1, 10 bytes)");
  // The short judge name takes the kind too.
  auto named = parse_judge_name("fake:m2");
  INFO(test::why(named));
  REQUIRE(named);
  auto built = make_adapter(*named);
  REQUIRE(built);
  CHECK((*built)->id() == "fake:m2");
}

TEST_CASE(
  "a fake backend kind: its row's capabilities are what the checks read") {
  declare_fake_kind();
  // No batch API in its row: refused, naming the kinds that have one.
  auto batched = parse_config(
    R"({"judges":[{"type":"fake","model":"m1","temperature":0,"timeout_ms":1000,)"
    R"("max_in_flight":2,"batch":{"enabled":true}}]})",
    "fake.json");
  REQUIRE_FALSE(batched);
  CHECK(test::why(batched)
        == "fake.json: /judges/0/batch: judge \"fake:m1\" of type \"fake\" has "
           "no batch "
           "API (batch is for anthropic and openai judges)");
  // JSON but no grammar.
  auto grammar = parse_config(
    R"({"judges":[{"type":"fake","model":"m1","temperature":0,"timeout_ms":1000,)"
    R"("max_in_flight":2,"constrain":"grammar"}]})",
    "fake.json");
  REQUIRE_FALSE(grammar);
  CHECK(test::why(grammar).rfind(
          "fake.json: /judges/0/constrain: the fake API accepts no "
          "regular grammar",
          0)
        == 0);
  // Log-probabilities: the kinds that have them now include it.
  judge_spec anthropic;
  anthropic.type = "anthropic";
  anthropic.logprobs = true;
  CHECK(test::why(judge_setting_problem(anthropic, false))
        == "the anthropic API returns no log-probabilities (use an ollama, "
           "openai or "
           "fake judge, or remove \"logprobs\")");
}

TEST_CASE("an unknown backend kind is refused, naming it and the known kinds") {
  declare_fake_kind();
  auto cfg = parse_config(
    R"({"judges":[{"type":"grpc","model":"m1","temperature":0,"timeout_ms":1000,)"
    R"("max_in_flight":2}]})",
    "g.json");
  REQUIRE_FALSE(cfg);
  CHECK(test::why(cfg)
        == "g.json: /judges/0/type: unknown judge type 'grpc' (expected stub, "
           "rules, "
           "ollama, anthropic, openai or fake)");
  CHECK(
    test::why(parse_judge_name("grpc:m"))
    == "unknown judge type 'grpc' in 'grpc:m' (expected stub, rules, ollama, "
       "anthropic, openai or fake)");
  judge_spec spec;
  spec.type = "grpc";
  spec.model = "m";
  CHECK(test::why(make_adapter(spec))
        == "unknown judge type 'grpc' (expected stub, rules, ollama, "
           "anthropic, openai "
           "or fake)");
  // A kind declared twice, or a maker given twice, is refused.
  backend_kind again;
  again.name = "fake";
  CHECK(test::why(add_backend_kind(again))
        == "the backend kind 'fake' is already declared");
  CHECK_FALSE(
    test::why(add_adapter_maker("fake",
                                [](const judge_spec&) {
                                  return caf::expected<judge_adapter_ptr>{
                                    judge_adapter_ptr{}};
                                }))
      .empty());
}

// The HTTP kinds' rows and their adapters agree: each has a chat protocol,
// and a kind with a batch API has the batch protocol's limit.
TEST_CASE("the backend table's HTTP kinds and their adapters agree") {
  for (auto& name : backend_kind_names()) {
    auto kind = find_backend_kind(name);
    REQUIRE(kind);
    if (!kind->http || name == "fake")
      continue;
    INFO(name);
    CHECK(chat_protocol_for(name));
    auto api = batch_api_for(name);
    CHECK(bool(api) == (kind->batch_limit > 0));
    if (api)
      CHECK(limits_of(*api).max_requests == kind->batch_limit);
  }
}
