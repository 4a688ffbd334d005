// Live canaries through the driver (issue 10): {"kind":"canary"} lines, the
// alarm on stderr, exit 5 for on_alarm stop-run, and audits that verify.
#include <string>

#include <catch2/catch.hpp>

#include "cli_support.hpp"

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
  "canaries with an always-EQUIVALENT judge and on_alarm stop-run: the "
  "alarm on stderr, exit 5, canary lines, an intact interrupted audit") {
  temp_dir dir;
  write_file(dir.file("c.json"), R"({"judge":"stub:equivalent",
    "canaries":{"rate":0.5,"seed":1,"on_alarm":"stop-run"}})");
  auto r =
    invjudge(dir, "run --pairs " + source_dir()
                    + "/examples/pairs.jsonl --config c.json --audit a.jsonl");
  INFO(r.err);
  CHECK(r.exit_code == 5);
  CHECK(r.err.find("warning: bias alarm: judge stub:equivalent fails canaries")
        != std::string::npos);
  CHECK(r.err.find("BIAS ALARM: judge stub:equivalent") != std::string::npos);
  CHECK(r.err.find("the bias alarm stopped the run") != std::string::npos);
  CHECK(count(r.out, "\"kind\":\"canary\"") > 0);
  CHECK(r.out.find("\"passed\":false") != std::string::npos);
  // A canary is never a pair line.
  for (auto at = r.out.find("\"kind\":\"pair\""); at != std::string::npos;
       at = r.out.find("\"kind\":\"pair\"", at + 1))
    CHECK(r.out.compare(at + 20, 8, "\"canary-") != 0);
  auto v = invjudge(dir, "audit verify a.jsonl");
  CHECK(v.exit_code == 4);
  CHECK(v.out.rfind("interrupted:", 0) == 0);
  auto audit = read_file(dir.file("a.jsonl"));
  CHECK(audit.find("\"type\":\"bias_alarm\"") != std::string::npos);
  CHECK(audit.find("\"stopped_by_alarm\":true") != std::string::npos);
}

TEST_CASE("canaries with the numeric rule judge: every one passes, no alarm, "
          "exit 0, the audit verifies") {
  temp_dir dir;
  write_file(dir.file("c.json"), R"({"judge":"stub:numeric",
    "canaries":{"rate":0.5,"seed":2}})");
  auto r =
    invjudge(dir, "run --pairs " + source_dir()
                    + "/examples/pairs.jsonl --config c.json --audit a.jsonl");
  INFO(r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.err.find("bias alarm") == std::string::npos);
  CHECK(r.err.find("BIAS ALARM") == std::string::npos);
  auto canaries = count(r.out, "\"kind\":\"canary\"");
  CHECK(canaries > 5);
  CHECK(count(r.out, "\"passed\":true") == canaries);
  CHECK(count(r.out, "\"kind\":\"pair\"") == 39);
  CHECK(r.err.find("canaries: " + std::to_string(canaries) + " judged")
        != std::string::npos);
  CHECK(invjudge(dir, "audit verify a.jsonl").exit_code == 0);
}
