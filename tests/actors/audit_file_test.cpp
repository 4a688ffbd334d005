// The audit file is created exclusively and locked for the run
// (actors/audit_file.hpp).
#include <cstdlib>
#include <fstream>
#include <string>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include "actors/audit_file.hpp"
#include "tests/error_text.hpp"

using namespace ij;

namespace {

/// A fresh directory, removed with its files at the end.
struct scratch_dir {
  std::string path;
  scratch_dir() {
    char tmpl[] = "/tmp/ij-audit-file-XXXXXX";
    REQUIRE(::mkdtemp(tmpl));
    path = tmpl;
  }
  ~scratch_dir() {
    std::string cmd = "rm -rf '" + path + "'";
    if (std::system(cmd.c_str()) != 0)
      WARN("could not remove " + path);
  }
  std::string file(const std::string& name) const { return path + "/" + name; }
};

void write(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
}

} // namespace

TEST_CASE("an audit file is created, or taken when it exists empty") {
  scratch_dir d;
  auto fd = open_audit_file(d.file("new.jsonl"));
  REQUIRE(fd);
  CHECK(*fd >= 0);
  ::close(*fd);

  write(d.file("empty.jsonl"), "");
  fd = open_audit_file(d.file("empty.jsonl"));
  REQUIRE(fd);
  CHECK(*fd >= 0);
  ::close(*fd);
}

TEST_CASE("an audit file is refused when another holds it, when it has "
          "records, or when it is no file") {
  scratch_dir d;
  SECTION("locked by another run") {
    auto first = open_audit_file(d.file("a.jsonl"));
    REQUIRE(first);
    auto second = open_audit_file(d.file("a.jsonl"));
    CHECK_FALSE(second);
    CHECK(test::why(second)
          == "the audit file " + d.file("a.jsonl")
               + " is in use by another run (it is locked): each run "
                 "needs its own audit file");
    CHECK(second.error() == errc::audit_failed);
    // Released with the descriptor (after run_end, or when a run dies).
    ::close(*first);
    auto again = open_audit_file(d.file("a.jsonl"));
    REQUIRE(again);
    ::close(*again);
  }
  SECTION("records already there") {
    write(d.file("a.jsonl"), "{\"seq\":1}\n");
    auto fd = open_audit_file(d.file("a.jsonl"));
    CHECK_FALSE(fd);
    CHECK(test::why(fd).find("already holds records") != std::string::npos);
  }
  SECTION("a directory") {
    auto fd = open_audit_file(d.path);
    CHECK_FALSE(fd);
    CHECK(test::why(fd).find("cannot create the audit file " + d.path) == 0);
  }
  SECTION("a missing directory") {
    auto fd = open_audit_file(d.file("no/a.jsonl"));
    CHECK_FALSE(fd);
    CHECK(test::why(fd)
          == "cannot create the audit file " + d.file("no/a.jsonl")
               + ": No such file or directory");
  }
}

TEST_CASE(
  "the default audit name is taken exclusively, the next one when it exists") {
  scratch_dir d;
  CHECK(default_audit_stem(0) == "invjudge-audit-19700101T000000Z");
  auto stem = d.file("invjudge-audit-X");
  auto first = create_fresh_audit_file(stem);
  auto second = create_fresh_audit_file(stem);
  auto third = create_fresh_audit_file(stem);
  REQUIRE(first);
  REQUIRE(second);
  REQUIRE(third);
  CHECK(*first == stem + ".jsonl");
  CHECK(*second == stem + "-2.jsonl");
  CHECK(*third == stem + "-3.jsonl");
  struct stat st {};
  REQUIRE(::stat(second->c_str(), &st) == 0);
  CHECK(st.st_size == 0);
  // The created file is then taken by open_audit_file (empty, unlocked).
  auto fd = open_audit_file(*second);
  REQUIRE(fd);
  ::close(*fd);
  auto missing = create_fresh_audit_file(d.file("no/x"));
  CHECK_FALSE(missing);
  CHECK(test::why(missing).find("No such file or directory")
        != std::string::npos);
}
