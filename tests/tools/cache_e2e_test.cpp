// The response cache through the driver: with votes = 3 every vote is its
// own entry (three per pair), a second identical run makes no judge call and
// marks its records cached, and `invjudge cache stats|clear` read the file.
#include <catch2/catch.hpp>

#include "tests/http/fake_apis.hpp"
#include "tests/tools/cli_support.hpp"

using namespace ij::test;

namespace {

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos;
       at = text.find(what, at + what.size()))
    ++n;
  return n;
}

} // namespace

TEST_CASE(
  "e2e: --cache reuses every vote's record and calls the judge no more") {
  fake_api_options o;
  o.kind = api_kind::openai;
  o.reply_text =
    "DECISION: EQUIVALENT\nREASON: same\nNUMERIC_A: 1\nNUMERIC_B: 1";
  o.record_requests = false;
  fake_api fake(o);
  temp_dir dir;
  std::string pairs;
  for (int i = 0; i < 5; ++i)
    pairs += R"({"id":"p)" + std::to_string(i) + R"(","a":")"
             + std::to_string(i) + R"(","b":")" + std::to_string(i) + "\"}\n";
  write_file(dir.file("pairs.jsonl"), pairs);
  // Three votes, all needed (min_agreement 3): three calls per pair.
  write_file(
    dir.file("c.json"),
    R"({"judges":[{"name":"fake","type":"openai","model":"judge-model",)"
    R"("base_url":")"
      + fake.base_url()
      + R"(","temperature":0.7,"seed":7,"timeout_ms":60000,)"
        R"("max_in_flight":4,"max_attempts":1}],"votes":3,)"
        R"("min_agreement":3})");
  auto first =
    invjudge(dir, "run --pairs pairs.jsonl --config c.json --audit a1.jsonl "
                  "--cache cache.sqlite --out v1.jsonl --no-progress");
  INFO(first.err);
  REQUIRE(first.exit_code == 0);
  CHECK(fake.server().requests() == 15);
  auto stats = invjudge(dir, "cache stats cache.sqlite");
  CHECK(stats.exit_code == 0);
  CHECK(stats.out.find("15 entries") != std::string::npos);

  auto second =
    invjudge(dir, "run --pairs pairs.jsonl --config c.json --audit a2.jsonl "
                  "--cache cache.sqlite --out v2.jsonl --no-progress");
  INFO(second.err);
  REQUIRE(second.exit_code == 0);
  CHECK(fake.server().requests() == 15); // no call made
  CHECK(second.err.find("cached: 15 judge record(s)") != std::string::npos);
  auto audit = read_file(dir.file("a2.jsonl"));
  CHECK(count(audit, "\"cached\":true") == 15);
  CHECK(audit.find("\"cached\":15") != std::string::npos); // run_end
  CHECK(invjudge(dir, "audit verify a2.jsonl").exit_code == 0);
  CHECK(read_file(dir.file("v1.jsonl")).size()
        == read_file(dir.file("v2.jsonl")).size());

  auto cleared = invjudge(dir, "cache clear cache.sqlite");
  CHECK(cleared.exit_code == 0);
  CHECK(cleared.out.find("cleared 15 entries") != std::string::npos);
  auto third =
    invjudge(dir, "run --pairs pairs.jsonl --config c.json --audit a3.jsonl "
                  "--cache cache.sqlite --no-progress");
  REQUIRE(third.exit_code == 0);
  CHECK(fake.server().requests() == 30);

  auto missing = invjudge(dir, "cache stats nothing.sqlite");
  CHECK(missing.exit_code == 2);
  CHECK(missing.err.find("nothing.sqlite") != std::string::npos);
}
