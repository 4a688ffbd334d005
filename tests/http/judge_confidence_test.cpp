// Issue 16 items 1 and 4 against protocol-faithful fakes: the decision's
// probabilities from each API's log-probability shape (and none from a
// backend without them), replies held to the format by a grammar or a JSON
// schema on a backend that otherwise wraps or drops it, a backend refusing
// the constraint as one named configuration fault, and the settings a judge
// type cannot take as configuration errors.
#include <cmath>
#include <future>

#include <catch2/catch.hpp>
#include <rapidjson/document.h>

#include "adapters/http_judge.hpp"
#include "adapters/llm_judge_comparator.hpp"
#include "core/audit/audit_record.hpp"
#include "core/config/run_config.hpp"
#include "tests/error_text.hpp"
#include "tests/http/fake_apis.hpp"
#include "tests/http/test_support.hpp"

using namespace ij;
using namespace ij::test;

namespace {

fake_api_options model_for(api_kind kind) {
  fake_api_options o;
  o.kind = kind;
  o.api_key = kind == api_kind::anthropic ? "sk-test" : "";
  o.model_replies = true;
  return o;
}

struct judged {
  judge_record record;
  equivalence_outcome outcome;
};

std::vector<judged> judge_n(const judge_spec& spec, std::size_t n) {
  scoped_env key("IJ_TEST_KEY", std::string{"sk-test"});
  auto s = spec;
  if (s.type == "anthropic")
    s.api_key_env = "IJ_TEST_KEY";
  auto adapter = adapter_or_null(make_http_adapter(s, fast_tuning()));
  REQUIRE(adapter);
  judge_options opts;
  opts.call = call_options_for(s, 0);
  opts.call.timeout = std::chrono::seconds(20);
  std::vector<judged> out;
  for (std::size_t i = 0; i < n; ++i) {
    judge_request req;
    req.pair_id = "p" + std::to_string(i);
    req.a = "1/2";
    req.b = "0.5";
    auto promise = std::make_shared<std::promise<judged>>();
    auto future = promise->get_future();
    judge_once(*adapter, opts, req,
               [promise](judge_record r, equivalence_outcome o) {
                 promise->set_value(judged{std::move(r), std::move(o)});
               });
    REQUIRE(future.wait_for(std::chrono::seconds(60))
            == std::future_status::ready);
    out.push_back(future.get());
  }
  return out;
}

judge_spec spec_with(const std::string& type, const fake_api& fake,
                     bool logprobs,
                     reply_constraint c = reply_constraint::none) {
  auto s = spec_for(type, fake.base_url() + (type == "openai" ? "/v1" : ""));
  s.logprobs = logprobs;
  s.constrain = c;
  return s;
}

// The fakes' default alternatives: EQUIV -0.105, DIFF -2.4, ABST -4.6 (and
// a NOT that is no decision word).
std::vector<double> expected_probs() {
  double e = std::exp(-0.105), d = std::exp(-2.4), a = std::exp(-4.6);
  return {e / (e + d + a), d / (e + d + a), a / (e + d + a)};
}

void check_probs(const judge_record& r) {
  REQUIRE(r.decision_probs.size() == 3);
  auto want = expected_probs();
  for (int i = 0; i < 3; ++i)
    CHECK(r.decision_probs[i] == Approx(want[i]));
}

} // namespace

TEST_CASE("logprobs: OpenAI-compatible choices[0].logprobs.content gives the "
          "decision probabilities",
          "[http][logprobs]") {
  for (auto flavour :
       {"structured_outputs", "grammar"}) { // vLLM-like, llama.cpp-like (ids)
    INFO(flavour);
    auto o = model_for(api_kind::openai);
    o.grammar_field = flavour;
    fake_api fake(o);
    auto got = judge_n(spec_with("openai", fake, true), 2);
    for (auto& j : got) {
      CHECK(j.record.decision == judge_decision::equivalent);
      CHECK(j.record.logprobs_asked);
      check_probs(j.record);
      // The audit's shape: {"EQUIVALENT": p, "DIFFERENT": p, "ABSTAIN": p}.
      rapidjson::Document doc;
      doc.Parse(judge_call_body(j.record).c_str());
      REQUIRE(doc.IsObject());
      auto& probs = doc["decision_probs"];
      REQUIRE(probs.IsObject());
      CHECK(probs.MemberCount() == 3);
      CHECK(probs["EQUIVALENT"].GetDouble() == Approx(expected_probs()[0]));
      CHECK(probs["DIFFERENT"].GetDouble() == Approx(expected_probs()[1]));
      CHECK(probs["ABSTAIN"].GetDouble() == Approx(expected_probs()[2]));
    }
    auto sent = fake.bodies().at(0);
    CHECK(sent.find("\"logprobs\":true,\"top_logprobs\":10")
          != std::string::npos);
    CHECK(fake.violations().empty());
  }
}

TEST_CASE("logprobs: Ollama's top-level logprobs, also under a JSON constraint",
          "[http][logprobs]") {
  fake_api fake(model_for(api_kind::ollama));
  for (auto c : {reply_constraint::none, reply_constraint::json}) {
    auto got = judge_n(spec_with("ollama", fake, true, c), 1);
    check_probs(got.at(0).record);
  }
  CHECK(fake.violations().empty());
}

TEST_CASE("logprobs: a backend that returns none is recorded as having none",
          "[http][logprobs]") {
  for (auto kind : {api_kind::ollama, api_kind::openai}) {
    auto o = model_for(kind);
    o.supports_logprobs = false; // Ollama before 0.12.11; logprobs: null
    fake_api fake(o);
    auto type = kind == api_kind::ollama ? "ollama" : "openai";
    auto asked = judge_n(spec_with(type, fake, true), 1).at(0).record;
    CHECK(asked.decision == judge_decision::equivalent);
    CHECK(asked.decision_probs.empty());
    CHECK(judge_call_body(asked).find("\"decision_probs\":null")
          != std::string::npos);
    // Not asked: not sent, and no key in the audit.
    auto plain = judge_n(spec_with(type, fake, false), 1).at(0).record;
    CHECK_FALSE(plain.logprobs_asked);
    CHECK(judge_call_body(plain).find("decision_probs") == std::string::npos);
    CHECK(fake.bodies().back().find("logprobs") == std::string::npos);
  }
  // A transport failure has none either.
  auto o = model_for(api_kind::openai);
  fake_api fake(o);
  fake.script({fake.error(400, "invalid_request_error", "bad things")});
  auto spec = spec_with("openai", fake, true);
  spec.max_attempts = 1;
  auto failed = judge_n(spec, 1).at(0).record;
  CHECK(failed.transport_failed);
  CHECK(judge_call_body(failed).find("\"decision_probs\":null")
        != std::string::npos);
}

TEST_CASE("constrain: 0 PARSE_ERROR against a backend that wraps or drops the "
          "format unless constrained",
          "[http][constrain]") {
  struct setup {
    api_kind kind;
    const char* type;
    reply_constraint c;
    const char* grammar_field;
  };
  for (auto s :
       {setup{api_kind::openai, "openai", reply_constraint::grammar,
              "structured_outputs"},
        setup{api_kind::openai, "openai", reply_constraint::grammar, "grammar"},
        setup{api_kind::openai, "openai", reply_constraint::json,
              "structured_outputs"},
        setup{api_kind::ollama, "ollama", reply_constraint::json, ""},
        setup{api_kind::anthropic, "anthropic", reply_constraint::json, ""}}) {
    INFO(s.type << " " << to_string(s.c) << " " << s.grammar_field);
    auto o = model_for(s.kind);
    o.sloppy_unless_constrained = true;
    o.grammar_field = s.grammar_field;
    o.verdict.decision = "DIFFERENT";
    fake_api fake(o);
    auto loose = judge_n(spec_with(s.type, fake, false), 6);
    for (auto& j : loose)
      CHECK(j.record.decision == judge_decision::parse_error);
    auto held = judge_n(spec_with(s.type, fake, false, s.c), 12);
    for (auto& j : held) {
      CHECK(j.record.decision == judge_decision::different);
      CHECK(j.record.numeric_a == "0.5");
      CHECK(j.record.numeric_b == "1/2");
      CHECK_FALSE(j.record.extra_text);
      CHECK(j.outcome.equivalent == std::optional<bool>{false});
    }
    // The prompt bytes never change with the constraint.
    auto prompts = fake.prompts();
    REQUIRE(prompts.size() == 18);
    CHECK(prompts.front() == prompts.back());
    CHECK(fake.violations().empty());
  }
}

TEST_CASE("constrain: each API gets the constraint where it takes it",
          "[http][constrain]") {
  call_options opts;
  opts.model = "m";
  opts.constrain = reply_constraint::grammar;
  auto openai = chat_request_body(*chat_protocol_for("openai"), "p", opts);
  CHECK(openai.find("\"structured_outputs\":{\"regex\":\"DECISION: "
                    "(EQUIVALENT|DIFFERENT|ABSTAIN)")
        != std::string::npos);
  CHECK(openai.find("\"grammar\":\"root ::= ") != std::string::npos);
  CHECK(openai.find("guided_") == std::string::npos); // removed in vLLM 0.12
  opts.constrain = reply_constraint::json;
  openai = chat_request_body(*chat_protocol_for("openai"), "p", opts);
  CHECK(
    openai.find(
      "\"response_format\":{\"type\":\"json_schema\",\"json_schema\":{\"name\":"
      "\"judge_verdict\",\"strict\":true,\"schema\":{")
    != std::string::npos);
  auto ollama = chat_request_body(*chat_protocol_for("ollama"), "p", opts);
  CHECK(ollama.find("\"format\":{\"type\":\"object\"") != std::string::npos);
  auto anthropic =
    chat_request_body(*chat_protocol_for("anthropic"), "p", opts);
  CHECK(anthropic.find(
          "\"tool_choice\":{\"type\":\"tool\",\"name\":\"judge_verdict\"}")
        != std::string::npos);
  CHECK(anthropic.find("\"input_schema\":{") != std::string::npos);
  opts.logprobs = true;
  anthropic = chat_request_body(*chat_protocol_for("anthropic"), "p", opts);
  CHECK(anthropic.find("logprobs") == std::string::npos);
}

TEST_CASE(
  "constrain: a backend that rejects it is one named configuration fault",
  "[http][constrain]") {
  for (auto kind : {api_kind::openai, api_kind::ollama, api_kind::anthropic}) {
    auto o = model_for(kind);
    o.rejects_constraints = true;
    fake_api fake(o);
    auto type = kind == api_kind::openai   ? "openai"
                : kind == api_kind::ollama ? "ollama"
                                           : "anthropic";
    INFO(type);
    auto got = judge_n(spec_with(type, fake, false, reply_constraint::json), 5);
    auto& first = got.front().record;
    CHECK(first.transport_failed);
    CHECK(first.fault == fault_kind::bad_request);
    CHECK(
      first.transport_error.find("rejects this judge's \"constrain\": \"json\"")
      != std::string::npos);
    CHECK(first.transport_error.find("a configuration problem")
          != std::string::npos);
    CHECK(first.transport_error.find("no further call") != std::string::npos);
    for (std::size_t i = 1; i < got.size(); ++i) {
      auto& r = got[i].record;
      CHECK(r.transport_failed); // a fault, never a PARSE_ERROR vote
      CHECK(r.fault == fault_kind::bad_request);
      CHECK(r.attempts == 0);
      CHECK(r.transport_error.rfind("not sent: the backend rejects", 0) == 0);
      CHECK(got[i].outcome.fault);
    }
    CHECK(fake.bodies().size() == 1); // one call reached the backend
  }
}

TEST_CASE("logprobs and constrain: settings a judge type cannot take are "
          "configuration errors",
          "[http][config]") {
  auto error_of = [](const std::string& judge) {
    std::string error;
    auto cfg = parse_config(R"({"judges":[)" + judge + "]}", "x.json");
    error = ::test::why(cfg);
    CHECK_FALSE(cfg);
    return error;
  };
  const std::string base =
    R"({"type":"%T","model":"m","temperature":0,"timeout_ms":1000,"max_in_flight":1,)";
  auto judge = [&](const std::string& type, const std::string& extra) {
    auto s = base;
    s.replace(s.find("%T"), 2, type);
    return s + extra + "}";
  };
  CHECK(error_of(judge("anthropic", R"("logprobs":true)"))
        == "x.json: /judges/0/logprobs: the anthropic API returns no "
           "log-probabilities "
           "(use an ollama or openai judge, or remove \"logprobs\")");
  CHECK(error_of(judge("ollama", R"("constrain":"grammar")"))
          .rfind("x.json: /judges/0/constrain: the ollama API accepts no "
                 "regular grammar",
                 0)
        == 0);
  CHECK(error_of(judge("anthropic", R"("constrain":"grammar")"))
          .rfind("x.json: /judges/0/constrain: the anthropic API accepts no "
                 "regular grammar",
                 0)
        == 0);
  CHECK(
    error_of(judge("stub", R"("constrain":"json")"))
      .rfind("x.json: /judges/0/constrain: a stub judge takes no constraint", 0)
    == 0);
  CHECK(error_of(judge("openai", R"("constrain":"xml")"))
          .find("/judges/0/constrain")
        != std::string::npos);

  std::string error;
  auto cfg = parse_config(
    R"({"judges":[)"
      + judge("openai", R"("logprobs":true,"constrain":"grammar")") + "]}",
    "x.json");
  error = ::test::why(cfg);
  REQUIRE(cfg);
  CHECK(cfg->judges.at(0).logprobs);
  CHECK(cfg->judges.at(0).constrain == reply_constraint::grammar);
  // Written into the manifest's config; absent when not set.
  CHECK(to_json(*cfg).find("\"logprobs\":true,\"constrain\":\"grammar\"")
        != std::string::npos);
  cfg->judges[0].logprobs = false;
  cfg->judges[0].constrain = reply_constraint::none;
  CHECK(to_json(*cfg).find("logprobs") == std::string::npos);
  CHECK(to_json(*cfg).find("constrain") == std::string::npos);
}

TEST_CASE(
  "a refusal names the setting only when its error names the setting's field",
  "[http][constrain]") {
  http_result r;
  r.responded = true;
  r.status = 400;
  r.body =
    R"({"error":{"message":"Unsupported parameter: 'logprobs' is not supported with this model.","type":"invalid_request_error","param":"logprobs","code":null}})";
  call_options opts;
  CHECK(
    refused_setting_of(r, opts).empty()); // not asked: an ordinary bad request
  opts.logprobs = true;
  CHECK(refused_setting_of(r, opts) == "\"logprobs\"");
  r.body =
    R"({"error":{"message":"max_tokens is too large","type":"invalid_request_error"}})";
  opts.constrain = reply_constraint::json;
  CHECK(refused_setting_of(r, opts).empty());
  r.body = R"({"error":"invalid format: expected \"json\" or a JSON schema"})";
  CHECK(refused_setting_of(r, opts) == "\"constrain\": \"json\"");
  r.status = 500; // a server failure is not a refusal
  CHECK(refused_setting_of(r, opts).empty());
}
