// Ctrl-C ends a run cleanly: exit 4, the audit ends with a run_end record
// marked interrupted that agrees with the records before it, and it verifies
// as interrupted (intact, not edited).
#include <csignal>
#include <set>
#include <thread>

#include <fcntl.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <rapidjson/document.h>

#include "cli_support.hpp"
#include "tests/http/fake_apis.hpp"

using namespace ij::test;

namespace {

/// What an audit's records say, recounted here independently of
/// `audit verify`.
struct recount {
  std::set<std::string> verdict_ids;
  std::set<std::string> recorded_ids; // any judge_call, vote or verdict
  std::uint64_t judge_calls = 0;
  std::uint64_t by_rule[5] = {0, 0, 0, 0, 0};
  rapidjson::Document run_end;
};

recount recount_audit(const std::string& path) {
  recount r;
  auto lines = lines_of(read_file(path));
  REQUIRE_FALSE(lines.empty());
  for (auto& line : lines) {
    rapidjson::Document d;
    d.Parse(line.c_str());
    REQUIRE_FALSE(d.HasParseError());
    std::string type = d["type"].GetString();
    if (type == "judge_call" || type == "vote" || type == "verdict")
      r.recorded_ids.insert(d["pair_id"].GetString());
    if (type == "judge_call")
      ++r.judge_calls;
    if (type == "verdict") {
      r.verdict_ids.insert(d["pair_id"].GetString());
      ++r.by_rule[d["rule"].GetString()[1] - '1'];
    }
  }
  r.run_end.Parse(lines.back().c_str());
  REQUIRE(r.run_end["type"].GetString() == std::string{"run_end"});
  return r;
}

/// Pair ids of the pair lines of an output file.
std::set<std::string> output_ids(const std::string& path) {
  std::set<std::string> ids;
  for (auto& line : lines_of(read_file(path))) {
    rapidjson::Document d;
    d.Parse(line.c_str());
    REQUIRE_FALSE(d.HasParseError());
    if (d["kind"].GetString() == std::string{"pair"})
      ids.insert(d["id"].GetString());
  }
  return ids;
}

/// Joins the thread when the test ends, also when it fails early (declared
/// before the process, so that the process is killed first and the writer
/// sees a closed pipe).
struct joining_thread {
  std::thread t;
  ~joining_thread() {
    if (t.joinable())
      t.join();
  }
};

} // namespace

TEST_CASE(
  "SIGINT mid-run ends it cleanly: exit 4, run_end interrupted, audit intact") {
  temp_dir dir;
  // The judge never answers: the run is certainly mid-way when SIGINT
  // arrives, with no timing involved.
  silent_server server;
  write_file(dir.file("c.json"), server.config());
  std::string pairs;
  for (int i = 0; i < 50; ++i)
    pairs += R"({"id":"p)" + std::to_string(i)
             + R"(","a":"1","b":"1"})"
               "\n";
  // One absent pair: judged at once (I1) without the judge, so its verdict
  // is written before the interruption and must survive it.
  pairs += R"({"id":"absent","a":"","b":"1"})"
           "\n";
  write_file(dir.file("p.jsonl"), pairs);
  auto audit = dir.file("a.jsonl");
  invjudge_process p({"run", "--pairs", dir.file("p.jsonl"), "--config",
                      dir.file("c.json"), "--audit", audit, "--out",
                      dir.file("v.jsonl")},
                     dir.file("out.txt"), dir.file("err.txt"));
  // The manifest is written after the handler is installed and before any
  // judge call; the absent pair's verdict follows without the judge.
  REQUIRE(wait_for_lines(audit, 1));
  REQUIRE(wait_for_lines(dir.file("v.jsonl"), 1));
  p.signal(SIGINT);
  int code = p.wait();
  auto err = read_file(dir.file("err.txt"));
  INFO(err);
  CHECK(code == 4);
  CHECK(err.find("run INTERRUPTED") != std::string::npos);

  auto lines = lines_of(read_file(audit));
  REQUIRE_FALSE(lines.empty());
  rapidjson::Document last;
  last.Parse(lines.back().c_str());
  REQUIRE_FALSE(last.HasParseError());
  CHECK(last["type"].GetString() == std::string{"run_end"});
  REQUIRE(last.HasMember("interrupted"));
  CHECK(last["interrupted"].IsTrue());

  // The verdict written before the interruption is in the output.
  auto out = read_file(dir.file("v.jsonl"));
  CHECK(out.find("\"id\":\"absent\"") != std::string::npos);

  auto v = invjudge(dir, "audit verify a.jsonl");
  CHECK(v.exit_code == 4);
  CHECK(v.out.rfind("interrupted: " + std::to_string(lines.size())
                      + " records, chain intact",
                    0)
        == 0);
}

TEST_CASE("SIGINT during a busy run: the run_end record agrees with the "
          "records before it") {
  temp_dir dir;
  // Pairs come through a pipe without end, so that the run is busy (verdicts
  // being written and fsynced) whenever the signal lands.
  int fds[2];
  REQUIRE(::pipe2(fds, O_CLOEXEC) == 0);         // the run gets only its stdin
  auto old_pipe = std::signal(SIGPIPE, SIG_IGN); // the writer ends on EPIPE
  joining_thread writer;
  auto audit = dir.file("a.jsonl");
  auto verdicts = dir.file("v.jsonl");
  {
    invjudge_process p({"run", "--pairs", "-", "--audit", audit, "--out",
                        verdicts, "--no-progress"},
                       dir.file("out.txt"), dir.file("err.txt"), fds[0]);
    ::close(fds[0]);
    int wfd = fds[1];
    writer.t = std::thread([wfd] {
      for (int i = 0;; ++i) {
        auto line = R"({"id":"p)" + std::to_string(i) + R"(","item":"q)"
                    + std::to_string(i / 10) + R"(","a":")" + std::to_string(i)
                    + R"(","b":")" + std::to_string(i % 7 ? i : i + 1)
                    + "\"}\n";
        if (::write(wfd, line.data(), line.size())
            != static_cast<ssize_t>(line.size()))
          break;
      }
      ::close(wfd);
    });
    REQUIRE(wait_for_lines(verdicts, 3000));
    p.signal(SIGINT);
    CHECK(p.wait() == 4);
  }
  writer.t.join();
  std::signal(SIGPIPE, old_pipe);
  INFO(read_file(dir.file("err.txt")));

  auto r = recount_audit(audit);
  CHECK(r.run_end["interrupted"].IsTrue());
  // The totals count exactly the records written before the run end...
  CHECK(r.run_end["pairs"].GetUint64() == r.verdict_ids.size());
  CHECK(r.run_end["judge_calls"].GetUint64() == r.judge_calls);
  for (int i = 0; i < 5; ++i)
    CHECK(
      r.run_end["by_rule"][("I" + std::to_string(i + 1)).c_str()].GetUint64()
      == r.by_rule[i]);
  // ...and no pair listed as unfinished has a record.
  for (auto& id : r.run_end["unfinished_pairs"].GetArray()) {
    INFO(id.GetString());
    CHECK(r.recorded_ids.count(id.GetString()) == 0);
  }
  // Every verdict in the audit reached the output, and only those.
  CHECK(output_ids(verdicts) == r.verdict_ids);

  auto v = invjudge(dir, "audit verify a.jsonl");
  INFO(v.out);
  CHECK(v.exit_code == 4);
  CHECK(v.out.rfind("interrupted: ", 0) == 0);
}

TEST_CASE(
  "SIGINT with calls in flight: they are aborted, and the run_end counts "
  "as sent exactly the calls the provider received") {
  temp_dir dir;
  // The judge thinks for a minute: only the interruption ends the calls.
  fake_api_options o;
  o.latency = std::chrono::seconds(60);
  o.threads = 2;
  fake_api fake(o);
  write_file(
    dir.file("c.json"),
    R"({"judges":[{"name":"slow","type":"openai","model":"judge-model",)"
    R"("base_url":")"
      + fake.base_url()
      + R"(","temperature":0,)"
        R"("timeout_ms":120000,"max_in_flight":4}]})");
  std::string pairs;
  for (int i = 0; i < 20; ++i)
    pairs += R"({"id":"p)" + std::to_string(i)
             + R"(","a":"1","b":"1"})"
               "\n";
  write_file(dir.file("p.jsonl"), pairs);
  auto audit = dir.file("a.jsonl");
  invjudge_process p({"run", "--pairs", dir.file("p.jsonl"), "--config",
                      dir.file("c.json"), "--audit", audit, "--no-progress"},
                     dir.file("out.txt"), dir.file("err.txt"));
  REQUIRE(eventually([&] { return fake.server().requests() == 4; }));
  p.signal(SIGINT);
  CHECK(p.wait() == 4);
  auto err = read_file(dir.file("err.txt"));
  INFO(err);
  auto r = recount_audit(audit);
  CHECK(r.run_end["interrupted"].IsTrue());
  CHECK(r.judge_calls == 0); // no pair was decided: no record of a call
  CHECK(r.run_end["calls_sent"].GetUint64() == fake.server().requests());
  CHECK(r.run_end["calls_aborted"].GetUint64() == 4);
  CHECK(r.run_end["calls_answered"].GetUint64() == 0);
  CHECK(r.run_end["calls_unrecorded"].GetUint64() == 4);
  CHECK(err.find("calls of the cancel: 4 aborted (4 of them already sent)")
        != std::string::npos);
  auto v = invjudge(dir, "audit verify a.jsonl");
  INFO(v.out);
  CHECK(v.exit_code == 4);
  CHECK(v.out.rfind("interrupted: ", 0) == 0);
}
