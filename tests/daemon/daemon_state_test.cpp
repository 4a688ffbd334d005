// The daemon's state is its own and its counts mean what they say: a second
// daemon on one --state is refused (exit 3, the holder's pid) and never
// touches the first's runs; an empty --state is refused and a relative one
// made absolute; a rejected line is recorded, never stored whole; a failed
// run keeps its counts; decided pairs exclude faults and so do votes cast;
// the run's final hash is the audit's.
#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <thread>

#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <rapidjson/document.h>

#include "tests/daemon/daemon_support.hpp"
#include "tests/http/fake_apis.hpp"

using namespace ij;
using namespace ij::test;

namespace {

std::string numbered_pairs(const std::string& prefix, int n) {
  std::string out;
  for (int i = 0; i < n; ++i)
    out += R"({"id":")" + prefix + std::to_string(i) + R"(","item":"q)"
           + std::to_string(i % 5) + R"(","a":")" + std::to_string(i)
           + R"(","b":")" + std::to_string(i) + "\"}\n";
  return out;
}

std::string create_run(api_client& api, const std::string& config) {
  auto created = api.request("POST", "/v1/runs", "{\"config\":" + config + "}",
                             "application/json");
  INFO(created.body);
  REQUIRE(created.status == 201);
  return field(created.body, "id");
}

/// How an `invjudge serve` attempt ended: its exit code, or -1 when it
/// started listening (it is then stopped), and its stderr.
struct serve_attempt {
  int exit_code = -1;
  std::string err;
};

bool exited(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(in)), {});
  auto close = text.rfind(')');
  return close == std::string::npos || text.substr(close + 2, 1) == "Z";
}

serve_attempt try_serve(const temp_dir& dir, std::vector<std::string> args,
                        const std::string& tag, const std::string& cwd = {}) {
  auto err = dir.file(tag + ".err");
  args.insert(args.begin(), {"serve", "--listen", "127.0.0.1:0"});
  invjudge_process p{args, dir.file(tag + ".out"), err, -1, cwd};
  serve_attempt out;
  // Bounded only so that a broken build cannot hang the suite.
  for (int i = 0; i < 3000; ++i) {
    if (read_file(err).find("listening on") != std::string::npos) {
      p.signal(SIGTERM);
      p.wait();
      out.err = read_file(err);
      return out;
    }
    if (exited(p.pid())) {
      out.exit_code = p.wait();
      out.err = read_file(err);
      return out;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  p.signal(SIGKILL);
  p.wait();
  out.err = read_file(err);
  return out;
}

std::uint64_t count_of(const std::string& run_json, const char* name,
                       const char* group = nullptr) {
  rapidjson::Document d;
  d.Parse(run_json);
  REQUIRE(d.IsObject());
  REQUIRE(d.HasMember("counts"));
  const rapidjson::Value* obj = &d["counts"];
  if (group) {
    REQUIRE(obj->HasMember(group));
    obj = &(*obj)[group];
  }
  REQUIRE(obj->IsObject());
  REQUIRE(obj->HasMember(name));
  return (*obj)[name].GetUint64();
}

/// A metric's value in /metrics text ("" when absent).
std::string metric(const std::string& text, const std::string& name) {
  auto at = text.find("\n" + name + " ");
  if (at == std::string::npos)
    return {};
  at += name.size() + 2;
  return text.substr(at, text.find('\n', at) - at);
}

fake_api_options slow_judge() {
  fake_api_options o;
  o.kind = api_kind::openai;
  o.reply_text = "DECISION: EQUIVALENT\nREASON: same value\nNUMERIC_A: 1\n"
                 "NUMERIC_B: 1";
  o.latency = std::chrono::milliseconds(10);
  o.threads = 4;
  o.record_requests = false;
  return o;
}

std::string config_for(const fake_api& fake) {
  return R"({"judges":[{"name":"fake","type":"openai","model":"judge-model",)"
         R"("base_url":")"
         + fake.base_url()
         + R"(","temperature":0,"timeout_ms":60000,"max_in_flight":4,)"
           R"("max_attempts":1}],"votes":1})";
}

} // namespace

TEST_CASE("daemon state: a second serve on the same state exits 3 naming the "
          "first's pid") {
  fake_api fake(slow_judge());
  temp_dir dir;
  auto state = dir.file("state");
  std::string id;
  constexpr int pairs = 300;
  {
    started_daemon first{dir, state, {}, "first"};
    api_client api{first.url(), ""};
    id = create_run(api, config_for(fake));
    REQUIRE(api
              .request("POST", "/v1/runs/" + id + "/pairs",
                       numbered_pairs("p", pairs), "application/x-ndjson")
              .status
            == 200);
    REQUIRE(api.request("POST", "/v1/runs/" + id + "/close").status == 200);

    auto second = try_serve(dir, {"--state", state}, "second");
    INFO(second.err);
    CHECK(second.exit_code == 3);
    CHECK(second.err.find("pid " + std::to_string(first.process().pid()))
          != std::string::npos);
    CHECK(second.err.find("in use") != std::string::npos);
    // The first daemon's run lives on and finishes.
    CHECK(field(api.request("GET", "/v1/runs/" + id).body, "state")
          != "failed");
    auto ended = wait_until_ended(api, id);
    CHECK(field(ended, "state") == "done");
    CHECK(count_of(ended, "verdicts") == pairs);
    first.process().signal(SIGTERM);
    CHECK(first.process().wait() == 0);
  }
  // Nothing marked it failed meanwhile: after a restart it is still done.
  started_daemon again{dir, state, {}, "again"};
  api_client api{again.url(), ""};
  auto row = api.request("GET", "/v1/runs/" + id).body;
  CHECK(field(row, "state") == "done");
  CHECK(field(row, "error").empty());
}

TEST_CASE(
  "daemon state: an empty --state exits 3, a relative one is made absolute") {
  temp_dir dir;
  auto empty = try_serve(dir, {"--state", ""}, "empty");
  CHECK(empty.exit_code == 3);
  CHECK(empty.err.find("--state: the state directory is empty")
        != std::string::npos);
  auto root = try_serve(dir, {"--state", "/"}, "root");
  CHECK(root.exit_code == 3);

  auto relative =
    try_serve(dir, {"--state", "rel/./state"}, "relative", dir.path());
  INFO(relative.err);
  CHECK(relative.exit_code == -1); // it listened
  CHECK(relative.err.find("state directory " + dir.path() + "/rel/state\n")
        != std::string::npos);
  struct stat st {};
  CHECK(::stat(dir.file("rel/state/state.sqlite").c_str(), &st) == 0);
  CHECK(::stat(dir.file("rel/state/lock").c_str(), &st) == 0);
}

TEST_CASE("daemon state: a huge rejected line is recorded, not stored, and "
          "numbering survives a restart") {
  temp_dir dir;
  auto state = dir.file("state");
  std::string id;
  std::string big = R"({"id":"big","item":"q","a":")"
                    + std::string(3u << 20, '7') + R"(","b":"7"})";
  {
    started_daemon d{dir, state, {}, "first"};
    api_client api{d.url(), ""};
    id = create_run(api, "{}");
    auto up =
      api.request("POST", "/v1/runs/" + id + "/pairs",
                  numbered_pairs("a", 1) + big + "\n" + numbered_pairs("b", 1),
                  "application/x-ndjson");
    INFO(up.body);
    REQUIRE(up.status == 200);
    CHECK(field(up.body, "accepted") == "2");
    CHECK(up.body.find(R"({"line":2,"reason":"line longer than)")
          != std::string::npos);
    d.process().signal(SIGTERM);
    CHECK(d.process().wait() == 0);
  }
  // The file holds a record of the line (number, reason, its first bytes).
  auto stored = read_file(state + "/runs/" + id + "/pairs.jsonl");
  CHECK(stored.size() < 4096);
  CHECK(stored.find(R"({"rejected":{"line":2,"reason":"line longer than)")
        != std::string::npos);
  CHECK(stored.find(R"("prefix":"{\"id\":\"big\",)") != std::string::npos);

  started_daemon again{dir, state, {}, "second"};
  api_client api{again.url(), ""};
  // Line numbers and duplicate ids go on from the stored lines.
  auto up = api.request("POST", "/v1/runs/" + id + "/pairs",
                        numbered_pairs("a", 1) + numbered_pairs("c", 1),
                        "application/x-ndjson");
  INFO(up.body);
  CHECK(field(up.body, "accepted") == "1");
  CHECK(up.body.find(R"({"line":4,"reason":"duplicate id \"a0\""})")
        != std::string::npos);
  REQUIRE(api.request("POST", "/v1/runs/" + id + "/close").status == 200);
  auto ended = wait_until_ended(api, id);
  CHECK(field(ended, "state") == "done");
  CHECK(count_of(ended, "pairs") == 3);
  CHECK(count_of(ended, "rejected") == 2);
  CHECK(count_of(ended, "verdicts") == 3);
  // Both rejections are audited with their line numbers, once each.
  auto audit = api.request("GET", "/v1/runs/" + id + "/audit").body;
  CHECK(audit.find(R"("line":2,"reason":"line longer than)")
        != std::string::npos);
  CHECK(audit.find(R"("line":4,"reason":"duplicate id)") != std::string::npos);
  write_file(dir.file("a.jsonl"), audit);
  CHECK(invjudge(dir, "audit verify a.jsonl").exit_code == 0);
}

TEST_CASE("daemon counts: a run that fails on resume keeps its counts") {
  fake_api fake(slow_judge());
  temp_dir dir;
  auto state = dir.file("state");
  std::string id;
  constexpr int pairs = 400;
  {
    started_daemon d{dir, state, {}, "first"};
    api_client api{d.url(), ""};
    id = create_run(api, config_for(fake));
    REQUIRE(api
              .request("POST", "/v1/runs/" + id + "/pairs",
                       numbered_pairs("p", pairs), "application/x-ndjson")
              .status
            == 200);
    REQUIRE(api.request("POST", "/v1/runs/" + id + "/close").status == 200);
    // Some verdicts stored, then killed.
    for (int i = 0;
         i < 3000
         && api.request("GET", "/v1/runs/" + id + "/verdicts").body.empty();
         ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    d.process().signal(SIGKILL);
    d.process().wait();
  }
  // Its audit gone, the run cannot resume: the daemon marks it failed.
  REQUIRE(std::remove((state + "/runs/" + id + "/audit.jsonl").c_str()) == 0);
  started_daemon again{dir, state, {}, "second"};
  api_client api{again.url(), ""};
  auto row = api.request("GET", "/v1/runs/" + id).body;
  INFO(row);
  CHECK(field(row, "state") == "failed");
  CHECK(count_of(row, "pairs") == pairs);
  auto stored =
    lines_of(api.request("GET", "/v1/runs/" + id + "/verdicts").body);
  REQUIRE(!stored.empty());
  // The counts as of the last stored verdict line.
  CHECK(count_of(row, "verdicts") == stored.size());
  CHECK(count_of(row, "I4", "by_rule") == stored.size());
  CHECK(count_of(row, "decided") == stored.size());
}

TEST_CASE("daemon counts: decided pairs and votes cast exclude faults, the "
          "same in /metrics") {
  temp_dir dir;
  started_daemon d{dir, dir.file("state")};
  api_client api{d.url(), ""};
  // A judge nobody serves: every call fails (connection refused).
  auto id = create_run(
    api,
    R"({"judges":[{"name":"down","type":"openai","model":"m",)"
    R"("base_url":"http://127.0.0.1:1/v1","temperature":0,)"
    R"("timeout_ms":2000,"max_in_flight":4,"max_attempts":1}],"votes":1})");
  REQUIRE(api
            .request("POST", "/v1/runs/" + id + "/pairs",
                     read_file(source_dir() + "/examples/pairs.jsonl"),
                     "application/x-ndjson")
            .status
          == 200);
  REQUIRE(api.request("POST", "/v1/runs/" + id + "/close").status == 200);
  auto ended = wait_until_ended(api, id);
  INFO(ended);
  CHECK(field(ended, "state") == "done");
  auto faulted = count_of(ended, "I2", "by_rule");
  CHECK(faulted > 0);
  CHECK(count_of(ended, "verdicts") == 39);
  CHECK(count_of(ended, "decided") == 0);
  CHECK(count_of(ended, "decided")
        == count_of(ended, "I4", "by_rule") + count_of(ended, "I5", "by_rule"));
  CHECK(count_of(ended, "faults") >= faulted);
  auto m = api.request("GET", "/metrics").body;
  INFO(m);
  CHECK(metric(m, "invjudge_votes_cast_total") == "0");
  CHECK(metric(m, "invjudge_votes_faulted_total")
        == std::to_string(count_of(ended, "faults")));
  CHECK(metric(m, "invjudge_run_counts{count=\"decided\"}") == "0");
  CHECK(metric(m, "invjudge_run_counts{count=\"by_rule.I2\"}")
        == std::to_string(faulted));

  // The rule judge on the same pairs: decided pairs and votes cast.
  auto ok = create_run(api, "{}");
  api.request("POST", "/v1/runs/" + ok + "/pairs",
              read_file(source_dir() + "/examples/pairs.jsonl"),
              "application/x-ndjson");
  api.request("POST", "/v1/runs/" + ok + "/close");
  auto done = wait_until_ended(api, ok);
  CHECK(count_of(done, "decided") > 0);
  CHECK(count_of(done, "decided")
        == count_of(done, "I4", "by_rule") + count_of(done, "I5", "by_rule"));
  CHECK(metric(api.request("GET", "/metrics").body, "invjudge_votes_cast_total")
        != "0");
}

TEST_CASE(
  "daemon final hash: the run's, submit's last line and audit verify agree") {
  temp_dir dir;
  started_daemon d{dir, dir.file("state")};
  auto r = invjudge(dir, "submit --server " + d.url() + " --pairs "
                           + shell_quote(source_dir() + "/examples/pairs.jsonl")
                           + " --follow --out v.jsonl");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  // submit's last line (a sanitizer build may print its summary after).
  std::string last;
  for (auto& line : lines_of(r.err))
    if (line.rfind("invjudge submit: ", 0) == 0)
      last = line;
  auto at = last.find(" final hash: ");
  REQUIRE(at != std::string::npos);
  auto hash = last.substr(at + 13);
  CHECK(hash.size() == 64);
  auto id = last.substr(last.find("run ") + 4);
  id = id.substr(0, id.find(' '));
  api_client api{d.url(), ""};
  CHECK(field(api.request("GET", "/v1/runs/" + id).body, "final_hash") == hash);
  write_file(dir.file("a.jsonl"),
             api.request("GET", "/v1/runs/" + id + "/audit").body);
  auto v = invjudge(dir, "audit verify a.jsonl --expect-hash " + hash);
  INFO(v.out);
  CHECK(v.exit_code == 0);
  CHECK(v.out.find("final hash: " + hash) != std::string::npos);
}

TEST_CASE("daemon runs: an upload past the run's backlog is read back from its "
          "file, nothing lost or doubled") {
  temp_dir dir;
  started_daemon d{dir, dir.file("state")};
  api_client api{d.url(), ""};
  // 20,000 pairs of about 1.3 KB (a long "transform" note) in one upload:
  // handed to the run at once, more than its backlog (16 MiB) holds; the
  // rest is read back from the file.
  auto pairs = invjudge(dir, "gen-pairs 20000").out;
  const std::string note =
    "\"transform\":\"synthetic " + std::string(1000, 'x');
  for (auto at = pairs.find("\"transform\":\"synthetic");
       at != std::string::npos;
       at = pairs.find("\"transform\":\"synthetic", at + note.size()))
    pairs.replace(at, std::string{"\"transform\":\"synthetic"}.size(), note);
  REQUIRE(pairs.size() > (std::size_t{20} << 20));
  auto id = create_run(api, "{}");
  auto up = api.request("POST", "/v1/runs/" + id + "/pairs", pairs,
                        "application/x-ndjson");
  REQUIRE(up.status == 200);
  CHECK(field(up.body, "accepted") == "20000");
  REQUIRE(api.request("POST", "/v1/runs/" + id + "/close").status == 200);
  auto ended = wait_until_ended(api, id);
  CHECK(field(ended, "state") == "done");
  CHECK(count_of(ended, "verdicts") == 20000);
  // The same lines as the driver's on the same pairs, each once.
  std::vector<std::string> lines;
  for (std::uint64_t after = 0;;) {
    auto got = lines_of(api
                          .request("GET", "/v1/runs/" + id + "/verdicts?after="
                                            + std::to_string(after))
                          .body);
    if (got.empty())
      break;
    for (auto& line : got)
      lines.push_back("{" + line.substr(line.find(',') + 1));
    after += got.size();
  }
  write_file(dir.file("pairs.jsonl"), pairs);
  REQUIRE(
    invjudge(
      dir, "run --pairs pairs.jsonl --audit u.jsonl --out u.out --no-progress")
      .exit_code
    == 0);
  auto driver = lines_of(read_file(dir.file("u.out")));
  std::sort(lines.begin(), lines.end());
  std::sort(driver.begin(), driver.end());
  CHECK(lines.size() == driver.size());
  CHECK(lines == driver);
}
