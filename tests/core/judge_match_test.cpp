// What a served judge differs in from a configured one (core/judge_match.hpp;
// issue 20, item 3).
#include <catch2/catch.hpp>

#include "tests/error_text.hpp"

#include "core/judge_match.hpp"
#include "core/worker_key.hpp"

using namespace ij;

namespace {

judge_spec spec(const std::string& model, double temperature) {
  judge_spec s;
  s.name = "openai:" + model;
  s.type = "openai";
  s.model = model;
  s.temperature = temperature;
  return s;
}

judge_info served(const judge_spec& s, const std::string& host) {
  judge_info i;
  i.judge_id = judge_id_of(s);
  i.name = s.name;
  i.adapter_type = s.type;
  i.model = s.model;
  i.temperature = s.temperature;
  i.host = host;
  i.worker_id = s.name + "#1@" + host;
  i.settings_key = worker_key_of(s);
  return i;
}

} // namespace

TEST_CASE("judge_difference names each field that differs with both values") {
  auto here = spec("m", 0);
  CHECK(judge_difference(here, served(here, "h:1")).empty());
  CHECK(judge_difference(here, served(spec("m2", 0), "h:1"))
        == "model differs (host: m2, here: m)");
  CHECK(judge_difference(here, served(spec("m", 0.7), "h:1"))
        == "temperature differs (host: 0.7, here: 0)");
  CHECK(judge_difference(here, served(spec("m2", 0.5), "h:1"))
        == "model differs (host: m2, here: m); temperature differs (host: 0.5, here: 0)");
  auto other_prompt = served(here, "h:1");
  other_prompt.judge_id += "x";
  CHECK(judge_difference(here, other_prompt).rfind("judge id differs (host: ", 0) == 0);
  CHECK(served_judge_text(served(spec("m2", 0.7), "h:1"))
        == "judge openai:m2 (openai, model m2, temperature 0.7)");
}

TEST_CASE("an unserved judge is named with what each host serves, and a host serving no "
          "judge of the run is warned about") {
  std::vector<judge_spec> judges{spec("m", 0)};
  std::vector<judge_info> workers{served(spec("m2", 0), "h:1"), served(spec("m2", 0), "h:1")};
  CHECK(::test::why(check_served(judges, workers))
        == "no worker serves judge openai:m (" + judge_id_of(judges[0])
             + "): host h:1 serves judge openai:m2 (openai, model m2, temperature 0): model "
               "differs (host: m2, here: m)");
  CHECK(::test::why(check_served(judges, {}))
        == "no worker serves judge openai:m (" + judge_id_of(judges[0])
             + "): no host that serves it could be used");
  workers.push_back(served(judges[0], "h:2"));
  CHECK_FALSE(check_served(judges, workers));
  auto warnings = unused_host_warnings(judges, workers);
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0]
        == "host h:1 serves judge openai:m2 (openai, model m2, temperature 0), which differs "
           "from judge openai:m: model differs (host: m2, here: m); it serves no judge of "
           "this run, so its workers are not used");
  // Local workers are never warned about: the run's own configuration made them.
  CHECK(unused_host_warnings(judges, {served(spec("m2", 0), "local")}).empty());
}
