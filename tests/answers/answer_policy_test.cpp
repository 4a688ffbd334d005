// The declared answer policy as configuration (core/numbers/answer_policy.hpp):
// defaults, every field read and written back, bad values naming the field,
// and the policy in the rule judges' identity.
#include <string>

#include <catch2/catch.hpp>

#include "answers/math_rule_judge.hpp"
#include "core/config/judge_spec.hpp"
#include "core/config/run_config.hpp"
#include "core/numbers/answer_policy.hpp"
#include "tests/error_text.hpp"

using namespace ij;

namespace {

run_config config_of(const std::string& json) {
  std::string error;
  auto cfg = parse_config(json, "test.json");
  error = ::test::why(cfg);
  INFO(error);
  REQUIRE(cfg);
  return *cfg;
}

std::string error_of(const std::string& json) {
  std::string error;
  auto cfg = parse_config(json, "test.json");
  error = ::test::why(cfg);
  CHECK_FALSE(cfg);
  return error;
}

} // namespace

TEST_CASE("answer policy: the defaults are documented and the embedded "
          "default declares them",
          "[answer_policy]") {
  const answer_policy p;
  CHECK(p.rounding == rounding_policy::abstain);
  CHECK(p.percent == percent_policy::either);
  CHECK(p.relative_tolerance == 1e-9);
  CHECK(p.absolute_tolerance == 0.0);
  CHECK(p.units == unit_policy::lenient);
  CHECK(p.fractions == fraction_policy::any);
  CHECK(default_config().policy == p);
  CHECK(policy_text(p)
        == "rounding=abstain,percent=either,rel=1e-09,abs=0,units=lenient,"
           "fractions=any");
}

TEST_CASE("answer policy: every field is read, written in the effective "
          "configuration and given to the rule judges",
          "[answer_policy]") {
  auto cfg = config_of(R"({"answer_policy":{"rounding":"consistent",
    "percent":"fraction","relative_tolerance":0.01,"absolute_tolerance":0.5,
    "units":"strict","fractions":"reduced"}})");
  CHECK(cfg.policy.rounding == rounding_policy::consistent);
  CHECK(cfg.policy.percent == percent_policy::fraction);
  CHECK(cfg.policy.relative_tolerance == 0.01);
  CHECK(cfg.policy.absolute_tolerance == 0.5);
  CHECK(cfg.policy.units == unit_policy::strict);
  CHECK(cfg.policy.fractions == fraction_policy::reduced);
  REQUIRE(cfg.judges.size() == 1);
  CHECK(cfg.judges[0].policy == cfg.policy); // rules:math, the default judge
  const auto json = to_json(cfg);
  CHECK(
    json.find(
      R"("answer_policy":{"rounding":"consistent","percent":"fraction","relative_tolerance":0.01,"absolute_tolerance":0.5,"units":"strict","fractions":"reduced"})")
    != std::string::npos);
  // The manifest's object reads back as the same policy.
  std::string error;
  auto again = parse_config(
    R"({"answer_policy":)"
      + json.substr(json.find(R"("answer_policy":)") + 16,
                    json.find('}', json.find(R"("answer_policy":)"))
                      - json.find(R"("answer_policy":)") - 15)
      + "}",
    "manifest");
  error = ::test::why(again);
  INFO(error);
  REQUIRE(again);
  CHECK(again->policy == cfg.policy);
  // --judge keeps the declared policy.
  error = ::test::why(override_judge(cfg, "stub:numeric"));
  REQUIRE(error.empty());
  CHECK(cfg.judges[0].policy == cfg.policy);
}

TEST_CASE("answer policy: a bad value is a configuration error naming the "
          "field",
          "[answer_policy]") {
  CHECK(error_of(R"({"answer_policy":{"rounding":"sometimes"}})")
          .find("/answer_policy/rounding")
        != std::string::npos);
  CHECK(error_of(R"({"answer_policy":{"percent":"both"}})")
          .find("/answer_policy/percent")
        != std::string::npos);
  CHECK(error_of(R"({"answer_policy":{"relative_tolerance":1.5}})")
          .find("/answer_policy/relative_tolerance")
        != std::string::npos);
  CHECK(error_of(R"({"answer_policy":{"absolute_tolerance":-1}})")
          .find("/answer_policy/absolute_tolerance")
        != std::string::npos);
  CHECK(error_of(R"({"answer_policy":{"units":"metric"}})")
          .find("/answer_policy/units")
        != std::string::npos);
  CHECK(error_of(R"({"answer_policy":{"fractions":"lowest"}})")
          .find("/answer_policy/fractions")
        != std::string::npos);
  CHECK(error_of(R"({"answer_policy":{"rounding_mode":"strict"}})")
          .find("/answer_policy")
        != std::string::npos);
  CHECK(error_of(R"({"answer_policy":"strict"})").find("/answer_policy")
        != std::string::npos);
}

TEST_CASE("answer policy: part of a rule judge's identity, never of another "
          "judge's",
          "[answer_policy]") {
  judge_spec rules;
  rules.type = "rules";
  rules.model = "math";
  const auto plain = judge_id_of(rules);
  CHECK(plain.find("policy=") == std::string::npos); // earlier ids unchanged
  rules.policy.rounding = rounding_policy::consistent;
  const auto consistent = judge_id_of(rules);
  CHECK(consistent != plain);
  CHECK(consistent.find("policy=rounding=consistent") != std::string::npos);
  rules.policy.rounding = rounding_policy::strict;
  CHECK(judge_id_of(rules) != consistent);
  judge_spec numeric;
  numeric.type = "stub";
  numeric.model = "numeric";
  numeric.policy.percent = percent_policy::number;
  CHECK(judge_id_of(numeric).find("policy=") != std::string::npos);
  judge_spec model;
  model.type = "ollama";
  model.model = "qwen";
  const auto before = judge_id_of(model);
  model.policy.rounding = rounding_policy::strict;
  CHECK(judge_id_of(model) == before); // a model judge ignores it
  auto cfg = config_of(R"({"answer_policy":{"rounding":"strict"},
    "judges":[{"name":"r","type":"rules","model":"math","temperature":0,"timeout_ms":1000,"max_in_flight":4},
              {"name":"o","type":"ollama","model":"qwen","temperature":0,"timeout_ms":1000,"max_in_flight":4}]})");
  CHECK(cfg.judges[0].policy.rounding == rounding_policy::strict);
  CHECK(cfg.judges[1].policy.is_default());
}
