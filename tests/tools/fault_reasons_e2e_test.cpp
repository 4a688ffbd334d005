// Faults with their reason and calls counted by where they went (issue 20,
// item 2), through the binary: the first fault's words per judge and fault
// kind on stderr, once each, secrets redacted; judge calls split into sent,
// refused by the breaker and refused at a budget in the summary and the
// run_end record, which `audit verify` recounts. Backends are a closed port
// on 127.0.0.1, a name under .invalid (resolution fails; never a real
// name) and fake servers on 127.0.0.1. Nothing asserts on time.
#include <cstdlib>
#include <string>
#include <tuple>

#include <catch2/catch.hpp>
#include <rapidjson/document.h>

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

/// The run_end record (the audit's last line), parsed.
rapidjson::Document run_end_of(const std::string& audit) {
  auto lines = lines_of(read_file(audit));
  rapidjson::Document d;
  REQUIRE(!lines.empty());
  d.Parse(lines.back().c_str());
  REQUIRE(d.IsObject());
  REQUIRE(std::string{d["type"].GetString()} == "run_end");
  return d;
}

std::uint64_t field(const rapidjson::Document& d, const char* name) {
  REQUIRE(d.HasMember(name));
  REQUIRE(d[name].IsUint64());
  return d[name].GetUint64();
}

/// One HTTP judge at `url` with one attempt per call, over 40 pairs;
/// `extra` sets max_in_flight and more.
cli_result run_against(const temp_dir& dir, const std::string& type,
                       const std::string& url,
                       const std::string& extra = R"(,"max_in_flight":4)") {
  write_file(
    dir.file("c.json"),
    R"({"max_fault_rate":1,"judges":[{"name":"far","type":")" + type
      + R"(","model":"m","base_url":")" + url
      + R"(","api_key_env":"IJ_E2E_REASON_KEY","temperature":0,"max_attempts":1,)"
      + R"("timeout_ms":20000)" + extra + "}]}");
  auto gen = invjudge(dir, "gen-pairs 40");
  REQUIRE(gen.exit_code == 0);
  write_file(dir.file("p.jsonl"), gen.out);
  return invjudge(
    dir, "run --pairs p.jsonl --config c.json --audit a.jsonl --out v.jsonl "
         "--no-progress");
}

/// The summary's calls line as the run_end record's counts write it.
std::string calls_line(const rapidjson::Document& end) {
  return "judge calls: " + std::to_string(field(end, "judge_calls"))
         + " recorded: " + std::to_string(field(end, "calls_sent")) + " sent, "
         + std::to_string(field(end, "calls_refused_breaker"))
         + " refused by the breaker, "
         + std::to_string(field(end, "calls_refused_budget"))
         + " refused by a budget";
}

} // namespace

TEST_CASE("e2e: a refused connection is named once on stderr with its count, "
          "and the calls "
          "the breaker refused are not counted as sent") {
  temp_dir dir;
  // Port 1 on 127.0.0.1: nothing listens there, the kernel refuses at once.
  ::setenv("IJ_E2E_REASON_KEY", "sk-e2e-reason-secret", 1);
  auto r = run_against(dir, "ollama", "http://127.0.0.1:1");
  ::unsetenv("IJ_E2E_REASON_KEY");
  INFO(r.err);
  CHECK(r.exit_code == 0); // max_fault_rate 1: faults never fail the run
  auto end = run_end_of(dir.file("a.jsonl"));
  auto sent = field(end, "calls_sent");
  auto refused = field(end, "calls_refused_breaker");
  // Five connection failures in a row open the breaker (max_in_flight 4:
  // a few more may be on their way); every other vote is refused unsent.
  CHECK(sent >= 5);
  CHECK(sent <= 8);
  CHECK(refused > 0);
  CHECK(sent + refused == field(end, "judge_calls"));
  CHECK(field(end, "calls_refused_budget") == 0);
  const std::string prefix =
    "invjudge: judge far: connection: connecting to 127.0.0.1:1: "
    "Connection refused";
  CHECK(count_of(r.err, "invjudge: judge far: connection: ") == 1);
  CHECK(r.err.find(prefix + " (first of " + std::to_string(sent)
                   + " such faults)\n")
        != std::string::npos);
  // The breaker's words count the failures when the vote came (5 or more).
  CHECK(count_of(r.err,
                 "invjudge: judge far: unavailable: not sent: the backend is "
                 "unreachable (")
        == 1);
  CHECK(r.err.find(
          " connection failures in a row, the last: connecting to 127.0.0.1:1: "
          "Connection refused)")
        != std::string::npos);
  CHECK(r.err.find("(first of " + std::to_string(refused) + " such faults)\n")
        != std::string::npos);
  CHECK(r.err.find(calls_line(end) + "; 0 skipped by early stop; "
                   + std::to_string(sent + refused) + " faults")
        != std::string::npos);
  CHECK(r.err.find("sk-e2e-reason-secret") == std::string::npos);
  CHECK(invjudge(dir, "audit verify a.jsonl").exit_code == 0);
}

TEST_CASE(
  "e2e: an unknown host name is named once on stderr as a resolution failure") {
  temp_dir dir;
  // Bounded: a resolver that does not answer gives up after one second.
  ::setenv("RES_OPTIONS", "attempts:1 timeout:1", 1);
  auto r = run_against(dir, "openai", "http://judge.invalid:8000/v1");
  ::unsetenv("RES_OPTIONS");
  INFO(r.err);
  CHECK(r.exit_code == 0);
  CHECK(count_of(r.err, "invjudge: judge far: connection: ") == 1);
  CHECK(r.err.find("invjudge: judge far: connection: resolving judge.invalid: ")
        != std::string::npos);
  CHECK(count_of(r.err, "invjudge: judge far: unavailable: not sent") == 1);
  auto end = run_end_of(dir.file("a.jsonl"));
  CHECK(field(end, "calls_refused_breaker") > 0);
  CHECK(r.err.find(calls_line(end)) != std::string::npos);
}

TEST_CASE(
  "e2e: a key a backend echoes in its error is redacted in the fault's line") {
  fake_server server([](const fake_request& req, const request_context&) {
    planned_reply r;
    r.status = 400;
    std::string auth{req[boost::beast::http::field::authorization]};
    r.body = R"({"error":{"message":"model m unknown for )" + auth
             + R"(","type":"bad"}})";
    return r;
  });
  temp_dir dir;
  ::setenv("IJ_E2E_REASON_KEY", "sk-e2e-echoed-secret", 1);
  auto r = run_against(dir, "openai", server.base_url() + "/v1");
  ::unsetenv("IJ_E2E_REASON_KEY");
  INFO(r.err);
  CHECK(r.exit_code == 0);
  CHECK(count_of(r.err, "invjudge: judge far: bad_request: HTTP 400") == 1);
  CHECK(r.err.find("[redacted]") != std::string::npos);
  CHECK(r.err.find("sk-e2e-echoed-secret") == std::string::npos);
  CHECK(r.err.find("(first of 39 such faults)") != std::string::npos);
  // A backend that answers is reached: every call was sent.
  auto end = run_end_of(dir.file("a.jsonl"));
  CHECK(field(end, "calls_sent") == 39);
  CHECK(field(end, "calls_refused_breaker") == 0);
}

TEST_CASE(
  "e2e: calls sent, refused by the breaker and refused at a budget are counted "
  "apart, and audit verify catches an edit of each count") {
  fake_server server([](const fake_request&, const request_context&) {
    planned_reply r;
    r.action = planned_reply::how::close_without_reply;
    return r;
  });
  temp_dir dir;
  // One call at a time, one attempt, the breaker open after 3 failures: the
  // server sees exactly 3 connections; the budget (10 calls) refuses what
  // the breaker did not.
  auto r = run_against(
    dir, "openai", server.base_url() + "/v1",
    R"(,"max_in_flight":1,"breaker":{"failures":3,"cooldown_ms":600000},)"
    R"("budget":{"max_calls":10})");
  INFO(r.err);
  CHECK(r.exit_code == 0);
  CHECK(server.connections() == 3);
  auto end = run_end_of(dir.file("a.jsonl"));
  CHECK(field(end, "calls_sent") == 3);
  CHECK(field(end, "calls_refused_breaker") == 7);
  CHECK(field(end, "calls_refused_budget") == 29);
  CHECK(field(end, "judge_calls") == 39);
  CHECK(
    r.err.find(
      "judge calls: 39 recorded: 3 sent, 7 refused by the breaker, 29 refused "
      "by a budget; 0 skipped by early stop; 39 faults")
    != std::string::npos);
  CHECK(
    count_of(r.err, "invjudge: judge far: budget: budget reached: judge far: ")
    == 1);
  CHECK(r.err.find("(first of 29 such faults)") != std::string::npos);
  CHECK(r.err.find("invjudge: judge far: connection: ") != std::string::npos);
  CHECK(r.err.find("(first of 3 such faults)") != std::string::npos);
  CHECK(invjudge(dir, "audit verify a.jsonl").exit_code == 0);
  // The run_end is the last line: no successor's hash protects it, the
  // recount does.
  auto audit = read_file(dir.file("a.jsonl"));
  for (auto [from, to, why] :
       {std::tuple{"\"calls_sent\":3,", "\"calls_sent\":4,",
                   "run_end says calls_sent 4, but the records before it hold "
                   "3 judge_call "
                   "records of calls sent to a backend"},
        std::tuple{"\"calls_refused_breaker\":7,",
                   "\"calls_refused_breaker\":0,",
                   "run_end says calls_refused_breaker 0, but the records "
                   "before it hold 7"},
        std::tuple{"\"calls_refused_budget\":29,",
                   "\"calls_refused_budget\":2,",
                   "run_end says calls_refused_budget 2, but the records "
                   "before it hold 29"}}) {
    auto at = audit.rfind(from);
    REQUIRE(at != std::string::npos);
    REQUIRE(at > audit.rfind("\"type\":\"run_end\""));
    auto edited = audit;
    edited.replace(at, std::string{from}.size(), to);
    write_file(dir.file("e.jsonl"), edited);
    auto v = invjudge(dir, "audit verify e.jsonl");
    INFO(v.out);
    CHECK(v.exit_code == 1);
    CHECK(v.out.find(why) != std::string::npos);
  }
}
