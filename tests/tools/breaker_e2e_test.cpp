// A dead or misconfigured backend through the binary: the judge's circuit
// breaker stops calling it, the votes are recorded as faults at once, and
// the run's fault budget ends it with exit 4. Fake servers on 127.0.0.1
// count what reached them; nothing here asserts on time.
#include <cstdlib>

#include <catch2/catch.hpp>

#include "tests/http/fake_server.hpp"
#include "tests/tools/cli_support.hpp"

using namespace ij::test;

namespace {

std::size_t count_of(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (auto pos = text.find(part); pos != std::string::npos;
       pos = text.find(part, pos + 1))
    ++n;
  return n;
}

/// Reads the request and closes without a reply: a connection failure the
/// server can count.
planned_reply close_every_connection(const fake_request&,
                                     const request_context&) {
  planned_reply r;
  r.action = planned_reply::how::close_without_reply;
  return r;
}

std::string guarded_config(const fake_server& server,
                           const std::string& extra) {
  return R"({"judges":[{"name":"guarded","type":"openai","model":"m","base_url":")"
         + server.base_url()
         + R"(/v1","api_key_env":"IJ_E2E_BREAKER_KEY","temperature":0,"timeout_ms":20000,)"
         + extra + "}]}";
}

cli_result run_pairs(const temp_dir& dir, std::size_t pairs) {
  auto gen = invjudge(dir, "gen-pairs " + std::to_string(pairs));
  REQUIRE(gen.exit_code == 0);
  write_file(dir.file("p.jsonl"), gen.out);
  ::unsetenv("IJ_E2E_BREAKER_KEY");
  // A small window: the fault budget stops the run while input remains.
  return invjudge(
    dir, "run --pairs p.jsonl --config c.json --audit a.jsonl --out v.jsonl "
         "--no-progress --window 8");
}

} // namespace

TEST_CASE(
  "e2e: a backend answering 401 is reported once as a configuration problem, "
  "barely called, and the run ends with exit 4") {
  fake_server server([](const fake_request&, const request_context&) {
    planned_reply r;
    r.status = 401;
    r.body =
      R"({"error":{"message":"Invalid API key","type":"authentication_error"}})";
    return r;
  });
  temp_dir dir;
  write_file(dir.file("c.json"),
             guarded_config(server, R"("max_in_flight":2,"max_attempts":3)"));
  auto r = run_pairs(dir, 300);
  INFO(r.err);
  CHECK(r.exit_code == 4);
  // One warning, saying what is wrong and what to check.
  CHECK(count_of(r.err, "warning: judge guarded: ") == 1);
  // The warning is the judge's first fault: the 401 itself, or a call the
  // open circuit refused if that one reached the run first (the circuit
  // opens on the adapter's thread, before the worker hears of the 401).
  // Either names the cause and what to check.
  auto warning = r.err.substr(r.err.find("warning: judge guarded: "));
  warning = warning.substr(0, warning.find('\n'));
  CHECK((warning.rfind("warning: judge guarded: HTTP 401", 0) == 0
         || warning.rfind(
              "warning: judge guarded: not sent: the backend refused this "
              "judge's credentials: HTTP 401",
              0)
              == 0));
  CHECK(
    warning.find(
      "HTTP 401 authentication_error: Invalid API key — "
      "a configuration problem: check the API key in $IJ_E2E_BREAKER_KEY (not "
      "set) and the model's access; no call to this judge for 30 s")
    != std::string::npos);
  CHECK(
    r.err.find(
      "is above max_fault_rate 0.5: the run was stopped before the end of its "
      "input")
    != std::string::npos);
  // Only the calls already in flight when the first 401 came reached it;
  // a 401 is never retried.
  CHECK(server.requests() >= 1);
  CHECK(server.requests() <= 2);
  auto audit = read_file(dir.file("a.jsonl"));
  CHECK(count_of(audit, R"("fault_kind":"auth")") >= 20);
  CHECK(
    count_of(audit, "not sent: the backend refused this judge's credentials")
    >= 18);
  CHECK(invjudge(dir, "audit verify a.jsonl").exit_code
        == 4); // intact, interrupted
}

TEST_CASE(
  "e2e: after N connection failures in a row the backend is not called again") {
  fake_server server(close_every_connection);
  temp_dir dir;
  write_file(
    dir.file("c.json"),
    guarded_config(server, R"("max_in_flight":1,"max_attempts":1,)"
                           R"("breaker":{"failures":3,"cooldown_ms":600000})"));
  auto r = run_pairs(dir, 100);
  INFO(r.err);
  CHECK(r.exit_code == 4);
  CHECK(server.connections() == 3);
  auto audit = read_file(dir.file("a.jsonl"));
  CHECK(count_of(audit, R"("fault_kind":"connection")") == 3);
  CHECK(count_of(audit, R"("fault_kind":"unavailable")") >= 17);
  CHECK(audit.find(
          "3 connection failures in a row: no call to this judge for 600 s")
        != std::string::npos);
  // No configuration warning: an unreachable server is a fault, not a key.
  CHECK(r.err.find("warning: judge guarded") == std::string::npos);
}

TEST_CASE("e2e: with the breaker disabled every vote calls the backend") {
  fake_server server(close_every_connection);
  temp_dir dir;
  write_file(dir.file("c.json"),
             guarded_config(server, R"("max_in_flight":1,"max_attempts":1,)"
                                    R"("breaker":{"enabled":false})"));
  write_file(dir.file("p.jsonl"), R"({"id":"a","a":"1","b":"2"})"
                                  "\n"
                                  R"({"id":"b","a":"1","b":"3"})"
                                  "\n"
                                  R"({"id":"c","a":"1","b":"4"})"
                                  "\n"
                                  R"({"id":"d","a":"1","b":"5"})"
                                  "\n");
  auto r = invjudge(
    dir, "run --pairs p.jsonl --config c.json --audit a.jsonl --no-progress");
  CHECK(r.exit_code == 4);
  CHECK(server.connections() == 4);
}
