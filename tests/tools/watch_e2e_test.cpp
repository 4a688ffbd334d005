// Panels, the cascade and budgets through the binary (issue 10): the summary
// lines on stderr, the run's exit code, and --judge refused with them.
#include <catch2/catch.hpp>

#include "cli_support.hpp"

using namespace ij::test;

namespace {

const char* pairs =
  R"({"id":"a","a":"The answer is 12.","b":"\\boxed{12}","label":true}
{"id":"b","a":"7","b":"8","label":false}
{"id":"c","a":"no idea","b":"cannot tell"}
{"id":"d","a":"1/2","b":"0.5","label":true}
)";

cli_result run_with(const temp_dir& dir, const std::string& config,
                    const std::string& extra = "") {
  write_file(dir.file("c.json"), config);
  write_file(dir.file("p.jsonl"), pairs);
  return invjudge(dir, "run --pairs p.jsonl --config c.json --audit a.jsonl"
                         + extra);
}

bool has(const std::string& text, const std::string& what) {
  INFO(text);
  return text.find(what) != std::string::npos;
}

} // namespace

TEST_CASE("a cascade run prints its paths, its audit and the calls saved") {
  temp_dir dir;
  auto r = run_with(
    dir,
    R"({"cascade":{"rules":"rules:math","llm":"stub:numeric","audit_rate":1}})");
  CHECK(r.exit_code == 0);
  CHECK(has(
    r.err,
    "cascade: rules:math first, stub:numeric on the rest; audit rate 100.0%"));
  CHECK(has(r.err, "4 pairs: 3 decided by the rules, 1 sent on (rules "
                   "undecided), 3 rule-decided pairs audited"));
  CHECK(has(r.err, "audit: 3 agree, 0 DISAGREE, 0 LLM undecided"));
  CHECK(has(r.err, "LLM calls 4"));
  CHECK(invjudge(dir, "audit verify a.jsonl").exit_code == 0);
}

TEST_CASE("a panel run prints its tiers and Cohen's kappa") {
  temp_dir dir;
  auto r =
    run_with(dir, R"({"panels":{"judges":["rules:math","stub:equivalent"]}})");
  CHECK(r.exit_code == 0);
  CHECK(has(r.err, "panel (unanimous): rules:math, stub:equivalent"));
  CHECK(has(r.err, "4 pairs: all agree 2, majority 0, split 2"));
  CHECK(has(r.err, "Cohen's kappa"));
  CHECK(has(r.err, "judge x label (true/false)"));
}

TEST_CASE("a judge at its budget: budget faults, spend against budget, and the "
          "run still ends") {
  temp_dir dir;
  auto r = run_with(
    dir, R"({"max_fault_rate":1,"judges":[{"type":"stub","model":"numeric",
      "temperature":0,"timeout_ms":1000,"max_in_flight":1,"budget":{"max_calls":2},
      "prices":{"input":1,"output":2}}]})");
  CHECK(r.exit_code == 0);
  CHECK(has(r.err, "spend against budget"));
  CHECK(has(r.err, "2/2"));
  CHECK(has(r.err, "I2 fault       NEITHER            2\n"));
  CHECK(has(read_file(dir.file("a.jsonl")), "\"fault_kind\":\"budget\""));
}

TEST_CASE("the option --judge with a configured cascade is a configuration "
          "error (exit 3)") {
  temp_dir dir;
  auto r =
    run_with(dir, R"({"cascade":{"rules":"rules:math","llm":"stub:numeric"}})",
             " --judge stub:equivalent");
  CHECK(r.exit_code == 3);
  CHECK(has(r.err, "configures a cascade, which names its judges"));
}
