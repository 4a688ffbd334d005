// End to end: a run against a protocol-faithful fake Anthropic server, with a
// known key and fault replies that echo it (rate limit, server errors, an HTML
// page, a model reply quoting it). The key must appear nowhere: not on stdout,
// not on stderr, not in the audit trail, not in any file the run leaves.
#include <cstdlib>

#include <dirent.h>

#include <catch2/catch.hpp>

#include "tests/http/fake_apis.hpp"
#include "tests/tools/cli_support.hpp"

using namespace ij::test;

namespace {

const std::string leak_key = "sk-ant-E2E-LEAKCHECK-9d41c7";

std::string judge_reply(const std::string& decision,
                        const std::string& reason) {
  return "DECISION: " + decision + "\nREASON: " + reason
         + "\nNUMERIC_A: 5\nNUMERIC_B: 5";
}

} // namespace

TEST_CASE("e2e: a known API key never reaches output, logs or the audit "
          "through fault scenarios") {
  fake_api_options o;
  o.kind = api_kind::anthropic;
  o.model = "claude-test";
  o.api_key = leak_key;
  fake_api fake(o);
  // One judge call at a time, so the replies below meet the pairs in order.
  fake.script({
    fake.error(429, "rate_limit_error", "rate limited for key " + leak_key),
    fake.success(judge_reply("EQUIVALENT", "same number")),
    fake.error(500, "api_error", "internal error near " + leak_key),
    fake.error(500, "api_error", "still failing " + leak_key),
    fake_api::html_page(403, "Forbidden for " + leak_key),
    fake.success(judge_reply("EQUIVALENT", "the key was " + leak_key)),
  });

  temp_dir dir;
  write_file(dir.file("pairs.jsonl"),
             "{\"id\":\"p1\",\"a\":\"5\",\"b\":\"five\"}\n"
             "{\"id\":\"p2\",\"a\":\"5\",\"b\":\"5.0\"}\n"
             "{\"id\":\"p3\",\"a\":\"5\",\"b\":\"\\\\boxed{5}\"}\n"
             "{\"id\":\"p4\",\"a\":\"5\",\"b\":\"x = 5\"}\n");
  write_file(dir.file("config.json"),
             "{\"judges\":[{\"type\":\"anthropic\",\"model\":\"claude-test\","
             "\"base_url\":\""
               + fake.base_url()
               + "\","
                 "\"api_key_env\":\"IJ_E2E_LEAK_KEY\",\"temperature\":0,"
                 "\"timeout_ms\":20000,\"max_in_flight\":1,\"max_attempts\":2,"
                 // Every scripted reply must be asked for: the 403 below would
                 // otherwise stop the calls (breaker_e2e_test.cpp tests that).
                 "\"breaker\":{\"enabled\":false}}],"
                 "\"votes\":1}\n");
  REQUIRE(::setenv("IJ_E2E_LEAK_KEY", leak_key.c_str(), 1) == 0);
  auto r = invjudge(dir, "run --pairs pairs.jsonl --config config.json "
                         "--audit audit.jsonl --out out.jsonl --no-progress");
  ::unsetenv("IJ_E2E_LEAK_KEY");
  INFO(r.err);
  CHECK(r.exit_code == 0);
  CHECK(fake.violations().empty());

  auto out = read_file(dir.file("out.jsonl"));
  auto audit = read_file(dir.file("audit.jsonl"));
  // The scenarios happened: retries, faults, and a success.
  CHECK(out.find("\"rule\":\"I2\"") != std::string::npos);
  CHECK(out.find("\"rule\":\"I4\"") != std::string::npos);
  CHECK(audit.find("IJ_E2E_LEAK_KEY")
        != std::string::npos); // named, not valued

  CHECK(r.out.find(leak_key) == std::string::npos);
  CHECK(r.err.find(leak_key) == std::string::npos);
  CHECK(out.find(leak_key) == std::string::npos);
  CHECK(audit.find(leak_key) == std::string::npos);
  // Every file the run left behind.
  if (auto* d = ::opendir(dir.path().c_str())) {
    while (auto* e = ::readdir(d)) {
      std::string name = e->d_name;
      if (name == "." || name == "..")
        continue;
      INFO(name);
      CHECK(read_file(dir.file(name)).find(leak_key) == std::string::npos);
    }
    ::closedir(d);
  }
}
