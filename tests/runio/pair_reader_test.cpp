// The pair reader: one line at a time, each a pair or a rejection with its
// line number and reason; oversized lines are skipped without being held.
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

#include <catch2/catch.hpp>

#include "runio/pair_reader.hpp"
#include "tests/error_text.hpp"

using namespace ij;

namespace {

/// Reads every line of `text` through a pair_reader.
std::vector<pair_line> read_all(const std::string& text) {
  std::FILE* f = std::tmpfile();
  REQUIRE(f);
  std::fwrite(text.data(), 1, text.size(), f);
  std::rewind(f);
  pair_reader r{f, "t.jsonl"};
  std::vector<pair_line> out;
  pair_line line;
  while (r.next(line))
    out.push_back(line);
  CHECK_FALSE(r.failed());
  std::fclose(f);
  return out;
}

std::string reason_of(const std::string& line) {
  auto p = parse_pair_line(line);
  CHECK_FALSE(p);
  return ::test::why(p);
}

} // namespace

TEST_CASE("a full pair line is read with every field") {
  auto parsed = parse_pair_line(
    R"({"id":"p1","item":"q","a":"1","b":"one","label":true,"transform":"t","extra":[1]})");
  REQUIRE(parsed);
  auto& p = *parsed;
  CHECK(p.id == "p1");
  CHECK(p.item == "q");
  CHECK(p.a == "1");
  CHECK(p.b == "one");
  REQUIRE(p.label);
  CHECK(*p.label);
  CHECK(p.transform == "t");
  CHECK(p.problem.empty());
}

TEST_CASE("item defaults to the id, label and transform are optional") {
  auto p =
    parse_pair_line(R"({"id":"p1","a":"","b":"x","label":null,"item":null})");
  REQUIRE(p);
  CHECK(p->item == "p1");
  CHECK_FALSE(p->label);
  CHECK(p->a.empty());
  p = parse_pair_line(R"({"id":"p2","a":"1","b":"2","label":false})");
  REQUIRE(p);
  REQUIRE(p->label);
  CHECK_FALSE(*p->label);
}

TEST_CASE("bad lines are rejected with a reason") {
  CHECK(reason_of(R"({"id":"p1","a":"1",)").rfind("malformed JSON at byte ", 0)
        == 0);
  CHECK(reason_of(R"({"id":"p1","a":"1","b":"2"} trailing)")
          .rfind("malformed JSON", 0)
        == 0);
  CHECK(reason_of(R"([1,2])") == "a line must be a JSON object");
  CHECK(reason_of(R"({"a":"1","b":"2"})") == "missing field \"id\"");
  CHECK(reason_of(R"({"id":"p","b":"2"})") == "missing field \"a\"");
  CHECK(reason_of(R"({"id":"p","a":"2"})") == "missing field \"b\"");
  CHECK(reason_of(R"({"id":7,"a":"1","b":"2"})")
        == "field \"id\" must be a string");
  CHECK(reason_of(R"({"id":"p","a":1,"b":"2"})")
        == "field \"a\" must be a string");
  CHECK(reason_of(R"({"id":"p","a":"1","b":"2","item":3})")
        == "field \"item\" must be a string");
  CHECK(reason_of(R"({"id":"p","a":"1","b":"2","label":"yes"})")
        == "field \"label\" must be true, false or null");
  CHECK(reason_of(R"({"id":"","a":"1","b":"2"})")
        == "field \"id\" must not be empty");
  CHECK(reason_of(R"({"id":"p","item":"","a":"1","b":"2"})")
          .rfind("field \"item\" must not be empty", 0)
        == 0);
  CHECK(reason_of("{\"id\":\"p\",\"a\":\"\xC3\x28\",\"b\":\"2\"}")
          .rfind("invalid UTF-8", 0)
        == 0);
}

TEST_CASE("the reader numbers lines, skips blank ones and finds duplicates") {
  auto lines =
    read_all("{\"id\":\"a\",\"a\":\"1\",\"b\":\"1\"}\r\n"
             "\n"
             "   \n"
             "{\"id\":\"b\",\"a\":\"1\",\"b\":\"1\"}\n"
             "{\"id\":\"a\",\"a\":\"2\",\"b\":\"2\"}\n"
             "not json\n"
             "{\"id\":\"c\",\"a\":\"1\",\"b\":\"1\"}"); // no final newline
  REQUIRE(lines.size() == 5);
  CHECK(lines[0].what == pair_line::kind::pair);
  CHECK(lines[0].line == 1);
  CHECK(lines[0].pair.id == "a");
  CHECK(lines[1].line == 4);
  CHECK(lines[1].pair.id == "b");
  CHECK(lines[2].what == pair_line::kind::rejected);
  CHECK(lines[2].line == 5);
  CHECK(lines[2].reason == "duplicate id \"a\"");
  CHECK(lines[3].what == pair_line::kind::rejected);
  CHECK(lines[3].line == 6);
  CHECK(lines[4].what == pair_line::kind::pair);
  CHECK(lines[4].line == 7);
  CHECK(lines[4].pair.id == "c");
}

TEST_CASE("an oversized line is rejected and the next line is read") {
  std::string big = "{\"id\":\"big\",\"a\":\""
                    + std::string(pair_reader::max_line_bytes, 'x')
                    + "\",\"b\":\"1\"}\n";
  auto lines = read_all(big + "{\"id\":\"small\",\"a\":\"1\",\"b\":\"1\"}\n");
  REQUIRE(lines.size() == 2);
  CHECK(lines[0].what == pair_line::kind::rejected);
  CHECK(lines[0].line == 1);
  CHECK(lines[0].reason == "line longer than 1048576 bytes (the limit)");
  CHECK(lines[1].what == pair_line::kind::pair);
  CHECK(lines[1].line == 2);
  CHECK(lines[1].pair.id == "small");
}

TEST_CASE("a line of exactly the limit is accepted") {
  std::string head = "{\"id\":\"edge\",\"b\":\"1\",\"a\":\"";
  std::string tail = "\"}";
  std::string line =
    head
    + std::string(pair_reader::max_line_bytes - head.size() - tail.size(), 'y')
    + tail;
  REQUIRE(line.size() == pair_reader::max_line_bytes);
  auto lines = read_all(line + "\n");
  REQUIRE(lines.size() == 1);
  CHECK(lines[0].what == pair_line::kind::pair);
}

TEST_CASE("a NUL byte, anything after the object, or a duplicate field rejects "
          "the line") {
  using namespace std::string_literals;
  CHECK(
    reason_of(
      "{\"id\":\"a\",\"a\":\"1\",\"b\":\"1\"}\0{\"id\":\"b\",\"a\":\"2\",\"b\":\"2\"}"s)
    == "NUL byte at byte 27: a line holds one JSON object and nothing else");
  CHECK(reason_of("{\"id\":\"a\",\"a\":\"1\",\"b\":\"1\"}\0"s)
          .rfind("NUL byte at byte 27", 0)
        == 0);
  CHECK(reason_of(R"({"id":"a","a":"1","b":"1"} {"id":"b"})")
          .find("The document root must not be followed by other values")
        != std::string::npos);
  CHECK(reason_of(R"({"id":"a","a":"1","b":"1"} x)")
          .rfind("malformed JSON at byte 28", 0)
        == 0);
  CHECK(reason_of(R"({"id":"a","a":"1","b":"1","a":"2"})")
        == "duplicate field \"a\" (each field at most once)");
  CHECK(reason_of(R"({"id":"a","a":"1","b":"1","x":1,"x":2})")
        == "duplicate field \"x\" (each field at most once)");
  // The reader reports the line and goes on with the next.
  auto lines = read_all("{\"id\":\"a\",\"a\":\"1\",\"b\":\"1\"}\0{\"id\":\"b\","
                        "\"a\":\"2\",\"b\":\"2\"}\n"
                        "{\"id\":\"c\",\"a\":\"3\",\"b\":\"3\"}\n"s);
  REQUIRE(lines.size() == 2);
  CHECK(lines[0].what == pair_line::kind::rejected);
  CHECK(lines[0].line == 1);
  CHECK(lines[1].what == pair_line::kind::pair);
  CHECK(lines[1].pair.id == "c");
}

namespace {

/// A stream that yields `data`, then fails with EIO (read(2) failing in the
/// middle of a file), through glibc's fopencookie.
struct failing_source {
  std::string data;
  std::size_t pos = 0;
};

ssize_t read_then_fail(void* cookie, char* buf, std::size_t size) {
  auto* src = static_cast<failing_source*>(cookie);
  if (src->pos == src->data.size()) {
    errno = EIO;
    return -1;
  }
  auto n = std::min(size, src->data.size() - src->pos);
  std::memcpy(buf, src->data.data() + src->pos, n);
  src->pos += n;
  return static_cast<ssize_t>(n);
}

} // namespace

TEST_CASE("a read error is reported once, as the line that could not be read") {
  // Two whole lines, then part of a third when the error comes.
  failing_source src{R"({"id":"p1","a":"1","b":"1"})"
                     "\n"
                     R"({"id":"p2","a":"2","b":"2"})"
                     "\n"
                     R"({"id":"p3","a":)"};
  cookie_io_functions_t io{read_then_fail, nullptr, nullptr, nullptr};
  std::FILE* f = fopencookie(&src, "r", io);
  REQUIRE(f);
  pair_reader r{f, "t.jsonl"};
  std::vector<pair_line> lines;
  pair_line line;
  while (r.next(line))
    lines.push_back(line);
  std::fclose(f);
  REQUIRE(lines.size() == 3);
  CHECK(lines[0].pair.id == "p1");
  CHECK(lines[1].pair.id == "p2");
  CHECK(lines[2].what == pair_line::kind::rejected);
  CHECK(lines[2].line == 3);
  CHECK(lines[2].reason
        == "read error after line 2: Input/output error; the rest of the input "
           "was not read");
  CHECK(r.failed());
  CHECK(::test::why(r.error()) == "Input/output error");
  CHECK_FALSE(r.next(line)); // reported once
}

TEST_CASE("a pair may name its problem (issue 29), a string") {
  auto parsed = parse_pair_line(
    R"({"id":"p1","a":"1","b":"one","problem":"What is 3 - 2?"})");
  REQUIRE(parsed);
  CHECK(parsed->problem == "What is 3 - 2?");
  auto bad = parse_pair_line(R"({"id":"p1","a":"1","b":"one","problem":7})");
  REQUIRE_FALSE(bad);
  CHECK(context_of(bad.error()) == "field \"problem\" must be a string");
}
