// DELETE stops a run's calls (issue 26): the calls in flight are aborted,
// the worker's slots go at once to the next run on the same judge, and the
// cancelled run's counts say how many calls were sent, answered and aborted
// — the calls the judge's server received. The judge thinks for a minute,
// so that nothing here races a clock: the next run's calls can only reach
// the server before the cancelled calls' minute is over if the slots were
// freed. SIGTERM ends the runs the same way once its grace period is over.
#include <algorithm>
#include <chrono>
#include <csignal>
#include <sstream>

#include <catch2/catch.hpp>
#include <rapidjson/document.h>

#include "tests/daemon/daemon_support.hpp"
#include "tests/http/fake_apis.hpp"

using namespace ij;
using namespace ij::test;

namespace {

constexpr auto thinking = std::chrono::seconds(60);

/// An OpenAI-compatible judge that thinks a minute, four calls at once.
fake_api_options thinking_judge() {
  fake_api_options o;
  o.kind = api_kind::openai;
  o.latency = thinking;
  o.threads = 4;
  o.record_requests = false;
  return o;
}

std::string pairs_of(const std::string& prefix, int n) {
  std::string out;
  for (int i = 0; i < n; ++i)
    out += R"({"id":")" + prefix + std::to_string(i)
           + R"(","a":"1","b":"1"})"
             "\n";
  return out;
}

std::string config_for(const fake_api& fake) {
  return R"({"judges":[{"name":"slow","type":"openai","model":"judge-model",)"
         R"("base_url":")"
         + fake.base_url()
         + R"(","temperature":0,"timeout_ms":120000,"max_in_flight":4,)"
           R"("max_attempts":1}],"votes":1})";
}

std::string start_run(api_client& api, const fake_api& fake,
                      const std::string& prefix, int pairs) {
  auto created =
    api.request("POST", "/v1/runs", "{\"config\":" + config_for(fake) + "}",
                "application/json");
  INFO(created.body);
  REQUIRE(created.status == 201);
  auto id = field(created.body, "id");
  REQUIRE(api
            .request("POST", "/v1/runs/" + id + "/pairs",
                     pairs_of(prefix, pairs), "application/x-ndjson")
            .status
          == 200);
  return id;
}

/// The run's calls counts once it has ended: sent, answered, aborted.
struct call_counts {
  std::uint64_t sent = 0, answered = 0, aborted = 0;
};

call_counts ended_counts(api_client& api, const std::string& id) {
  auto body = wait_until_ended(api, id);
  INFO(body);
  rapidjson::Document d;
  d.Parse(body.c_str());
  REQUIRE(d.IsObject());
  REQUIRE(d.HasMember("counts"));
  auto& calls = d["counts"]["calls"];
  return {calls["sent"].GetUint64(), calls["answered"].GetUint64(),
          calls["aborted"].GetUint64()};
}

/// The audit's run_end record (the last one).
rapidjson::Document last_run_end(const std::string& audit) {
  rapidjson::Document end;
  std::istringstream lines{audit};
  for (std::string line; std::getline(lines, line);)
    if (line.find("\"type\":\"run_end\"") != std::string::npos)
      end.Parse(line.c_str());
  return end;
}

} // namespace

TEST_CASE(
  "daemon: DELETE aborts the run's calls in flight, the next run's calls reach "
  "the judge at once, and the counts are the calls the judge received") {
  fake_api fake(thinking_judge());
  temp_dir dir;
  started_daemon d{dir, dir.file("state")};
  api_client api{d.url(), ""};

  auto first = start_run(api, fake, "a", 20);
  REQUIRE(eventually([&] { return fake.server().requests() == 4; }));
  REQUIRE(api.request("DELETE", "/v1/runs/" + first).status == 200);
  auto cancelled = ended_counts(api, first);
  CHECK(cancelled.sent == 4);
  CHECK(cancelled.aborted == 4);
  CHECK(cancelled.answered == 0);
  CHECK(cancelled.sent == fake.server().requests());

  // The next run on the same judge (the same worker): its calls reach the
  // server while the cancelled calls would still be thinking.
  auto next = start_run(api, fake, "b", 2);
  REQUIRE(eventually([&] { return fake.server().requests() == 6; }));
  auto seen = fake.server().exchanges();
  std::sort(seen.begin(), seen.end(),
            [](auto& x, auto& y) { return x.index < y.index; });
  REQUIRE(seen.size() == 6);
  for (std::size_t i = 4; i < 6; ++i)
    CHECK(seen[i].received < seen[0].received + thinking);

  REQUIRE(api.request("DELETE", "/v1/runs/" + next).status == 200);
  auto second = ended_counts(api, next);
  CHECK(second.sent == 2);
  CHECK(second.aborted == 2);
  CHECK(cancelled.sent + second.sent == fake.server().requests());

  // The cancelled run's audit verifies, interrupted, with the same counts.
  auto audit = api.request("GET", "/v1/runs/" + first + "/audit");
  REQUIRE(audit.status == 200);
  write_file(dir.file("a.jsonl"), audit.body);
  CHECK(audit.body.find("\"calls_sent\":4,") != std::string::npos);
  CHECK(audit.body.find("\"calls_aborted\":4,") != std::string::npos);
  auto v = invjudge(dir, "audit verify a.jsonl");
  INFO(v.out);
  CHECK(v.exit_code == 4);
  CHECK(v.out.rfind("interrupted: ", 0) == 0);
}

TEST_CASE(
  "daemon: SIGTERM aborts the runs' calls in flight, the interrupted run_end "
  "counts as sent the calls the judge received") {
  fake_api fake(thinking_judge());
  temp_dir dir;
  auto state = dir.file("state");
  std::string id;
  {
    started_daemon d{dir, state};
    api_client api{d.url(), ""};
    id = start_run(api, fake, "a", 20);
    REQUIRE(eventually([&] { return fake.server().requests() == 4; }));
    // The judge would think a minute: the daemon ends before that only if
    // the grace period's end aborted the calls.
    d.process().signal(SIGTERM);
    CHECK(d.process().wait() == 0);
    INFO(d.log());
    CHECK(d.log().find("unfinished runs resume at the next start")
          != std::string::npos);
  }
  auto audit = read_file(state + "/runs/" + id + "/audit.jsonl");
  auto end = last_run_end(audit);
  REQUIRE(end.IsObject());
  CHECK(end["interrupted"].IsTrue());
  CHECK(std::string{end["stop_reason"].GetString()}.find("SIGTERM")
        != std::string::npos);
  CHECK(end["calls_sent"].GetUint64() == fake.server().requests());
  CHECK(end["calls_aborted"].GetUint64() == 4);
  CHECK(end["calls_answered"].GetUint64() == 0);
  write_file(dir.file("a.jsonl"), audit);
  auto v = invjudge(dir, "audit verify a.jsonl");
  INFO(v.out);
  CHECK(v.exit_code == 4);
  CHECK(v.out.rfind("interrupted: ", 0) == 0);
}
