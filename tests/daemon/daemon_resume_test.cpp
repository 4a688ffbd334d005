// The daemon survives kill -9: restarted on the same state directory, every
// unfinished run resumes by itself, no judge call whose record was committed
// is made again, the verdicts equal an uninterrupted run's and the audit
// verifies. And two runs at once share one judge: both progress, both
// audits verify; and a run of ten is not starved by a huge one.
#include <algorithm>
#include <csignal>
#include <thread>

#include <catch2/catch.hpp>
#include <rapidjson/document.h>

#include "tests/daemon/daemon_support.hpp"
#include "tests/http/fake_apis.hpp"

using namespace ij;
using namespace ij::test;

namespace {

constexpr int pair_count = 60;

std::string pairs_text(const std::string& prefix = "p", int n = pair_count) {
  std::string out;
  for (int i = 0; i < n; ++i)
    out += R"({"id":")" + prefix + std::to_string(i) + R"(","item":"q)"
           + std::to_string(i % 6) + R"(","a":")" + std::to_string(i)
           + R"(","b":")" + std::to_string(i % 7 == 0 ? i + 1 : i) + "\"}\n";
  return out;
}

std::string config_for(const fake_api& fake) {
  return R"({"judges":[{"name":"fake","type":"openai","model":"judge-model",)"
         R"("base_url":")"
         + fake.base_url()
         + R"(","temperature":0,"timeout_ms":60000,"max_in_flight":4,)"
           R"("max_attempts":1}],"votes":1})";
}

fake_api_options slow_judge() {
  fake_api_options o;
  o.kind = api_kind::openai;
  o.reply_text = "DECISION: EQUIVALENT\nREASON: same value\nNUMERIC_A: 1\n"
                 "NUMERIC_B: 1";
  o.latency = std::chrono::milliseconds(15);
  o.threads = 4;
  o.record_requests = false;
  return o;
}

bool wait_for_requests(fake_api& fake, std::uint64_t n) {
  for (int i = 0; i < 12000; ++i) {
    if (fake.server().requests() >= n)
      return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

/// The verdict lines of a run without their seq, sorted.
std::vector<std::string> verdicts_of(api_client& api, const std::string& id) {
  std::vector<std::string> out;
  for (auto& line :
       lines_of(api.request("GET", "/v1/runs/" + id + "/verdicts").body)) {
    auto comma = line.find(',');
    out.push_back("{" + line.substr(comma + 1));
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos;
       at = text.find(what, at + what.size()))
    ++n;
  return n;
}

} // namespace

TEST_CASE("daemon: kill -9 mid-run, restart: the run completes, no committed "
          "call repeated") {
  fake_api fake(slow_judge());
  temp_dir dir;
  auto state = dir.file("state");
  std::string id;
  {
    started_daemon d{dir, state, {}, "first"};
    api_client api{d.url(), ""};
    auto created =
      api.request("POST", "/v1/runs", "{\"config\":" + config_for(fake) + "}",
                  "application/json");
    REQUIRE(created.status == 201);
    id = field(created.body, "id");
    REQUIRE(api
              .request("POST", "/v1/runs/" + id + "/pairs", pairs_text(),
                       "application/x-ndjson")
              .status
            == 200);
    REQUIRE(api.request("POST", "/v1/runs/" + id + "/close").status == 200);
    REQUIRE(wait_for_requests(fake, pair_count / 3));
    d.process().signal(SIGKILL);
    d.process().wait();
  }
  auto at_kill = fake.server().requests();
  auto audit_path = state + "/runs/" + id + "/audit.jsonl";
  auto committed = count(read_file(audit_path), "\"type\":\"verdict\"");
  REQUIRE(committed > 0);
  REQUIRE(committed < pair_count);
  auto uncommitted = at_kill - committed;

  started_daemon again{dir, state, {}, "second"};
  CHECK(again.log().find("resumed 1 unfinished run(s)") != std::string::npos);
  api_client api{again.url(), ""};
  auto ended = wait_until_ended(api, id);
  INFO(ended);
  REQUIRE(field(ended, "state") == "done");
  // Only the calls whose records were not committed were made again.
  CHECK(fake.server().requests() == pair_count + uncommitted);
  auto audit = api.request("GET", "/v1/runs/" + id + "/audit").body;
  write_file(dir.file("a.jsonl"), audit);
  auto v = invjudge(dir, "audit verify a.jsonl");
  INFO(v.out);
  CHECK(v.exit_code == 0);
  CHECK(count(audit, "\"type\":\"resumed\"") == 1);

  // The same pairs through the driver, uninterrupted: the same lines.
  write_file(dir.file("pairs.jsonl"), pairs_text());
  write_file(dir.file("c.json"), config_for(fake));
  auto u =
    invjudge(dir, "run --pairs pairs.jsonl --config c.json --audit u.jsonl "
                  "--out u.out --no-progress");
  REQUIRE(u.exit_code == 0);
  auto driver = lines_of(read_file(dir.file("u.out")));
  std::sort(driver.begin(), driver.end());
  CHECK(verdicts_of(api, id) == driver);
}

TEST_CASE(
  "daemon: SIGTERM mid-run exits 0, and the next start finishes the run") {
  fake_api fake(slow_judge());
  temp_dir dir;
  auto state = dir.file("state");
  std::string id;
  {
    started_daemon d{dir, state, {}, "first"};
    api_client api{d.url(), ""};
    auto created =
      api.request("POST", "/v1/runs", "{\"config\":" + config_for(fake) + "}",
                  "application/json");
    REQUIRE(created.status == 201);
    id = field(created.body, "id");
    REQUIRE(api
              .request("POST", "/v1/runs/" + id + "/pairs", pairs_text(),
                       "application/x-ndjson")
              .status
            == 200);
    REQUIRE(api.request("POST", "/v1/runs/" + id + "/close").status == 200);
    REQUIRE(wait_for_requests(fake, pair_count / 3));
    d.process().signal(SIGTERM);
    CHECK(d.process().wait() == 0);
    CHECK(d.log().find("unfinished runs resume at the next start")
          != std::string::npos);
  }
  auto at_stop = fake.server().requests();
  auto committed = count(read_file(state + "/runs/" + id + "/audit.jsonl"),
                         "\"type\":\"verdict\"");
  started_daemon again{dir, state, {}, "second"};
  api_client api{again.url(), ""};
  CHECK(field(wait_until_ended(api, id), "state") == "done");
  auto audit = api.request("GET", "/v1/runs/" + id + "/audit").body;
  CHECK(count(audit, "\"type\":\"run_end\"") == 2); // interrupted, then the end
  CHECK(audit.find("the daemon stopped (SIGTERM)") != std::string::npos);
  write_file(dir.file("a.jsonl"), audit);
  CHECK(invjudge(dir, "audit verify a.jsonl").exit_code == 0);
  CHECK(verdicts_of(api, id).size() == pair_count + 6);
  // Only the calls whose records were not committed at the stop are repeated.
  CHECK(fake.server().requests() == pair_count + (at_stop - committed));
}

TEST_CASE("daemon: two runs at once share one judge, both progress, both "
          "audits verify") {
  fake_api fake(slow_judge());
  temp_dir dir;
  started_daemon d{dir, dir.file("state")};
  api_client api{d.url(), ""};
  std::vector<std::string> ids;
  for (auto prefix : {"a", "b"}) {
    auto created =
      api.request("POST", "/v1/runs", "{\"config\":" + config_for(fake) + "}",
                  "application/json");
    REQUIRE(created.status == 201);
    ids.push_back(field(created.body, "id"));
    REQUIRE(api
              .request("POST", "/v1/runs/" + ids.back() + "/pairs",
                       pairs_text(prefix), "application/x-ndjson")
              .status
            == 200);
  }
  for (auto& id : ids)
    REQUIRE(api.request("POST", "/v1/runs/" + id + "/close").status == 200);
  for (auto& id : ids) {
    auto ended = wait_until_ended(api, id);
    CHECK(field(ended, "state") == "done");
    write_file(dir.file(id + ".jsonl"),
               api.request("GET", "/v1/runs/" + id + "/audit").body);
    CHECK(invjudge(dir, "audit verify " + id + ".jsonl").exit_code == 0);
    CHECK(verdicts_of(api, id).size() == pair_count + 6);
  }
  // One worker served both: the judge's cap held across the runs.
  CHECK(fake.server().max_concurrent() <= 4);
  CHECK(fake.server().requests() == 2 * pair_count);
}

TEST_CASE(
  "daemon: a run of ten is not starved by a huge run on the same judge") {
  auto options = slow_judge();
  options.record_requests =
    true; // to find the tiny run's calls among the huge run's
  fake_api fake(options);
  temp_dir dir;
  started_daemon d{dir, dir.file("state")};
  api_client api{d.url(), ""};
  auto create = [&] {
    auto created =
      api.request("POST", "/v1/runs", "{\"config\":" + config_for(fake) + "}",
                  "application/json");
    REQUIRE(created.status == 201);
    return field(created.body, "id");
  };
  // 3,000 pairs at 4 calls in flight of 15 ms: ten seconds or more alone.
  constexpr int huge_pairs = 3000;
  auto huge = create();
  REQUIRE(api
            .request("POST", "/v1/runs/" + huge + "/pairs",
                     pairs_text("h", huge_pairs), "application/x-ndjson")
            .status
          == 200);
  REQUIRE(api.request("POST", "/v1/runs/" + huge + "/close").status == 200);
  REQUIRE(wait_for_requests(fake, 40)); // the huge run holds the judge
  auto tiny = create();
  // Answers no pair of the huge run has, so that its calls can be found.
  std::string tiny_pairs;
  for (int i = 0; i < 10; ++i)
    tiny_pairs += R"({"id":"t)" + std::to_string(i) + R"(","a":"77777)"
                  + std::to_string(i) + R"(","b":"77777)" + std::to_string(i)
                  + "\"}\n";
  REQUIRE(api
            .request("POST", "/v1/runs/" + tiny + "/pairs", tiny_pairs,
                     "application/x-ndjson")
            .status
          == 200);
  REQUIRE(api.request("POST", "/v1/runs/" + tiny + "/close").status == 200);
  auto before = fake.server().requests();
  auto tiny_end = wait_until_ended(api, tiny);
  CHECK(field(tiny_end, "state") == "done");
  // Served in turn, its ten calls went out among a few dozen of the huge
  // run's; queued behind the huge run's window (256 pairs) they would have
  // waited for 250 calls or more. Counted up to its last call, not to when
  // this thread saw the run end (the huge run goes on meanwhile).
  auto prompts = fake.prompts();
  std::size_t tiny_calls = 0, last_tiny = 0;
  for (std::size_t i = 0; i < prompts.size(); ++i)
    if (prompts[i].find("77777") != std::string::npos) {
      ++tiny_calls;
      last_tiny = i;
    }
  CHECK(tiny_calls == 10);
  REQUIRE(last_tiny >= before);
  CHECK(last_tiny + 1 - before < 150);
  // The judge took the tiny run's calls in turn with the huge run's: the
  // huge run is still far from its end.
  auto huge_now = api.request("GET", "/v1/runs/" + huge).body;
  CHECK(field(huge_now, "state") == "running");
  rapidjson::Document doc;
  doc.Parse(huge_now.c_str());
  REQUIRE(doc.IsObject());
  CHECK(doc["counts"]["decided"].GetUint64() < huge_pairs / 2);
  CHECK(api.request("DELETE", "/v1/runs/" + huge).status == 200);
  CHECK(field(wait_until_ended(api, huge), "state") == "cancelled");
}
