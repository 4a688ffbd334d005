// What the daemon keeps and for how long (issue 26, item 1): SERVE.json's
// retention removes finished runs — the last N kept, or N days after their
// end — with their files and rows, a log line and a metric; a removed run
// answers 410 Gone naming its id on every endpoint, an unknown one still
// 404. And no request holds a thread for a run: one no actor answers within
// reply_timeout_ms is 503 busy (a close waiting behind an upload under way).
// GET /v1/runs pages with ?limit=&after=; a bad value is a 400 naming it.
#include <chrono>
#include <csignal>
#include <thread>

#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <rapidjson/document.h>
#include <sqlite3.h>

#include "tests/daemon/daemon_support.hpp"
#include "tests/error_text.hpp"

using namespace ij;
using namespace ij::test;

namespace {

std::string finished_run(api_client& api, const std::string& pairs) {
  auto created = api.request("POST", "/v1/runs", "{}", "application/json");
  REQUIRE(created.status == 201);
  auto id = field(created.body, "id");
  REQUIRE(api
            .request("POST", "/v1/runs/" + id + "/pairs", pairs,
                     "application/x-ndjson")
            .status
          == 200);
  REQUIRE(api.request("POST", "/v1/runs/" + id + "/close").status == 200);
  REQUIRE(field(wait_until_ended(api, id), "state") == "done");
  return id;
}

/// The value of a metric line that starts with `name_and_labels` (-1: none).
double metric(const std::string& text, const std::string& name_and_labels) {
  for (auto& line : lines_of(text))
    if (line.rfind(name_and_labels + " ", 0) == 0)
      return std::stod(line.substr(name_and_labels.size() + 1));
  return -1;
}

bool exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

/// Every endpoint of a removed run answers 410 run_removed naming it.
void check_gone(api_client& api, const std::string& id) {
  for (auto [method, target] : std::vector<std::pair<std::string, std::string>>{
         {"GET", "/v1/runs/" + id},
         {"GET", "/v1/runs/" + id + "/verdicts?after=0"},
         {"GET", "/v1/runs/" + id + "/audit"},
         {"DELETE", "/v1/runs/" + id},
         {"POST", "/v1/runs/" + id + "/close"}}) {
    auto r = api.request(method, target);
    INFO(method << " " << target << ": " << r.body);
    CHECK(r.status == 410);
    CHECK(r.body.find("\"run_removed\"") != std::string::npos);
    CHECK(r.body.find(id) != std::string::npos);
  }
  auto up = api.request("POST", "/v1/runs/" + id + "/pairs",
                        "{\"id\":\"x\",\"a\":\"1\",\"b\":\"1\"}\n",
                        "application/x-ndjson");
  CHECK(up.status == 410);
}

} // namespace

TEST_CASE(
  "daemon retention: only the last N finished runs are kept, the others' files "
  "and "
  "rows go, they answer 410 naming their id, with a log line and a metric") {
  temp_dir dir;
  write_file(dir.file("serve.json"), R"({"retention": {"runs": 2}})");
  started_daemon d{
    dir, dir.file("state"), {"--config", dir.file("serve.json")}};
  api_client api{d.url(), ""};
  auto pairs = invjudge(dir, "gen-pairs 5").out;
  std::vector<std::string> ids;
  for (int i = 0; i < 4; ++i)
    ids.push_back(finished_run(api, pairs));
  // The retention looks soon after each end; a pass is counted once its
  // rows and files are gone.
  CHECK(eventually([&] {
    return metric(api.request("GET", "/metrics").body,
                  "invjudge_runs_removed_total")
           == 2;
  }));
  for (int i = 0; i < 2; ++i) {
    check_gone(api, ids[i]);
    CHECK_FALSE(exists(dir.file("state/runs/" + ids[i])));
  }
  for (int i = 2; i < 4; ++i) {
    CHECK(field(api.request("GET", "/v1/runs/" + ids[i]).body, "state")
          == "done");
    CHECK(api.request("GET", "/v1/runs/" + ids[i] + "/audit")
            .body.find("\"run_end\"")
          != std::string::npos);
    CHECK(exists(dir.file("state/runs/" + ids[i] + "/audit.jsonl")));
  }
  auto unknown = api.request("GET", "/v1/runs/run-never-was");
  CHECK(unknown.status == 404);
  auto list = api.request("GET", "/v1/runs");
  CHECK(list.body.find(ids[0]) == std::string::npos);
  CHECK(list.body.find(ids[3]) != std::string::npos);
  auto m = api.request("GET", "/metrics").body;
  CHECK(metric(m, "invjudge_runs_removed_total") == 2);
  CHECK(metric(m, "invjudge_runs{state=\"done\"}") == 2);
  CHECK(metric(m, "invjudge_run_counts{count=\"pairs\"}") == 10);
  CHECK(eventually(
    [&] { return d.log().find("retention: removed") != std::string::npos; }));
  CHECK(d.log().find(ids[0]) != std::string::npos);
}

TEST_CASE("daemon retention: a run is removed N days after its end, also after "
          "a restart, and "
          "the sums in /metrics lose it") {
  temp_dir dir;
  auto state = dir.file("state");
  auto pairs = invjudge(dir, "gen-pairs 5").out;
  std::string old_id, new_id;
  {
    started_daemon d{dir, state};
    api_client api{d.url(), ""};
    old_id = finished_run(api, pairs);
    new_id = finished_run(api, pairs);
    d.process().signal(SIGTERM);
    REQUIRE(d.process().wait() == 0);
  }
  // The older run ended three days ago.
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open((state + "/state.sqlite").c_str(), &db) == SQLITE_OK);
  auto sql =
    "UPDATE runs SET finished_ms = finished_ms - 3 * 86400000 WHERE id = '"
    + old_id + "'";
  CHECK(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr) == SQLITE_OK);
  sqlite3_close(db);
  write_file(dir.file("serve.json"), R"({"retention": {"days": 1}})");
  started_daemon d{dir, state, {"--config", dir.file("serve.json")}, "serve-2"};
  api_client api{d.url(), ""};
  CHECK(eventually([&] {
    return metric(api.request("GET", "/metrics").body,
                  "invjudge_runs_removed_total")
           == 1;
  }));
  check_gone(api, old_id);
  CHECK_FALSE(exists(state + "/runs/" + old_id));
  CHECK(eventually([&] {
    return d.log().find("retention: removed 1 finished run(s), " + old_id)
           != std::string::npos;
  }));
  CHECK(field(api.request("GET", "/v1/runs/" + new_id).body, "state")
        == "done");
  auto m = api.request("GET", "/metrics").body;
  CHECK(metric(m, "invjudge_runs{state=\"done\"}") == 1);
  CHECK(metric(m, "invjudge_run_counts{count=\"pairs\"}") == 5);
}

TEST_CASE("daemon: GET /v1/runs pages with limit and after, oldest first, each "
          "run once, a "
          "bad limit or cursor is 400 naming it") {
  temp_dir dir;
  started_daemon d{dir, dir.file("state")};
  api_client api{d.url(), ""};
  std::vector<std::string> ids;
  for (int i = 0; i < 5; ++i)
    ids.push_back(field(
      api.request("POST", "/v1/runs", "{}", "application/json").body, "id"));
  std::vector<std::string> listed;
  std::string after;
  int pages = 0;
  for (; pages < 10; ++pages) {
    auto r = api.request("GET", "/v1/runs?limit=2"
                                  + (after.empty() ? "" : "&after=" + after));
    INFO(r.body);
    REQUIRE(r.status == 200);
    rapidjson::Document page;
    page.Parse(r.body);
    REQUIRE(page.IsObject());
    CHECK(page["runs"].Size() <= 2);
    for (auto& run : page["runs"].GetArray())
      listed.push_back(run["id"].GetString());
    if (page["next"].IsNull())
      break;
    after = page["next"].GetString();
  }
  CHECK(pages == 2); // 2 + 2 + 1
  CHECK(listed == ids);
  for (auto [query, named] : std::vector<std::pair<std::string, std::string>>{
         {"limit=0", "limit must be a number of runs from 1 to 1000, not '0'"},
         {"limit=1001", "limit must be"},
         {"limit=abc", "not 'abc'"},
         {"limit=-1", "limit must be"},
         {"limit=", "limit must be"},
         {"after=12", "after must be a page's next cursor, not '12'"},
         {"after=x:" + ids[0], "after must be a page's next cursor"}}) {
    auto r = api.request("GET", "/v1/runs?" + query);
    INFO(query << ": " << r.body);
    CHECK(r.status == 400);
    CHECK(r.body.find("\"bad_request\"") != std::string::npos);
    CHECK(r.body.find(named) != std::string::npos);
  }
  for (auto& id : ids)
    CHECK(api.request("DELETE", "/v1/runs/" + id).status == 200);
}

TEST_CASE("daemon: a request no run answers within reply_timeout_ms is 503 "
          "busy, holding no "
          "thread: a close behind an upload under way") {
  temp_dir dir;
  write_file(dir.file("serve.json"), R"({"reply_timeout_ms": 300})");
  started_daemon d{
    dir, dir.file("state"), {"--config", dir.file("serve.json")}};
  api_client api{d.url(), ""};
  // An upload that has sent its headers and one line, and holds the run's
  // input while the rest of its body is on its way. A close that reaches
  // the run before the upload does closes it (200): then the test starts
  // again with a new run, after a longer head start for the upload.
  std::string line = "{\"id\":\"p1\",\"a\":\"1\",\"b\":\"1\"}\n";
  std::string rest = "{\"id\":\"p2\",\"a\":\"2\",\"b\":\"2\"}\n";
  std::string id;
  int fd = -1;
  for (int attempt = 0; attempt < 8 && fd < 0; ++attempt) {
    auto created = api.request("POST", "/v1/runs", "{}", "application/json");
    REQUIRE(created.status == 201);
    id = field(created.body, "id");
    fd = connect_to(d.port());
    REQUIRE(fd >= 0);
    REQUIRE(send_all(
      fd, "POST /v1/runs/" + id
            + "/pairs HTTP/1.1\r\nHost: x\r\n"
              "Connection: close\r\nContent-Type: application/x-ndjson\r\n"
              "Content-Length: "
            + std::to_string(line.size() + rest.size()) + "\r\n\r\n" + line));
    std::this_thread::sleep_for(std::chrono::milliseconds(50 << attempt));
    // The upload holds the input once its run has lent it; a close waits
    // for it, and gets 503 at the deadline — the server answered other
    // requests meanwhile.
    if (api.request("POST", "/v1/runs/" + id + "/close").status != 503) {
      ::close(fd);
      fd = -1;
    }
  }
  REQUIRE(fd >= 0);
  auto busy = api.request("POST", "/v1/runs/" + id + "/close");
  INFO(busy.body);
  CHECK(busy.status == 503);
  CHECK(busy.body.find("\"busy\"") != std::string::npos);
  CHECK(busy.header("Retry-After") == "1");
  CHECK(api.request("GET", "/healthz").status == 200);
  CHECK(api.request("GET", "/v1/runs/" + id).status == 200);
  // The upload ends: both lines taken; the close then goes through.
  REQUIRE(send_all(fd, rest));
  auto reply = read_until_closed(fd, 10000);
  ::close(fd);
  CHECK(reply.find("\"accepted\":2") != std::string::npos);
  // The closes answered 503 were queued and went through: the run may
  // already be done; a close sent again says 200 either way.
  auto closed = api.request("POST", "/v1/runs/" + id + "/close");
  INFO(closed.body);
  CHECK(closed.status == 200);
  CHECK(field(wait_until_ended(api, id), "state") == "done");
  auto again = api.request("POST", "/v1/runs/" + id + "/close");
  INFO(again.body);
  CHECK(again.status == 200);
  CHECK(field(again.body, "state") == "done");
}
