// Bad input lines: reported with file and line, recorded in the audit as
// rejected, and the run goes on (exit 0); with --strict the whole file is
// checked first and the run stops before any judge call (exit 2, no audit).
#include <sys/socket.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <rapidjson/document.h>

#include "cli_support.hpp"

using namespace ij::test;

namespace {

struct bad_case {
  const char* name;
  std::string line;
  const char* reason; // the start of the reason reported
};

std::vector<bad_case> bad_cases() {
  return {
    {"malformed JSON", R"({"id":"bad","a":"1","b":)",
     "malformed JSON at byte "},
    {"missing field", R"({"id":"bad","a":"1"})", "missing field \"b\""},
    {"wrong type", R"({"id":"bad","a":"1","b":2})",
     "field \"b\" must be a string"},
    {"duplicate id", R"({"id":"good-1","a":"3","b":"3"})",
     "duplicate id \"good-1\""},
    {"invalid UTF-8", "{\"id\":\"bad\",\"a\":\"\xFF\xFE\",\"b\":\"1\"}",
     "invalid UTF-8"},
    {"NUL byte",
     std::string{R"({"id":"bad","a":"1","b":"1"})"} + '\0'
       + R"({"id":"bad-2","a":"2","b":"2"})",
     "NUL byte at byte 29"},
    {"text after the object",
     R"({"id":"bad","a":"1","b":"1"} {"id":"bad-2","a":"2","b":"2"})",
     "malformed JSON at byte 30: The document root must not be followed by "
     "other values"},
    {"duplicate field", R"({"id":"bad","a":"1","b":"1","a":"2"})",
     "duplicate field \"a\""},
    {"oversized line",
     "{\"id\":\"bad\",\"a\":\"" + std::string((1u << 20) + 10, '9')
       + "\",\"b\":\"1\"}",
     "line longer than 1048576 bytes"},
  };
}

/// good-1, then the bad line (line 2), then good-2.
std::string file_with(const std::string& bad) {
  return std::string{R"({"id":"good-1","a":"1","b":"1"})"} + "\n" + bad + "\n"
         + R"({"id":"good-2","a":"2","b":"two"})" + "\n";
}

struct audit_view {
  std::size_t judge_calls = 0;
  std::size_t verdicts = 0;
  std::vector<std::string> rejected; // the rejected records, raw
};

audit_view read_audit(const std::string& path) {
  audit_view v;
  for (auto& line : lines_of(read_file(path))) {
    rapidjson::Document d;
    d.Parse(line.c_str());
    REQUIRE_FALSE(d.HasParseError());
    std::string type = d["type"].GetString();
    if (type == "judge_call")
      ++v.judge_calls;
    else if (type == "verdict")
      ++v.verdicts;
    else if (type == "rejected")
      v.rejected.push_back(line);
  }
  return v;
}

} // namespace

TEST_CASE("a bad line is reported with file:line, audited as rejected, and the "
          "run goes on") {
  for (auto& c : bad_cases()) {
    SECTION(c.name) {
      temp_dir dir;
      write_file(dir.file("p.jsonl"), file_with(c.line));
      auto r = invjudge(dir, "run --pairs p.jsonl --audit a.jsonl");
      INFO(r.err);
      CHECK(r.exit_code == 0);
      CHECK(r.err.find(std::string{"p.jsonl:2: rejected: "} + c.reason)
            != std::string::npos);
      CHECK(r.err.find("1 input lines rejected") != std::string::npos);
      // Both good pairs were judged.
      CHECK(r.out.find("\"id\":\"good-1\"") != std::string::npos);
      CHECK(r.out.find("\"id\":\"good-2\"") != std::string::npos);
      auto audit = read_audit(dir.file("a.jsonl"));
      CHECK(audit.verdicts == 2);
      REQUIRE(audit.rejected.size() == 1);
      rapidjson::Document d;
      d.Parse(audit.rejected[0].c_str());
      CHECK(d["file"].GetString() == std::string{"p.jsonl"});
      CHECK(d["line"].GetUint64() == 2);
      CHECK(std::string{d["reason"].GetString()}.rfind(c.reason, 0) == 0);
      // The audit still verifies.
      auto v = invjudge(dir, "audit verify a.jsonl");
      CHECK(v.exit_code == 0);
    }
  }
}

TEST_CASE("run with --strict: checks the whole file and judges nothing when a "
          "line is bad") {
  for (auto& c : bad_cases()) {
    SECTION(c.name) {
      temp_dir dir;
      write_file(dir.file("p.jsonl"), file_with(c.line)
                                        + R"({"id":"late","a":"1",})"
                                          "\n");
      auto r = invjudge(dir, "run --pairs p.jsonl --strict --audit a.jsonl");
      CHECK(r.exit_code == 2);
      // Every bad line of the file is listed, not just the first.
      CHECK(r.err.find(std::string{"p.jsonl:2: "} + c.reason)
            != std::string::npos);
      CHECK(r.err.find("p.jsonl:4: malformed JSON") != std::string::npos);
      CHECK(r.err.find("2 bad line(s); nothing was judged (--strict)")
            != std::string::npos);
      CHECK(r.out.empty());
      // No judge was called: there is no audit at all.
      CHECK(read_file(dir.file("a.jsonl")).empty());
      CHECK(files_starting_with(dir, "a.jsonl").empty());
    }
  }
}

TEST_CASE("run with --strict: lists every bad line, beyond the first hundred") {
  temp_dir dir;
  std::string text;
  for (int i = 1; i <= 250; ++i)
    text += i % 2 ? R"({"id":"bad"})"
                    "\n"
                  : R"({"id":"good-)" + std::to_string(i)
                      + R"(","a":"1","b":"1"})"
                        "\n";
  write_file(dir.file("p.jsonl"), text);
  auto r = invjudge(dir, "run --pairs p.jsonl --strict --audit a.jsonl");
  CHECK(r.exit_code == 2);
  std::size_t listed = 0;
  for (auto& line : lines_of(r.err))
    listed += line.find(": missing field \"a\"") != std::string::npos;
  CHECK(listed == 125);
  CHECK(r.err.find("p.jsonl:249: missing field") != std::string::npos);
  CHECK(r.err.find("125 bad line(s); nothing was judged") != std::string::npos);
  CHECK(files_starting_with(dir, "a.jsonl").empty());
}

TEST_CASE("run with --strict: on a good file runs normally") {
  temp_dir dir;
  write_file(dir.file("p.jsonl"), file_with(R"({"id":"mid","a":"5","b":"5"})"));
  auto r = invjudge(dir, "run --pairs p.jsonl --strict --audit a.jsonl");
  CHECK(r.exit_code == 0);
  CHECK(read_audit(dir.file("a.jsonl")).verdicts == 3);
}

TEST_CASE("a missing or unreadable pairs file is bad input (exit 2)") {
  temp_dir dir;
  auto r = invjudge(dir, "run --pairs nope.jsonl --audit a.jsonl");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("nope.jsonl: cannot open") != std::string::npos);
  CHECK(files_starting_with(dir, "a.jsonl").empty());
  auto d = invjudge(dir, "run --pairs . --audit a.jsonl");
  CHECK(d.exit_code == 2);
  CHECK(d.err.find("is a directory") != std::string::npos);
}

TEST_CASE("run with --strict: needs a file, not standard input") {
  temp_dir dir;
  write_file(dir.file("p.jsonl"), file_with(R"({"id":"mid","a":"5","b":"5"})"));
  auto r = invjudge(dir, "run --pairs - --strict", "p.jsonl");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("--strict needs a file") != std::string::npos);
}

TEST_CASE("blank lines and unknown fields are not errors") {
  temp_dir dir;
  write_file(dir.file("p.jsonl"),
             "\n"
             R"({"id":"x","a":"1","b":"1","source":"mine","n":[1,2]})"
             "\n\n   \n");
  auto r = invjudge(dir, "run --pairs p.jsonl --strict --audit a.jsonl");
  CHECK(r.exit_code == 0);
  CHECK(r.err.find(": rejected:") == std::string::npos);
  CHECK(r.err.find("0 input lines rejected") != std::string::npos);
}

TEST_CASE("a read error in the middle of the input is audited, reported as "
          "such, exit 2") {
  temp_dir dir;
  // Standard input is a Unix stream socket: the run reads the pairs queued
  // on it, then, because its peer was closed with data of its own unread,
  // read(2) fails with ECONNRESET (Linux: queued data first, then the error;
  // no timing involved).
  int sv[2];
  REQUIRE(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == 0);
  std::string pairs = R"({"id":"p1","a":"1","b":"1"})"
                      "\n"
                      R"({"id":"p2","a":"2","b":"3"})"
                      "\n";
  REQUIRE(::write(sv[0], pairs.data(), pairs.size())
          == static_cast<ssize_t>(pairs.size()));
  REQUIRE(::write(sv[1], "x", 1)
          == 1); // left unread on sv[0]: closing it resets
  int code = -1;
  {
    invjudge_process p(
      {"run", "--pairs", "-", "--audit", "a.jsonl", "--out", "v.jsonl"},
      dir.file("out.txt"), dir.file("err.txt"), sv[1], dir.path());
    ::close(sv[1]);
    ::close(sv[0]);
    code = p.wait();
  }
  auto err = read_file(dir.file("err.txt"));
  INFO(err);
  CHECK(code == 2);
  CHECK(
    err.find(
      "<stdin>:3: rejected: read error after line 2: Connection reset by peer; "
      "the rest of the input was not read")
    != std::string::npos);
  CHECK(
    err.find(
      "invjudge: <stdin>: read error after line 2: Connection reset by peer")
    != std::string::npos);
  CHECK(err.find("INTERRUPTED") == std::string::npos);
  // The pairs read before it were judged; the error is in the audit.
  CHECK(lines_of(read_file(dir.file("v.jsonl"))).size()
        == 4); // 2 pairs, 2 items
  auto audit = read_audit(dir.file("a.jsonl"));
  CHECK(audit.verdicts == 2);
  REQUIRE(audit.rejected.size() == 1);
  CHECK(audit.rejected[0].find(
          "\"line\":3,\"reason\":\"read error after line 2: Connection "
          "reset by peer")
        != std::string::npos);
  CHECK(invjudge(dir, "audit verify a.jsonl").exit_code == 0);
}
