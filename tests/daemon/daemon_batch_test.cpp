// Batched judges in the daemon (issue 17), against the batch fakes
// (tests/http/fake_batches) on 127.0.0.1: kill -9 while a batch is held in
// flight, restart: each request sent once, the verdicts a synchronous run's,
// the spend at the batch price; DELETE cancels the run's batch; /metrics
// shows the batch gauges.
#include <csignal>
#include <cstdlib>
#include <map>
#include <thread>

#include <catch2/catch.hpp>
#include <rapidjson/document.h>

#include "core/session/run_tag.hpp"
#include "tests/daemon/daemon_support.hpp"
#include "tests/http/batch_script.hpp"

using namespace ij;
using namespace ij::test;

namespace {

constexpr int pair_count = 12;
constexpr const char* key_var = "IJ_DAEMON_BATCH_KEY";
constexpr const char* api_key = "sk-daemon-batch";

struct key_env {
  key_env() { ::setenv(key_var, api_key, 1); }
  ~key_env() { ::unsetenv(key_var); }
};

std::string judge_json(const std::string& type, const std::string& url,
                       bool batched) {
  return R"({"name":"fake","type":")" + type
         + R"(","model":"judge-model","base_url":")" + url
         + R"(","api_key_env":")" + key_var
         + R"(","temperature":0,"timeout_ms":60000,"max_in_flight":4,"max_attempts":1,)"
           R"("prices":{"input":2,"output":4})"
         + (batched
              ? R"(,"batch":{"enabled":true,"max_requests":16,"max_wait_ms":50,)"
                R"("poll_ms":20})"
              : "")
         + "}";
}

std::string run_body(const std::string& type, const fake_batches& fake) {
  return R"({"config":{"judges":[)" + judge_json(type, fake.base_url(), true)
         + R"(],"votes":3}})";
}

fake_batch_options fake_options(api_kind kind = api_kind::openai) {
  fake_batch_options o;
  o.kind = kind;
  o.api_key = api_key;
  return o;
}

std::string start_run(api_client& api, const std::string& body) {
  auto created = api.request("POST", "/v1/runs", body, "application/json");
  INFO(created.body);
  REQUIRE(created.status == 201);
  auto id = field(created.body, "id");
  REQUIRE(api
            .request("POST", "/v1/runs/" + id + "/pairs",
                     scripted_pairs(pair_count), "application/x-ndjson")
            .status
          == 200);
  REQUIRE(api.request("POST", "/v1/runs/" + id + "/close").status == 200);
  return id;
}

/// Pair id -> verdict of the pair lines of a verdicts text.
std::map<std::string, std::string> pair_verdicts(const std::string& text) {
  std::map<std::string, std::string> out;
  for (auto& line : lines_of(text)) {
    rapidjson::Document d;
    d.Parse(line.c_str());
    if (!d.HasParseError() && d.IsObject()
        && std::string{d["kind"].GetString()} == "pair")
      out[d["id"].GetString()] = d["verdict"].GetString();
  }
  return out;
}

/// The verdicts of the same pairs judged synchronously by the driver.
std::map<std::string, std::string> sync_verdicts(temp_dir& dir) {
  scripted_sync_judge judge{api_kind::openai, api_key};
  write_file(dir.file("pairs.jsonl"), scripted_pairs(pair_count));
  write_file(dir.file("sync.json"),
             R"({"judges":[)"
               + judge_json("openai", judge.api->base_url(), false)
               + R"(],"votes":3})");
  auto r =
    invjudge(dir, "run --pairs pairs.jsonl --config sync.json --out sync.jsonl "
                  "--no-progress");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  return pair_verdicts(read_file(dir.file("sync.jsonl")));
}

/// The tokens of an audit's judge calls priced at 2 and 4 per million.
double full_price(const std::string& audit) {
  double cost = 0;
  for (auto& line : lines_of(audit)) {
    rapidjson::Document d;
    d.Parse(line.c_str());
    if (!d.HasParseError() && d.IsObject()
        && std::string{d["type"].GetString()} == "judge_call")
      cost += (2.0 * d["input_tokens"].GetUint64()
               + 4.0 * d["output_tokens"].GetUint64())
              / 1e6;
  }
  return cost;
}

/// The value of a metric line that starts with `name_and_labels`.
double metric(const std::string& text, const std::string& name_and_labels) {
  for (auto& line : lines_of(text))
    if (line.rfind(name_and_labels + " ", 0) == 0)
      return std::stod(line.substr(name_and_labels.size() + 1));
  FAIL("no metric " << name_and_labels);
  return 0;
}

} // namespace

TEST_CASE("daemon batch: kill -9 with a batch in flight, restart: each request "
          "sent once, "
          "the verdicts a synchronous run's, spend at the batch price") {
  key_env key;
  for (auto kind : {api_kind::openai, api_kind::anthropic}) {
    auto type = kind == api_kind::openai ? "openai" : "anthropic";
    SECTION(type) {
      temp_dir dir;
      auto expected = sync_verdicts(dir);
      REQUIRE(expected.size() == pair_count);
      fake_batches fake{fake_options(kind)};
      decide_by_custom_id(fake);
      fake.hold(true);
      auto state = dir.file("state");
      std::string id;
      {
        started_daemon d{dir, state, {}, "first"};
        api_client api{d.url(), ""};
        id = start_run(api, run_body(type, fake));
        REQUIRE(eventually([&] { return fake.batches_created() >= 1; }));
        CHECK(eventually([&] {
          auto m = api.request("GET", "/metrics").body;
          return metric(m, R"(invjudge_batches{state="submitted"})")
                   + metric(m, R"(invjudge_batches{state="in_progress"})")
                 >= 1;
        }));
        d.process().signal(SIGKILL);
        d.process().wait();
      }
      auto created = fake.batches_created();
      fake.hold(false);
      started_daemon again{dir, state, {}, "second"};
      api_client api{again.url(), ""};
      auto ended = wait_until_ended(api, id);
      INFO(ended);
      INFO("the run now: " << api.request("GET", "/v1/runs/" + id).body);
      INFO("the daemon's log: " << again.log());
      INFO(api.request("GET", "/metrics").body);
      CHECK(field(ended, "state") == "done");
      CHECK(fake.violations().empty());
      // The batches in flight at the kill were adopted, not sent again: each
      // request went once, and a third vote only for the split pairs.
      CHECK(fake.batches_created() > created);
      auto tag = run_tag_of(id);
      for (int seq = 1; seq <= pair_count; ++seq)
        for (int vote = 0; vote < 3; ++vote) {
          auto custom_id =
            tag + "-p" + std::to_string(seq) + "-v" + std::to_string(vote);
          INFO(custom_id);
          CHECK(fake.times_sent(custom_id)
                == (vote < 2 || (seq - 1) % 4 == 0 ? 1 : 0));
        }
      CHECK(
        pair_verdicts(api.request("GET", "/v1/runs/" + id + "/verdicts").body)
        == expected);
      auto audit = api.request("GET", "/v1/runs/" + id + "/audit").body;
      write_file(dir.file("a.jsonl"), audit);
      CHECK(invjudge(dir, "audit verify a.jsonl").exit_code == 0);
      // Every call was batched: /metrics counts it at half the price.
      auto metrics = api.request("GET", "/metrics").body;
      CHECK(metric(metrics, R"(invjudge_judge_spend_total{judge="fake"})")
            == Approx(full_price(audit) / 2).epsilon(1e-6));
      CHECK(
        metric(
          metrics,
          R"(invjudge_judge_tokens_total{judge="fake",kind="input",mode="sync"})")
        == 0);
      CHECK(
        metric(
          metrics,
          R"(invjudge_judge_tokens_total{judge="fake",kind="input",mode="batch"})")
        > 0);
    }
  }
}

TEST_CASE("daemon batch: DELETE cancels the run's batch at the provider") {
  key_env key;
  fake_batches fake{fake_options()};
  fake.hold(true);
  temp_dir dir;
  started_daemon d{dir, dir.file("state")};
  api_client api{d.url(), ""};
  auto id = start_run(api, run_body("openai", fake));
  REQUIRE(eventually([&] { return fake.batches_created() == 1; }));
  CHECK(api.request("DELETE", "/v1/runs/" + id).status == 200);
  CHECK(eventually([&] { return fake.cancels() == 1; }));
  CHECK(field(wait_until_ended(api, id), "state") == "cancelled");
}
