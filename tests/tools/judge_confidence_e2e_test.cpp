// Issue 16 items 1 and 4 through the binary: a run whose OpenAI-compatible
// judge asks for log-probabilities and a grammar gets no PARSE_ERROR from a
// server that otherwise misses the format, records decision_probs in every
// judge_call and declares both settings in the manifest; a server refusing
// the constraint is one named fault and the run ends with exit 4.
#include <catch2/catch.hpp>

#include "tests/http/fake_apis.hpp"
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

std::string config_for(const fake_api& fake, const std::string& extra) {
  return R"({"judges":[{"name":"held","type":"openai","model":"judge-model","base_url":")"
         + fake.base_url()
         + R"(/v1","temperature":0,"timeout_ms":20000,"max_in_flight":2,"max_attempts":1,)"
         + extra + "}]}";
}

cli_result run_pairs(const temp_dir& dir, std::size_t pairs) {
  auto gen = invjudge(dir, "gen-pairs " + std::to_string(pairs));
  REQUIRE(gen.exit_code == 0);
  write_file(dir.file("p.jsonl"), gen.out);
  return invjudge(
    dir, "run --pairs p.jsonl --config c.json --audit a.jsonl --out v.jsonl "
         "--no-progress --window 8");
}

} // namespace

TEST_CASE(
  "e2e: logprobs and a grammar give decision_probs and no PARSE_ERROR from a "
  "server that misses the format unconstrained") {
  fake_api_options o;
  o.kind = api_kind::openai;
  o.model_replies = true;
  o.sloppy_unless_constrained = true;
  fake_api fake(o);
  temp_dir dir;
  write_file(dir.file("c.json"),
             config_for(fake, R"("logprobs":true,"constrain":"grammar")"));
  auto r = run_pairs(dir, 30);
  INFO(r.err);
  auto audit = read_file(dir.file("a.jsonl"));
  auto calls = count_of(audit, R"("type":"judge_call")");
  CHECK(calls >= 25); // absent answers are not sent
  CHECK(count_of(audit, "PARSE_ERROR") == 0);
  CHECK(count_of(audit, R"("decision_probs":{"EQUIVALENT":0.899)") == calls);
  // The manifest declares both settings (the worker and the config).
  auto manifest = audit.substr(0, audit.find('\n'));
  CHECK(count_of(manifest, R"("logprobs":true)") == 2);
  CHECK(count_of(manifest, R"("constrain":"grammar")") == 2);
  CHECK(fake.violations().empty());
  CHECK(invjudge(dir, "audit verify a.jsonl").exit_code == r.exit_code);
}

TEST_CASE(
  "e2e: a server refusing the constraint is one named configuration fault and "
  "the run ends with exit 4") {
  fake_api_options o;
  o.kind = api_kind::openai;
  o.model_replies = true;
  o.rejects_constraints = true;
  fake_api fake(o);
  temp_dir dir;
  write_file(dir.file("c.json"), config_for(fake, R"("constrain":"json")"));
  auto r = run_pairs(dir, 200);
  INFO(r.err);
  CHECK(r.exit_code == 4);
  auto audit = read_file(dir.file("a.jsonl"));
  CHECK(count_of(audit, "PARSE_ERROR")
        == count_of(audit, R"("decision":"PARSE_ERROR")"));
  CHECK(count_of(audit, R"("transport_failed":false)") == 0);
  // Named once, with what to do, in the judge_call of the first refusal
  // (its vote's outcome repeats it); later calls are not sent.
  std::size_t named = 0;
  for (std::size_t at = 0, end;
       (end = audit.find('\n', at)) != std::string::npos; at = end + 1) {
    auto line = audit.substr(at, end - at);
    if (line.find(R"("type":"judge_call")") != std::string::npos
        && line.find("no further call is made to this judge")
             != std::string::npos)
      ++named;
  }
  CHECK(named == 1);
  CHECK(count_of(audit, R"(\"constrain\": \"json\" (HTTP 400)") >= 1);
  CHECK(count_of(audit, "not sent: the backend rejects this judge's") >= 10);
  CHECK(fake.bodies().size()
        <= 2); // only the calls in flight at the first refusal
}
