// The run's fault budget (max_fault_rate, default 0.5): a run whose share of
// I2 (fault) verdicts is above it fails with exit 4 and says why; with input
// left it stops early, as on Ctrl-C.
#include <catch2/catch.hpp>

#include "cli_support.hpp"

using namespace ij::test;

namespace {

std::size_t pair_lines(const std::string& out) {
  std::size_t n = 0;
  for (auto& line : lines_of(out))
    n += line.rfind(R"({"kind":"pair")", 0) == 0;
  return n;
}

} // namespace

TEST_CASE("a run whose fault rate is above max_fault_rate fails (exit 4) and "
          "says why") {
  temp_dir dir;
  auto example = source_dir() + "/examples/pairs.jsonl";
  auto r = invjudge(dir, "run --pairs " + shell_quote(example)
                           + " --judge stub:failing --audit a.jsonl");
  INFO(r.err);
  CHECK(r.exit_code == 4);
  // Every pair was read before the first verdict (39 < the window): all are
  // judged, then the rate is checked.
  CHECK(r.err.find("judged pairs were I2 faults) is above max_fault_rate 0.5: "
                   "the run failed")
        != std::string::npos);
  CHECK(pair_lines(r.out) == lines_of(read_file(example)).size());
  // The audit is a complete record of a failed run.
  auto v = invjudge(dir, "audit verify a.jsonl");
  CHECK(v.exit_code == 0);
}

TEST_CASE("a judge failing every call stops a long run early (exit 4)") {
  temp_dir dir;
  auto gen = invjudge(dir, "gen-pairs 2000");
  REQUIRE(gen.exit_code == 0);
  write_file(dir.file("p.jsonl"), gen.out);
  auto r = invjudge(
    dir, "run --pairs p.jsonl --judge stub:failing --window 8 --audit a.jsonl "
         "--out v.jsonl");
  INFO(r.err);
  CHECK(r.exit_code == 4);
  // (gen-pairs has a few absent pairs: I1, not faults)
  CHECK(
    r.err.find(
      "judged pairs were I2 faults) is above max_fault_rate 0.5: the run was "
      "stopped before the end of its input")
    != std::string::npos);
  // Stopped after 20 judged pairs, with at most a window more in flight.
  auto judged = pair_lines(read_file(dir.file("v.jsonl")));
  CHECK(judged >= 20);
  CHECK(judged <= 20 + 8);
  auto v = invjudge(dir, "audit verify a.jsonl");
  CHECK(v.exit_code == 4);
  CHECK(v.out.rfind("interrupted: ", 0) == 0);
}

TEST_CASE(
  "max_fault_rate 1 lets every pair fault, values outside 0..1 are refused") {
  temp_dir dir;
  write_file(dir.file("p.jsonl"), R"({"id":"x","a":"7","b":"7"})"
                                  "\n");
  write_file(dir.file("any.json"), R"({"max_fault_rate":1})");
  auto r =
    invjudge(dir, "run --pairs p.jsonl --config any.json --judge stub:failing "
                  "--audit a.jsonl");
  CHECK(r.exit_code == 0);
  write_file(dir.file("bad.json"), R"({"max_fault_rate":1.5})");
  auto bad =
    invjudge(dir, "run --pairs p.jsonl --config bad.json --audit b.jsonl");
  CHECK(bad.exit_code == 3);
  CHECK(bad.err.find("bad.json: /max_fault_rate: must be <= 1")
        != std::string::npos);
}
