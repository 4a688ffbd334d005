// One worker serves one exact set of call settings (issue 26, item 2): two
// runs at once whose judges differ in one setting each — endpoint, seed,
// logprobs, constraint, batch, max tokens — each get a worker of their own,
// every call of each goes to its own server with its own settings, and
// their audits say so (the manifest's judge is the run's configuration, each
// judge_call names that worker). Fake servers of tests/http on 127.0.0.1.
#include <functional>
#include <map>
#include <set>

#include <catch2/catch.hpp>
#include <rapidjson/document.h>

#include "core/session/run_tag.hpp"
#include "tests/daemon/daemon_support.hpp"
#include "tests/http/fake_apis.hpp"
#include "tests/http/fake_batches.hpp"

using namespace ij;
using namespace ij::test;

namespace {

constexpr int pair_count = 6;

/// Pairs whose answers carry the run's mark, so that a request body says
/// which run it is for.
std::string marked_pairs(const std::string& mark) {
  std::string out;
  for (int i = 0; i < pair_count; ++i)
    out += R"({"id":"p)" + std::to_string(i) + R"(","a":")" + mark + "-"
           + std::to_string(i) + R"(","b":")" + mark + "-" + std::to_string(i)
           + "\"}\n";
  return out;
}

/// A judge at `url` with `extra` fields (",\"seed\":7", ...).
std::string judge(const std::string& url, const std::string& extra) {
  return R"({"name":"route","type":"openai","model":"judge-model","base_url":")"
         + url
         + R"(","temperature":0,"timeout_ms":30000,"max_in_flight":2,"max_attempts":1)"
         + extra + "}";
}

std::vector<rapidjson::Document> records(const std::string& audit) {
  std::vector<rapidjson::Document> out;
  for (auto& line : lines_of(audit)) {
    rapidjson::Document d;
    d.Parse(line.c_str());
    if (!d.HasParseError() && d.IsObject())
      out.push_back(std::move(d));
  }
  return out;
}

struct run_seen {
  std::string id;
  std::string worker;               // the manifest's judge
  std::vector<std::string> workers; // each judge_call's
  rapidjson::Document manifest_judge;
  std::vector<rapidjson::Document> calls;
};

/// Two runs at once, `a` and `b` (configurations), each on its marked
/// pairs; both done; what their audits say.
std::pair<run_seen, run_seen> two_runs(api_client& api, const std::string& a,
                                       const std::string& b) {
  std::string ids[2];
  const std::string* judges[2] = {&a, &b};
  for (int k = 0; k < 2; ++k) {
    auto created =
      api.request("POST", "/v1/runs",
                  R"({"config":{"judges":[)" + *judges[k] + R"(],"votes":1}})",
                  "application/json");
    INFO(created.body);
    REQUIRE(created.status == 201);
    ids[k] = field(created.body, "id");
  }
  for (int k = 0; k < 2; ++k)
    REQUIRE(api
              .request("POST", "/v1/runs/" + ids[k] + "/pairs",
                       marked_pairs(k == 0 ? "runA" : "runB"),
                       "application/x-ndjson")
              .status
            == 200);
  for (int k = 0; k < 2; ++k)
    REQUIRE(api.request("POST", "/v1/runs/" + ids[k] + "/close").status == 200);
  run_seen seen[2];
  for (int k = 0; k < 2; ++k) {
    auto end = wait_until_ended(api, ids[k]);
    INFO(end);
    CHECK(field(end, "state") == "done");
    seen[k].id = ids[k];
    for (auto& d :
         records(api.request("GET", "/v1/runs/" + ids[k] + "/audit").body)) {
      std::string type = d["type"].GetString();
      if (type == "manifest") {
        REQUIRE(d["judges"].Size() == 1);
        seen[k].manifest_judge.CopyFrom(d["judges"][0],
                                        seen[k].manifest_judge.GetAllocator());
        seen[k].worker = d["judges"][0]["worker_id"].GetString();
      } else if (type == "judge_call") {
        seen[k].workers.push_back(d["worker"].GetString());
        seen[k].calls.push_back(std::move(d));
      }
    }
    CHECK(seen[k].calls.size() == pair_count);
    for (auto& w : seen[k].workers)
      CHECK(w == seen[k].worker); // every call by the worker its manifest names
  }
  CHECK(seen[0].worker != seen[1].worker); // a worker each
  return {std::move(seen[0]), std::move(seen[1])};
}

/// The bodies `fake` received for run `mark` ("runA", "runB").
std::vector<rapidjson::Document> bodies_for(const fake_api& fake,
                                            const std::string& mark) {
  std::vector<rapidjson::Document> out;
  for (auto& b : fake.bodies())
    if (b.find(mark + "-") != std::string::npos) {
      rapidjson::Document d;
      d.Parse(b.c_str());
      out.push_back(std::move(d));
    }
  return out;
}

fake_api_options chat_options() {
  fake_api_options o;
  o.kind = api_kind::openai;
  o.model_replies = true; // honours logprobs and constraints as asked
  return o;
}

} // namespace

TEST_CASE("daemon routing: runs that differ in one call setting each get their "
          "own worker, "
          "their calls go to their own server with their own settings, their "
          "audits say so") {
  temp_dir dir;
  started_daemon d{dir, dir.file("state")};
  api_client api{d.url(), ""};

  SECTION("endpoint") {
    fake_api one{chat_options()}, two{chat_options()};
    auto [a, b] = two_runs(api, judge(one.base_url() + "/v1", ""),
                           judge(two.base_url() + "/v1", ""));
    CHECK(bodies_for(one, "runA").size() == pair_count);
    CHECK(bodies_for(one, "runB").empty());
    CHECK(bodies_for(two, "runB").size() == pair_count);
    CHECK(bodies_for(two, "runA").empty());
    CHECK(std::string{a.manifest_judge["base_url"].GetString()}
          == one.base_url() + "/v1");
    CHECK(std::string{b.manifest_judge["base_url"].GetString()}
          == two.base_url() + "/v1");
    for (auto& c : b.calls)
      CHECK(std::string{c["adapter_id"].GetString()}.find(two.base_url())
            != std::string::npos);
  }
  SECTION("seed") {
    fake_api fake{chat_options()};
    auto url = fake.base_url() + "/v1";
    auto [a, b] = two_runs(api, judge(url, ""), judge(url, R"(,"seed":7)"));
    for (auto& body : bodies_for(fake, "runA"))
      CHECK_FALSE(body.HasMember("seed"));
    auto sent_b = bodies_for(fake, "runB");
    CHECK(sent_b.size() == pair_count);
    for (auto& body : sent_b)
      CHECK((body.HasMember("seed") && body["seed"].GetInt64() == 7));
    CHECK(a.manifest_judge["seed"].IsNull());
    CHECK(b.manifest_judge["seed"].GetInt64() == 7);
    for (auto& c : a.calls)
      CHECK(c["seed"].IsNull());
    for (auto& c : b.calls)
      CHECK(c["seed"].GetInt64() == 7);
  }
  SECTION("logprobs") {
    fake_api fake{chat_options()};
    auto url = fake.base_url() + "/v1";
    auto [a, b] =
      two_runs(api, judge(url, ""), judge(url, R"(,"logprobs":true)"));
    for (auto& body : bodies_for(fake, "runA"))
      CHECK_FALSE(body.HasMember("logprobs"));
    for (auto& body : bodies_for(fake, "runB"))
      CHECK((body.HasMember("logprobs") && body["logprobs"].GetBool()));
    CHECK_FALSE(a.manifest_judge.HasMember("logprobs"));
    CHECK(b.manifest_judge["logprobs"].GetBool());
    for (auto& c : a.calls)
      CHECK_FALSE(c.HasMember("decision_probs"));
    for (auto& c : b.calls)
      CHECK(c["decision_probs"].IsObject());
  }
  SECTION("constraint") {
    fake_api fake{chat_options()};
    auto url = fake.base_url() + "/v1";
    auto [a, b] =
      two_runs(api, judge(url, ""), judge(url, R"(,"constrain":"json")"));
    for (auto& body : bodies_for(fake, "runA"))
      CHECK_FALSE(body.HasMember("response_format"));
    auto sent_b = bodies_for(fake, "runB");
    CHECK(sent_b.size() == pair_count);
    for (auto& body : sent_b)
      CHECK(body.HasMember("response_format"));
    CHECK(std::string{b.manifest_judge["constrain"].GetString()} == "json");
    CHECK_FALSE(a.manifest_judge.HasMember("constrain"));
  }
  SECTION("max tokens") {
    fake_api fake{chat_options()};
    auto url = fake.base_url() + "/v1";
    auto [a, b] =
      two_runs(api, judge(url, ""), judge(url, R"(,"max_tokens":64)"));
    for (auto& body : bodies_for(fake, "runA"))
      CHECK(body["max_tokens"].GetUint() == 256);
    auto sent_b = bodies_for(fake, "runB");
    CHECK(sent_b.size() == pair_count);
    for (auto& body : sent_b)
      CHECK(body["max_tokens"].GetUint() == 64);
    CHECK(a.manifest_judge["max_tokens"].GetUint() == 256);
    CHECK(b.manifest_judge["max_tokens"].GetUint() == 64);
  }
  SECTION("batch") {
    // One address for both APIs: chat calls to the chat fake, the rest to
    // the batch fake.
    fake_api chat{chat_options()};
    fake_batch_options bo;
    bo.kind = api_kind::openai;
    fake_batches batches{bo};
    fake_server both{[&](const fake_request& req, const request_context&) {
      return std::string{req.target()}.rfind("/v1/chat/", 0) == 0
               ? chat.respond(req)
               : batches.respond(req);
    }};
    auto url = both.base_url() + "/v1";
    auto [a, b] = two_runs(
      api, judge(url, ""),
      judge(
        url,
        R"(,"batch":{"enabled":true,"max_requests":16,"max_wait_ms":50,"poll_ms":20})"));
    CHECK(bodies_for(chat, "runA").size() == pair_count);
    CHECK(bodies_for(chat, "runB").empty()); // never synchronously
    CHECK(batches.batches_created() >= 1);
    for (int i = 0; i < pair_count; ++i) {
      CHECK(batches.times_sent(run_tag_of(b.id) + "-p" + std::to_string(i + 1)
                               + "-v0")
            == 1);
      CHECK(batches.times_sent(run_tag_of(a.id) + "-p" + std::to_string(i + 1)
                               + "-v0")
            == 0);
    }
    CHECK(batches.violations().empty());
    for (auto& c : a.calls)
      CHECK_FALSE(c.HasMember("batched"));
    for (auto& c : b.calls)
      CHECK(c["batched"].GetBool());
  }
}
