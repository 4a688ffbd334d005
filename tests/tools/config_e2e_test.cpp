// Configuration errors through the binary: the file and the JSON pointer are
// named, the exit code is 3, and nothing is judged or audited.
#include <catch2/catch.hpp>

#include "cli_support.hpp"

using namespace ij::test;

namespace {

cli_result run_with_config(const temp_dir& dir, const std::string& config) {
  write_file(dir.file("c.json"), config);
  write_file(dir.file("p.jsonl"), R"({"id":"x","a":"1","b":"1"})"
                                  "\n");
  return invjudge(dir, "run --pairs p.jsonl --config c.json --audit a.jsonl");
}

} // namespace

TEST_CASE("a schema error names the file and the JSON pointer (exit 3)") {
  temp_dir dir;
  auto r = run_with_config(dir, R"({"judges":[{"type":"stub","model":"numeric",
      "temperature":-0.5,"timeout_ms":1000,"max_in_flight":1}]})");
  CHECK(r.exit_code == 3);
  CHECK(r.err.find("c.json: /judges/0/temperature: must be >= 0")
        != std::string::npos);
  CHECK(r.out.empty());
  CHECK(files_starting_with(dir, "a.jsonl").empty());
}

TEST_CASE(
  "min_agreement not above votes/2 is a configuration error before any call") {
  temp_dir dir;
  auto r = run_with_config(dir, R"({"votes":4,"min_agreement":2})");
  CHECK(r.exit_code == 3);
  CHECK(r.err.find("c.json: /min_agreement: ") != std::string::npos);
  CHECK(files_starting_with(dir, "a.jsonl").empty());
}

TEST_CASE("other configuration errors also exit 3 with the pointer") {
  temp_dir dir;
  SECTION("unknown field") {
    auto r = run_with_config(dir, R"({"vote":3})");
    CHECK(r.exit_code == 3);
    CHECK(r.err.find("c.json: /vote: unknown field") != std::string::npos);
  }
  SECTION("missing required field") {
    auto r =
      run_with_config(dir, R"({"judges":[{"type":"stub","model":"numeric"}]})");
    CHECK(r.exit_code == 3);
    CHECK(r.err.find("c.json: /judges/0/temperature: is required")
          != std::string::npos);
  }
  SECTION("not JSON") {
    auto r = run_with_config(dir, "{\"votes\": 3,,}");
    CHECK(r.exit_code == 3);
    CHECK(r.err.find("c.json: line 1, column 13: not valid JSON")
          != std::string::npos);
  }
  SECTION("missing file") {
    auto r = invjudge(dir, "run --pairs p.jsonl --config none.json");
    CHECK(r.exit_code == 3);
    CHECK(r.err.find("none.json: cannot open") != std::string::npos);
  }
  SECTION("a judge whose key variable is unset") {
    auto r =
      run_with_config(dir, R"({"judges":[{"name":"claude","type":"anthropic",
        "model":"claude-haiku-4-5","api_key_env":"IJ_TEST_SURELY_UNSET_KEY",
        "temperature":0,"timeout_ms":1000,"max_in_flight":1}]})");
    CHECK(r.exit_code == 3);
    CHECK(r.err.find("c.json: /judges/0 (claude): ") != std::string::npos);
    CHECK(r.err.find("IJ_TEST_SURELY_UNSET_KEY") != std::string::npos);
  }
  SECTION("a bad --judge name") {
    write_file(dir.file("p.jsonl"), R"({"id":"x","a":"1","b":"1"})"
                                    "\n");
    auto r = invjudge(dir, "run --pairs p.jsonl --judge stub:nosuch");
    CHECK(r.exit_code == 3);
    CHECK(r.err.find("--judge stub:nosuch: ") != std::string::npos);
  }
  CHECK(files_starting_with(dir, "a.jsonl").empty());
  CHECK(files_starting_with(dir, "invjudge-audit-").empty());
}

TEST_CASE("the audit path and flush policy come from the configuration") {
  temp_dir dir;
  auto r = run_with_config(
    dir, R"({"audit":{"path":"from-config.jsonl","flush":"flush-each"}})");
  // --audit given by run_with_config wins over the configuration's path.
  CHECK(r.exit_code == 0);
  CHECK_FALSE(read_file(dir.file("a.jsonl")).empty());
  auto r2 = invjudge(dir, "run --pairs p.jsonl --config c.json");
  CHECK(r2.exit_code == 0);
  CHECK(r2.err.find("invjudge: audit: from-config.jsonl") != std::string::npos);
  auto audit = read_file(dir.file("from-config.jsonl"));
  CHECK(audit.find("flush-each") != std::string::npos);
}

TEST_CASE("an empty --judge is a bad judge name (exit 3), not the default") {
  temp_dir dir;
  write_file(dir.file("p.jsonl"), R"({"id":"x","a":"1","b":"1"})"
                                  "\n");
  auto r = invjudge(dir, "run --pairs p.jsonl --judge '' --audit a.jsonl");
  CHECK(r.exit_code == 3);
  CHECK(
    r.err.find("invjudge: --judge '': empty judge name (expected TYPE:MODEL")
    != std::string::npos);
  CHECK(r.out.empty());
  CHECK(files_starting_with(dir, "a.jsonl").empty());
  auto s = invjudge(dir, "selftest --judge ''");
  CHECK(s.exit_code == 3);
  CHECK(s.err.find("--judge '': empty judge name") != std::string::npos);
}
