// Panels, cascades and budgets in the configuration (issue 10): what is
// read, what is refused (with the JSON pointer), and what the manifest
// writes back.
#include <catch2/catch.hpp>
#include <rapidjson/document.h>

#include "config_error.hpp"
#include "core/config/run_config.hpp"
#include "tests/error_text.hpp"

using namespace ij;

namespace {

using test_config::error_of;

run_config config_of(const std::string& json) {
  std::string error;
  auto cfg = parse_config(json, "x.json");
  error = ::test::why(cfg);
  INFO(error);
  REQUIRE(cfg);
  return *cfg;
}

const char* two_judges = R"("judges":[
  {"name":"r","type":"rules","model":"math","temperature":0,"timeout_ms":1000,"max_in_flight":2},
  {"name":"n","type":"stub","model":"numeric","temperature":0,"timeout_ms":1000,"max_in_flight":2}])";

} // namespace

TEST_CASE(
  "a panel names configured judges, or short judge names that become judges") {
  auto cfg =
    config_of(std::string{"{"} + two_judges
              + R"(,"panels":{"judges":["r","n"],"rule":"majority"}})");
  REQUIRE(cfg.panel);
  CHECK(cfg.panel->judges == std::vector<std::string>{"r", "n"});
  CHECK(cfg.panel->rule == panel_rule::majority);
  // Without judges of its own: the names are the judges (the default judge
  // is kept only when named).
  auto short_names =
    config_of(R"({"panels":{"judges":["rules:math","stub:numeric"]}})");
  REQUIRE(short_names.judges.size() == 2);
  CHECK(short_names.judges[0].name == "rules:math");
  CHECK(short_names.judges[1].model == "numeric");
  CHECK(short_names.panel->rule == panel_rule::unanimous);
  // Without names: every configured judge.
  auto all = config_of(std::string{"{"} + two_judges + R"(,"panels":{}})");
  CHECK(all.panel->judges.size() == 2);
}

TEST_CASE("a cascade names its rule judge and its LLM judge") {
  auto cfg = config_of(
    R"({"cascade":{"rules":"rules:math","llm":"stub:numeric","audit_rate":0.25,"seed":9}})");
  REQUIRE(cfg.cascade);
  CHECK(cfg.cascade->rules == "rules:math");
  CHECK(cfg.cascade->llm == "stub:numeric");
  CHECK(cfg.cascade->audit_rate == 0.25);
  CHECK(cfg.cascade->seed == 9);
  CHECK(cfg.judges.size() == 2);
}

TEST_CASE("panel and cascade errors name the pointer") {
  CHECK(error_of(R"({"panels":{"judges":["stub:numeric"]}})")
        == "x.json: /panels/judges: must have at least 2 item(s)");
  CHECK(error_of(R"({"panels":{}})")
        == "x.json: /panels: a panel needs at least two judges (1 configured)");
  CHECK(error_of(R"({"panels":{"judges":["stub:numeric","stub:numeric"]}})")
        == "x.json: /panels/judges/1: judge \"stub:numeric\" is named twice");
  CHECK(
    error_of(R"({"panels":{"judges":["rules:math","nonsense"]}})")
      .rfind("x.json: /panels/judges/1: \"nonsense\" is neither the name of "
             "a configured judge nor a judge name (",
             0)
    == 0);
  CHECK(error_of(
          R"({"panels":{"judges":["rules:math","stub:numeric"],"rule":"all"}})")
          .rfind("x.json: /panels/rule: must be one of", 0)
        == 0);
  CHECK(error_of(R"({"cascade":{"rules":"rules:math"}})")
        == "x.json: /cascade/llm: is required");
  CHECK(error_of(R"({"cascade":{"rules":"rules:math","llm":"rules:math"}})")
        == "x.json: /cascade/llm: the LLM judge must be another judge than the "
           "rule judge");
  CHECK(
    error_of(
      R"({"cascade":{"rules":"rules:math","llm":"stub:numeric","audit_rate":2}})")
    == "x.json: /cascade/audit_rate: must be <= 1");
  CHECK(error_of(R"({"panels":{"judges":["rules:math","stub:numeric"]},
                     "cascade":{"rules":"rules:math","llm":"stub:numeric"}})")
        == "x.json: /cascade: give either \"panels\" or \"cascade\", not both");
  CHECK(error_of(std::string{"{"} + two_judges
                 + R"(,"cascade":{"rules":"r","llm":"stub:abstain"}})")
        == "x.json: /judges/1: judge \"n\" is configured but the cascade does "
           "not use it (name it there, or remove it)");
}

TEST_CASE("two panel judges that are the same model, temperature and prompt "
          "are refused") {
  auto error = error_of(R"({"judges":[
    {"name":"a","type":"stub","model":"numeric","temperature":0,"timeout_ms":1,"max_in_flight":1},
    {"name":"b","type":"stub","model":"numeric","temperature":0,"timeout_ms":1,"max_in_flight":1}],
    "panels":{"judges":["a","b"]}})");
  CHECK(error.rfind("x.json: /panels/judges: judge \"b\" is the same judge", 0)
        == 0);
}

TEST_CASE("budgets and prices are read per judge, a cost limit needs prices") {
  auto cfg =
    config_of(R"({"judges":[{"type":"stub","model":"numeric","temperature":0,
    "timeout_ms":1,"max_in_flight":1,
    "budget":{"max_calls":10,"max_input_tokens":1000,"max_output_tokens":0,"max_cost":2.5},
    "prices":{"input":3,"output":15}}]})");
  auto& j = cfg.judges[0];
  CHECK(j.budget.max_calls == 10u);
  CHECK(j.budget.max_input_tokens == 1000u);
  CHECK(j.budget.max_output_tokens == 0u);
  CHECK(j.budget.max_cost == 2.5);
  REQUIRE(j.prices);
  CHECK(j.prices->output == 15.0);
  CHECK(error_of(R"({"judges":[{"type":"stub","model":"numeric","temperature":0,
    "timeout_ms":1,"max_in_flight":1,"budget":{"max_cost":1}}]})")
        == "x.json: /judges/0/budget/max_cost: a cost limit needs the judge's "
           "\"prices\" (per million input and output tokens)");
  CHECK(error_of(R"({"judges":[{"type":"stub","model":"numeric","temperature":0,
    "timeout_ms":1,"max_in_flight":1,"prices":{"input":1}}]})")
        == "x.json: /judges/0/prices/output: is required");
  CHECK(error_of(R"({"judges":[{"type":"stub","model":"numeric","temperature":0,
    "timeout_ms":1,"max_in_flight":1,"budget":{"max_calls":-1}}]})")
        == "x.json: /judges/0/budget/max_calls: must be >= 0");
}

TEST_CASE(
  "the option --judge cannot replace the judges a panel or cascade names") {
  auto cfg =
    config_of(R"({"cascade":{"rules":"rules:math","llm":"stub:numeric"}})");
  std::string error;
  error = ::test::why(override_judge(cfg, "stub:equivalent"));
  CHECK_FALSE(error.empty());
  CHECK(error
        == "--judge stub:equivalent: x.json configures a cascade, which "
           "names its judges; give the judges there instead");
}

TEST_CASE("panel, cascade, budget and prices are written in the manifest's "
          "configuration") {
  auto panel = config_of(
    R"({"panels":{"judges":["rules:math","stub:numeric"],"rule":"majority"}})");
  rapidjson::Document p;
  p.Parse(to_json(panel).c_str());
  REQUIRE_FALSE(p.HasParseError());
  CHECK(p["panels"]["judges"].Size() == 2);
  CHECK(p["panels"]["rule"].GetString() == std::string{"majority"});
  CHECK_FALSE(p.HasMember("cascade"));
  auto cascade = config_of(
    R"({"cascade":{"rules":"rules:math","llm":"n","audit_rate":0.5,"seed":3},
      "judges":[{"name":"rules:math","type":"rules","model":"math","temperature":0,
        "timeout_ms":1000,"max_in_flight":2},
       {"name":"n","type":"stub","model":"numeric","temperature":0,
        "timeout_ms":1000,"max_in_flight":2,"budget":{"max_calls":5,"max_cost":1},
        "prices":{"input":1,"output":2}}]})");
  rapidjson::Document c;
  c.Parse(to_json(cascade).c_str());
  REQUIRE_FALSE(c.HasParseError());
  CHECK(c["cascade"]["llm"].GetString() == std::string{"n"});
  CHECK(c["cascade"]["audit_rate"].GetDouble() == 0.5);
  CHECK(c["cascade"]["seed"].GetUint64() == 3);
  CHECK_FALSE(c["judges"][0].HasMember("budget"));
  CHECK(c["judges"][1]["budget"]["max_calls"].GetUint64() == 5);
  CHECK(c["judges"][1]["budget"]["max_cost"].GetDouble() == 1.0);
  CHECK_FALSE(c["judges"][1]["budget"].HasMember("max_input_tokens"));
  CHECK(c["judges"][1]["prices"]["output"].GetDouble() == 2.0);
  // Without them the configuration is written as before.
  auto plain = to_json(default_config());
  CHECK(plain.find("panels") == std::string::npos);
  CHECK(plain.find("budget") == std::string::npos);
}
