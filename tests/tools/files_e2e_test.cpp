// The files of a run: --out never lands on the pairs or the audit file and
// replaces an earlier file only with --force; --strict refuses an input that
// cannot be read twice.
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include "cli_support.hpp"

using namespace ij::test;

namespace {

const std::string two_pairs = R"({"id":"x","a":"1","b":"1"})"
                              "\n"
                              R"({"id":"y","a":"2","b":"3"})"
                              "\n";

} // namespace

TEST_CASE("an output (--out) naming the pairs file is refused and the input "
          "kept (exit 2)") {
  temp_dir dir;
  write_file(dir.file("p.jsonl"), two_pairs);
  REQUIRE(::link(dir.file("p.jsonl").c_str(), dir.file("same.jsonl").c_str())
          == 0);
  for (auto out : {"p.jsonl", "./p.jsonl", "same.jsonl"}) {
    INFO(out);
    auto r = invjudge(
      dir,
      std::string{"run --pairs p.jsonl --audit a.jsonl --force --out "} + out);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find(std::string{"--out "} + out
                     + " is the pairs file p.jsonl (the same file")
          != std::string::npos);
    CHECK(read_file(dir.file("p.jsonl")) == two_pairs);
    CHECK(files_starting_with(dir, "a.jsonl").empty()); // nothing started
  }
  // Standard input is the pairs file too.
  auto r = invjudge(dir, "run --pairs - --audit a.jsonl --force --out p.jsonl",
                    "p.jsonl");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find(
          "--out p.jsonl is the pairs file on standard input (the same file")
        != std::string::npos);
  CHECK(read_file(dir.file("p.jsonl")) == two_pairs);
}

TEST_CASE("an output (--out) naming the audit file is refused (exit 2)") {
  temp_dir dir;
  write_file(dir.file("p.jsonl"), two_pairs);
  auto r = invjudge(dir, "run --pairs p.jsonl --audit a.jsonl --out ./a.jsonl");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("--out ./a.jsonl is the audit file a.jsonl (the same file")
        != std::string::npos);
  CHECK(files_starting_with(dir, "a.jsonl").empty());
  // An earlier audit given as --out is not clobbered either, forced or not.
  write_file(dir.file("old.jsonl"), "{\"seq\":1}\n");
  auto f = invjudge(
    dir, "run --pairs p.jsonl --audit old.jsonl --out old.jsonl --force");
  CHECK(f.exit_code == 2);
  CHECK(read_file(dir.file("old.jsonl")) == "{\"seq\":1}\n");
}

TEST_CASE("an existing --out with content is replaced only with --force") {
  temp_dir dir;
  write_file(dir.file("p.jsonl"), two_pairs);
  write_file(dir.file("v.jsonl"), "earlier verdicts\n");
  auto r = invjudge(dir, "run --pairs p.jsonl --audit a.jsonl --out v.jsonl");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find(
          "--out v.jsonl exists and is not empty: use --force to replace it")
        != std::string::npos);
  CHECK(read_file(dir.file("v.jsonl")) == "earlier verdicts\n");
  CHECK(files_starting_with(dir, "a.jsonl").empty());

  auto forced =
    invjudge(dir, "run --pairs p.jsonl --audit a.jsonl --out v.jsonl --force");
  CHECK(forced.exit_code == 0);
  CHECK(lines_of(read_file(dir.file("v.jsonl"))).size()
        == 4); // 2 pairs, 2 items
  // /dev/null is no file to protect.
  auto null =
    invjudge(dir, "run --pairs p.jsonl --audit b.jsonl --out /dev/null");
  CHECK(null.exit_code == 0);
}

TEST_CASE(
  "run with --strict refuses an input that cannot be read twice (exit 2)") {
  temp_dir dir;
  write_file(dir.file("p.jsonl"), two_pairs);
  SECTION("a pipe named /dev/stdin") {
    auto r = invjudge_piped(dir, "cat p.jsonl",
                            "run --pairs /dev/stdin --strict --audit a.jsonl");
    CHECK(r.exit_code == 2);
    CHECK(
      r.err.find("--strict needs a regular file (it reads the input twice): "
                 "/dev/stdin is "
                 "a pipe, FIFO, terminal or device, which cannot be read twice")
      != std::string::npos);
  }
  SECTION("a FIFO") {
    REQUIRE(::mkfifo(dir.file("fifo").c_str(), 0600) == 0);
    // The writer runs in the background; the run opens the FIFO, then refuses
    // it.
    auto r = invjudge_piped(dir, "(cat p.jsonl > fifo &)",
                            "run --pairs fifo --strict --audit a.jsonl");
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("fifo is a pipe, FIFO, terminal or device")
          != std::string::npos);
  }
  CHECK(files_starting_with(dir, "a.jsonl").empty());
  // Without --strict a pipe is read once, as it should be.
  auto once = invjudge_piped(dir, "cat p.jsonl",
                             "run --pairs /dev/stdin --audit b.jsonl");
  CHECK(once.exit_code == 0);
  CHECK(lines_of(once.out).size() == 4);
}
