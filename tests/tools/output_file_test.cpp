// The one output rule (tools/output_file.hpp): an output is never an input
// of its command by any name, replaces an existing file with content only
// with force, is truncated only when written, and a file it created goes
// again when the command fails before writing it.
#include <cstdio>

#include <fcntl.h>
#include <unistd.h>

#include <catch2/catch.hpp>

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
  {
    auto f = claim_output("--out", d.file("v.jsonl"), false, {});
    REQUIRE(f);
    auto* s = f->stream();
    REQUIRE(s);
    std::fputs("x\n", s);
  }
  CHECK(read_file(d.file("v.jsonl")) == "x\n");
  auto null = claim_output("--out", "/dev/null", false,
                           {{"the pairs file", "/dev/null"}});
  REQUIRE(null);
  CHECK_FALSE(null->write_whole("gone\n"));
}

TEST_CASE(
  "the output is refused when it is an input, by any name, naming both") {
  temp_dir d;
  write_file(d.file("p.jsonl"), "pairs\n");
  SECTION("the same path") {
    auto f = claim_output("--out", d.file("p.jsonl"), true,
                          {{"the pairs file", d.file("p.jsonl")}});
    CHECK_FALSE(f);
    CHECK(::test::why(f)
          == "--out " + d.file("p.jsonl") + " is the pairs file "
               + d.file("p.jsonl")
               + " (the same file, by device and inode: the same path, "
                 "another spelling or a link to it): writing there would "
                 "destroy an input of this command; choose another path");
  }
  SECTION("a symbolic link") {
    REQUIRE(::symlink(d.file("p.jsonl").c_str(), d.file("s.jsonl").c_str())
            == 0);
    auto g = claim_output("--html", d.file("s.jsonl"), true,
                          {{"the audit", d.file("p.jsonl")}});
    CHECK_FALSE(g);
    CHECK(::test::why(g).find("--html " + d.file("s.jsonl") + " is the audit "
                              + d.file("p.jsonl"))
          == 0);
  }
  SECTION("a hard link, compared with an open descriptor") {
    REQUIRE(::link(d.file("p.jsonl").c_str(), d.file("q.jsonl").c_str()) == 0);
    int in = ::open(d.file("p.jsonl").c_str(), O_RDONLY);
    REQUIRE(in >= 0);
    auto f = claim_output("--out", d.file("q.jsonl"), true,
                          {{"the pairs file", "", in}});
    CHECK_FALSE(f);
    ::close(in);
    CHECK(::test::why(f).find("is the pairs file (the same file")
          != std::string::npos);
  }
  SECTION("the audit, which did not exist before the output was created") {
    auto f = claim_output("--out", d.file("a.jsonl"), false,
                          {{"the audit file", d.file("./a.jsonl")}});
    CHECK_FALSE(f);
    CHECK(::test::why(f).find("is the audit file") != std::string::npos);
    CHECK_FALSE(exists(d.file("a.jsonl"))); // created, then removed again
  }
  // Never truncated on the way.
  CHECK(read_file(d.file("p.jsonl")) == "pairs\n");
}

TEST_CASE(
  "an existing output with content is replaced only with force, and only when "
  "written") {
  temp_dir d;
  write_file(d.file("v.jsonl"), "earlier verdicts\n");
  auto refused = claim_output("--out", d.file("v.jsonl"), false, {});
  CHECK_FALSE(refused);
  CHECK(::test::why(refused)
        == "--out " + d.file("v.jsonl")
             + " exists and is not empty: use --force to replace it, "
               "or choose another path");
  CHECK(read_file(d.file("v.jsonl")) == "earlier verdicts\n");
  {
    // Claimed with force, never written (the command failed): kept as it was.
    auto f = claim_output("--out", d.file("v.jsonl"), true, {});
    REQUIRE(f);
  }
  CHECK(read_file(d.file("v.jsonl")) == "earlier verdicts\n");
  {
    auto f = claim_output("--out", d.file("v.jsonl"), true, {});
    REQUIRE(f);
    CHECK_FALSE(f->write_whole("new\n"));
  }
  CHECK(read_file(d.file("v.jsonl")) == "new\n");
  // An existing empty file needs no force.
  write_file(d.file("e.jsonl"), "");
  CHECK(claim_output("--out", d.file("e.jsonl"), false, {}));
}

TEST_CASE("a file a failed command created goes again") {
  temp_dir d;
  {
    auto f = claim_output("--out", d.file("m.json"), false, {});
    REQUIRE(f);
    CHECK(exists(d.file("m.json")));
  }
  CHECK_FALSE(exists(d.file("m.json")));
}

TEST_CASE("standard output and other outputs are held to the same-file rule") {
  temp_dir d;
  write_file(d.file("p.jsonl"), "pairs\n");
  CHECK_FALSE(refuse_input_as_output("--audit", d.file("new.jsonl"),
                                     {{"the pairs file", d.file("p.jsonl")}}));
  auto err = refuse_input_as_output("--audit", d.file("./p.jsonl"),
                                    {{"the pairs file", d.file("p.jsonl")}});
  CHECK(::test::why(err).find("--audit " + d.file("./p.jsonl")
                              + " is the pairs file")
        == 0);
}

TEST_CASE("an output that cannot be written names the reason") {
  temp_dir d;
  auto f = claim_output("--out", d.file("no/v.jsonl"), false, {});
  CHECK_FALSE(f);
  CHECK(::test::why(f)
        == "--out " + d.file("no/v.jsonl")
             + ": cannot write: No such file or directory");
}
