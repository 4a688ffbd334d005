// 64 clients at once against one daemon for a bounded time, each creating
// runs, uploading their pairs in two pieces, and then closing and following
// them or cancelling them: no 5xx and no failed exchange, every verdict
// line once (seq 1, 2, 3, ... without a gap or a repeat), every pair of a
// finished run decided once, every audit intact.
#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>

#include <catch2/catch.hpp>
#include <rapidjson/document.h>

#include "core/audit/audit_chain.hpp"
#include "tests/daemon/daemon_support.hpp"
#include "tests/error_text.hpp"

using namespace ij;
using namespace ij::test;

namespace {

struct load_tally {
  std::mutex mtx;
  std::vector<std::string> failures;
  std::atomic<int> done{0}, cancelled{0}, created{0};
  void fail(const std::string& what) {
    std::lock_guard<std::mutex> guard{mtx};
    if (failures.size() < 20)
      failures.push_back(what);
  }
};

/// A reply that is a 5xx or no reply at all is a failure; `ok` lists the
/// statuses the step may get.
bool expect(load_tally& t, const api_reply& r,
            std::initializer_list<unsigned> ok, const std::string& step) {
  for (auto s : ok)
    if (r.status == s)
      return true;
  t.fail(step + ": HTTP " + std::to_string(r.status) + " "
         + ::test::why(r.error) + " " + r.body);
  return false;
}

/// Follows the run's verdict lines until it has ended, checking each seq.
void follow_and_check(load_tally& t, api_client& api, const std::string& id,
                      const std::set<std::string>& ids) {
  std::uint64_t after = 0;
  std::set<std::string> seen;
  for (int round = 0; round < 6000; ++round) {
    auto state_reply = api.request("GET", "/v1/runs/" + id);
    auto r = api.request("GET", "/v1/runs/" + id
                                  + "/verdicts?after=" + std::to_string(after));
    if (!expect(t, state_reply, {200}, "state of " + id)
        || !expect(t, r, {200}, "verdicts"))
      return;
    for (auto& line : lines_of(r.body)) {
      rapidjson::Document d;
      d.Parse(line);
      if (!d.IsObject() || !d.HasMember("seq")
          || d["seq"].GetUint64() != after + 1)
        return t.fail(id + ": a verdict line out of sequence after "
                      + std::to_string(after) + ": " + line);
      after = d["seq"].GetUint64();
      if (d.HasMember("kind") && std::string{d["kind"].GetString()} == "pair") {
        std::string pid = d["id"].GetString();
        if (!ids.count(pid) || !seen.insert(pid).second)
          return t.fail(id + ": pair " + pid + " unknown or decided twice");
      }
    }
    auto state = field(state_reply.body, "state");
    if (state == "done" || state == "cancelled" || state == "failed") {
      if (state == "failed")
        t.fail(id + " failed: " + state_reply.body);
      if (state == "done" && seen != ids)
        t.fail(id + ": done with " + std::to_string(seen.size()) + " of "
               + std::to_string(ids.size()) + " pairs decided");
      (state == "done" ? t.done : t.cancelled)++;
      return;
    }
    if (r.body.empty())
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  t.fail(id + " did not end");
}

void check_audit(load_tally& t, api_client& api, const std::string& id) {
  auto audit = api.request("GET", "/v1/runs/" + id + "/audit");
  if (!expect(t, audit, {200}, "audit of " + id))
    return;
  std::istringstream in{audit.body};
  auto v = verify_audit(in);
  if (!intact(v))
    t.fail(id + ": audit " + std::string{to_string(v.status)} + ": "
           + v.reason);
}

/// One client: runs until the deadline, the `n`th doing its own mix.
void client(load_tally& t, const std::string& url, int n,
            std::chrono::steady_clock::time_point deadline,
            const std::string& first, const std::string& second,
            const std::set<std::string>& ids) {
  api_client api{url, "", std::chrono::seconds(120)};
  for (int round = 0; std::chrono::steady_clock::now() < deadline; ++round) {
    auto created = api.request("POST", "/v1/runs",
                               "{\"name\":\"load-" + std::to_string(n) + "\"}",
                               "application/json");
    if (!expect(t, created, {201}, "create"))
      return;
    ++t.created;
    auto id = field(created.body, "id");
    auto path = "/v1/runs/" + id;
    if (!expect(
          t,
          api.request("POST", path + "/pairs", first, "application/x-ndjson"),
          {200}, "upload 1")
        || !expect(
          t,
          api.request("POST", path + "/pairs", second, "application/x-ndjson"),
          {200}, "upload 2"))
      return;
    int mix = (n + round) % 4;
    if (mix == 0) { // cancelled while open
      expect(t, api.request("DELETE", path), {200}, "cancel");
    } else {
      if (!expect(t, api.request("POST", path + "/close"), {200}, "close"))
        return;
      if (mix == 1) // cancelled while running, or already done
        expect(t, api.request("DELETE", path), {200, 409}, "cancel running");
    }
    follow_and_check(t, api, id, ids);
    check_audit(t, api, id);
  }
}

} // namespace

TEST_CASE("daemon load: 64 clients at once create, upload, follow and cancel "
          "runs with no "
          "5xx, no lost or repeated verdict and every audit intact") {
  temp_dir dir;
  started_daemon d{dir, dir.file("state")};
  auto lines = lines_of(read_file(source_dir() + "/examples/pairs.jsonl"));
  std::string first, second;
  std::set<std::string> ids;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    (i < lines.size() / 2 ? first : second) += lines[i] + "\n";
    rapidjson::Document p;
    p.Parse(lines[i]);
    ids.insert(p["id"].GetString());
  }
  load_tally t;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(3);
  std::vector<std::thread> clients;
  for (int n = 0; n < 64; ++n)
    clients.emplace_back(
      [&, n] { client(t, d.url(), n, deadline, first, second, ids); });
  for (auto& c : clients)
    c.join();
  for (auto& f : t.failures)
    FAIL_CHECK(f);
  CHECK(t.created.load() >= 64);
  CHECK(t.done.load() + t.cancelled.load() == t.created.load());
  CHECK(t.done.load() > 0);
  CHECK(t.cancelled.load() > 0);
  // The daemon agrees on how many runs there were.
  api_client api{d.url(), ""};
  double in_metrics = 0;
  for (auto& line : lines_of(api.request("GET", "/metrics").body))
    if (line.rfind("invjudge_runs{", 0) == 0)
      in_metrics += std::stod(line.substr(line.rfind(' ') + 1));
  CHECK(in_metrics == t.created.load());
  // The list pages (issue 26): every page read, each run once.
  std::set<std::string> listed;
  std::string after;
  for (int page = 0; page < 1000; ++page) {
    auto body = api
                  .request("GET", "/v1/runs?limit=1000"
                                    + (after.empty() ? "" : "&after=" + after))
                  .body;
    rapidjson::Document runs;
    runs.Parse(body);
    REQUIRE(runs.IsObject());
    for (auto& r : runs["runs"].GetArray())
      CHECK(listed.insert(r["id"].GetString()).second);
    if (runs["next"].IsNull())
      break;
    after = runs["next"].GetString();
  }
  CHECK(listed.size() == static_cast<unsigned>(t.created.load()));
  CHECK(d.log().find("internal") == std::string::npos);
}
