// Declared prompts in a run submitted to the daemon (issue 29): read on the
// daemon's host with the driver's checks (a relative path against its
// working directory), the stored configuration pinned to the file's
// absolute path and SHA-256, the pairs' "problem" shown to the judge; a bad
// template is a 400 bad_config naming it, and no run is created.
#include <csignal>

#include <catch2/catch.hpp>

#include "core/sha256.hpp"
#include "tests/daemon/daemon_support.hpp"
#include "tests/http/fake_apis.hpp"

using namespace ij;
using namespace ij::test;

namespace {

const std::string template_text =
  "Q: {{problem}}\nA: {{answer_a}}\nB: {{answer_b}}\n"
  "DECISION:";

std::string run_config_json(const fake_api& fake, const std::string& file) {
  return R"({"judges":[{"name":"llm","type":"openai","model":"judge-model","base_url":")"
         + fake.base_url()
         + R"(/v1","temperature":0,"timeout_ms":20000,"max_in_flight":2,"max_attempts":1,)"
           R"("prompt":{"id":"team/v1","file":")"
         + file + R"("}}]})";
}

} // namespace

TEST_CASE("daemon prompts: a declared template is read on the daemon's host, "
          "pinned in the "
          "run, and what the judge receives, the problem included") {
  fake_api_options o;
  o.kind = api_kind::openai;
  o.reply_text =
    "DECISION: EQUIVALENT\nREASON: same\nNUMERIC_A: 5\nNUMERIC_B: 5";
  fake_api fake(o);
  temp_dir dir;
  write_file(dir.file("team.txt"), template_text);
  started_daemon d{dir, dir.file("state"), {}, "serve", dir.path()};
  api_client api{d.url(), ""};
  auto created =
    api.request("POST", "/v1/runs",
                "{\"config\":" + run_config_json(fake, "team.txt") + "}",
                "application/json");
  INFO(created.body);
  REQUIRE(created.status == 201);
  auto id = field(created.body, "id");
  auto up =
    api.request("POST", "/v1/runs/" + id + "/pairs",
                R"({"id":"p1","a":"5","b":"five","problem":"What is 2 + 3?"})"
                "\n",
                "application/x-ndjson");
  REQUIRE(up.status == 200);
  REQUIRE(api.request("POST", "/v1/runs/" + id + "/close").status == 200);
  CHECK(field(wait_until_ended(api, id), "state") == "done");
  auto prompts = fake.prompts();
  REQUIRE(prompts.size() == 1);
  CHECK(prompts[0] == "Q: What is 2 + 3?\nA: 5\nB: five\nDECISION:");
  auto audit = api.request("GET", "/v1/runs/" + id + "/audit").body;
  auto sha = sha256_hex(template_text);
  CHECK(audit.find(R"("prompt":{"id":"team/v1","file":")" + dir.file("team.txt")
                   + R"(","sha256":")" + sha + "\"}")
        != std::string::npos);
  CHECK(audit.find(R"("prompt_id":"team/v1")") != std::string::npos);
  d.process().signal(SIGTERM);
  d.process().wait();
}

TEST_CASE("daemon prompts: a bad template or a missing file is a 400 "
          "bad_config naming it, and "
          "no run is created") {
  fake_api_options o;
  o.kind = api_kind::openai;
  fake_api fake(o);
  temp_dir dir;
  write_file(dir.file("one.txt"), "{{answer_a}} against nothing");
  started_daemon d{dir, dir.file("state"), {}, "serve", dir.path()};
  api_client api{d.url(), ""};
  for (auto [file, what] :
       {std::pair<std::string, std::string>{
          "one.txt", "must hold {{answer_b}} exactly once"},
        {"none.txt", "cannot read the prompt file " + dir.file("none.txt")}}) {
    auto r = api.request("POST", "/v1/runs",
                         "{\"config\":" + run_config_json(fake, file) + "}",
                         "application/json");
    INFO(r.body);
    CHECK(r.status == 400);
    CHECK(r.body.find("\"code\":\"bad_config\"") != std::string::npos);
    CHECK(r.body.find(what) != std::string::npos);
  }
  CHECK(api.request("GET", "/v1/runs").body.find("\"id\"")
        == std::string::npos);
  CHECK(fake.server().requests() == 0);
  d.process().signal(SIGTERM);
  d.process().wait();
}
