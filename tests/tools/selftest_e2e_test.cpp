// `invjudge selftest`: the negative controls against a judge.
#include <catch2/catch.hpp>

#include "cli_support.hpp"

using namespace ij::test;

TEST_CASE(
  "selftest passes with rules:math (the default judge) and the numeric stub") {
  temp_dir dir;
  auto r = invjudge(dir, "selftest");
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("rules:math") != std::string::npos);
  CHECK(r.out.find("identity") != std::string::npos);
  CHECK(r.out.find("mismatch") != std::string::npos);
  CHECK(r.out.find("abstain") != std::string::npos);
  CHECK(r.out.find("PASSED") != std::string::npos);
  auto named = invjudge(dir, "selftest --judge stub:numeric");
  CHECK(named.exit_code == 0);
}

TEST_CASE(
  "selftest fails loudly with an always-EQUIVALENT judge, with counts") {
  temp_dir dir;
  auto r = invjudge(dir, "selftest --judge stub:equivalent");
  INFO(r.out << r.err);
  CHECK(r.exit_code == 1);
  CHECK(r.out.find("FAILED") != std::string::npos);
  CHECK(r.out.find("mismatch") != std::string::npos);
}

TEST_CASE("selftest takes the judges of a configuration") {
  temp_dir dir;
  write_file(dir.file("c.json"), R"({"judge":"stub:different"})");
  auto r = invjudge(dir, "selftest --config c.json");
  CHECK(r.exit_code == 1);
  CHECK(r.out.find("stub:different") != std::string::npos);
  write_file(dir.file("bad.json"), R"({"votes":-1})");
  auto bad = invjudge(dir, "selftest --config bad.json");
  CHECK(bad.exit_code == 3);
  CHECK(bad.err.find("bad.json: /votes: must be >= 1") != std::string::npos);
  CHECK(invjudge(dir, "selftest --config c.json --judge stub:numeric").exit_code
        == 2);
}
