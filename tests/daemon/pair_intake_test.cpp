// A rejected line is stored as a record that reads back as that rejection
// (its number and reason), whatever bytes the line held, with a bounded
// prefix; a pair line reads back as the pair.
#include <catch2/catch.hpp>
#include <rapidjson/document.h>

#include "daemon/pair_intake.hpp"
#include "tests/error_text.hpp"

using namespace ij;

TEST_CASE("pair intake: a rejection record is valid JSON, bounded, and reads "
          "back as the rejection") {
  std::string bytes = "{\"id\":\"x\",\"a\":\"\xff\xfe\x01\t\xe2\x82";
  bytes += std::string(5000, 'z');
  auto record =
    pair_intake::rejection_record(7, "invalid UTF-8 (byte 15)", bytes);
  CHECK(record.size() < 600);
  rapidjson::Document d;
  d.Parse<rapidjson::kParseValidateEncodingFlag>(record.c_str());
  REQUIRE(d.IsObject());
  REQUIRE(d["rejected"]["prefix"].IsString());
  std::string prefix = d["rejected"]["prefix"].GetString();
  CHECK(prefix.size() <= pair_intake::prefix_bytes);
  CHECK(prefix.rfind("{\"id\":\"x\",\"a\":\"???", 0) == 0);

  pair_intake stored;
  answer_pair p;
  rejected_line r;
  CHECK(stored.take_stored("", p, r) == pair_intake::kind::blank);
  CHECK(stored.take_stored(record, p, r) == pair_intake::kind::rejected);
  CHECK(r.line == 7);
  CHECK(r.reason == "invalid UTF-8 (byte 15)");
  CHECK(stored.lines() == 2);
  CHECK(stored.take_stored(R"({"id":"p1","a":"1","b":"1"})", p, r)
        == pair_intake::kind::pair);
  CHECK(p.id == "p1");
  // A pair line that merely has a "rejected" field is a pair line.
  CHECK(
    stored.take_stored(
      R"({"rejected":{"line":1,"reason":"x"},"id":"p2","a":"1","b":"1"})", p, r)
    != pair_intake::kind::rejected);
}

TEST_CASE("pair intake: uploaded lines are numbered, duplicates and long lines "
          "rejected") {
  pair_intake intake{10};
  auto pair = intake.take(R"({"id":"a","a":"1","b":"1"})");
  REQUIRE(pair);
  CHECK((*pair && (*pair)->id == "a"));
  auto blank = intake.take("  ");
  REQUIRE(blank);
  CHECK_FALSE(*blank);
  auto dup = intake.take(R"({"id":"a","a":"2","b":"2"})");
  CHECK_FALSE(dup);
  CHECK(test::why(dup) == "duplicate id \"a\"");
  auto err = intake.take_oversized();
  CHECK(err);
  CHECK(test::why(err).find("line longer than") == 0);
  CHECK(intake.lines() == 14);
}
