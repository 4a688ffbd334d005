// The daemon's API through a real HTTP client: every endpoint, every bad
// request the issue names (malformed JSON, wrong content type, an unknown
// run, pairs sent to a closed run, a body over the limit, a slow client past
// the read timeout), the bearer token, /metrics against the run's counts,
// and `invjudge submit --follow`.
#include <csignal>
#include <map>
#include <regex>
#include <set>
#include <thread>

#include <arpa/inet.h>
#include <dirent.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <rapidjson/document.h>

#include "tests/daemon/daemon_support.hpp"

using namespace ij;
using namespace ij::test;

namespace {

std::string examples() {
  return read_file(source_dir() + "/examples/pairs.jsonl");
}

/// Reads one response head (up to the blank line) and, with Content-Length,
/// its body.
std::string read_response(int fd) {
  std::string got;
  char c;
  while (got.find("\r\n\r\n") == std::string::npos && ::read(fd, &c, 1) == 1)
    got += c;
  auto at = got.find("Content-Length: ");
  if (at != std::string::npos) {
    auto n = std::stoul(got.substr(at + 16));
    std::string body(n, '\0');
    std::size_t done = 0;
    ssize_t k;
    while (done < n && (k = ::read(fd, &body[done], n - done)) > 0)
      done += static_cast<std::size_t>(k);
    got += body.substr(0, done);
  }
  return got;
}

/// Every file under `dir`, recursively.
void all_files(const std::string& dir, std::vector<std::string>& out) {
  if (auto* d = ::opendir(dir.c_str())) {
    while (auto* e = ::readdir(d)) {
      std::string name = e->d_name;
      if (name == "." || name == "..")
        continue;
      auto path = dir + "/" + name;
      if (e->d_type == DT_DIR)
        all_files(path, out);
      else
        out.push_back(path);
    }
    ::closedir(d);
  }
}

/// Prometheus text: every sample line is NAME{LABELS} VALUE, every name has
/// its # TYPE first; returns the samples by their full name with labels.
std::map<std::string, double> parse_metrics(const std::string& text) {
  static const std::regex sample{
    R"(^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\]|\\.)*"(?:,[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\]|\\.)*")*\})? (-?[0-9.eE+-]+|\+Inf|NaN)$)"};
  static const std::regex type{
    R"(^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram|summary|untyped)$)"};
  std::map<std::string, double> out;
  std::set<std::string> typed;
  for (auto& line : lines_of(text)) {
    std::smatch m;
    if (line.rfind("# HELP ", 0) == 0)
      continue;
    if (std::regex_match(line, m, type)) {
      typed.insert(m[1]);
      continue;
    }
    INFO(line);
    REQUIRE(std::regex_match(line, m, sample));
    std::string name = m[1];
    auto base =
      std::regex_replace(name, std::regex{"_(bucket|sum|count)$"}, "");
    CHECK((typed.count(name) + typed.count(base)) > 0);
    out[name + std::string{m[2]}] = std::stod(m[3]);
  }
  return out;
}

} // namespace

TEST_CASE(
  "daemon API: a run from creation to its verdicts, audit and metrics") {
  temp_dir dir;
  started_daemon d{dir, dir.file("state")};
  api_client api{d.url(), ""};
  CHECK(api.request("GET", "/healthz").status == 200);

  auto created = api.request("POST", "/v1/runs", R"({"config":{},"name":"ex"})",
                             "application/json");
  REQUIRE(created.status == 201);
  auto id = field(created.body, "id");
  CHECK(field(created.body, "state") == "open");

  auto up = api.request("POST", "/v1/runs/" + id + "/pairs",
                        examples() + "not json\n", "application/x-ndjson");
  REQUIRE(up.status == 200);
  CHECK(up.body.find("\"accepted\":39") != std::string::npos);
  CHECK(up.body.find("{\"line\":40,\"reason\":\"malformed JSON")
        != std::string::npos);
  // Sent again: the ids are taken now, each line is rejected as a duplicate.
  auto dup = api.request("POST", "/v1/runs/" + id + "/pairs",
                         "{\"id\":\"frac-04\",\"a\":\"1\",\"b\":\"1\"}\n",
                         "application/x-ndjson");
  CHECK(dup.body.find("duplicate id") != std::string::npos);
  REQUIRE(api.request("POST", "/v1/runs/" + id + "/close").status == 200);
  auto ended = wait_until_ended(api, id);
  CHECK(field(ended, "state") == "done");

  // Verdicts in pieces: after=N gives those with a higher seq.
  auto all = lines_of(api.request("GET", "/v1/runs/" + id + "/verdicts").body);
  CHECK(all.size() == 39 + 7);
  auto rest =
    lines_of(api.request("GET", "/v1/runs/" + id + "/verdicts?after=40").body);
  REQUIRE(rest.size() == 6);
  CHECK(rest.front().rfind("{\"seq\":41,", 0) == 0);
  // Lines are stored a batch to a row: after=N inside a batch.
  auto mid =
    lines_of(api.request("GET", "/v1/runs/" + id + "/verdicts?after=20").body);
  REQUIRE(mid.size() == 26);
  CHECK(mid.front().rfind("{\"seq\":21,", 0) == 0);
  CHECK(mid.back() == all.back());

  auto audit = api.request("GET", "/v1/runs/" + id + "/audit");
  REQUIRE(audit.status == 200);
  write_file(dir.file("a.jsonl"), audit.body);
  auto v = invjudge(dir, "audit verify a.jsonl");
  CHECK(v.exit_code == 0);
  CHECK(audit.body.find("\"type\":\"rejected\"") != std::string::npos);

  auto list = api.request("GET", "/v1/runs");
  CHECK(list.body.find(id) != std::string::npos);

  // The metrics parse and agree with the run's counts.
  auto m = parse_metrics(api.request("GET", "/metrics").body);
  rapidjson::Document run;
  run.Parse(ended.c_str());
  auto calls = run["counts"]["judge_calls"].GetUint64();
  CHECK(m["invjudge_judge_requests_total{judge=\"rules:math\",outcome=\"ok\"}"]
        == calls);
  CHECK(m["invjudge_judge_request_duration_seconds_count{judge=\"rules:math\"}"]
        == calls);
  CHECK(m["invjudge_runs{state=\"done\"}"] == 1);
  CHECK(m["invjudge_build_info{version=\"" IJ_VERSION "\"}"] == 1);
  CHECK(m["invjudge_votes_cast_total"] == calls);
  CHECK(m.count("invjudge_judge_in_flight_cap{judge=\"rules:math\"}") == 1);
}

// Waits (bounded) until the daemon has `n` followers waiting.
bool followers_waiting(api_client& api, double n) {
  for (int i = 0; i < 1000; ++i) {
    if (parse_metrics(
          api.request("GET", "/metrics").body)["invjudge_followers_waiting"]
        == n)
      return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

TEST_CASE(
  "daemon API: a follower that waits (wait_ms) is answered when verdicts are "
  "released or the run ends, not when its wait runs out") {
  temp_dir dir;
  started_daemon d{dir, dir.file("state")};
  api_client api{d.url(), ""};
  auto id =
    field(api.request("POST", "/v1/runs", "{}", "application/json").body, "id");
  auto path = "/v1/runs/" + id + "/verdicts";

  // Nothing to read: a short wait ends with no lines, the run still open,
  // and leaves no follower behind.
  auto empty = api.request("GET", path + "?wait_ms=50");
  CHECK(empty.status == 200);
  CHECK(empty.body.empty());
  CHECK(empty.header("X-Run-State") == "open");
  CHECK(followers_waiting(api, 0));
  CHECK(api.request("GET", path + "?wait_ms=60001").status == 400);
  auto soon = api.request("GET", path + "?wait_ms=soon");
  CHECK(soon.status == 400);
  CHECK(soon.body.find("wait_ms must be a number of milliseconds from 0 to "
                       "60000, not 'soon'")
        != std::string::npos);
  CHECK(api.request("GET", "/v1/runs/run-nope/verdicts?wait_ms=10").status
        == 404);

  // Followers that would wait 60 s, with clients that give up after 30 s:
  // only the event answers them in time.
  auto follow = [&](const std::string& target, api_reply& got) {
    return std::thread([&got, target, url = d.url()] {
      api_client f{url, "", std::chrono::seconds(30)};
      got = f.request("GET", target);
    });
  };
  api_reply first, second;
  auto t1 = follow(path + "?after=0&wait_ms=60000", first);
  auto t2 = follow(path + "?after=0&wait_ms=60000", second);
  REQUIRE(followers_waiting(api, 2));
  REQUIRE(api
            .request("POST", "/v1/runs/" + id + "/pairs", examples(),
                     "application/x-ndjson")
            .status
          == 200);
  t1.join();
  t2.join();
  CHECK(first.status == 200);
  CHECK(second.status == 200);
  auto got = lines_of(first.body);
  REQUIRE(!got.empty());
  CHECK(got.front().rfind("{\"seq\":1,", 0) == 0);
  // Both woken by the first lines stored; one may have read a later batch
  // too: the lines are the same as far as both go.
  auto& shorter =
    first.body.size() <= second.body.size() ? first.body : second.body;
  auto& longer =
    first.body.size() <= second.body.size() ? second.body : first.body;
  CHECK(!shorter.empty());
  CHECK(longer.compare(0, shorter.size(), shorter) == 0);

  // Every pair's line (items come only after close), then wait again: the
  // run's end (a cancel) answers.
  std::vector<std::string> all;
  for (int i = 0; i < 1000 && all.size() < 39; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    all = lines_of(api.request("GET", path).body);
  }
  REQUIRE(all.size() == 39);
  auto last = std::to_string(all.size());
  api_reply ended;
  auto t3 = follow(path + "?after=" + last + "&wait_ms=60000", ended);
  REQUIRE(followers_waiting(api, 1));
  CHECK(api.request("DELETE", "/v1/runs/" + id).status == 200);
  t3.join();
  CHECK(ended.status == 200);
  // Woken by the run's end, or by lines it stored on its way there.
  CHECK((ended.header("X-Run-State") == "cancelled" || !ended.body.empty()));
  CHECK(followers_waiting(api, 0));

  // A run that has ended answers a wait at once.
  auto done = api.request("GET", path + "?after=" + last + "&wait_ms=60000");
  CHECK(done.status == 200);
  CHECK(done.header("X-Run-State") == "cancelled");
}

TEST_CASE("daemon API: bad requests get a clear 4xx and disturb nothing") {
  temp_dir dir;
  write_file(dir.file("serve.json"),
             R"({"max_body_bytes":4096,"io_timeout_ms":300})");
  started_daemon d{
    dir, dir.file("state"), {"--config", dir.file("serve.json")}};
  api_client api{d.url(), ""};
  auto created = api.request("POST", "/v1/runs", "{}", "application/json");
  REQUIRE(created.status == 201);
  auto id = field(created.body, "id");

  auto bad_json =
    api.request("POST", "/v1/runs", "{\"config\":", "application/json");
  CHECK(bad_json.status == 400);
  CHECK(bad_json.body.find("\"code\":\"malformed_json\"") != std::string::npos);
  auto bad_config = api.request("POST", "/v1/runs", R"({"config":{"votes":0}})",
                                "application/json");
  CHECK(bad_config.status == 400);
  CHECK(bad_config.body.find("/votes") != std::string::npos);
  CHECK(api.request("POST", "/v1/runs", "{}", "text/html").status == 415);
  CHECK(
    api.request("POST", "/v1/runs/" + id + "/pairs", "{}", "application/json")
      .status
    == 415);
  auto unknown = api.request("GET", "/v1/runs/run-nope");
  CHECK(unknown.status == 404);
  CHECK(unknown.body.find("\"code\":\"unknown_run\"") != std::string::npos);
  CHECK(api.request("PUT", "/v1/runs/" + id).status == 405);
  CHECK(api.request("GET", "/v2/nothing").status == 404);
  auto after_x = api.request("GET", "/v1/runs/" + id + "/verdicts?after=x");
  CHECK(after_x.status == 400);
  CHECK(after_x.body.find("after must be digits, not 'x'")
        != std::string::npos);
  auto big = api.request("POST", "/v1/runs",
                         "{\"name\":\"" + std::string(5000, 'x') + "\"}",
                         "application/json");
  CHECK(big.status == 413);
  CHECK(big.body.find("over the limit of 4096 bytes") != std::string::npos);
  // A client that stops sending mid-request is answered 408 and dropped.
  auto slow = raw_exchange(d.port(), "POST /v1/runs HTTP/1.1\r\nHost: x\r\n"
                                     "Content-Type: application/json\r\n"
                                     "Content-Length: 100\r\n\r\n{");
  CHECK(slow.rfind("HTTP/1.1 408", 0) == 0);

  // The run is untouched by all of that: it takes pairs, closes, ends.
  // Pair uploads are streamed: a body past max_body_bytes is taken, a piece
  // at a time, and a last line without its newline counts.
  std::string many;
  for (int i = 0; i < 200; ++i)
    many +=
      "{\"id\":\"p" + std::to_string(i) + "\",\"a\":\"2\",\"b\":\"two\"}\n";
  many += "{\"id\":\"last\",\"a\":\"2\",\"b\":\"2\"}";
  REQUIRE(many.size() > 4096);
  auto up = api.request("POST", "/v1/runs/" + id + "/pairs", many,
                        "application/x-ndjson");
  CHECK(up.status == 200);
  CHECK(up.body.find("\"accepted\":201") != std::string::npos);
  CHECK(
    api.request("POST", "/v1/runs/run-nope/pairs", "{}", "application/x-ndjson")
      .status
    == 404);
  REQUIRE(api.request("POST", "/v1/runs/" + id + "/close").status == 200);
  auto closed = api.request("POST", "/v1/runs/" + id + "/pairs",
                            "{\"id\":\"q\",\"a\":\"2\",\"b\":\"2\"}\n",
                            "application/x-ndjson");
  CHECK(closed.status == 409);
  CHECK(field(wait_until_ended(api, id), "state") == "done");
  CHECK(api.request("DELETE", "/v1/runs/" + id).status == 409);

  // A cancelled run: no more calls, its audit ends marked interrupted.
  auto other = api.request("POST", "/v1/runs", "{}", "application/json");
  auto oid = field(other.body, "id");
  auto del = api.request("DELETE", "/v1/runs/" + oid);
  CHECK(del.status == 200);
  CHECK(field(del.body, "state") == "cancelled");
  auto cancelled_audit = api.request("GET", "/v1/runs/" + oid + "/audit").body;
  CHECK(
    cancelled_audit.find("\"stop_reason\":\"cancelled (DELETE /v1/runs/" + oid)
    != std::string::npos);
  write_file(dir.file("c.jsonl"), cancelled_audit);
  CHECK(invjudge(dir, "audit verify c.jsonl").exit_code
        == 4); // interrupted, intact
}

TEST_CASE("daemon API: a client sending Expect: 100-continue is told to go on "
          "before it "
          "sends the body") {
  temp_dir dir;
  started_daemon d{dir, dir.file("state")};
  int fd = connect_to(d.port());
  std::string config = R"({"config":{}})";
  std::string head =
    "POST /v1/runs HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
    "Expect: 100-continue\r\nContent-Length: "
    + std::to_string(config.size()) + "\r\n\r\n";
  REQUIRE(::write(fd, head.data(), head.size())
          == static_cast<ssize_t>(head.size()));
  // Nothing of the body is sent until the server says so.
  CHECK(read_response(fd).rfind("HTTP/1.1 100 Continue\r\n", 0) == 0);
  REQUIRE(::write(fd, config.data(), config.size())
          == static_cast<ssize_t>(config.size()));
  auto created = read_response(fd);
  REQUIRE(created.rfind("HTTP/1.1 201", 0) == 0);
  auto id = field(created.substr(created.find("\r\n\r\n") + 4), "id");
  // The same for a streamed pair upload.
  auto pairs = examples();
  head = "POST /v1/runs/" + id
         + "/pairs HTTP/1.1\r\nHost: x\r\n"
           "Content-Type: application/x-ndjson\r\nExpect: 100-continue\r\n"
           "Content-Length: "
         + std::to_string(pairs.size()) + "\r\n\r\n";
  REQUIRE(::write(fd, head.data(), head.size())
          == static_cast<ssize_t>(head.size()));
  CHECK(read_response(fd).rfind("HTTP/1.1 100 Continue\r\n", 0) == 0);
  REQUIRE(::write(fd, pairs.data(), pairs.size())
          == static_cast<ssize_t>(pairs.size()));
  auto up = read_response(fd);
  CHECK(up.rfind("HTTP/1.1 200", 0) == 0);
  CHECK(up.find("\"accepted\":39") != std::string::npos);
  ::close(fd);
}

TEST_CASE("daemon auth: 401 without or with a wrong token, and the token is "
          "never written") {
  temp_dir dir;
  const std::string token = "tok-E2E-9f3a7c21d";
  write_file(dir.file("token"), token + "\n");
  {
    started_daemon d{
      dir, dir.file("state"), {"--token-file", dir.file("token")}};
    api_client none{d.url(), ""};
    api_client wrong{d.url(), "tok-E2E-9f3a7c21e"};
    api_client right{d.url(), token};
    CHECK(none.request("GET", "/healthz").status == 200);
    CHECK(none.request("GET", "/v1/runs").status == 401);
    CHECK(wrong.request("GET", "/v1/runs").status == 401);
    CHECK(wrong.request("GET", "/metrics").status == 401);
    auto created = right.request("POST", "/v1/runs", "{}", "application/json");
    REQUIRE(created.status == 201);
    auto id = field(created.body, "id");
    right.request("POST", "/v1/runs/" + id + "/pairs", examples(),
                  "application/x-ndjson");
    right.request("POST", "/v1/runs/" + id + "/close");
    CHECK(field(wait_until_ended(right, id), "state") == "done");
    d.process().signal(SIGTERM);
    CHECK(d.process().wait() == 0);
    CHECK(d.log().find(token) == std::string::npos);
  }
  std::vector<std::string> files;
  all_files(dir.file("state"), files);
  CHECK(files.size() >= 3);
  for (auto& f : files) {
    INFO(f);
    CHECK(read_file(f).find(token) == std::string::npos);
  }
  // No token: only a loopback address.
  auto refused = invjudge(dir, "serve --listen 0.0.0.0:0 --state s2");
  CHECK(refused.exit_code == 3);
  CHECK(refused.err.find("without a token") != std::string::npos);
}

TEST_CASE(
  "invjudge submit --follow prints the verdicts as they come and the counts") {
  temp_dir dir;
  started_daemon d{dir, dir.file("state")};
  auto r = invjudge(dir, "submit --server " + d.url() + " --pairs "
                           + shell_quote(source_dir() + "/examples/pairs.jsonl")
                           + " --follow --out v.jsonl");
  INFO(r.err);
  CHECK(r.exit_code == 0);
  CHECK(lines_of(read_file(dir.file("v.jsonl"))).size() == 39 + 7);
  CHECK(r.err.find(" done: ") != std::string::npos);
  auto bad =
    invjudge(dir, "submit --server " + d.url() + " --pairs nothing.jsonl");
  CHECK(bad.exit_code == 2);
  auto down =
    invjudge(dir, "submit --server http://127.0.0.1:1 --pairs "
                    + shell_quote(source_dir() + "/examples/pairs.jsonl"));
  CHECK(down.exit_code == 4);
  CHECK(down.err.find("cannot connect") != std::string::npos);
}
