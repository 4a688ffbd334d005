// One audit file per run: a file another run holds is refused (exit 3) and
// left alone, and runs started at once without --audit get their own files.
#include <csignal>
#include <memory>
#include <set>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include "cli_support.hpp"

using namespace ij::test;

namespace {

const std::string one_pair = R"({"id":"x","a":"1","b":"1"})"
                             "\n";

/// The name after "invjudge: audit: " on a run's stderr (empty if none yet).
std::string audit_named(const std::string& err) {
  auto pos = err.find("invjudge: audit: ");
  if (pos == std::string::npos)
    return {};
  auto end = err.find('\n', pos);
  return err.substr(pos + 17, end - pos - 17);
}

} // namespace

TEST_CASE(
  "an audit file locked by another run is refused and left alone (exit 3)") {
  temp_dir dir;
  write_file(dir.file("p.jsonl"), one_pair);
  write_file(dir.file("a.jsonl"), "");
  // What a run holds between creating its audit and writing the manifest.
  int held = ::open(dir.file("a.jsonl").c_str(), O_WRONLY | O_CLOEXEC);
  REQUIRE(held >= 0);
  REQUIRE(::flock(held, LOCK_EX | LOCK_NB) == 0);
  auto r = invjudge(dir, "run --pairs p.jsonl --audit a.jsonl");
  ::close(held);
  CHECK(r.exit_code == 3);
  CHECK(r.err.find(
          "the audit file a.jsonl is in use by another run (it is locked): "
          "each run needs its own audit file")
        != std::string::npos);
  CHECK(r.out.empty());
  CHECK(read_file(dir.file("a.jsonl")).empty());
}

TEST_CASE("a second run on the audit of a running one is refused (exit 3)") {
  temp_dir dir;
  silent_server server;
  write_file(dir.file("c.json"), server.config());
  write_file(dir.file("p.jsonl"), one_pair);
  invjudge_process first(
    {"run", "--pairs", "p.jsonl", "--config", "c.json", "--audit", "a.jsonl"},
    dir.file("out1.txt"), dir.file("err1.txt"), -1, dir.path());
  REQUIRE(wait_for_lines(dir.file("a.jsonl"), 1)); // its manifest
  auto second = invjudge(dir, "run --pairs p.jsonl --audit a.jsonl");
  CHECK(second.exit_code == 3);
  CHECK(second.err.find("the audit file a.jsonl is in use by another run")
        != std::string::npos);
  first.signal(SIGINT);
  CHECK(first.wait() == 4);
  // The first run's audit is whole: nothing of the second is in it.
  auto v = invjudge(dir, "audit verify a.jsonl");
  CHECK(v.exit_code == 4);
  CHECK(v.out.rfind("interrupted: ", 0) == 0);
}

TEST_CASE("runs started at once without --audit get their own audit files") {
  temp_dir dir;
  silent_server server;
  write_file(dir.file("c.json"), server.config());
  write_file(dir.file("p.jsonl"), one_pair);
  constexpr int runs = 4;
  std::vector<std::unique_ptr<invjudge_process>> ps;
  for (int i = 0; i < runs; ++i)
    ps.push_back(std::make_unique<invjudge_process>(
      std::vector<std::string>{"run", "--pairs", "p.jsonl", "--config",
                               "c.json"},
      dir.file("out" + std::to_string(i)), dir.file("err" + std::to_string(i)),
      -1, dir.path()));
  std::set<std::string> names;
  for (int i = 0; i < runs; ++i) {
    auto err = dir.file("err" + std::to_string(i));
    // Each names its audit once the manifest is written, then waits on the
    // silent judge.
    REQUIRE(wait_for_text(err, "invjudge: audit: "));
    REQUIRE(wait_for_text(err, "\n"));
    names.insert(audit_named(read_file(err)));
  }
  for (auto& p : ps)
    p->signal(SIGINT);
  for (int i = 0; i < runs; ++i) {
    INFO(read_file(dir.file("err" + std::to_string(i))));
    CHECK(ps[i]->wait() == 4);
  }
  CHECK(names.size() == runs);
  CHECK(files_starting_with(dir, "invjudge-audit-").size() == runs);
  for (auto& name : names) {
    INFO(name);
    auto v = invjudge(dir, "audit verify " + shell_quote(name));
    CHECK(v.exit_code == 4);
    CHECK(v.out.rfind("interrupted: ", 0) == 0);
  }
}
