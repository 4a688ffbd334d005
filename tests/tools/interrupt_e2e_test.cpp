// Ctrl-C ends a run cleanly: exit 4, the audit ends with a run_end record
// marked interrupted, and it verifies as interrupted (intact, not edited).
#include <catch2/catch.hpp>

#include <csignal>

#include <rapidjson/document.h>

#include "cli_support.hpp"

using namespace ij::test;

TEST_CASE("SIGINT mid-run ends it cleanly: exit 4, run_end interrupted, audit intact") {
  temp_dir dir;
  // The judge never answers: the run is certainly mid-way when SIGINT
  // arrives, with no timing involved.
  silent_server server;
  write_file(dir.file("c.json"), server.config());
  std::string pairs;
  for (int i = 0; i < 50; ++i)
    pairs += R"({"id":"p)" + std::to_string(i) + R"(","a":"1","b":"1"})" "\n";
  // One absent pair: judged at once (I1) without the judge, so its verdict
  // is written before the interruption and must survive it.
  pairs += R"({"id":"absent","a":"","b":"1"})" "\n";
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
  CHECK(v.out.rfind("interrupted: " + std::to_string(lines.size()) + " records, chain intact", 0) == 0);
}
