// The --out file never lands on the input or the audit, and replaces an
// earlier file only with --force (tools/output_file.hpp).
#include <catch2/catch.hpp>

#include <cstdio>

#include <fcntl.h>
#include <unistd.h>

#include "cli_support.hpp"
#include "tests/error_text.hpp"
#include "tools/output_file.hpp"

using namespace ij;
using ij::test::read_file;
using ij::test::temp_dir;
using ij::test::write_file;

namespace {

bool exists(const std::string& path) {
  return ::access(path.c_str(), F_OK) == 0;
}

} // namespace

TEST_CASE("a new output file is created, /dev/null is written as it is") {
  temp_dir d;
  auto f = open_output_file(d.file("v.jsonl"), false, {});
  REQUIRE(f);
  std::fputs("x\n", *f);
  std::fclose(*f);
  CHECK(read_file(d.file("v.jsonl")) == "x\n");
  f = open_output_file("/dev/null", false, {{"the pairs file", "/dev/null", -1}});
  REQUIRE(f);
  std::fclose(*f);
}

TEST_CASE("the output is refused when it is the pairs file or the audit, by any name") {
  temp_dir d;
  write_file(d.file("p.jsonl"), "pairs\n");
  SECTION("the same path") {
    auto f = open_output_file(d.file("p.jsonl"), true,
                              {{"the pairs file", d.file("p.jsonl"), -1}});
    CHECK_FALSE(f);
    CHECK(::test::why(f) == "--out " + d.file("p.jsonl")
                     + " is the pairs file (the same file): writing verdicts there "
                       "would destroy it; choose another path");
  }
  SECTION("another name: a hard link, compared with an open descriptor") {
    REQUIRE(::link(d.file("p.jsonl").c_str(), d.file("q.jsonl").c_str()) == 0);
    int in = ::open(d.file("p.jsonl").c_str(), O_RDONLY);
    REQUIRE(in >= 0);
    auto f = open_output_file(d.file("q.jsonl"), true, {{"the pairs file", "", in}});
    CHECK_FALSE(f);
    ::close(in);
    CHECK(::test::why(f).find("is the pairs file") != std::string::npos);
  }
  SECTION("the audit, which did not exist before the output was created") {
    auto f = open_output_file(d.file("a.jsonl"), false,
                              {{"the audit file", d.file("./a.jsonl"), -1}});
    CHECK_FALSE(f);
    CHECK(::test::why(f).find("is the audit file") != std::string::npos);
    CHECK_FALSE(exists(d.file("a.jsonl"))); // created, then removed again
  }
  // Never truncated on the way.
  CHECK(read_file(d.file("p.jsonl")) == "pairs\n");
}

TEST_CASE("an existing output with content is replaced only with force") {
  temp_dir d;
  write_file(d.file("v.jsonl"), "earlier verdicts\n");
  auto refused = open_output_file(d.file("v.jsonl"), false, {});
  CHECK_FALSE(refused);
  CHECK(::test::why(refused) == "--out " + d.file("v.jsonl")
                   + " exists and is not empty: use --force to replace it, or choose "
                     "another path");
  CHECK(read_file(d.file("v.jsonl")) == "earlier verdicts\n");
  auto f = open_output_file(d.file("v.jsonl"), true, {});
  REQUIRE(f);
  std::fputs("new\n", *f);
  std::fclose(*f);
  CHECK(read_file(d.file("v.jsonl")) == "new\n");
  // An existing empty file needs no force.
  write_file(d.file("e.jsonl"), "");
  f = open_output_file(d.file("e.jsonl"), false, {});
  REQUIRE(f);
  std::fclose(*f);
}

TEST_CASE("an output that cannot be written names the reason") {
  temp_dir d;
  auto f = open_output_file(d.file("no/v.jsonl"), false, {});
  CHECK_FALSE(f);
  CHECK(::test::why(f) == d.file("no/v.jsonl") + ": cannot write: No such file or directory");
}
