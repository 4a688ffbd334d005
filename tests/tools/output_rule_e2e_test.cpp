// The one rule for every file a command writes (issue 27, tools/output_file)
// through the built binary: for run, calibrate, report, submit and
// gen-pairs, an output naming an input of the same command — the same path,
// a symbolic link to it or a hard link to it — is refused with exit 2 naming
// both, and the input is left as it was; an existing file with content is
// replaced only with --force.
#include <cstdlib>

#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include "tests/tools/cli_support.hpp"

using namespace ij::test;

namespace {

// A small labelled run: pairs p.jsonl, its audit a.jsonl.
void make_run(const temp_dir& dir) {
  write_file(dir.file("p.jsonl"),
             "{\"id\":\"x1\",\"a\":\"1\",\"b\":\"1\",\"label\":true}\n"
             "{\"id\":\"x2\",\"a\":\"1\",\"b\":\"2\",\"label\":false}\n");
  auto r = invjudge(
    dir, "run --no-progress --pairs p.jsonl --audit a.jsonl --out /dev/null");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
}

// The three ways to name `target` again: itself, a symlink, a hard link.
std::vector<std::string> other_names(const temp_dir& dir,
                                     const std::string& target) {
  REQUIRE(::symlink(target.c_str(), dir.file("sym-" + target).c_str()) == 0);
  REQUIRE(::link(dir.file(target).c_str(), dir.file("hard-" + target).c_str())
          == 0);
  return {target, "sym-" + target, "hard-" + target};
}

// `command` with OUT replaced by `name`, run in `dir`: refused (exit 2),
// its stderr.
std::string refused_with(const temp_dir& dir, const std::string& command,
                         const std::string& name) {
  auto args = command;
  args.replace(args.find("OUT"), 3, name);
  INFO(args);
  auto r = invjudge(dir, args);
  INFO(r.err);
  CHECK(r.exit_code == 2);
  return r.err;
}

// `command` with OUT replaced by each name of `input` is refused, naming
// the output as given and the input as given, and the input is untouched.
void expect_refused_for_each_name(const temp_dir& dir,
                                  const std::string& command,
                                  const std::string& input,
                                  const std::string& role) {
  auto before = read_file(dir.file(input));
  REQUIRE_FALSE(before.empty());
  for (auto& name : other_names(dir, input)) {
    auto err = refused_with(dir, command, name);
    INFO(err);
    CHECK(err.find(" " + name + " is " + role + " " + input + " (the same file")
          != std::string::npos);
    CHECK(read_file(dir.file(input)) == before);
  }
}

} // namespace

TEST_CASE(
  "output rule: run --out naming the pairs file by any name is refused, "
  "naming both") {
  temp_dir dir;
  make_run(dir);
  expect_refused_for_each_name(
    dir,
    "run --no-progress --pairs p.jsonl --audit b.jsonl "
    "--force --out OUT",
    "p.jsonl", "the pairs file");
}

TEST_CASE(
  "output rule: run's --audit naming the pairs file or the configuration "
  "is refused (exit 2), naming both") {
  temp_dir dir;
  make_run(dir);
  write_file(dir.file("c.json"), "{\"judge\":\"stub:numeric\"}");
  expect_refused_for_each_name(dir,
                               "run --no-progress --pairs p.jsonl --audit OUT",
                               "p.jsonl", "the pairs file");
  expect_refused_for_each_name(
    dir,
    "run --no-progress --pairs p.jsonl --config c.json "
    "--audit OUT",
    "c.json", "the configuration");
}

TEST_CASE("output rule: calibrate --out naming an audit it reads is refused, "
          "naming both") {
  temp_dir dir;
  make_run(dir);
  expect_refused_for_each_name(dir, "calibrate a.jsonl --out OUT --force",
                               "a.jsonl", "the audit");
}

TEST_CASE(
  "output rule: report --html naming its audit is refused, naming both") {
  temp_dir dir;
  make_run(dir);
  expect_refused_for_each_name(dir, "report a.jsonl --html OUT --force",
                               "a.jsonl", "the audit");
}

TEST_CASE(
  "output rule: submit --out naming its pairs or configuration is refused "
  "before any request, naming both") {
  temp_dir dir;
  make_run(dir);
  write_file(dir.file("c.json"), "{\"judge\":\"stub:numeric\"}");
  // Nothing listens on port 1: a request would fail otherwise (exit 4).
  expect_refused_for_each_name(
    dir,
    "submit --server http://127.0.0.1:1 --pairs p.jsonl "
    "--follow --force --out OUT",
    "p.jsonl", "the pairs file");
  expect_refused_for_each_name(
    dir,
    "submit --server http://127.0.0.1:1 --pairs p.jsonl "
    "--config c.json --follow --force --out OUT",
    "c.json", "the configuration");
}

TEST_CASE(
  "output rule: submit --out without --follow is refused, not ignored") {
  temp_dir dir;
  make_run(dir);
  auto r = invjudge(
    dir, "submit --server http://127.0.0.1:1 --pairs p.jsonl --out v.jsonl");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("--out needs --follow") != std::string::npos);
  CHECK(::access(dir.file("v.jsonl").c_str(), F_OK) != 0);
}

TEST_CASE(
  "output rule: an existing file with content is replaced only with --force, "
  "by every command, by any of its names") {
  temp_dir dir;
  make_run(dir);
  write_file(dir.file("old.txt"), "keep me\n");
  auto names = other_names(dir, "old.txt");
  for (auto& command :
       {std::string{"calibrate a.jsonl --out OUT --min-pairs 2"},
        std::string{"report a.jsonl --html OUT"},
        std::string{"gen-pairs 3 --out OUT"},
        std::string{
          "run --no-progress --pairs p.jsonl --audit z.jsonl --out OUT"},
        std::string{"submit --server http://127.0.0.1:1 --pairs p.jsonl "
                    "--follow --out OUT"}})
    for (auto& name : names) {
      auto err = refused_with(dir, command, name);
      INFO(err);
      CHECK(
        err.find(name + " exists and is not empty: use --force to replace it")
        != std::string::npos);
      CHECK(read_file(dir.file("old.txt")) == "keep me\n");
    }
  // With --force the file is replaced (through the link, the target).
  auto forced = invjudge(dir, "report a.jsonl --html sym-old.txt --force");
  INFO(forced.err);
  CHECK(forced.exit_code == 0);
  CHECK(read_file(dir.file("old.txt")).rfind("<!DOCTYPE html>", 0) == 0);
  auto pairs = invjudge(dir, "gen-pairs 3 --out fresh.jsonl");
  CHECK(pairs.exit_code == 0);
  CHECK(lines_of(read_file(dir.file("fresh.jsonl"))).size() == 3);
}

TEST_CASE(
  "output rule: a refused or failed command leaves no file it created") {
  temp_dir dir;
  make_run(dir);
  // The audit does not exist: the report fails after claiming its page.
  auto r = invjudge(dir, "report missing.jsonl --html r.html");
  CHECK(r.exit_code == 2);
  CHECK(::access(dir.file("r.html").c_str(), F_OK) != 0);
  // Too few labelled pairs: no map, and no empty file where it would be.
  auto c = invjudge(dir, "calibrate a.jsonl --out m.json");
  CHECK(c.exit_code == 2);
  CHECK(::access(dir.file("m.json").c_str(), F_OK) != 0);
}

TEST_CASE(
  "output rule: standard output appended to the pairs file is refused") {
  temp_dir dir;
  make_run(dir);
  auto before = read_file(dir.file("p.jsonl"));
  std::string cmd =
    "cd " + shell_quote(dir.path()) + " && " + shell_quote(invjudge_path())
    + " run --no-progress --pairs p.jsonl --audit c.jsonl 2>err.txt"
      " >> p.jsonl </dev/null";
  int status = std::system(cmd.c_str());
  REQUIRE(WIFEXITED(status));
  INFO(read_file(dir.file("err.txt")));
  CHECK(WEXITSTATUS(status) == 2);
  CHECK(read_file(dir.file("err.txt"))
          .find("standard output is the pairs file p.jsonl")
        != std::string::npos);
  CHECK(read_file(dir.file("p.jsonl")) == before);
}
