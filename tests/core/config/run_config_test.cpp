// The configuration: schema errors name the file and the JSON pointer,
// semantic checks follow, defaults come from the embedded default.
#include <catch2/catch.hpp>
#include <rapidjson/document.h>

#include "config_error.hpp"
#include "core/config/run_config.hpp"
#include "tests/error_text.hpp"

using namespace ij;

namespace {

using test_config::error_of;

const char* judge_ok = R"({"type":"stub","model":"numeric","temperature":0,
                          "timeout_ms":1000,"max_in_flight":2})";

} // namespace

TEST_CASE("the embedded default is the rule judge rules:math with one vote") {
  auto cfg = default_config();
  CHECK(cfg.source == embedded_source);
  REQUIRE(cfg.judges.size() == 1);
  CHECK(cfg.judges[0].type == "rules");
  CHECK(cfg.judges[0].model == "math");
  CHECK(cfg.judges[0].name == "rules:math");
  CHECK(cfg.votes.votes == 1);
  CHECK(cfg.votes.min_agreement == 1);
  CHECK(cfg.abstain_as_neither);
  CHECK_FALSE(cfg.order_balancing);
  CHECK(cfg.stats == statistical_params{});
  CHECK(cfg.flush == flush_policy::fsync_verdicts);
  CHECK(cfg.audit_path.empty());
}

TEST_CASE("a configuration is laid over the embedded default") {
  std::string error;
  auto cfg = parse_config(R"({"votes":5,"statistics":{"tau":0.9}})", "x.json");
  error = ::test::why(cfg);
  REQUIRE(cfg);
  CHECK(cfg->source == "x.json");
  CHECK(cfg->votes.votes == 5);
  CHECK(cfg->votes.min_agreement == 3); // strict majority when not given
  CHECK(cfg->stats.tau == 0.9);
  CHECK(cfg->stats.alpha == 0.05);
  REQUIRE(cfg->judges.size() == 1);
  CHECK(cfg->judges[0].model == "math"); // rules:math, the default
}

TEST_CASE("judge objects are read field by field") {
  std::string error;
  auto cfg =
    parse_config(R"({"judges":[{"name":"j1","type":"openai","model":"m",
      "base_url":"http://127.0.0.1:9/v1","temperature":0.5,"seed":7,"max_tokens":99,
      "timeout_ms":1234,"max_in_flight":3,"api_key_env":"K","ca_file":"ca.pem",
      "max_attempts":5,"_comment":"x"}],"audit":{"path":"a.jsonl","flush":"flush-each"},
      "order_balancing":true,"abstain_as_neither":false,"vote_deadline_ms":5000})",
                 "x.json");
  error = ::test::why(cfg);
  REQUIRE(cfg);
  REQUIRE(cfg->judges.size() == 1);
  auto& j = cfg->judges[0];
  CHECK(j.name == "j1");
  CHECK(j.type == "openai");
  CHECK(j.model == "m");
  CHECK(j.base_url == "http://127.0.0.1:9/v1");
  CHECK(j.temperature == 0.5);
  REQUIRE(j.seed);
  CHECK(*j.seed == 7);
  CHECK(j.max_tokens == 99);
  CHECK(j.timeout == std::chrono::milliseconds(1234));
  CHECK(j.max_in_flight == 3);
  CHECK(j.api_key_env == "K");
  CHECK(j.ca_file == "ca.pem");
  CHECK(j.max_attempts == 5);
  CHECK(cfg->audit_path == "a.jsonl");
  CHECK(cfg->flush == flush_policy::flush_each);
  CHECK(cfg->order_balancing);
  CHECK_FALSE(cfg->abstain_as_neither);
  CHECK(cfg->vote_deadline == std::chrono::milliseconds(5000));
}

TEST_CASE("a judge's circuit breaker: defaults, each field, and its limits") {
  std::string error;
  auto plain =
    parse_config(R"({"judges":[{"type":"openai","model":"m","temperature":0,
      "timeout_ms":1,"max_in_flight":1}]})",
                 "x.json");
  error = ::test::why(plain);
  REQUIRE(plain);
  CHECK(plain->judges[0].breaker
        == breaker_settings{true, 5, std::chrono::milliseconds(30000)});
  auto cfg =
    parse_config(R"({"judges":[{"type":"openai","model":"m","temperature":0,
      "timeout_ms":1,"max_in_flight":1,
      "breaker":{"failures":2,"cooldown_ms":750,"enabled":false,"_comment":"x"}}]})",
                 "x.json");
  error = ::test::why(cfg);
  REQUIRE(cfg);
  CHECK(cfg->judges[0].breaker
        == breaker_settings{false, 2, std::chrono::milliseconds(750)});
  // The manifest's configuration records it.
  CHECK(to_json(*cfg).find(
          R"("breaker":{"enabled":false,"failures":2,"cooldown_ms":750})")
        != std::string::npos);
  auto with = [](const std::string& breaker) {
    return R"({"judges":[{"type":"openai","model":"m","temperature":0,"timeout_ms":1,)"
           R"("max_in_flight":1,"breaker":)"
           + breaker + "}]}";
  };
  CHECK(error_of(with(R"({"failures":0})"))
        == "x.json: /judges/0/breaker/failures: must be >= 1");
  CHECK(error_of(with(R"({"cooldown_ms":0})"))
        == "x.json: /judges/0/breaker/cooldown_ms: must be >= 1");
  CHECK(error_of(with(R"({"cooldown":5})"))
          .rfind("x.json: /judges/0/breaker/cooldown: unknown field", 0)
        == 0);
}

TEST_CASE("a short judge name in the configuration") {
  std::string error;
  auto cfg = parse_config(R"({"judge":"stub:different"})", "x.json");
  error = ::test::why(cfg);
  REQUIRE(cfg);
  REQUIRE(cfg->judges.size() == 1);
  CHECK(cfg->judges[0].model == "different");
  CHECK(error_of(R"({"judge":"nosuch:x"})").rfind("x.json: /judge: ", 0) == 0);
  CHECK(error_of(std::string{R"({"judge":"stub:numeric","judges":[)"} + judge_ok
                 + "]}")
        == "x.json: /judge: give either \"judge\" or \"judges\", not both");
}

TEST_CASE("schema errors name the file and the JSON pointer") {
  auto judge_with = [](const std::string& field) {
    return std::string{R"({"judges":[{"type":"stub","model":"numeric",)"}
           + field + "}]}";
  };
  CHECK(
    error_of(judge_with(R"("temperature":-1,"timeout_ms":1,"max_in_flight":1)"))
    == "x.json: /judges/0/temperature: must be >= 0");
  CHECK(
    error_of(judge_with(R"("temperature":0,"timeout_ms":1,"max_in_flight":0)"))
    == "x.json: /judges/0/max_in_flight: must be >= 1");
  CHECK(error_of(judge_with(R"("temperature":0,"max_in_flight":1)"))
        == "x.json: /judges/0/timeout_ms: is required");
  CHECK(error_of(
          judge_with(R"("temperature":"hot","timeout_ms":1,"max_in_flight":1)"))
        == "x.json: /judges/0/temperature: must be a number");
  CHECK(error_of(
          judge_with(R"("temperature":0,"timeout_ms":1.5,"max_in_flight":1)"))
        == "x.json: /judges/0/timeout_ms: must be an integer");
  CHECK(
    error_of(
      judge_with(
        R"("temperature":0,"timeout_ms":1,"max_in_flight":1,"tempreature":0)"))
      .rfind("x.json: /judges/0/tempreature: unknown field", 0)
    == 0);
  CHECK(error_of(R"({"votes":0})") == "x.json: /votes: must be >= 1");
  CHECK(error_of(R"({"statistics":{"alpha":0}})")
        == "x.json: /statistics/alpha: must be > 0");
  CHECK(error_of(R"({"statistics":{"tau":1.5}})")
        == "x.json: /statistics/tau: must be <= 1");
  CHECK(
    error_of(R"({"audit":{"flush":"sometimes"}})")
    == R"(x.json: /audit/flush: must be one of "fsync-verdicts", "fsync-each", "flush-each")");
  CHECK(error_of(R"({"judges":[]})")
        == "x.json: /judges: must have at least 1 item(s)");
  CHECK(error_of(R"({"judge":""})") == "x.json: /judge: must not be empty");
  CHECK(error_of(R"({"votez":3})").rfind("x.json: /votez: unknown field", 0)
        == 0);
  CHECK(error_of(R"([1,2])") == "x.json: /: must be an object");
}

TEST_CASE("a file that is not JSON is reported with its position") {
  auto e = error_of("{\n  \"votes\": 3\n  \"min_agreement\": 2\n}");
  CHECK(e.rfind("x.json: line 3, column 3: not valid JSON: ", 0) == 0);
}

TEST_CASE("the vote rule is checked after the schema") {
  auto e = error_of(R"({"votes":4,"min_agreement":2})");
  CHECK(e.rfind("x.json: /min_agreement: ", 0) == 0);
  CHECK(e.find("more than half") != std::string::npos);
  CHECK(error_of(R"({"votes":3,"min_agreement":4})")
          .rfind("x.json: /min_agreement: ", 0)
        == 0);
  std::string error;
  error =
    ::test::why(parse_config(R"({"votes":4,"min_agreement":3})", "x.json"));
  CHECK(error.empty());
}

TEST_CASE("duplicate judge names and out-of-range seeds are refused") {
  std::string j = judge_ok;
  CHECK(error_of("{\"judges\":[" + j + "," + j + "]}")
          .rfind("x.json: /judges/1: duplicate judge name \"stub:numeric\"", 0)
        == 0);
  CHECK(error_of(R"({"judges":[{"type":"stub","model":"numeric","temperature":0,
                   "timeout_ms":1,"max_in_flight":1,"seed":18446744073709551615}]})")
        == "x.json: /judges/0/seed: must fit in a signed 64-bit integer");
}

TEST_CASE("the option --judge replaces the configured judges") {
  auto cfg = default_config();
  std::string error;
  error = ::test::why(override_judge(cfg, "stub:abstain"));
  REQUIRE(error.empty());
  REQUIRE(cfg.judges.size() == 1);
  CHECK(cfg.judges[0].model == "abstain");
  error = ::test::why(override_judge(cfg, "bogus"));
  CHECK_FALSE(error.empty());
  CHECK(error.rfind("--judge bogus: ", 0) == 0);
}

TEST_CASE("the effective configuration is canonical JSON without secrets") {
  auto cfg = default_config();
  auto text = to_json(cfg);
  rapidjson::Document doc;
  doc.Parse(text.c_str());
  REQUIRE_FALSE(doc.HasParseError());
  CHECK(doc["votes"].GetUint() == 1);
  CHECK(doc["judges"][0]["model"].GetString() == std::string{"math"});
  CHECK(doc["statistics"]["tau"].GetDouble() == 0.8);
  CHECK(doc["audit"]["flush"].GetString() == std::string{"fsync-verdicts"});
  CHECK(doc["judges"][0]["seed"].IsNull());
}

TEST_CASE("judge hosts and their connection are read, checked and written "
          "back") {
  std::string error;
  auto cfg = parse_config(R"({"hosts":["127.0.0.1:7001","[::1]:7002"],
    "failover_wait_ms":5000,
    "host_connection":{"tls_cert":"c.pem","tls_key":"c.key","tls_ca":"ca.pem",
      "heartbeat_ms":200,"lost_after_ms":1000,"local_judges":true}})",
                          "x.json");
  error = ::test::why(cfg);
  REQUIRE(cfg);
  CHECK(cfg->hosts == std::vector<std::string>{"127.0.0.1:7001", "[::1]:7002"});
  CHECK(cfg->failover_wait == std::chrono::milliseconds(5000));
  CHECK(cfg->connection.tls());
  CHECK(cfg->connection.local_judges);
  CHECK(cfg->connection.heartbeat == std::chrono::milliseconds(200));
  CHECK(cfg->connection.lost_after == std::chrono::milliseconds(1000));
  // The manifest records them (TLS files by path only).
  auto text = to_json(*cfg);
  CHECK(text.find(R"("hosts":["127.0.0.1:7001","[::1]:7002"])")
        != std::string::npos);
  CHECK(text.find(R"("tls_key":"c.key")") != std::string::npos);
  CHECK(text.find(R"("failover_wait_ms":5000)") != std::string::npos);
  CHECK(error_of(R"({"hosts":["gpu1"]})")
        == "x.json: /hosts/0: \"gpu1\" is not ADDR:PORT (no port)");
  CHECK(error_of(R"({"host_connection":{"tls_cert":"c.pem"}})")
          .find("/host_connection: mutual TLS needs all three")
        != std::string::npos);
  CHECK(
    error_of(R"({"host_connection":{"heartbeat_ms":500,"lost_after_ms":100}})")
      .find("/host_connection/lost_after_ms: must be at least heartbeat_ms")
    != std::string::npos);
  CHECK(error_of(R"({"host_connection":{"colour":1}})").find("/host_connection")
        != std::string::npos);
}

TEST_CASE("canaries: off by default, declared in full in the effective "
          "configuration") {
  auto cfg = default_config();
  CHECK_FALSE(cfg.canaries.enabled());
  std::string error;
  auto on = parse_config(R"({"canaries":{"rate":0.05,"seed":7,
      "on_alarm":"stop-run","tolerated_rate":0.1,"alpha":0.001}})",
                         "x.json");
  error = ::test::why(on);
  INFO(error);
  REQUIRE(on);
  CHECK(on->canaries.enabled());
  CHECK(on->canaries.rate == 0.05);
  CHECK(on->canaries.seed == 7);
  CHECK(on->canaries.on_alarm == alarm_action::stop_run);
  CHECK(on->canaries.alarm.tolerated_rate == 0.1);
  CHECK(on->canaries.alarm.alarm_rate == 0.5);
  CHECK(on->canaries.alarm.alpha == 0.001);
  CHECK(on->canaries.alarm.beta == 0.01);
  rapidjson::Document doc;
  auto text = to_json(*on);
  doc.Parse(text.c_str());
  REQUIRE_FALSE(doc.HasParseError());
  auto& c = doc["canaries"];
  CHECK(c["rate"].GetDouble() == 0.05);
  CHECK(c["seed"].GetUint64() == 7);
  CHECK(c["on_alarm"].GetString() == std::string{"stop-run"});
  CHECK(c["tolerated_rate"].GetDouble() == 0.1);
  CHECK(c["alarm_rate"].GetDouble() == 0.5);
  CHECK(c["alpha"].GetDouble() == 0.001);
  CHECK(c["beta"].GetDouble() == 0.01);
}

TEST_CASE("canaries: bad settings name the field") {
  CHECK(error_of(R"({"canaries":{"rate":1.5}})")
        == "x.json: /canaries/rate: must be <= 1");
  CHECK(error_of(R"({"canaries":{"seed":3}})")
        == "x.json: /canaries/rate: is required");
  CHECK(error_of(R"({"canaries":{"rate":0.1,"on_alarm":"panic"}})")
        == "x.json: /canaries/on_alarm: must be one of \"warn\", "
           "\"stop-judge\", \"stop-run\"");
  CHECK(error_of(R"({"canaries":{"rate":0.1,"seed":-1}})")
        == "x.json: /canaries/seed: must be >= 0");
  CHECK(error_of(R"({"canaries":{"rate":0.1,"tolerated_rate":0.6}})")
          .rfind("x.json: /canaries: alarm_rate must be greater than "
                 "tolerated_rate",
                 0)
        == 0);
  CHECK(error_of(R"({"canaries":{"rate":0.1,"alpha":0.5}})")
        == "x.json: /canaries/alpha: must be < 0.5");
  CHECK(error_of(R"({"canaries":{"rate":0.1,"ratio":2}})")
          .rfind("x.json: /canaries/ratio: unknown field", 0)
        == 0);
}

TEST_CASE(
  "calibration and stop.probability are read, checked and written back") {
  std::string error;
  auto cfg = parse_config(
    R"({"judge":"stub:noisy:0.1","votes":5,"calibration":"map.json",)"
    R"("calibration_sha256":"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",)"
    R"("stop":{"probability":0.99}})",
    "c.json");
  error = ::test::why(cfg);
  INFO(error);
  REQUIRE(cfg);
  CHECK(cfg->calibration == "map.json");
  CHECK(cfg->stop_probability == std::optional<double>{0.99});
  auto json = to_json(*cfg);
  CHECK(json.find(
          R"("calibration":"map.json","calibration_sha256":"0123456789abcdef)")
        != std::string::npos);
  CHECK(json.find(R"("stop":{"probability":0.99})") != std::string::npos);

  error =
    ::test::why(parse_config(R"({"stop":{"probability":0.99}})", "s.json"));
  CHECK_FALSE(error.empty());
  CHECK(error
        == "s.json: /stop/probability: stopping on probability needs a "
           "calibration map (\"calibration\": \"MAP.json\", made by "
           "invjudge calibrate)");
  error = ::test::why(parse_config(
    R"({"calibration":"m.json","stop":{"probability":0.5}})", "s.json"));
  CHECK_FALSE(error.empty());
  CHECK(error.find("/stop/probability") != std::string::npos);
  error = ::test::why(parse_config(
    R"({"panels":{"judges":["rules:math","stub:numeric"]},"calibration":"m.json"})",
    "p.json"));
  CHECK_FALSE(error.empty());
  CHECK(error
        == "p.json: /calibration: a calibration map applies to pooled "
           "votes, not to a panel");
  // Without them nothing is written: older manifests read the same.
  auto plain = parse_config("{}", "d.json");
  error = ::test::why(plain);
  REQUIRE(plain);
  CHECK(to_json(*plain).find("calibration") == std::string::npos);
  CHECK(to_json(*plain).find("\"stop\"") == std::string::npos);
}

TEST_CASE("the noisy stub judge names its error rate, within bounds") {
  std::string error;
  error = ::test::why(parse_config(R"({"judge":"stub:noisy:0.15"})", "n.json"));
  CHECK(error.empty());
  error = ::test::why(parse_config(R"({"judge":"stub:noisy:0.2"})", "n.json"));
  CHECK_FALSE(error.empty());
  CHECK(error.find("unknown stub kind 'noisy:0.2'") != std::string::npos);
  error = ::test::why(parse_config(R"({"judge":"stub:noisy:x"})", "n.json"));
  CHECK_FALSE(error.empty());
}

TEST_CASE("a judge's prompt: a built-in id or a declared template, checked and "
          "written back "
          "(issue 29)") {
  auto cfg = parse_config(
    R"({"judges":[{"name":"a","type":"openai","model":"m","base_url":"http://h:1","temperature":0,"timeout_ms":1000,
        "max_in_flight":2,"prompt":{"id":"team/v1","file":"p.txt"}},
       {"name":"b","type":"ollama","model":"m","base_url":"http://h:2","temperature":0,"timeout_ms":1000,
        "max_in_flight":2,"prompt":"invariance-checker/judge/non-numeric/v1",
        "non_numeric_prompt":{"id":"team/any/v2","file":"q.txt",
          "sha256":"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"}}],
       "on_planted":"judge"})",
    "c.json");
  INFO(::test::why(cfg));
  REQUIRE(cfg);
  auto& a = cfg->judges[0];
  CHECK(a.prompt.id == "team/v1");
  CHECK(a.prompt.file == "p.txt");
  CHECK_FALSE(a.non_numeric_prompt);
  // A declared prompt serves every pair; not read yet, it has no template.
  CHECK(non_numeric_choice(a) == a.prompt);
  CHECK_FALSE(prompts_of(a).numeric);
  auto& b = cfg->judges[1];
  CHECK(b.prompt.id == std::string{non_numeric_prompt_id});
  CHECK_FALSE(b.prompt.declared());
  REQUIRE(b.non_numeric_prompt);
  CHECK(b.non_numeric_prompt->sha256.size() == 64);
  CHECK(cfg->on_planted == planted_action::judge);
  // The judge id names a non-default pairing.
  CHECK(judge_id_of(b).find(" non_numeric=team/any/v2#01234567")
        != std::string::npos);
  auto json = to_json(*cfg);
  CHECK(json.find(R"("prompt":{"id":"team/v1","file":"p.txt"})")
        != std::string::npos);
  CHECK(json.find(R"("prompt":"invariance-checker/judge/non-numeric/v1")")
        != std::string::npos);
  CHECK(json.find(R"("on_planted":"judge")") != std::string::npos);
  CHECK(
    json.find(
      R"("non_numeric_prompt":{"id":"team/any/v2","file":"q.txt","sha256":"0123)")
    != std::string::npos);
  // The defaults write nothing new: older manifests read the same.
  auto plain = parse_config("{}", "d.json");
  REQUIRE(plain);
  CHECK(to_json(*plain).find("prompt") == std::string::npos);
  CHECK(to_json(*plain).find("on_planted") == std::string::npos);
  CHECK(judge_id_of(plain->judges[0]).find("non_numeric") == std::string::npos);
}

TEST_CASE("a judge's prompt: unknown built-ins, reserved ids and rules judges "
          "are refused") {
  auto judge = [](const std::string& type, const std::string& model,
                  const std::string& prompt) {
    return R"({"judges":[{"type":")" + type + R"(","model":")" + model
           + R"(","temperature":0,"timeout_ms":1000,"max_in_flight":2,"prompt":)"
           + prompt + "}]}";
  };
  CHECK(error_of(judge("openai", "m", R"("my-prompt")"))
        == "x.json: /judges/0/prompt: \"my-prompt\" is not a built-in prompt "
           "(invariance-checker/judge/v1, "
           "invariance-checker/judge/non-numeric/v1); a prompt "
           "of your own is {\"id\": \"...\", \"file\": \"PATH\"}");
  CHECK(error_of(judge("openai", "m",
                       R"({"id":"invariance-checker/mine","file":"p.txt"})"))
          .find("x.json: /judges/0/prompt/id: ids starting with "
                "\"invariance-checker/\" are "
                "reserved for the built-in prompts")
        == 0);
  CHECK(error_of(judge("rules", "math",
                       R"("invariance-checker/judge/non-numeric/v1")"))
        == "x.json: /judges/0/prompt: a rules judge reads the answers by rule "
           "and sends no "
           "prompt (remove \"prompt\", or give it to a model judge)");
  CHECK(error_of(
          judge("openai", "m", R"({"id":"t","file":"p.txt","sha256":"xyz"})"))
          .find("/judges/0/prompt")
        != std::string::npos);
  CHECK(error_of(R"({"on_planted":"obey"})").find("/on_planted")
        != std::string::npos);
}
