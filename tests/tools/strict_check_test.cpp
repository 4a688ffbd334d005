// run --strict's first reading lists every bad line (tools/strict_check.hpp).
#include <cstdio>
#include <string>

#include <catch2/catch.hpp>

#include "cli_support.hpp"
#include "tools/strict_check.hpp"

using namespace ij;

TEST_CASE("the strict check counts the pairs and lists every bad line") {
  std::string text;
  for (int i = 1; i <= 300; ++i)
    text += i % 3 ? R"({"id":"p)" + std::to_string(i)
                      + R"(","a":"1","b":"1"})"
                        "\n"
                  : std::string{"not json\n"};
  std::FILE* in = std::tmpfile();
  std::FILE* report = std::tmpfile();
  REQUIRE(in);
  REQUIRE(report);
  std::fputs(text.c_str(), in);
  std::rewind(in);
  auto r = check_every_line(in, "p.jsonl", report);
  CHECK(r.pairs == 200);
  CHECK(r.bad == 100);
  CHECK_FALSE(r.interrupted);
  std::rewind(report);
  std::string listed;
  char buf[4096];
  while (auto n = std::fread(buf, 1, sizeof buf, report))
    listed.append(buf, n);
  std::fclose(in);
  std::fclose(report);
  auto lines = ij::test::lines_of(listed);
  REQUIRE(lines.size() == 100);
  CHECK(lines.front().rfind("p.jsonl:3: malformed JSON at byte 2", 0) == 0);
  CHECK(lines.back().rfind("p.jsonl:300: malformed JSON", 0) == 0);
}
