// Batched judges in the daemon (issue 17), against the batch fake
// (tests/http/fake_batches) on 127.0.0.1: kill -9 while a batch is held in
// flight, restart: each request sent once and the run ends; DELETE cancels
// the run's batch; /metrics shows the batch gauges.
#include <catch2/catch.hpp>

#include <csignal>
#include <cstdlib>
#include <thread>

#include "core/run_tag.hpp"
#include "tests/daemon/daemon_support.hpp"
#include "tests/http/fake_batches.hpp"

using namespace ij;
using namespace ij::test;

namespace {

constexpr int pair_count = 8;
constexpr const char* key_var = "IJ_DAEMON_BATCH_KEY";

struct key_env {
  key_env() {
    ::setenv(key_var, "sk-daemon-batch", 1);
  }
  ~key_env() {
    ::unsetenv(key_var);
  }
};

std::string pairs_text() {
  std::string out;
  for (int i = 0; i < pair_count; ++i)
    out += R"({"id":"p)" + std::to_string(i) + R"(","a":"1","b":"1"})" "\n";
  return out;
}

std::string run_body(const fake_batches& fake) {
  return R"({"config":{"judges":[{"name":"fake","type":"openai","model":"judge-model",)"
         R"("base_url":")" + fake.base_url() + R"(","api_key_env":")" + key_var
         + R"(","temperature":0,"timeout_ms":60000,"max_in_flight":4,"max_attempts":1,)"
           R"("batch":{"enabled":true,"max_requests":16,"max_wait_ms":50,"poll_ms":20}}],)"
           R"("votes":1}})";
}

fake_batch_options fake_options() {
  fake_batch_options o;
  o.kind = api_kind::openai;
  o.api_key = "sk-daemon-batch";
  return o;
}

bool eventually(const std::function<bool()>& done) {
  for (int i = 0; i < 6000; ++i) {
    if (done())
      return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

std::string start_run(api_client& api, const fake_batches& fake) {
  auto created = api.request("POST", "/v1/runs", run_body(fake), "application/json");
  INFO(created.body);
  REQUIRE(created.status == 201);
  auto id = field(created.body, "id");
  REQUIRE(api.request("POST", "/v1/runs/" + id + "/pairs", pairs_text(),
                      "application/x-ndjson").status == 200);
  REQUIRE(api.request("POST", "/v1/runs/" + id + "/close").status == 200);
  return id;
}

} // namespace

TEST_CASE("daemon batch: kill -9 with a batch in flight, restart: each request sent once") {
  key_env key;
  fake_batches fake{fake_options()};
  fake.set_reply([](const std::string&) {
    return std::string{"DECISION: EQUIVALENT\nREASON: fake\nNUMERIC_A: 1\nNUMERIC_B: 1"};
  });
  fake.hold(true);
  temp_dir dir;
  auto state = dir.file("state");
  std::string id;
  {
    started_daemon d{dir, state, {}, "first"};
    api_client api{d.url(), ""};
    id = start_run(api, fake);
    REQUIRE(eventually([&] { return fake.batches_created() >= 1; }));
    auto metrics = api.request("GET", "/metrics").body;
    CHECK(metrics.find("invjudge_batches{state=\"in_progress\"}") != std::string::npos);
    d.process().signal(SIGKILL);
    d.process().wait();
  }
  auto created = fake.batches_created();
  fake.hold(false);
  started_daemon again{dir, state, {}, "second"};
  api_client api{again.url(), ""};
  auto ended = wait_until_ended(api, id);
  INFO(ended);
  CHECK(field(ended, "state") == "done");
  CHECK(fake.batches_created() == created);
  CHECK(fake.violations().empty());
  auto tag = run_tag_of(id);
  for (int seq = 1; seq <= pair_count; ++seq)
    CHECK(fake.times_sent(tag + "-p" + std::to_string(seq) + "-v0") == 1);
  write_file(dir.file("a.jsonl"), api.request("GET", "/v1/runs/" + id + "/audit").body);
  CHECK(invjudge(dir, "audit verify a.jsonl").exit_code == 0);
}

TEST_CASE("daemon batch: DELETE cancels the run's batch at the provider") {
  key_env key;
  fake_batches fake{fake_options()};
  fake.hold(true);
  temp_dir dir;
  started_daemon d{dir, dir.file("state")};
  api_client api{d.url(), ""};
  auto id = start_run(api, fake);
  REQUIRE(eventually([&] { return fake.batches_created() == 1; }));
  CHECK(api.request("DELETE", "/v1/runs/" + id).status == 200);
  CHECK(eventually([&] { return fake.cancels() == 1; }));
  CHECK(field(wait_until_ended(api, id), "state") == "cancelled");
}
