// What a served judge differs in from a configured one
// (core/hosts/judge_match.hpp; issue 20, item 3).
#include <catch2/catch.hpp>

#include "core/hosts/judge_match.hpp"
#include "core/hosts/worker_key.hpp"
#include "core/prompts/prompt.hpp"
#include "tests/error_text.hpp"

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
  auto prompts = prompt_ids_of(s);
  i.prompt_id = prompts.numeric.id;
  i.prompt_sha256 = prompts.numeric.sha256;
  i.non_numeric_prompt_id = prompts.non_numeric.id;
  i.non_numeric_prompt_sha256 = prompts.non_numeric.sha256;
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
        == "model differs (host: m2, here: m); temperature differs (host: 0.5, "
           "here: 0)");
  auto other_id = served(here, "h:1");
  other_id.judge_id += "x";
  CHECK(judge_difference(here, other_id).rfind("judge id differs (host: ", 0)
        == 0);
  // Another prompt (issue 29): a host must serve the same ones.
  auto declared = here;
  declared.prompt.id = "team/p/v1";
  declared.prompt.file = "/p.txt";
  declared.prompt.sha256 = std::string(64, 'e');
  auto e = "team/p/v1#" + std::string(64, 'e');
  CHECK(judge_difference(declared, served(here, "h:1"))
        == "prompt differs (host: invariance-checker/judge/v1#"
             + judge_prompt_template_sha256() + ", here: " + e
             + "); non_numeric_prompt differs (host: "
               "invariance-checker/judge/non-numeric/v1#"
             + non_numeric_prompt()->sha256() + ", here: " + e + ")");
  CHECK(served_judge_text(served(spec("m2", 0.7), "h:1"))
        == "judge openai:m2 (openai, model m2, temperature 0.7)");
}

TEST_CASE("an unserved judge is named with what each host serves, and a host "
          "serving no "
          "judge of the run is warned about") {
  std::vector<judge_spec> judges{spec("m", 0)};
  std::vector<judge_info> workers{served(spec("m2", 0), "h:1"),
                                  served(spec("m2", 0), "h:1")};
  CHECK(::test::why(check_served(judges, workers))
        == "no worker serves judge openai:m (" + judge_id_of(judges[0])
             + "): host h:1 serves judge openai:m2 (openai, model m2, "
               "temperature 0): model "
               "differs (host: m2, here: m)");
  CHECK(::test::why(check_served(judges, {}))
        == "no worker serves judge openai:m (" + judge_id_of(judges[0])
             + "): no host that serves it could be used");
  workers.push_back(served(judges[0], "h:2"));
  CHECK_FALSE(check_served(judges, workers));
  auto warnings = unused_host_warnings(judges, workers);
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0]
        == "host h:1 serves judge openai:m2 (openai, model m2, temperature 0), "
           "which differs "
           "from judge openai:m: model differs (host: m2, here: m); it serves "
           "no judge of "
           "this run, so its workers are not used");
  // Local workers are never warned about: the run's own configuration made
  // them.
  CHECK(unused_host_warnings(judges, {served(spec("m2", 0), "local")}).empty());
}
