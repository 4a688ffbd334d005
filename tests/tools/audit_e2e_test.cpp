// `invjudge audit verify`: a finished audit verifies; an edited line is
// named (exit 1); a truncated audit "did not finish" (exit 4).
#include <catch2/catch.hpp>

#include "cli_support.hpp"

using namespace ij::test;

namespace {

/// Runs the example into a.jsonl and returns its lines.
std::vector<std::string> finished_audit(const temp_dir& dir) {
  auto r = invjudge(dir, "run --pairs " + shell_quote(source_dir() + "/examples/pairs.jsonl")
                           + " --audit a.jsonl");
  REQUIRE(r.exit_code == 0);
  auto lines = lines_of(read_file(dir.file("a.jsonl")));
  REQUIRE(lines.size() > 10);
  return lines;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string out;
  for (auto& l : lines)
    out += l + "\n";
  return out;
}

} // namespace

TEST_CASE("a finished audit verifies") {
  temp_dir dir;
  auto lines = finished_audit(dir);
  auto v = invjudge(dir, "audit verify a.jsonl");
  CHECK(v.exit_code == 0);
  CHECK(v.out == "ok: " + std::to_string(lines.size()) + " records, run complete\n");
}

TEST_CASE("an edited line is named") {
  temp_dir dir;
  auto lines = finished_audit(dir);
  // Change one character inside line 5 (still valid JSON).
  auto& l = lines[4];
  auto pos = l.find("\"seq\":5");
  REQUIRE(pos != std::string::npos);
  auto ts = l.find("\"ts\":\"");
  REQUIRE(ts != std::string::npos);
  char& digit = l[ts + 6]; // first digit of the year
  digit = digit == '1' ? '2' : '1';
  write_file(dir.file("a.jsonl"), joined(lines));
  auto v = invjudge(dir, "audit verify a.jsonl");
  CHECK(v.exit_code == 1);
  CHECK(v.out.find("EDITED: a.jsonl: line 5: ") != std::string::npos);
}

TEST_CASE("a removed line is found where the chain breaks") {
  temp_dir dir;
  auto lines = finished_audit(dir);
  lines.erase(lines.begin() + 6);
  write_file(dir.file("a.jsonl"), joined(lines));
  auto v = invjudge(dir, "audit verify a.jsonl");
  CHECK(v.exit_code == 1);
  CHECK(v.out.find("EDITED: a.jsonl: line 7: ") != std::string::npos);
}

TEST_CASE("a truncated audit did not finish") {
  temp_dir dir;
  auto lines = finished_audit(dir);
  SECTION("whole lines cut off") {
    lines.resize(lines.size() - 3);
    write_file(dir.file("a.jsonl"), joined(lines));
    auto v = invjudge(dir, "audit verify a.jsonl");
    CHECK(v.exit_code == 4);
    CHECK(v.out.rfind("did not finish: " + std::to_string(lines.size()) + " records", 0) == 0);
    CHECK(v.out.find("EDITED") == std::string::npos);
  }
  SECTION("cut in the middle of a line") {
    auto text = joined(lines);
    text.resize(text.size() - 20);
    write_file(dir.file("a.jsonl"), text);
    auto v = invjudge(dir, "audit verify a.jsonl");
    CHECK(v.exit_code == 4);
    CHECK(v.out.rfind("did not finish: ", 0) == 0);
  }
}

TEST_CASE("verifying a missing audit is bad input") {
  temp_dir dir;
  auto v = invjudge(dir, "audit verify none.jsonl");
  CHECK(v.exit_code == 2);
  CHECK(v.err.find("none.jsonl: cannot open") != std::string::npos);
}
